package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentjudge/judge/internal/sarifschema"
	"github.com/agentjudge/judge/manifest"
)

// depsTree writes a registry of two script tools into a temporary
// directory: py_deps with a malformed dependency in pyproject.toml, and
// go_deps with a go.mod that has no module line.
func depsTree(t *testing.T) string {
	t.Helper()
	return writeFiles(t, map[string]string{
		"py_runtime.yaml":        "tool_id: py_runtime\ntool_type: runtime\nversion: \"1.0.0\"\ndescription: Python\nexecutor: subprocess\nconfig:\n  command: python3\n",
		"py_deps/tool.yaml":      "tool_id: py_deps\ntool_type: script\nversion: \"1.0.0\"\ndescription: A script whose Python dependencies the lint reads\nexecutor: py_runtime\nconfig:\n  entrypoint: main.py\n",
		"py_deps/main.py":        "print('hi')\n",
		"py_deps/pyproject.toml": "[project]\nname = \"py-deps\"\ndependencies = [\"httpx>=0.24\", \"pydantic >> 2\"]\n",
		"go_deps/tool.yaml":      "tool_id: go_deps\ntool_type: script\nversion: \"1.0.0\"\ndescription: A script whose Go dependencies the lint reads\nexecutor: py_runtime\nconfig:\n  entrypoint: main.go\n",
		"go_deps/main.go":        "package main\n\nfunc main() {}\n",
		"go_deps/go.mod":         "go 1.22\n\nrequire golang.org/x/mod v0.42.0\n",
	})
}

// TestToolsLintDependencyFiles lints pyproject.toml and go.mod findings
// through the command, in JSON and in SARIF, and checks each issue's
// severity, type, rule and location.
func TestToolsLintDependencyFiles(t *testing.T) {
	t.Parallel()
	dir := depsTree(t)
	var out bytes.Buffer
	if code := exitCode(runToolsLint(context.Background(), lintParams(formatJSON), []string{dir}, &out)); code != exitInvalid {
		t.Fatalf("exit %d, want %d\n%s", code, exitInvalid, out.String())
	}
	var rep manifest.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, key := range rep.Keys() {
		for _, is := range rep.Results[key].Issues {
			got = append(got, key+" "+string(is.Severity)+" "+string(is.Type)+" "+is.Rule+" "+
				filepath.ToSlash(strings.TrimPrefix(is.Location, dir+string(filepath.Separator))))
		}
	}
	want := []string{
		"go_deps error missing_field manifest.script.go_mod go_deps/go.mod:1:1",
		"py_deps error syntax_error manifest.script.requirement py_deps/pyproject.toml:3:32",
	}
	if !slices.Equal(got, want) {
		t.Errorf("issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rep.Summary.Invalid != 2 || rep.Summary.Errors != 2 {
		t.Errorf("summary %+v, want 2 invalid tools and 2 errors", rep.Summary)
	}

	out.Reset()
	_ = runToolsLint(context.Background(), lintParams(formatSARIF), []string{dir}, &out)
	for _, w := range []string{`"ruleId": "manifest.script.go_mod"`, `"ruleId": "manifest.script.requirement"`, `pyproject.toml"`, `"startLine": 3`, `"startColumn": 32`} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("SARIF lacks %s:\n%s", w, out.String())
		}
	}
}

// TestBinaryToolsLintDependencyFiles runs the built binary on the same
// tree: exit 1, and both findings in the text report.
func TestBinaryToolsLintDependencyFiles(t *testing.T) {
	t.Parallel()
	dir := depsTree(t)
	r := runJudge(t, nil, "tools", "lint", dir, "--format", "text")
	if r.code != exitInvalid {
		t.Fatalf("exit %d, want %d\n%s%s", r.code, exitInvalid, r.stdout, r.stderr)
	}
	for _, w := range []string{filepath.Join(dir, "go_deps", "go.mod") + ":1:1", filepath.Join(dir, "py_deps", "pyproject.toml") + ":3:32", "go.mod has no module line"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("text report lacks %q:\n%s", w, r.stdout)
		}
	}
}

// TestToolsLintSARIFSchema validates the SARIF the command writes, for
// examples/tools-broken and for the dependency-file tree, against the
// official SARIF 2.1.0 schema (internal/sarifschema).
func TestToolsLintSARIFSchema(t *testing.T) {
	t.Parallel()
	sch, err := sarifschema.Compile()
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(repoRoot(t), "examples", "tools-broken"), depsTree(t)} {
		var out bytes.Buffer
		if code := exitCode(runToolsLint(context.Background(), lintParams(formatSARIF), []string{dir}, &out)); code != exitInvalid {
			t.Fatalf("%s: exit %d, want %d", dir, code, exitInvalid)
		}
		inst, err := jsonschema.UnmarshalJSON(&out)
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: SARIF breaks the SARIF 2.1.0 schema: %v", dir, err)
		}
	}
}
