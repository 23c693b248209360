package manifest_test

import (
	"context"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/broken/*.txtar")

// validTree is the fixture tree with one valid tool of each type.
const validTree = "testdata/tools"

// copyTree copies the valid fixture tree into a temporary directory.
func copyTree(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(validTree, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(validTree, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// lintDir loads and lints dir.
func lintDir(t *testing.T, dir string) *manifest.Report {
	t.Helper()
	reg, err := manifest.LoadDirs(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := manifest.Lint(context.Background(), reg)
	if err != nil {
		t.Fatal(err)
	}
	for key, r := range rep.Results {
		if err := result.Check(r); err != nil {
			t.Errorf("result of %s breaks the result schema: %v", key, err)
		}
	}
	return rep
}

// findings renders the errors and warnings of rep as "KEY LOCATION TYPE
// RULE" lines, with dir stripped from locations and keys, sorted.
func findings(rep *manifest.Report, dir string) []string {
	var out []string
	for key, r := range rep.Results {
		for _, is := range r.Issues {
			if is.Severity == result.Info {
				continue
			}
			k := strings.TrimPrefix(filepath.ToSlash(key), filepath.ToSlash(dir)+"/")
			loc := strings.TrimPrefix(filepath.ToSlash(is.Location), filepath.ToSlash(dir)+"/")
			out = append(out, k+" "+loc+" "+string(is.Type)+" "+is.Rule)
		}
	}
	slices.Sort(out)
	return out
}

func TestValidTree(t *testing.T) {
	t.Parallel()
	rep := lintDir(t, validTree)
	if got := findings(rep, validTree); len(got) > 0 {
		t.Errorf("valid tree has findings:\n%s", strings.Join(got, "\n"))
	}
	want := []string{"api-design", "bash_runtime", "cleanup_tmp", "docs_mcp", "email_enricher", "github_create_issue",
		"github_mcp", "python_runtime", "release_notes", "review_code", "slugify", "subprocess", "weather_forecast", "word_count"}
	if got := rep.Keys(); !slices.Equal(got, want) {
		t.Errorf("keys = %v, want %v", got, want)
	}
	for _, typ := range manifest.ToolTypes() {
		if rep.Summary.ByType[string(typ)] == 0 {
			t.Errorf("the valid tree has no %s tool", typ)
		}
	}
	if rep.Summary.Invalid != 0 || rep.Summary.Errors != 0 || rep.Summary.Warnings != 0 {
		t.Errorf("summary = %+v, want no errors or warnings", rep.Summary)
	}
	// Every script parsed, so nothing is left undecided.
	for key, r := range rep.Results {
		if len(r.Issues) != 0 || r.Confidence != 1 {
			t.Errorf("%s: %d issues, confidence %v; want none and 1", key, len(r.Issues), r.Confidence)
		}
	}
}

// TestScriptNotChecked checks that a script in a language judge does not
// parse is reported as not checked, with lower confidence, never passed.
func TestScriptNotChecked(t *testing.T) {
	t.Parallel()
	reg, err := manifest.LoadFiles(context.Background(), []manifest.File{
		{Path: "rb_runtime.yaml", Content: "tool_id: rb_runtime\ntool_type: runtime\nversion: \"1.0.0\"\ndescription: Ruby\nexecutor: subprocess\nconfig:\n  command: ruby\n"},
		{Path: "greet/tool.yaml", Content: "tool_id: greet\ntool_type: script\nversion: \"1.0.0\"\ndescription: Greet the user in Ruby, a language judge does not parse\nexecutor: rb_runtime\nconfig:\n  entrypoint: main.rb\n"},
		{Path: "greet/main.rb", Content: "puts 'hi'\n"},
		{Path: "shebang/tool.yaml", Content: "tool_id: shebang\ntool_type: script\nversion: \"1.0.0\"\ndescription: Shebang\nexecutor: rb_runtime\nconfig:\n  entrypoint: run\n"},
		{Path: "shebang/run", Content: "#!/usr/bin/env python3\nprint(\n"},
	})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := manifest.Lint(context.Background(), reg)
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Results["greet"]
	if !r.Valid || len(r.Issues) != 1 || r.Issues[0].Type != result.NotChecked || r.Issues[0].Location != "greet/tool.yaml:7:15" || r.Confidence >= 1 {
		t.Errorf("greet = %+v, want valid with one not_checked note at greet/tool.yaml:7:15 and confidence below 1", r)
	}
	// A file without extension is parsed by its shebang's interpreter.
	s := rep.Results["shebang"]
	if s.Valid || s.Issues[0].Type != result.SyntaxError || !strings.HasPrefix(s.Issues[0].Location, "shebang/run:") {
		t.Errorf("shebang = %+v, want a Python syntax error in shebang/run", s)
	}
}

// overlay copies the valid tree into a temporary directory and applies
// the archive file to it: its files are written, and the paths of its "rm"
// section removed first. It returns the directory, the archive, the lines
// of its want section and that section's index (-1 when it has none).
func overlay(t *testing.T, file string) (dir string, ar *txtar.Archive, want []string, wantAt int) {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir = copyTree(t)
	wantAt = -1
	for i, f := range ar.Files {
		switch f.Name {
		case "want":
			wantAt = i
			for _, line := range strings.Split(string(f.Data), "\n") {
				if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
					want = append(want, line)
				}
			}
		case "rm":
			for _, p := range strings.Fields(string(f.Data)) {
				if err := os.RemoveAll(filepath.Join(dir, p)); err != nil {
					t.Fatal(err)
				}
			}
		default:
			writeFile(t, dir, f.Name, f.Data)
		}
	}
	return dir, ar, want, wantAt
}

// writeFile writes data to the slash-separated path name below dir,
// making its directories.
func writeFile(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBroken overlays each testdata/broken/*.txtar on the valid tree and
// compares every error and warning (tool, file:line:column, type, rule)
// with the archive's want section: an unexpected finding fails, and so
// does an expected one that never came. A section named "rm" lists files
// to remove from the tree first.
func TestBroken(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/broken/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test archives: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			dir, ar, want, wantAt := overlay(t, file)
			got := findings(lintDir(t, dir), dir)
			if *update {
				data := []byte(strings.Join(got, "\n") + "\n")
				if wantAt < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "want", Data: data})
				} else {
					ar.Files[wantAt].Data = data
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			compareFindings(t, got, want)
		})
	}
}

// compareFindings fails for each finding not wanted and each wanted one
// that never came.
func compareFindings(t *testing.T, got, want []string) {
	t.Helper()
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("unexpected finding: %s", g)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("missing finding: %s", w)
		}
	}
}
