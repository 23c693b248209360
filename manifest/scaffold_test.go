package manifest_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/manifest"
)

// TestScaffoldLintsClean creates one tool of every type Scaffold knows in
// one directory (a runtime and a server first, for the script and the
// mcp_tool to name) and lints the directory: no error, no warning.
func TestScaffoldLintsClean(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	opts := []manifest.ScaffoldOptions{
		{Type: manifest.Runtime, Name: "python_runtime"},
		{Type: manifest.Runtime, Name: "node_runtime"},
		{Type: manifest.MCPServer, Name: "docs"},
		{Type: manifest.Script, Name: "summarize", Executor: "python_runtime"},
		{Type: manifest.Script, Name: "slug", Executor: "node_runtime"},
		{Type: manifest.MCPTool, Name: "search_docs", Executor: "docs"},
		{Type: manifest.API, Name: "get_item"},
		{Type: manifest.Knowledge, Name: "style-guide"},
		{Type: manifest.Directive, Name: "triage"},
	}
	seen := map[manifest.ToolType]bool{}
	for _, o := range opts {
		files, err := manifest.Scaffold(o)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			writeFile(t, dir, f.Path, []byte(f.Content))
		}
		seen[o.Type] = true
	}
	for _, typ := range manifest.ScaffoldTypes() {
		if !seen[typ] {
			t.Errorf("type %s is not scaffolded by the test", typ)
		}
	}
	rep := lintDir(t, dir)
	if rep.Summary.Tools != len(opts) {
		t.Errorf("%d tools, want %d", rep.Summary.Tools, len(opts))
	}
	if got := findings(rep, dir); len(got) > 0 {
		t.Errorf("scaffolded tools have findings:\n%s", strings.Join(got, "\n"))
	}
}

func TestScaffoldRefuses(t *testing.T) {
	t.Parallel()
	for _, o := range []manifest.ScaffoldOptions{
		{Type: manifest.Script, Name: "has space"},
		{Type: manifest.Primitive, Name: "gpu"},
		{Type: "graph", Name: "walk"},
		{Type: manifest.Script, Name: "x", Executor: "../up"},
	} {
		if _, err := manifest.Scaffold(o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}
