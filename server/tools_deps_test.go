package server

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
)

// TestToolsLintRouteDependencyFiles sends script tools with a
// pyproject.toml and a go.mod to /v1/tools/lint: each finding comes back
// (200) at the file's own line and column.
func TestToolsLintRouteDependencyFiles(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	files := []manifest.File{
		{Path: "py_runtime.yaml", Content: "tool_id: py_runtime\ntool_type: runtime\nversion: \"1.0.0\"\ndescription: Python\nexecutor: subprocess\nconfig:\n  command: python3\n"},
		{Path: "py/tool.yaml", Content: "tool_id: py\ntool_type: script\nversion: \"1.0.0\"\ndescription: A script whose Python dependencies the lint reads\nexecutor: py_runtime\nconfig:\n  entrypoint: main.py\n"},
		{Path: "py/main.py", Content: "print('hi')\n"},
		{Path: "py/pyproject.toml", Content: "[project]\nname = \"py\"\ndependencies = [\"httpx>=0.24\"\n"},
		{Path: "poetry/tool.yaml", Content: "tool_id: poetry\ntool_type: script\nversion: \"1.0.0\"\ndescription: A script whose Poetry dependencies the lint reads\nexecutor: py_runtime\nconfig:\n  entrypoint: main.py\n"},
		{Path: "poetry/main.py", Content: "print('hi')\n"},
		{Path: "poetry/pyproject.toml", Content: "[tool.poetry.dependencies]\npython = \"^3.10\"\nrich = \"==>13\"\n"},
		{Path: "gomod/tool.yaml", Content: "tool_id: gomod\ntool_type: script\nversion: \"1.0.0\"\ndescription: A script whose Go dependencies the lint reads\nexecutor: py_runtime\nconfig:\n  entrypoint: main.go\n"},
		{Path: "gomod/main.go", Content: "package main\n\nfunc main() {}\n"},
		{Path: "gomod/go.mod", Content: "module example.com/gomod\n\nrequire (\n\tgolang.org/x/mod\n)\n"},
	}
	body, err := json.Marshal(map[string]any{"manifests": files})
	if err != nil {
		t.Fatal(err)
	}
	results, sum := lintAnswer(t, do(t, ts, http.MethodPost, "/v1/tools/lint", string(body), nil))
	var got []string
	for _, key := range []string{"gomod", "poetry", "py"} {
		r := results[key]
		if r == nil {
			t.Fatalf("no result for %s", key)
		}
		for _, is := range r.Issues {
			got = append(got, key+" "+string(is.Severity)+" "+string(is.Type)+" "+is.Rule+" "+is.Location)
		}
	}
	want := []string{
		"gomod error syntax_error manifest.script.go_mod gomod/go.mod:4:2",
		"poetry error syntax_error manifest.script.requirement poetry/pyproject.toml:3:8",
		"py error syntax_error manifest.script.pyproject py/pyproject.toml:3:30",
	}
	if !slices.Equal(got, want) {
		t.Errorf("issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if sum.Invalid != 3 || sum.Errors != 3 {
		t.Errorf("summary %+v, want 3 invalid tools and 3 errors", sum)
	}
	for _, r := range results {
		for _, is := range r.Issues {
			if is.Severity == result.Error && is.Suggestion == "" {
				t.Errorf("%+v has no suggestion", is)
			}
		}
	}
}
