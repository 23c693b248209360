package main

import (
	"path/filepath"
	"strings"
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
		"role.json": `{"role": "user", "role": "admin"}`,
		"obj.json":  `{"type": "object"}`,
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
		{name: "duplicate key the schema does not read", args: []string{"validate", "--schema", f("obj.json"), f("role.json")}, code: 0,
			wantOut: []string{`"valid": true`, `"type": "duplicate_key"`, `"location": "role"`, "again at line 1, column 18 of the output"}},
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

// TestMisleadingMessages runs judge validate and judge tools lint on input
// whose message used to mislead.
func TestMisleadingMessages(t *testing.T) {
	t.Parallel()
	alts := make([]string, 600)
	for i := range alts {
		alts[i] = strings.Repeat("a", i+1)
	}
	tool := "tool_id: t\ntool_type: mcp_tool\nversion: \"1.0.0\"\nexecutor: '@mcp'\ndescription: Create an issue in a repository\nconfig:\n  mcp_tool_name: t\ninput_schema:\n  type: object\n"
	dir := writeFiles(t, map[string]string{
		"alt.schema.json": `{"type": "string", "pattern": "^(` + strings.Join(alts, "|") + `)$"}`,
		"huge.json":       `{"n": ` + strings.Repeat("5", 1001) + `}`,
		"out.json":        `"a"`,
		"bom/t.yaml":      "\xef\xbb\xbf" + tool,
		"remote/t.yaml":   tool + "  $schema: https://example.com/remote-schema\n",
		"brackets/t.yaml": strings.Replace(tool, "Create an issue in a repository", "'"+strings.Repeat("[", 65)+"'", 1),
		"values/t.yaml":   tool + "tags: [" + strings.Repeat("1,", 100000) + "]\n",
	})
	f := func(name string) string { return filepath.Join(dir, name) }
	tests := []callCase{
		{name: "flat alternation", args: []string{"validate", "--schema", f("alt.schema.json"), f("out.json")}, code: 2,
			wantErr: "factors the common prefixes of the 600 alternatives into nested groups"},
		{name: "huge number", args: []string{"validate", f("huge.json")}, code: 2,
			wantErr: "number 5555555555555555555555555555555555555555… (1001 digits) at n is beyond what judge accepts"},
		{name: "BOM manifest", args: []string{"tools", "lint", f("bom")}, code: 0, wantOut: []string{`"t": {`}},
		{name: "remote $schema", args: []string{"tools", "lint", f("remote")}, code: 1,
			wantOut: []string{`$schema \"https://example.com/remote-schema\" is not a draft judge knows, and judge never fetches schemas`}},
		{name: "brackets in a string", args: []string{"tools", "lint", f("brackets")}, code: 1, wantOut: []string{"also inside quoted strings"}},
		{name: "values without aliases", args: []string{"tools", "lint", f("values")}, code: 1, wantOut: []string{"the document has more than 100000 values"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, _ := tt.run(t)
			if s := string(out); strings.Contains(s, "URLLoader") || strings.Contains(s, "through aliases") || strings.Contains(s, "Field '\ufeff") {
				t.Errorf("stdout still has the misleading message:\n%s", s)
			}
		})
	}
}
