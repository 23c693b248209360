package llm

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/strictschema"
)

// Schema is the shape of one check's answer: the strict response_format
// sent with every call, and the same schema compiled to validate the
// answer. It is immutable and safe for concurrent use.
type Schema struct {
	format   *strictschema.ResponseFormat
	compiled *jsonschema.Schema
	// digest identifies the strict schema, for the cache key.
	digest [sha256.Size]byte
}

// NewSchema makes the response format called name from the JSON Schema doc
// through [strictschema.NewResponseFormat]. A schema that loses anything on
// the way is refused: what the model is held to must be exactly what the
// answer is checked against.
func NewSchema(name string, doc []byte) (*Schema, error) {
	v, err := jsonvalue.Decode(doc, 0)
	if err != nil {
		return nil, fmt.Errorf("llm: schema %s: %w", name, err)
	}
	rf, losses, err := strictschema.NewResponseFormat(name, v)
	if err != nil {
		return nil, fmt.Errorf("llm: schema %s: %w", name, err)
	}
	if len(losses) > 0 {
		return nil, fmt.Errorf("llm: schema %s is not strict as written: %s", name, losses[0])
	}
	b, err := json.Marshal(rf.JSONSchema.Schema)
	if err != nil {
		return nil, fmt.Errorf("llm: schema %s: %w", name, err)
	}
	// The schema is sent with numbers as float64: openai-go encodes a
	// json.Number as a string, which would turn "maximum": 1 into "1".
	var plain any
	if err := json.Unmarshal(b, &plain); err != nil {
		return nil, fmt.Errorf("llm: schema %s: %w", name, err)
	}
	rf.JSONSchema.Schema = plain
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "urn:judge:llm:" + name
	if err := c.AddResource(url, rf.JSONSchema.Schema); err != nil {
		return nil, fmt.Errorf("llm: schema %s: %w", name, err)
	}
	compiled, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("llm: schema %s: %w", name, err)
	}
	return &Schema{format: rf, compiled: compiled, digest: sha256.Sum256(b)}, nil
}

// MustSchema is NewSchema for the schemas embedded in the package; it
// panics on an error.
func MustSchema(name string, doc []byte) *Schema {
	s, err := NewSchema(name, doc)
	if err != nil {
		panic(err)
	}
	return s
}

// Name returns the response format's name.
func (s *Schema) Name() string { return s.format.JSONSchema.Name }

// ResponseFormat returns the response_format object sent with every call.
func (s *Schema) ResponseFormat() *strictschema.ResponseFormat { return s.format }

// decode parses an answer and validates it against s.
func (s *Schema) decode(content string) (any, error) {
	v, err := jsonvalue.Decode([]byte(content), 0)
	if err != nil {
		return nil, fmt.Errorf("the answer is not JSON: %w", err)
	}
	if err := s.compiled.Validate(v); err != nil {
		return nil, fmt.Errorf("the answer does not match the schema %s: %w", s.Name(), err)
	}
	return v, nil
}
