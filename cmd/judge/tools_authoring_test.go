package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestToolsNew creates one tool of every type with judge tools new in one
// directory (executors first) and expects each to lint clean at once; a
// second run refuses to overwrite, and a script whose runtime is missing
// is created but reported invalid.
func TestToolsNew(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	steps := []struct{ typ, name, runtime string }{
		{"runtime", "python_runtime", ""},
		{"mcp_server", "docs", ""},
		{"script", "summarize", "python_runtime"},
		{"mcp_tool", "search_docs", "docs"},
		{"api", "get_item", ""},
		{"knowledge", "style-guide", ""},
		{"directive", "triage", ""},
	}
	for _, s := range steps {
		var out bytes.Buffer
		err := runToolsNew(ctx, toolsNewParams{typ: s.typ, runtime: s.runtime, dir: dir}, []string{s.name}, &out)
		if err != nil {
			t.Fatalf("new %s %s: %v\n%s", s.typ, s.name, err, out.String())
		}
		if !strings.Contains(out.String(), "✅ "+s.name+"\n") || !strings.Contains(out.String(), "0 errors, 0 warnings") {
			t.Errorf("new %s %s: not clean:\n%s", s.typ, s.name, out.String())
		}
	}
	var out bytes.Buffer
	err := runToolsNew(ctx, toolsNewParams{typ: "script", runtime: "python_runtime", dir: dir}, []string{"summarize"}, &out)
	if exitCode(err) != exitBadInput || !strings.Contains(err.Error(), "never overwritten") {
		t.Errorf("second new: %v, want a refusal to overwrite", err)
	}
	out.Reset()
	err = runToolsNew(ctx, toolsNewParams{typ: "script", runtime: "ruby_runtime", dir: dir}, []string{"orphan"}, &out)
	if exitCode(err) != exitInvalid || !strings.Contains(out.String(), "ruby_runtime") {
		t.Errorf("script without its runtime: %v, want exit 1 naming ruby_runtime:\n%s", err, out.String())
	}
	if err := runToolsNew(ctx, toolsNewParams{dir: dir}, []string{"x"}, &out); exitCode(err) != exitBadInput {
		t.Errorf("no --type: %v, want bad input", err)
	}
}

// TestToolsMigrate prints a plan that changes nothing, then migrates with
// --write; the lint afterwards has the same tools, all valid.
func TestToolsMigrate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	script := "#!/usr/bin/env python3\n\"\"\"\ntool_id: shout\ntool_type: script\nversion: 1.0.0\ndescription: Upper-case a text\nexecutor: python_runtime\nparameters:\n  - name: text\n    type: string\n    required: true\n    description: The text\n\"\"\"\nimport sys\nprint(sys.argv[1].upper())\n"
	files := map[string]string{
		"python_runtime.yaml": "tool_id: python_runtime\ntool_type: runtime\nversion: \"1.0.0\"\ndescription: Python\nexecutor: subprocess\nconfig:\n  command: python3\n",
		"shout.py":            script,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := runToolsMigrate(ctx, toolsMigrateParams{}, []string{dir}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "+tool_id: shout") || !strings.Contains(out.String(), "-tool_id: shout") || !strings.Contains(out.String(), "nothing changed") {
		t.Errorf("plan:\n%s", out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "shout.py")); err != nil {
		t.Fatalf("the plan changed files: %v", err)
	}
	out.Reset()
	if err := runToolsMigrate(ctx, toolsMigrateParams{write: true}, []string{dir}, &out); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, "shout", "shout.py"))
	if err != nil || st.Mode().Perm()&0o100 == 0 {
		t.Errorf("migrated script: %v, mode %v; want it kept executable", err, st)
	}
	if _, err := os.Stat(filepath.Join(dir, "shout.py")); !os.IsNotExist(err) {
		t.Errorf("old script still there: %v", err)
	}
	out.Reset()
	if err := runToolsLint(ctx, lintParams(formatJSON), []string{dir}, &out); err != nil {
		t.Fatalf("lint after migrate: %v\n%s", err, out.String())
	}
	var rep struct {
		Results map[string]json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.Results["shout"] == nil {
		t.Errorf("lint after migrate: %v, results %v", err, rep.Results)
	}
}

// TestToolsExport exports the examples' tools in each format, and with
// --strict.
func TestToolsExport(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(repoRoot(t), "examples", "tools")
	tests := []struct {
		format string
		strict bool
		check  func(t *testing.T, v any)
	}{
		{"openai", false, func(t *testing.T, v any) {
			defs := v.([]any)
			fn := defs[0].(map[string]any)["function"].(map[string]any)
			if defs[0].(map[string]any)["type"] != "function" || fn["name"] == "" || fn["parameters"] == nil {
				t.Errorf("openai: %v", defs[0])
			}
		}},
		{"openai", true, func(t *testing.T, v any) {
			for _, d := range v.([]any) {
				fn := d.(map[string]any)["function"].(map[string]any)
				if fn["strict"] != true || fn["parameters"].(map[string]any)["additionalProperties"] != false {
					t.Errorf("openai strict: %v", fn)
				}
			}
		}},
		{"anthropic", false, func(t *testing.T, v any) {
			if d := v.([]any)[0].(map[string]any); d["input_schema"] == nil || d["name"] == nil {
				t.Errorf("anthropic: %v", d)
			}
		}},
		{"mcp", false, func(t *testing.T, v any) {
			if d := v.(map[string]any)["tools"].([]any)[0].(map[string]any); d["inputSchema"] == nil {
				t.Errorf("mcp: %v", d)
			}
		}},
	}
	for _, tt := range tests {
		p := toolsExportParams{format: newEnumFlag(tt.format, "openai", "anthropic", "mcp"), strict: tt.strict, stderr: &bytes.Buffer{}}
		var out bytes.Buffer
		if err := runToolsExport(context.Background(), p, []string{dir}, &out); err != nil {
			t.Fatalf("%s: %v", tt.format, err)
		}
		var v any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v\n%s", tt.format, err, out.String())
		}
		tt.check(t, v)
		if !strings.Contains(out.String(), "weather_forecast") {
			t.Errorf("%s: weather_forecast missing:\n%s", tt.format, out.String())
		}
	}
}

// TestToolsLintStrict lints a tool in the path convention with a field no
// declaration lists: an info note by default, a warning with --strict.
func TestToolsLintStrict(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tool := "category: web\nversion: \"1.0.0\"\ndescription: Fetch a page\nexecutor_id: \"@subprocess\"\neffects: live\nconfig:\n  command: fetch\n"
	if err := os.MkdirAll(filepath.Join(dir, "web"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "web", "fetch.yaml"), []byte(tool), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, strict := range []bool{false, true} {
		p := lintParams(formatJSON)
		p.strict = strict
		var out bytes.Buffer
		if err := runToolsLint(context.Background(), p, []string{dir}, &out); err != nil {
			t.Fatalf("strict=%v: %v\n%s", strict, err, out.String())
		}
		var rep struct {
			Summary struct{ Warnings, Errors int } `json:"summary"`
		}
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{false: 0, true: 1}[strict]; rep.Summary.Warnings != want || rep.Summary.Errors != 0 {
			t.Errorf("strict=%v: summary %+v, want %d warnings and no error\n%s", strict, rep.Summary, want, out.String())
		}
	}
}
