package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
)

// TestToolsLintRouteConventions posts the rye-os fixture registry of
// package manifest, its .judge-registry.yaml included, to /v1/tools/lint:
// the clean registry has no error, and the one with planted defects gets
// each of them, by path identity.
func TestToolsLintRouteConventions(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	extract := func(name string) string { return extractRegistry(t, name) }
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

// extractRegistry writes the files of a fixture registry of package
// manifest (testdata/registries/NAME.txtar, but its want section) into a
// new directory and returns it.
func extractRegistry(t *testing.T, name string) string {
	t.Helper()
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

// TestToolsLintRouteStrictAndRegistry posts the ryeos registry without its
// registry file to /v1/tools/lint: by default its unknown fields are info
// notes and its type is undeclared; "strict": true makes the fields
// warnings, as judge tools lint --strict does; and a server whose
// Options.Registry (judge's config file) declares the type and the fields
// reports neither, strict or not.
func TestToolsLintRouteStrictAndRegistry(t *testing.T) {
	t.Parallel()
	files := manifestsBody(t, extractRegistry(t, "ryeos_undeclared"))
	var req map[string]any
	if err := json.Unmarshal([]byte(files), &req); err != nil {
		t.Fatal(err)
	}
	withStrict := func(strict bool) string {
		req["strict"] = strict
		b, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// count answers the unknown-field issues by severity and the
	// undeclared-type warnings.
	count := func(results map[string]*result.ValidationResult) (warn, info, undeclared int) {
		for _, r := range results {
			for _, is := range r.Issues {
				switch {
				case is.Rule == "manifest.unknown_field" && is.Severity == result.Warning:
					warn++
				case is.Rule == "manifest.unknown_field":
					info++
				case is.Rule == "manifest.tool_type_undeclared":
					undeclared++
				}
			}
		}
		return warn, info, undeclared
	}
	_, plain := newTestServer(t, Options{})
	tests := []struct {
		name                         string
		body                         string
		wantWarn, wantInfo, wantType bool
	}{
		{"default", files, false, true, true},
		{"strict false", withStrict(false), false, true, true},
		{"strict", withStrict(true), true, false, true},
	}
	for _, tt := range tests {
		results, _ := lintAnswer(t, do(t, plain, http.MethodPost, "/v1/tools/lint", tt.body, nil))
		w, i, u := count(results)
		if (w > 0) != tt.wantWarn || (i > 0) != tt.wantInfo || (u > 0) != tt.wantType {
			t.Errorf("%s: %d unknown-field warnings, %d notes, %d undeclared types; want warnings %v, notes %v, undeclared %v",
				tt.name, w, i, u, tt.wantWarn, tt.wantInfo, tt.wantType)
		}
	}

	// The declarations of ryeos.txtar's registry file, given by the server.
	conv := manifest.Conventions{
		Types: map[string]manifest.TypeDecl{"subprocess": {Base: manifest.Runtime}},
		Fields: []string{"execution_protocol", "env_config", "source_scope", "config_resolve", "effects", "workspace_access",
			"filesystem_authority", "network_authority", "external_content", "input_data", "timeout_secs"},
	}
	_, declared := newTestServer(t, Options{Registry: &conv})
	for _, strict := range []bool{false, true} {
		results, sum := lintAnswer(t, do(t, declared, http.MethodPost, "/v1/tools/lint", withStrict(strict), nil))
		if w, i, u := count(results); w != 0 || i != 0 || u != 0 {
			t.Errorf("declared by the server, strict %v: %d unknown-field warnings, %d notes, %d undeclared types; want none", strict, w, i, u)
		}
		if sum.Errors != 0 {
			t.Errorf("declared by the server, strict %v: summary %+v, want no error", strict, sum)
		}
	}
	// A registry file in the request declaring the same type differently
	// wins over the server's declaration.
	req["manifests"] = append(req["manifests"].([]any), map[string]any{"path": manifest.RegistryFile, "content": "types:\n  subprocess: {base: runtime, requires: [nope]}\n"})
	results, _ := lintAnswer(t, do(t, declared, http.MethodPost, "/v1/tools/lint", withStrict(false), nil))
	found := false
	for _, r := range results {
		for _, is := range r.Issues {
			found = found || is.Rule == "manifest.declared_type.requires"
		}
	}
	if !found {
		t.Error("a registry file in the request: want its declaration (requires: [nope]) to win over the server's")
	}
}
