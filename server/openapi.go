package server

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentjudge/judge/result"
)

// openapiJSON is the OpenAPI document as written; New completes it.
//
//go:embed openapi.json
var openapiJSON []byte

// buildOpenAPI completes the embedded OpenAPI document for a server: the
// ValidationResult schema from the specification, the version, and no
// security requirement when the server has no token.
//
// The specification's schema is draft-07 with its ValidationIssue under
// "definitions" and referenced as "#/definitions/ValidationIssue", which in
// an OpenAPI document would resolve against the document's root. So its
// definitions become schemas of their own under components/schemas, every
// "#/definitions/X" becomes "#/components/schemas/X", and "$schema" goes
// (the document's jsonSchemaDialect holds for every schema).
func buildOpenAPI(opts Options) []byte {
	doc, err := decodeObject(openapiJSON)
	if err != nil {
		panic(fmt.Sprintf("server: embedded openapi.json: %v", err))
	}
	spec, err := decodeObject(result.SchemaJSON())
	if err != nil {
		panic(fmt.Sprintf("server: result.SchemaJSON(): %v", err))
	}
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	defs, _ := spec["definitions"].(map[string]any)
	delete(spec, "definitions")
	delete(spec, "$schema")
	for name, def := range defs {
		if _, taken := schemas[name]; taken {
			panic(fmt.Sprintf("server: openapi.json already has a schema %q", name))
		}
		schemas[name] = moveRefs(def)
	}
	schemas["ValidationResult"] = moveRefs(spec)
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

// moveRefs rewrites, in place, every "$ref": "#/definitions/X" under v to
// "#/components/schemas/X", and returns v.
func moveRefs(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "$ref" && strings.HasPrefix(s, "#/definitions/") {
				v[k] = "#/components/schemas/" + strings.TrimPrefix(s, "#/definitions/")
				continue
			}
			moveRefs(x)
		}
	case []any:
		for _, x := range v {
			moveRefs(x)
		}
	}
	return v
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
