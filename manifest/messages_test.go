package manifest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentjudge/judge/manifest"
)

const bomTool = "tool_id: hello\ntool_type: primitive\nversion: \"1.0.0\"\ndescription: Say hello to someone by name\n"

// TestLintMessages: a byte-order mark at the start of a manifest is
// skipped, and a schema that names a remote document says that judge never
// fetches schemas (as /validate does), at the keyword.
func TestLintMessages(t *testing.T) {
	t.Parallel()
	tool := func(schema string) string {
		return "tool_id: t\ntool_type: mcp_tool\nversion: \"1.0.0\"\nexecutor: '@mcp'\ndescription: Create an issue in a repository\nconfig:\n  mcp_tool_name: t\ninput_schema:\n" + schema
	}
	tests := []struct {
		name, src string
		want      []string // rule location message-substring, each an issue
		not       string   // a message no issue may have
	}{
		{name: "BOM", src: "\xef\xbb\xbf" + bomTool, not: "tool_id"},
		{name: "remote $schema", src: tool("  $schema: https://example.com/remote-schema\n  type: object\n"),
			want: []string{`manifest.schema_remote a.yaml:9:12 The parameter schema's $schema "https://example.com/remote-schema" is not a draft judge knows, and judge never fetches schemas`},
			not:  "URLLoader"},
		{name: "remote $ref", src: tool("  type: object\n  properties:\n    a:\n      $ref: 'https://example.com/defs.json#/a'\n"),
			want: []string{`manifest.schema_remote a.yaml:12:13 The parameter schema's $ref "https://example.com/defs.json#/a" points outside the schema; judge never fetches schemas`},
			not:  "URLLoader"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reg, err := manifest.LoadFiles(context.Background(), []manifest.File{{Path: "a.yaml", Content: tt.src}})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := manifest.Lint(context.Background(), reg)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rep.Results {
				for _, is := range r.Issues {
					got = append(got, is.Rule+" "+is.Location+" "+is.Message)
					if tt.not != "" && strings.Contains(is.Message, tt.not) {
						t.Errorf("issue %+v mentions %q", is, tt.not)
					}
				}
			}
			for _, w := range tt.want {
				found := false
				for _, g := range got {
					found = found || strings.HasPrefix(g, w)
				}
				if !found {
					t.Errorf("no issue %q among\n%s", w, strings.Join(got, "\n"))
				}
			}
			if tt.name == "BOM" && rep.Results["hello"] == nil {
				t.Errorf("the tool is not read as 'hello': %v", got)
			}
		})
	}
}
