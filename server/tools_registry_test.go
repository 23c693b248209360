package server

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/agentjudge/judge/result"
)

// TestToolsLintRouteConventions posts the rye-os fixture registry of
// package manifest, its .judge-registry.yaml included, to /v1/tools/lint:
// the clean registry has no error, and the one with planted defects gets
// each of them, by path identity.
func TestToolsLintRouteConventions(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	extract := func(name string) string {
		ar, err := txtar.ParseFile(filepath.Join("..", "manifest", "testdata", "registries", name+".txtar"))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		for _, f := range ar.Files {
			if f.Name == "want" {
				continue
			}
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	results, sum := lintAnswer(t, do(t, ts, http.MethodPost, "/v1/tools/lint", manifestsBody(t, extract("rye")), nil))
	if sum.Errors != 0 || sum.Invalid != 0 {
		t.Errorf("rye registry: summary %+v, want no error", sum)
	}
	if r := results["mcp/docs/query-docs"]; r == nil || !r.Valid {
		t.Errorf("mcp/docs/query-docs (declared type mcp, server by path) = %+v, want valid", r)
	}

	results, _ = lintAnswer(t, do(t, ts, http.MethodPost, "/v1/tools/lint", manifestsBody(t, extract("rye_defects")), nil))
	want := map[string]string{
		"rye/core/runtimes/node_runtime":     "manifest.executor_missing",
		"rye/core/runtimes/bash_runtime":     "manifest.runtime.command",
		"mcp/docs/resolve-library":           "manifest.executor_missing",
		"rye/broken.yaml":                    "manifest.yaml",
		"rye/core/runtimes/mcp_http_runtime": "manifest.signature_stale",
	}
	for key, rule := range want {
		r := results[key]
		if r == nil {
			t.Errorf("%s: no result", key)
			continue
		}
		found := false
		for _, is := range r.Issues {
			if is.Rule == rule && is.Severity != result.Info {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no %s in %+v", key, rule, r)
		}
	}
}
