package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/manifest"
)

// jobTool is a manifest in the registry convention (identity from its
// path) whose type, executor primitive and extra field a registry must
// declare: job, @gpu and anchor.
const jobTool = `category: a
name: job
version: "1.0.0"
description: Run a job
executor_id: "@gpu"
tool_type: job
anchor: x
config: {command: run}
`

// jobConfig is a config file whose registry section declares them.
const jobConfig = `registry:
  primitives: ["@gpu"]
  types:
    job: {base: runtime}
  fields: [anchor]
`

// lintRules decodes a JSON lint report and lists "severity rule" of every
// issue, sorted.
func lintRules(t *testing.T, data []byte) ([]string, manifest.Summary) {
	t.Helper()
	var rep manifest.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	var out []string
	for _, r := range rep.Results {
		for _, is := range r.Issues {
			out = append(out, string(is.Severity)+" "+is.Rule)
		}
	}
	slices.Sort(out)
	return out, rep.Summary
}

// TestToolsLintConfigRegistry lints a registry whose conventions come from
// the config file's registry section, through runToolsLint: undeclared
// without it, declared with it, the registry file's declaration of a type
// winning, and a malformed declaration bad input at its line and column.
func TestToolsLintConfigRegistry(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		config   string // "" = no config file
		regFile  string // content of the tools root's .judge-registry.yaml; "" = none
		strict   bool
		code     int
		want     []string // "severity rule" of every issue
		contains []string // at least these (when want is nil)
		wantErr  string   // FILE stands for the config file's path
	}{
		{name: "no config: undeclared, strict", strict: true, code: 0, contains: []string{
			"warning manifest.primitive_undeclared", "warning manifest.tool_type_undeclared", "warning manifest.unknown_field"}},
		{name: "no config: the field is a note", code: 0, contains: []string{"info manifest.unknown_field"}},
		{name: "config declares everything", config: jobConfig, strict: true, code: 0, want: nil},
		{name: "the registry file's type wins", config: jobConfig, regFile: "types:\n  job: {base: runtime, requires: [start]}\n",
			strict: true, code: 1, want: []string{"error manifest.declared_type.requires"}},
		{name: "the registry file adds a field to the config's", config: strings.Replace(jobConfig, "[anchor]", "[other]", 1),
			regFile: "fields: [anchor]\n", strict: true, code: 0, want: nil},
		{name: "a bad base", config: "registry:\n  types:\n    job: {base: scrpit}\n", code: 2,
			wantErr: `FILE:3:17: registry: base of type "job" must be one of`},
		{name: "a bad executor rule", config: "registry:\n  types:\n    job: {base: runtime, executor: maybe}\n", code: 2,
			wantErr: `FILE:3:36: registry: executor of type "job" must be required, none or optional`},
		{name: "a built-in type redeclared", config: "registry:\n  types:\n    script: {base: runtime}\n", code: 2,
			wantErr: `FILE:3:5: registry: type "script" is one of the eight built-in types`},
		{name: "config declares the required fields", config: jobConfig + "  required: [executor_id, license]\n", strict: true, code: 1,
			want: []string{"error manifest.required"}},
		{name: "config declares a data folder", config: jobConfig + "  data: [a]\n", strict: true, code: 0, want: nil},
		{name: "a data folder outside", config: jobConfig + "  data: [../x]\n", code: 2,
			wantErr: `FILE:6:10: registry: manifest: declared conventions: data folder "../x" is not`},
		{name: "a malformed section", config: "registry:\n  primitives: gpu\n", code: 2,
			wantErr: `FILE:2:15: registry.primitives is a string, not a list of names`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{"a/job.yaml": jobTool}
			if tt.regFile != "" {
				files[manifest.RegistryFile] = tt.regFile
			}
			dir := writeFiles(t, files)
			p := lintParams(formatJSON)
			p.strict = tt.strict
			p.getenv = func(string) string { return "" } // no default file, no JUDGE_CONFIG
			var stderr bytes.Buffer
			p.stderr = &stderr
			if tt.config != "" {
				p.config = writeConfig(t, tt.config, 0o600)
			}
			var out bytes.Buffer
			err := runToolsLint(context.Background(), p, []string{dir}, &out)
			if code := exitCode(err); code != tt.code {
				t.Fatalf("exit %d (%v), want %d\n%s", code, err, tt.code, out.String())
			}
			if tt.wantErr != "" {
				if want := strings.ReplaceAll(tt.wantErr, "FILE", p.config); err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("error %v, want %q", err, want)
				}
				return
			}
			got, _ := lintRules(t, out.Bytes())
			if tt.contains != nil {
				for _, w := range tt.contains {
					if !slices.Contains(got, w) {
						t.Errorf("want %q among %v", w, got)
					}
				}
				return
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("issues %v, want %v", got, tt.want)
			}
		})
	}
}

// TestBinaryToolsLintConfig runs the judge binary: --config's registry
// section declares what the registry's manifests use, so that --strict
// finds nothing; without it the same lint warns.
func TestBinaryToolsLintConfig(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"a/job.yaml": jobTool})
	path := writeConfig(t, jobConfig, 0o600)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "JUDGE_") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	res := execJudge(t, nil, env, "--config", path, "tools", "lint", dir, "--strict", "--format", "json")
	got, sum := lintRules(t, []byte(res.stdout))
	if res.code != 0 || len(got) != 0 || sum.Tools != 1 || sum.Valid != 1 {
		t.Errorf("with --config: exit %d, issues %v, summary %+v\n%s", res.code, got, sum, res.stderr)
	}
	res = execJudge(t, nil, env, "tools", "lint", dir, "--strict", "--format", "json")
	got, sum = lintRules(t, []byte(res.stdout))
	if res.code != 0 || sum.Warnings != 3 || !slices.Contains(got, "warning manifest.unknown_field") {
		t.Errorf("without --config: exit %d, issues %v, summary %+v, want 3 warnings\n%s", res.code, got, sum, res.stderr)
	}
}

// TestServeToolsLintConfig runs judge serve with a config file whose
// registry section declares the registry's conventions, and posts the
// registry to /v1/tools/lint with strict: nothing is undeclared.
func TestServeToolsLintConfig(t *testing.T) {
	t.Parallel()
	tools := writeFiles(t, map[string]string{"a/job.yaml": jobTool})
	path := writeConfig(t, jobConfig+"serve:\n  addr: 127.0.0.1:0\n  tools: ["+tools+"]\n", 0o600)
	params := newServeParams()
	params.config = path
	params.getenv = func(string) string { return "" }
	rec := serveInProcess(t, params, nil)
	body, err := json.Marshal(map[string]any{"strict": true, "manifests": []manifest.File{{Path: "a/job.yaml", Content: jobTool}}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(rec.URL+"/v1/tools/lint", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(resp.Body); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /v1/tools/lint: %d %v\n%s", resp.StatusCode, err, buf.String())
	}
	got, sum := lintRules(t, buf.Bytes())
	if len(got) != 0 || sum.Valid != 1 {
		t.Errorf("declared by the config file: issues %v, summary %+v, want none", got, sum)
	}
}

// TestServeConfigBadRegistry checks that judge serve refuses a config file
// whose registry section the manifest package refuses, at its position.
func TestServeConfigBadRegistry(t *testing.T) {
	t.Parallel()
	path := writeConfig(t, "registry:\n  types:\n    job: {base: nope}\nserve:\n  addr: 127.0.0.1:0\n", 0o600)
	params := newServeParams()
	params.config = path
	params.getenv = func(string) string { return "" }
	err := runServe(context.Background(), params, nil, &bytes.Buffer{})
	if exitCode(err) != 2 || err == nil || !strings.Contains(err.Error(), filepath.Clean(path)+`:3:17: registry: base of type "job"`) {
		t.Errorf("got %v (exit %d), want bad input at 3:17", err, exitCode(err))
	}
}

// endpointTool is an api tool of the type "endpoint", which only a
// registry declaration (base api) makes callable; url is its server.
func endpointTool(url string) string {
	return `tool_id: lookup
tool_type: endpoint
version: "1.0.0"
executor: http_client
description: Looks an item up by its id
config:
  method: GET
  url_template: "` + url + `/items?id={id}"
  response_transform: "$.item.name"
parameters:
  - {name: id, type: string, required: true, description: The item's id}
`
}

// TestToolsConfigRegistryCalls checks, classifies and runs a tool whose
// type only the config file's registry section declares: judge call check,
// call outcome and tools run read the declarations as tools lint does, and
// without them say the definitions hold no callable tool.
func TestToolsConfigRegistryCalls(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"item": {"id": "`+r.URL.Query().Get("id")+`", "name": "the blue one"}}`)
	}))
	t.Cleanup(srv.Close) // the parallel cases run after this function returns
	dir := writeFiles(t, map[string]string{"lookup.yaml": endpointTool(srv.URL)})
	cfg := writeConfig(t, "registry:\n  types:\n    endpoint: {base: api}\n", 0o600)
	cases := []callCase{
		{name: "check without the declaration", args: []string{"call", "check", "lookup", `{"id": "7"}`, "--tools", dir},
			code: 1, wantOut: []string{"The definitions hold no tool that can be called", "judge tools lint says why"}},
		{name: "check with it", args: []string{"call", "check", "lookup", `{"id": "7"}`, "--tools", dir, "--config", cfg},
			code: 0, wantOut: []string{`"valid": true`}},
		{name: "check, missing id", args: []string{"call", "check", "lookup", `{}`, "--tools", dir, "--config", cfg},
			code: 1, wantOut: []string{`"valid": false`, `"id"`}},
		{name: "outcome with it", args: []string{"call", "outcome", "lookup", `{"id": "7"}`, `{"item": {"id": "7", "name": "x"}}`, "--tools", dir, "--config", cfg},
			code: 0, wantOut: []string{`"status": "SATISFIED"`}},
		{name: "run with it", args: []string{"tools", "run", "lookup", `{"id": "7"}`, "--tools", dir, "--config", cfg, "--allow-loopback"},
			code: 0, wantOut: []string{`"value": "the blue one"`, `"status": "SATISFIED"`}},
		{name: "run, a malformed declaration", args: []string{"tools", "run", "lookup", `{"id": "7"}`, "--tools", dir, "--config", writeConfig(t, "registry:\n  primitives: gpu\n", 0o600)},
			code: 2, wantErr: "registry.primitives is a string"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t)
		})
	}
}
