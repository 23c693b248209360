package judge

import (
	"encoding/json"
	"testing"

	"github.com/agentjudge/judge/layer"
)

// The schema key is the same for requests whose schemas have the same
// bytes, and differs as soon as one byte of one schema differs, or a local
// schema is added, or one moves to another URI.
func TestSchemaKey(t *testing.T) {
	t.Parallel()
	e, err := New(WithSchemas(map[string]any{"http://x/a.json": map[string]any{"type": "string"}}))
	if err != nil {
		t.Fatal(err)
	}
	key := func(expected string, schemas map[string]string) string {
		t.Helper()
		req := &Request{Output: json.RawMessage(`1`), ExpectedSchema: json.RawMessage(expected),
			Schemas: map[string]json.RawMessage{}}
		for uri, s := range schemas {
			req.Schemas[uri] = json.RawMessage(s)
		}
		in := &layer.Input{}
		if err := e.schemaInput(req, in); err != nil {
			t.Fatal(err)
		}
		if in.SchemaKey == "" {
			t.Fatal("empty SchemaKey")
		}
		return in.SchemaKey
	}
	base := key(`{"$ref": "b.json"}`, map[string]string{"b.json": `{"type": "integer"}`, `c "q".json`: `{"type": "null"}`})
	if again := key(`{"$ref": "b.json"}`, map[string]string{`c "q".json`: `{"type": "null"}`, "b.json": `{"type": "integer"}`}); again != base {
		t.Errorf("equal schemas: key %q, then %q", base, again)
	}
	for name, k := range map[string]string{
		"expected differs": key(`{"$ref": "b.json" }`, map[string]string{"b.json": `{"type": "integer"}`, `c "q".json`: `{"type": "null"}`}),
		"local differs":    key(`{"$ref": "b.json"}`, map[string]string{"b.json": `{"type": "number"}`, `c "q".json`: `{"type": "null"}`}),
		"local added":      key(`{"$ref": "b.json"}`, map[string]string{"b.json": `{"type": "integer"}`, `c "q".json`: `{"type": "null"}`, "d.json": `{}`}),
		"local moved":      key(`{"$ref": "b.json"}`, map[string]string{"b.json": `{"type": "integer"}`, `e.json`: `{"type": "null"}`}),
	} {
		if k == base {
			t.Errorf("%s: same key %q", name, k)
		}
	}
}
