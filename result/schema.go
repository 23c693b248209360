package result

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed validation-result.schema.json
var schemaJSON []byte

// SchemaJSON returns the JSON Schema of the ValidationResult, exactly as
// the specification gives it: a new copy on each call, so that no caller
// can change what the package checks against.
func SchemaJSON() []byte { return bytes.Clone(schemaJSON) }

// resultSchema is compiled once at init and immutable afterwards.
var resultSchema = mustCompileResultSchema()

func mustCompileResultSchema() *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		panic(err)
	}
	c := jsonschema.NewCompiler()
	const url = "https://agentjudge.dev/schemas/validation-result.json"
	if err := c.AddResource(url, doc); err != nil {
		panic(err)
	}
	return c.MustCompile(url)
}

// Check validates r, as serialized to JSON, against the embedded schema.
func Check(r *ValidationResult) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("result: marshal: %w", err)
	}
	return CheckJSON(b)
}

// CheckJSON validates a serialized ValidationResult against the embedded
// schema. It returns nil when the document conforms.
func CheckJSON(data []byte) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("result: not JSON: %w", err)
	}
	if err := resultSchema.Validate(doc); err != nil {
		return fmt.Errorf("result: does not match the ValidationResult schema: %w", err)
	}
	return nil
}
