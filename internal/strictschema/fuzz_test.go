package strictschema_test

import (
	"errors"
	"testing"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/strictschema"
)

// FuzzStrict checks that any JSON input either fails with a *SchemaError or
// gives a schema in which every object schema requires exactly its
// properties and allows no others.
func FuzzStrict(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`,
		`{"properties":{"x":{"oneOf":[{"type":"object","properties":{"y":{}}},true]}}}`,
		`{"type":"object","$defs":{"d":{"properties":{"z":{"enum":[1]}}}},"properties":{"r":{"$ref":"#/$defs/d"}}}`,
		`{"type":"object","properties":{"l":{"type":"array","items":[{"type":"object"}]}},"allOf":[{"not":{}}]}`,
		`{"type":["object","null"],"properties":{}}`,
		`[]`, `{"type":"object","properties":{"a":5}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := jsonvalue.Decode(data, 0)
		if err != nil {
			return
		}
		out, _, err := strictschema.Strict(v)
		if err != nil {
			var se *strictschema.SchemaError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SchemaError", err)
			}
			return
		}
		checkStrict(t, out)
	})
}

// checkStrict walks every schema of out that strict mode reads.
func checkStrict(t *testing.T, s any) {
	m, ok := s.(map[string]any)
	if !ok {
		t.Fatalf("a schema is %T", s)
	}
	if props, ok := m["properties"].(map[string]any); ok {
		if m["additionalProperties"] != false {
			t.Fatalf("an object allows other properties: %v", m)
		}
		req, _ := m["required"].([]any)
		if len(req) != len(props) {
			t.Fatalf("required %v is not every property of %v", req, m)
		}
		for _, n := range req {
			if _, ok := props[n.(string)]; !ok {
				t.Fatalf("required %v names no property", n)
			}
		}
		for _, p := range props {
			checkStrict(t, p)
		}
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if l, ok := m[k].([]any); ok {
			if k != "anyOf" {
				t.Fatalf("%s is left in %v", k, m)
			}
			for _, sub := range l {
				checkStrict(t, sub)
			}
		}
	}
	if it, ok := m["items"]; ok {
		checkStrict(t, it)
	}
	for _, k := range []string{"minLength", "uniqueItems", "not", "if", "patternProperties"} {
		if _, ok := m[k]; ok {
			t.Fatalf("unsupported %s is left in %v", k, m)
		}
	}
}
