package judge_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSchemaDirRefs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"person.json":       `{"$id": "https://example.com/person.json", "type": "object", "required": ["name"]}`,
		"defs/address.json": `{"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}}`,
		"notes.txt":         `not a schema`,
	})
	schemas, err := judge.LoadSchemaDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := schemas["https://example.com/person.json"]; !ok || len(schemas) != 2 {
		t.Fatalf("keys: %v", schemas)
	}
	if _, ok := schemas["defs/address.json"]; !ok {
		t.Fatalf("a file without $id is not keyed by its relative path: %v", schemas)
	}
	e := mustEngine(t, judge.WithSchemas(schemas))
	schema := json.RawMessage(`{"type": "object", "properties": {
		"owner": {"$ref": "https://example.com/person.json"},
		"home": {"$ref": "defs/address.json"}}}`)
	r := validate(t, e, &judge.Request{Output: json.RawMessage(`{"owner": {}, "home": {"city": 7}}`), ExpectedSchema: schema})
	var got []string
	for _, is := range r.Issues {
		got = append(got, string(is.Type)+"@"+is.Location)
	}
	if want := "invalid_type@home.city,missing_field@owner"; strings.Join(got, ",") != want {
		t.Fatalf("issues %v, want %s", got, want)
	}
}

func TestSchemaDirErrors(t *testing.T) {
	t.Parallel()
	for name, files := range map[string]map[string]string{
		"not JSON":     {"a.json": `{"type": }`},
		"duplicate id": {"a.json": `{"$id": "https://x/a"}`, "b.json": `{"$id": "https://x/a"}`},
	} {
		dir := t.TempDir()
		writeFiles(t, dir, files)
		if _, err := judge.LoadSchemaDir(dir); err == nil || !strings.Contains(err.Error(), dir) {
			t.Errorf("%s: err = %v, want one naming the file", name, err)
		}
	}
	if _, err := judge.LoadSchemaDir(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing directory was accepted")
	}
}

// A $ref to a schema that is not given locally is refused by name, and
// nothing is fetched.
func TestRemoteRefRefused(t *testing.T) {
	t.Parallel()
	e := mustEngine(t)
	_, err := e.Validate(context.Background(), &judge.Request{Output: json.RawMessage(`{}`),
		ExpectedSchema: json.RawMessage(`{"$ref": "https://example.com/remote.json"}`)})
	if err == nil || !strings.Contains(err.Error(), "https://example.com/remote.json") {
		t.Fatalf("err = %v, want a request error naming the ref", err)
	}
}
