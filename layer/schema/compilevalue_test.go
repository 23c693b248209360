package schema_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/layer/schema"
)

// TestCompileValue checks that a schema compiled from its decoded value
// validates as the same schema compiled from its bytes: the same issues,
// in the same order, for valid and invalid documents, with references into
// local schemas.
func TestCompileValue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, schema string
		local        map[string]string
		docs         []string
	}{
		{"object", `{"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}, "s": {"type": "string", "maxLength": 3}}, "required": ["n"]}`, nil,
			[]string{`{"n": 2}`, `{"n": 0, "s": "toolong"}`, `{}`, `[1]`}},
		{"refs", `{"$defs": {"id": {"type": "string", "pattern": "^[a-z]+$"}}, "type": "array", "items": {"$ref": "#/$defs/id"}}`, nil,
			[]string{`["ab"]`, `["AB", 3]`}},
		{"local schema", `{"$ref": "https://example.com/user.json"}`, map[string]string{"https://example.com/user.json": `{"type": "object", "required": ["name"]}`},
			[]string{`{"name": "a"}`, `{"age": 3}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var o schema.Options
			for uri, s := range tt.local {
				if o.Schemas == nil {
					o.Schemas = map[string]json.RawMessage{}
				}
				o.Schemas[uri] = json.RawMessage(s)
			}
			fromBytes, err := schema.Compile([]byte(tt.schema), o)
			if err != nil {
				t.Fatal(err)
			}
			v, err := jsonvalue.Decode([]byte(tt.schema), 0)
			if err != nil {
				t.Fatal(err)
			}
			fromValue, err := schema.CompileValue(v, o)
			if err != nil {
				t.Fatal(err)
			}
			invalid := 0
			for _, doc := range tt.docs {
				want, err1 := fromBytes.Validate([]byte(doc))
				got, err2 := fromValue.Validate([]byte(doc))
				if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("%s: from the value %+v, %v; from the bytes %+v, %v", doc, got, err2, want, err1)
				}
				if len(want) > 0 {
					invalid++
				}
			}
			if invalid == 0 {
				t.Error("no document was invalid: the comparison showed nothing")
			}
		})
	}
}
