package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentjudge/judge/layer"
)

// The schema digest, written without fmt, is the one its format describes:
// sha256 of "engine:<key>\n" and "<field>:<hex sha256>\n" per schema, the
// local ones sorted by URI.
func TestSchemaKeyFormat(t *testing.T) {
	t.Parallel()
	e, err := New(WithSchemas(map[string]any{"http://x/a.json": map[string]any{"type": "string"}}))
	if err != nil {
		t.Fatal(err)
	}
	expected := json.RawMessage(`{"$ref": "b.json"}`)
	b, c := json.RawMessage(`{"type": "integer"}`), json.RawMessage(`{"type": "null"}`)
	req := &Request{Output: json.RawMessage(`1`), ExpectedSchema: expected,
		Schemas: map[string]json.RawMessage{"b.json": b, `c "q".json`: c}}
	in := &layer.Input{}
	if err := e.schemaInput(req, in); err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "engine:%s\n", e.schemasKey)
	fmt.Fprintf(h, "%s:%x\n", "expected_schema", sha256.Sum256(expected))
	fmt.Fprintf(h, "%s:%x\n", fmt.Sprintf("schemas[%q]", "b.json"), sha256.Sum256(b))
	fmt.Fprintf(h, "%s:%x\n", fmt.Sprintf("schemas[%q]", `c "q".json`), sha256.Sum256(c))
	if want := hex.EncodeToString(h.Sum(nil)); in.SchemaKey != want {
		t.Fatalf("SchemaKey %s, want %s", in.SchemaKey, want)
	}
}
