package server

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/agentjudge/judge/result"
)

// openapiJSON is the OpenAPI document as written; New completes it.
//
//go:embed openapi.json
var openapiJSON []byte

// ResultSchemaID is the $id given to the ValidationResult schema inside the
// OpenAPI document, so that its "#/definitions/…" references resolve
// within it.
const ResultSchemaID = "https://agentjudge.dev/schemas/validation-result.json"

// buildOpenAPI completes the embedded OpenAPI document for a server: the
// ValidationResult schema from the specification, the version, and no
// security requirement when the server has no token.
func buildOpenAPI(opts Options) []byte {
	doc, err := decodeObject(openapiJSON)
	if err != nil {
		panic(fmt.Sprintf("server: embedded openapi.json: %v", err))
	}
	spec, err := decodeObject(result.SchemaJSON)
	if err != nil {
		panic(fmt.Sprintf("server: result.SchemaJSON: %v", err))
	}
	spec["$id"] = ResultSchemaID
	doc["components"].(map[string]any)["schemas"].(map[string]any)["ValidationResult"] = spec
	doc["info"].(map[string]any)["version"] = opts.Version
	if opts.Token == "" {
		delete(doc, "security")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		panic(fmt.Sprintf("server: openapi document: %v", err))
	}
	return buf.Bytes()
}

func decodeObject(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}
