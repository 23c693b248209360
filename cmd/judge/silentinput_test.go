package main

import (
	"path/filepath"
	"testing"
)

// TestSilentInputChanges runs judge validate and judge call on input that
// encoding/json would change without a word: a number beyond the float64
// range and invalid UTF-8 are refused (exit 2) with their location, a
// repeated key is a duplicate_key warning, and a byte-order mark is
// skipped.
func TestSilentInputChanges(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"big.json":  `{"n": 1e400}`,
		"text.txt":  "caf\xe9 au lait",
		"dup.json":  "{\n  \"n\": 1,\n  \"n\": 7\n}",
		"bom.json":  "\xef\xbb\xbf{\"n\": 1}",
		"s.json":    `{"type": "object", "properties": {"n": {"type": "integer", "maximum": 5}}}`,
		"args.json": `{"contact_id": "c1", "contact_id": "c2"}`,
	})
	f := func(name string) string { return filepath.Join(dir, name) }
	tools := toolsFile(t)
	tests := []callCase{
		{name: "1e400", args: []string{"validate", "--schema", f("s.json"), f("big.json")}, code: 2,
			wantErr: "big.json:1:7: the output cannot be validated: number 1e400 at n is outside the range of a 64-bit float"},
		{name: "invalid UTF-8 text", args: []string{"validate", "--criteria", "mentions coffee", f("text.txt")}, code: 2,
			wantErr: "text.txt:1:4: the output is not valid UTF-8 (byte 0xe9 at byte offset 3)"},
		{name: "duplicate key", args: []string{"validate", "--schema", f("s.json"), f("dup.json")}, code: 1,
			wantOut: []string{`"type": "duplicate_key"`, `"location": "n"`, "again at line 3, column 3 of the output", `"rule": "schema.maximum"`}},
		{name: "BOM", args: []string{"validate", "--schema", f("s.json"), f("bom.json")}, code: 0, wantOut: []string{`"valid": true`}},
		{name: "call check 1e400", args: []string{"call", "check", "--defs", tools, "lookup_contact_places", `{"contact_id": "c1", "limit": -1e400}`}, code: 2,
			wantErr: "arguments:1:31: number -1e400 at limit is outside the range of a 64-bit float"},
		{name: "call check duplicate", args: []string{"call", "check", "--defs", tools, "lookup_contact_places", "@" + f("args.json")}, code: 0,
			wantOut: []string{`"type": "duplicate_key"`, `"location": "contact_id"`, `"contact_id": "c2"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.run(t)
		})
	}
}
