package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
)

// manifestsBody builds a /v1/tools/lint body from the files below dir.
func manifestsBody(t *testing.T, dir string) string {
	t.Helper()
	var files []manifest.File
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files = append(files, manifest.File{Path: filepath.ToSlash(rel), Content: string(data)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(map[string]any{"manifests": files})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// lintAnswer decodes a 200 answer of /v1/tools/lint, checking every result
// against the specification.
func lintAnswer(t *testing.T, r response) (map[string]*result.ValidationResult, manifest.Summary) {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, want 200; body:\n%s", r.status, r.body)
	}
	var raw struct {
		Results map[string]json.RawMessage `json:"results"`
		Summary manifest.Summary           `json:"summary"`
	}
	if err := json.Unmarshal(r.body, &raw); err != nil {
		t.Fatal(err)
	}
	out := map[string]*result.ValidationResult{}
	for k, b := range raw.Results {
		if err := result.CheckJSON(b); err != nil {
			t.Errorf("%s breaks the ValidationResult schema: %v", k, err)
		}
		var res result.ValidationResult
		if err := json.Unmarshal(b, &res); err != nil {
			t.Fatal(err)
		}
		out[k] = &res
	}
	return out, raw.Summary
}

func TestToolsLintRoute(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})

	results, sum := lintAnswer(t, do(t, ts, http.MethodPost, "/v1/tools/lint", manifestsBody(t, "../examples/tools"), nil))
	if sum.Tools != 7 || sum.Invalid != 0 || len(results) != 7 {
		t.Errorf("examples/tools: summary %+v, %d results; want 7 valid tools", sum, len(results))
	}
	if r := results["email_enricher"]; r == nil || !r.Valid || len(r.Issues) != 0 || r.Confidence != 1 {
		t.Errorf("email_enricher = %+v, want valid, its Python entrypoint parsed", r)
	}

	results, sum = lintAnswer(t, do(t, ts, http.MethodPost, "/v1/tools/lint", manifestsBody(t, "../examples/tools-broken"), nil))
	if sum.Invalid != 4 || sum.Errors != 10 {
		t.Errorf("examples/tools-broken: summary %+v, want 4 invalid tools and 10 errors", sum)
	}
	found := false
	for _, is := range results["deno_runtime"].Issues {
		if is.Location == "deno.yaml:5:11" && is.Type == result.ExecutorInvalid &&
			strings.Contains(is.Message, "deno_runtime -> node_runtime -> deno_runtime") {
			found = true
		}
	}
	if !found {
		t.Errorf("deno_runtime: no cycle at deno.yaml:5:11 in %+v", results["deno_runtime"].Issues)
	}
}

func TestToolsLintRouteBadRequests(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{MaxBodyBytes: 4096})
	tests := []struct {
		name, body string
		status     int
		field      string
	}{
		{"empty", `{}`, http.StatusBadRequest, "manifests"},
		{"no manifests", `{"manifests": []}`, http.StatusBadRequest, "manifests"},
		{"unknown field", `{"manifests": [], "tools": []}`, http.StatusBadRequest, "body"},
		{"not json", `{"manifests": [`, http.StatusBadRequest, "body"},
		{"absolute path", `{"manifests": [{"path": "/etc/x.yaml", "content": "a: 1"}]}`, http.StatusBadRequest, "manifests[0].path"},
		{"dotdot", `{"manifests": [{"path": "ok.yaml", "content": ""}, {"path": "../x.yaml", "content": "a: 1"}]}`, http.StatusBadRequest, "manifests[1].path"},
		{"twice", `{"manifests": [{"path": "a.yaml", "content": ""}, {"path": "a.yaml", "content": ""}]}`, http.StatusBadRequest, "manifests[1].path"},
		{"too large", `{"manifests": [{"path": "a.yaml", "content": "` + strings.Repeat("x", 5000) + `"}]}`, http.StatusRequestEntityTooLarge, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := mustProblem(t, do(t, ts, http.MethodPost, "/v1/tools/lint", tt.body, nil), tt.status, "/v1/tools/lint")
			if tt.field != "" && (len(p.Errors) != 1 || p.Errors[0].Field != tt.field) {
				t.Errorf("errors = %+v, want one naming %s", p.Errors, tt.field)
			}
		})
	}
	mustProblem(t, do(t, ts, http.MethodPost, "/v1/tools/lint", `{"manifests": []}`, map[string]string{"Content-Type": "text/plain"}),
		http.StatusUnsupportedMediaType, "/v1/tools/lint")
	mustProblem(t, do(t, ts, http.MethodGet, "/v1/tools/lint", "", nil), http.StatusMethodNotAllowed, "/v1/tools/lint")
}

// TestToolsLintRouteFindings checks that a YAML syntax error is a finding
// (200, located), not a failed request.
func TestToolsLintRouteFindings(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	body := `{"manifests": [{"path": "w.yaml", "content": "tool_id: w\ntool_type: api\n  version: 1\n"},
		{"path": "py_runtime.yaml", "content": "tool_id: py_runtime\ntool_type: runtime\nversion: \"1.0.0\"\ndescription: Python\nexecutor: subprocess\nconfig:\n  command: python3\n"},
		{"path": "s/tool.yaml", "content": "tool_id: s\ntool_type: script\nversion: \"1.0.0\"\ndescription: S\nexecutor: py_runtime\nconfig:\n  entrypoint: main.py\n"},
		{"path": "s/main.py", "content": "def f(:\n  pass\n"}]}`
	results, sum := lintAnswer(t, do(t, ts, http.MethodPost, "/v1/tools/lint", body, nil))
	r := results["w.yaml"]
	if sum.Invalid != 2 || r == nil || len(r.Issues) != 1 || r.Issues[0].Type != result.SyntaxError ||
		!strings.HasPrefix(r.Issues[0].Location, "w.yaml:") {
		t.Errorf("results %+v, summary %+v; want one syntax error located in w.yaml", results, sum)
	}
	// The script's Python syntax error, at its own line and column.
	if s := results["s"]; s == nil || s.Valid || s.Issues[0].Location != "s/main.py:1:7" || s.Issues[0].Type != result.SyntaxError {
		t.Errorf("s = %+v, want a syntax error at s/main.py:1:7", s)
	}
}
