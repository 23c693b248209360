package schema_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/result"
)

// FuzzSchemaLayer feeds arbitrary schemas and outputs to the layer: it must
// never panic, return only an InputError when it fails, and report only
// well-formed issues.
func FuzzSchemaLayer(f *testing.F) {
	seeds := [][2]string{
		{`{"type": "object", "required": ["a"], "properties": {"a": {"type": "integer", "maximum": 5}}}`, `{"a": 7}`},
		{`{"anyOf": [{"type": "string"}, {"type": "object", "required": ["x"]}]}`, `{}`},
		{`{"oneOf": [{"const": 1}, {"minimum": 0}]}`, `1`},
		{`{"$ref": "#"}`, `1`},
		{`{"definitions": {"a": {"$ref": "#/definitions/a"}}, "not": {"$ref": "#/definitions/a"}}`, `1`},
		{`{"pattern": "(["}`, `"x"`},
		{`{"patternProperties": {"^x-": false}, "additionalProperties": false}`, `{"x-a": 1, "b": 2}`},
		{`{"$schema": "https://json-schema.org/draft/2020-12/schema", "prefixItems": [true], "unevaluatedItems": false}`, `[1, 2]`},
		{`{"$schema": "http://json-schema.org/draft-04/schema#", "maximum": 5, "exclusiveMaximum": true}`, `5`},
		{`{"$ref": "http://example.com/x.json"}`, `null`},
		{`{"format": "date-time", "minLength": 30}`, `"2024-01-01"`},
		{`{"propertyNames": {"maxLength": 2}, "minProperties": 3}`, `{"abc": 1}`},
		{`{"items": {"uniqueItems": true, "contains": {"type": "null"}}}`, `[[1, 1]]`},
		{`{"dependencies": {"a": ["b"], "c": {"required": ["d"]}}}`, `{"a": 1, "c": 2}`},
		{`{"$id": "urn:x", "$defs": {"a": {"$anchor": "a"}}, "$ref": "#a", "$schema": "https://json-schema.org/draft/2020-12/schema"}`, `1`},
		{`false`, `{}`},
		{`{"if": {"type": "string"}, "then": {"minLength": 3}, "else": {"type": "null"}}`, `"ab"`},
	}
	for _, s := range seeds {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	cache := layer.NewCache(64)
	f.Fuzz(func(t *testing.T, schemaJSON, outputJSON []byte) {
		sch, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
		if err != nil {
			return
		}
		out, err := jsonschema.UnmarshalJSON(bytes.NewReader(outputJSON))
		if err != nil {
			return
		}
		p := layer.NewPass(schema.Layer, &layer.Input{ExpectedSchema: sch, Output: out}, cache)
		err = schema.Layer.Run(context.Background(), p)
		var ie *layer.InputError
		if err != nil && !errors.As(err, &ie) {
			t.Fatalf("Run returned %v, want nil or an InputError", err)
		}
		if ie != nil && (ie.Layer != "schema" || ie.Location == "" || ie.Msg == "") {
			t.Fatalf("malformed InputError %#v", ie)
		}
		f := p.Findings()
		if err == nil && f.Checks != 1 {
			t.Fatalf("%d checks, want 1", f.Checks)
		}
		for _, is := range f.Issues {
			want := result.Error
			if is.Rule == "schema.truncated" {
				want = result.Info
			}
			if _, ok := result.Lookup(is.Type); !ok || is.Message == "" || is.Location == "" || is.Severity != want {
				t.Fatalf("malformed issue %+v", is)
			}
		}
	})
}
