package manifest_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
)

func TestRegistry(t *testing.T) {
	t.Parallel()
	reg, err := manifest.LoadDirs(context.Background(), validTree)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(reg.Tools()); n != 14 {
		t.Errorf("Tools() has %d tools, want 14", n)
	}
	tests := []struct {
		id       string
		typ      manifest.ToolType
		form     manifest.Form
		executor string
	}{
		{"email_enricher", manifest.Script, manifest.FormDir, "python_runtime"},
		{"slugify", manifest.Script, manifest.FormEmbedded, "python_runtime"},
		{"cleanup_tmp", manifest.Script, manifest.FormEmbedded, "bash_runtime"},
		{"word_count", manifest.Script, manifest.FormEmbedded, "python_runtime"},
		{"bash_runtime", manifest.Runtime, manifest.FormFile, "subprocess"},
		{"weather_forecast", manifest.API, manifest.FormFile, "http_client"},
		{"api-design", manifest.Knowledge, manifest.FormMarkdown, ""},
		{"review_code", manifest.Directive, manifest.FormMarkdown, ""},
		{"release_notes", manifest.Directive, manifest.FormXML, ""},
		{"http_client", manifest.Primitive, manifest.FormBuiltin, ""},
	}
	for _, tt := range tests {
		tool, ok := reg.Lookup(tt.id)
		if !ok {
			t.Errorf("Lookup(%q) found nothing", tt.id)
			continue
		}
		if tool.Type != tt.typ || tool.Form != tt.form || tool.Executor != tt.executor {
			t.Errorf("%s: type %s form %s executor %q, want %s %s %q", tt.id, tool.Type, tool.Form, tool.Executor, tt.typ, tt.form, tt.executor)
		}
	}
	if _, ok := reg.Lookup("nope"); ok {
		t.Error("Lookup of an unknown id succeeded")
	}
	w, _ := reg.Lookup("weather_forecast")
	if !slicesEqual(w.Env, []string{"WEATHER_API_KEY"}) {
		t.Errorf("Env = %v, want [WEATHER_API_KEY]", w.Env)
	}
	b, err := w.SchemaJSON()
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	props, _ := schema["properties"].(map[string]any)
	lat, _ := props["lat"].(map[string]any)
	if schema["type"] != "object" || lat["type"] != "number" || lat["minimum"] != -90.0 || schema["additionalProperties"] != false {
		t.Errorf("schema = %s", b)
	}
	if req, _ := schema["required"].([]any); len(req) != 2 {
		t.Errorf("required = %v, want lat and lon", schema["required"])
	}
	g, _ := reg.Lookup("github_create_issue")
	if g.Schema()["required"] == nil {
		t.Errorf("input_schema not kept: %v", g.Schema())
	}
}

func slicesEqual(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }

func TestLoadFiles(t *testing.T) {
	t.Parallel()
	files := []manifest.File{
		{Path: "python_runtime.yaml", Content: "tool_id: python_runtime\ntool_type: runtime\nversion: \"1.0.0\"\ndescription: Python\nexecutor: subprocess\nconfig:\n  command: python3\n"},
		{Path: "enrich/tool.yaml", Content: "tool_id: enrich\ntool_type: script\nversion: \"1.0.0\"\ndescription: Enrich\nexecutor: python_runtime\nconfig:\n  entrypoint: main.py\n"},
		{Path: "enrich/main.py", Content: "print(1)\n"},
		{Path: "gone/tool.yaml", Content: "tool_id: gone\ntool_type: script\nversion: \"1.0.0\"\ndescription: Gone, a script whose entrypoint was deleted\nexecutor: python_runtime\nconfig:\n  entrypoint: main.py\n"},
	}
	reg, err := manifest.LoadFiles(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := manifest.Lint(context.Background(), reg)
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Results["enrich"]; r == nil || !r.Valid {
		t.Errorf("enrich = %+v, want valid", r)
	}
	r := rep.Results["gone"]
	if r == nil || r.Valid || r.Issues[0].Location != "gone/tool.yaml:7:15" || r.Issues[0].Type != result.FileMissing {
		t.Errorf("gone = %+v, want file_missing at gone/tool.yaml:7:15", r)
	}

	bad := []struct {
		name  string
		files []manifest.File
	}{
		{"absolute", []manifest.File{{Path: "/etc/passwd", Content: "x"}}},
		{"dotdot", []manifest.File{{Path: "a/../../b.yaml", Content: "x"}}},
		{"twice", []manifest.File{{Path: "a.yaml", Content: "x"}, {Path: "a.yaml", Content: "y"}}},
		{"huge", []manifest.File{{Path: "a.yaml", Content: strings.Repeat("x", manifest.MaxFileBytes+1)}}},
	}
	for _, tt := range bad {
		_, err := manifest.LoadFiles(context.Background(), tt.files)
		var le *manifest.LoadError
		if !errors.As(err, &le) {
			t.Errorf("%s: err = %v, want *LoadError", tt.name, err)
		}
	}
}

func TestLoadDirsErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "f.yaml")
	if err := os.WriteFile(file, []byte("x: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "absent"), file} {
		_, err := manifest.LoadDirs(context.Background(), p)
		var le *manifest.LoadError
		if !errors.As(err, &le) || le.Path != p {
			t.Errorf("LoadDirs(%s) = %v, want *LoadError naming it", p, err)
		}
	}
}

// TestSymlinks checks that links never lead out of a tool: an entrypoint
// through a link to outside is a security issue, a link at the top of the
// tree is not followed, and a link inside the tool's directory is fine.
func TestSymlinks(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.py"), []byte("print(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(rel, data string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, rel string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(root, rel)); err != nil {
			t.Skipf("symbolic links unavailable: %v", err)
		}
	}
	write("py.yaml", "tool_id: py\ntool_type: runtime\nversion: \"1.0.0\"\ndescription: Python\nexecutor: subprocess\nconfig:\n  command: python3\n")
	manifestOf := func(id string) string {
		return "tool_id: " + id + "\ntool_type: script\nversion: \"1.0.0\"\ndescription: A script that the symlink tests load\nexecutor: py\nconfig:\n  entrypoint: main.py\n"
	}
	write("out/tool.yaml", manifestOf("out"))
	link(filepath.Join(outside, "secret.py"), "out/main.py")
	write("in/tool.yaml", manifestOf("in"))
	write("in/real.py", "print(1)\n")
	link("real.py", "in/main.py")
	link(outside, "linked_dir")

	rep := lintDir(t, root)
	got := findings(rep, root)
	want := []string{
		"linked_dir linked_dir:1:1 security_issue manifest.symlink",
		"out out/tool.yaml:7:15 security_issue manifest.script.entrypoint_escape",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLintConcurrent lints one registry from many goroutines: a lint never
// changes the registry, so every report is the same.
func TestLintConcurrent(t *testing.T) {
	t.Parallel()
	reg, err := manifest.LoadDirs(context.Background(), validTree)
	if err != nil {
		t.Fatal(err)
	}
	first, err := manifest.Lint(context.Background(), reg)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan int, 8)
	for range 8 {
		go func() {
			rep, err := manifest.Lint(context.Background(), reg)
			if err != nil {
				done <- -1
				return
			}
			done <- rep.Summary.Infos
		}()
	}
	for range 8 {
		if n := <-done; n != first.Summary.Infos {
			t.Errorf("a concurrent lint found %d notes, want %d", n, first.Summary.Infos)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := manifest.Lint(ctx, reg); !errors.Is(err, context.Canceled) {
		t.Errorf("Lint with a cancelled context = %v", err)
	}
}

func FuzzLoadFiles(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(validTree, "*"))
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(filepath.Base(p), string(data))
		}
	}
	f.Add("a.yaml", "a: &x [*x]\n")
	f.Add("b.yaml", "a: &a [1,2]\nb: &b [*a,*a,*a]\nc: [*b,*b,*b]\n")
	f.Add("c.xml", "<directive name='x'><metadata></directive>")
	f.Add("d.md", "---\nid: d\n---\n")
	f.Add("e.py", "\"\"\"\ntool_id: e\ntool_type: script\n\"\"\"\n__version__ = '1'\n")
	f.Add("f.sh", "#!/bin/sh\n# tool_id: f\n#tool_type: script\n")
	f.Add("g.yaml", "\xef\xbb\xbftool_id: g\ntool_type: primitive\n")
	f.Add("h.yaml", "tool_id: h\ninput_schema:\n  $schema: https://x.test/s\n  properties: {a: {$ref: 'https://x.test/d#/a'}}\n")
	f.Fuzz(func(t *testing.T, name, content string) {
		if !strings.Contains(name, ".") || strings.ContainsAny(name, "/\\") || name == "." || name == ".." {
			return
		}
		reg, err := manifest.LoadFiles(context.Background(), []manifest.File{{Path: name, Content: content}})
		if err != nil {
			var le *manifest.LoadError
			if !errors.As(err, &le) {
				t.Fatalf("LoadFiles: %v is not a *LoadError", err)
			}
			return
		}
		rep, err := manifest.Lint(context.Background(), reg)
		if err != nil {
			t.Fatal(err)
		}
		for key, r := range rep.Results {
			if err := result.Check(r); err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			for _, is := range r.Issues {
				if _, _, _, ok := manifest.SplitLocation(is.Location); !ok {
					t.Fatalf("%s: location %q is not file:line:column", key, is.Location)
				}
			}
		}
	})
}

func FuzzLintMCP(f *testing.F) {
	f.Add(`{"tools": [{"name": "a", "description": "b", "inputSchema": {"type": "object"}}]}`)
	f.Add(`[{"name": "a b", "inputSchema": {"type": "object", "properties": {"x": {"type": "array"}}}}]`)
	f.Add(`{"result": {"tools": [{"name": "x", "inputSchema": {"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/a"}}}}]}}`)
	f.Add(`{"name": "t", "inputSchema": {"type": "object", "properties": {"p": {"pattern": "("}}}}`)
	f.Fuzz(func(t *testing.T, data string) {
		rep, err := manifest.LintMCP(context.Background(), "defs.json", []byte(data))
		if err != nil {
			var me *manifest.MCPError
			if !errors.As(err, &me) {
				t.Fatalf("LintMCP: %v is not an *MCPError", err)
			}
			return
		}
		for key, r := range rep.Results {
			if err := result.Check(r); err != nil {
				t.Fatalf("%s: %v", key, err)
			}
		}
	})
}

// TestYAMLLimits checks that inputs the YAML parser would take minutes on
// are refused first, as a located syntax error of the tool.
func TestYAMLLimits(t *testing.T) {
	t.Parallel()
	var keys strings.Builder
	for i := range manifest.MaxBlockLines + 1 {
		keys.WriteString("k" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + ": v\n")
	}
	tests := []struct {
		name, src, loc, msg string
	}{
		{"brackets", "a: " + strings.Repeat("[", 100000), "a.yaml:1:68", "brackets nest deeper than 64 levels"},
		{"dashes", strings.Repeat("- ", 1000) + "x", "a.yaml:1:129", "more than 64 nested sequences"},
		{"indent", "a:\n" + strings.Repeat(" ", 300) + "b: 1\n", "a.yaml:2:257", "indented deeper than 256 columns"},
		{"block lines", keys.String(), "a.yaml:5001:1", "more than 5000 lines of block YAML"},
		{"aliases", "a: &a [" + strings.Repeat("x,", 1000) + "]\nb: [" + strings.Repeat("*a,", 1000) + "]\n", "a.yaml:2:",
			"expands to more than 100000 values, 99099 of them through aliases"},
		// A long list without aliases says what limit it hit, not "through aliases".
		{"values", "a: [" + strings.Repeat("1,", 100001) + "]\n", "a.yaml:1:", "the document has more than 100000 values (scalars, lists and mappings, counted one by one)"},
		// Brackets in a quoted string count: the message says so (decisions §31).
		{"brackets in a string", "description: '" + strings.Repeat("[", 65) + "'\n", "a.yaml:1:79", "counted everywhere before parsing, also inside quoted strings"},
		{"two documents", "a: 1\n---\nb: 2\n", "a.yaml:3:", "more than one YAML document"},
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
			r := rep.Results["a.yaml"]
			if r == nil || len(r.Issues) != 1 {
				t.Fatalf("results %v, want one issue for a.yaml", rep.Results)
			}
			is := r.Issues[0]
			if is.Type != result.SyntaxError || !strings.HasPrefix(is.Location, tt.loc) || !strings.Contains(is.Message, tt.msg) {
				t.Errorf("issue %+v, want syntax_error at %s saying %q", is, tt.loc, tt.msg)
			}
		})
	}
}
