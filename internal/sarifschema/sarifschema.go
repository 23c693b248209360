// Package sarifschema holds the official OASIS SARIF 2.1.0 JSON schema
// (README.md beside this file says where it comes from and under which
// licence) for the tests that check judge's SARIF output against it. Only
// tests import it.
package sarifschema

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed sarif-schema-2.1.0.json
var schemaJSON []byte

// Compile compiles the schema, asserting formats (uri, uri-reference,
// date-time) as well. Nothing is fetched: its draft-07 meta-schema is
// built into the validator, and the schema is added under its own $id.
func Compile() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, fmt.Errorf("sarifschema: %w", err)
	}
	id, _ := doc.(map[string]any)["$id"].(string)
	if id == "" {
		return nil, errors.New("sarifschema: the schema has no $id")
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(id, doc); err != nil {
		return nil, fmt.Errorf("sarifschema: %w", err)
	}
	sch, err := c.Compile(id)
	if err != nil {
		return nil, fmt.Errorf("sarifschema: %w", err)
	}
	return sch, nil
}
