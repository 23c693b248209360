package manifest_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/location"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
)

// FuzzScriptDependencies lints a script tool whose config.requires holds
// one fuzzed requirement and whose directory holds a fuzzed
// requirements.txt and package.json, through manifest.LoadFiles as POST
// /v1/tools/lint does. It never panics; every finding is located at a
// line and column inside the file it names (a requirements.txt finding
// at column 1 of a line that exists, each line at most once, a blank or
// comment line never); package.json is refused exactly when it is not a
// JSON object; and a valid requirement added to requirements.txt adds no
// finding.
func FuzzScriptDependencies(f *testing.F) {
	for _, s := range []struct{ requires, reqs, pkg string }{
		{"httpx>=0.24,<1", "requests==2.31\n# pinned\n\n-r other.txt\n--hash=sha256:x\n", `{"name": "t", "dependencies": {"left-pad": "^1"}}`},
		{"bad name", "not a req !!\r\nok==1 # fine\nx @ https://example.com/x.tar.gz\n", `{"a": 1`},
		{"", "\xff\xfe", `null`},
		{"==1", "-e .\n--index-url https://x\n-x\n", `[]`},
		{"a; python_version < '3.11'", strings.Repeat("a==1\n", 50), "\ufeff{}"},
		{"\n", "requests [security] >= 2.8.1, == 2.8.*\n", `{"a": 1, "a": 2}`},
	} {
		f.Add(s.requires, s.reqs, s.pkg)
	}
	f.Fuzz(func(t *testing.T, requires, reqs, pkg string) {
		man := "tool_id: s\ntool_type: script\nversion: 1.0.0\ndescription: Runs a script.\nconfig:\n  entrypoint: main.py\n  requires: [" + location.Quote(requires) + "]\n"
		files := map[string]string{"t/s/tool.yaml": man, "t/s/main.py": "print('hi')\n", "t/s/requirements.txt": reqs, "t/s/package.json": pkg}
		lint := func(reqs string) []result.Issue {
			var fs []manifest.File
			for p, c := range files {
				if p == "t/s/requirements.txt" {
					c = reqs
				}
				fs = append(fs, manifest.File{Path: p, Content: c})
			}
			reg, err := manifest.LoadFiles(context.Background(), fs)
			if err != nil {
				t.Fatalf("LoadFiles: %v", err)
			}
			rep, err := manifest.Lint(context.Background(), reg)
			if err != nil {
				t.Fatal(err)
			}
			var all []result.Issue
			for key, r := range rep.Results {
				if err := result.Check(r); err != nil {
					t.Fatalf("%s: %v", key, err)
				}
				all = append(all, r.Issues...)
			}
			return all
		}
		issues := lint(reqs)
		reqLines := strings.Split(reqs, "\n")
		seen := map[int]bool{}
		pkgRefused := false
		for _, is := range issues {
			file, line, col, ok := manifest.SplitLocation(is.Location)
			content, given := files[file]
			if !ok || !given {
				t.Fatalf("issue %q at %q, not file:line:column in a file given", is.Message, is.Location)
			}
			if lines := strings.Count(content, "\n") + 1; line < 1 || line > lines || col < 1 {
				t.Fatalf("issue %q at %q, outside the file's %d lines", is.Message, is.Location, lines)
			}
			switch is.Rule {
			case "manifest.script.requirement":
				if file != "t/s/requirements.txt" {
					continue
				}
				text := strings.TrimSpace(strings.TrimRight(reqLines[line-1], "\r"))
				if col != 1 || seen[line] || text == "" || strings.HasPrefix(text, "#") {
					t.Fatalf("requirements.txt line %d %q: finding %q at %q", line, text, is.Message, is.Location)
				}
				seen[line] = true
			case "manifest.script.package_json":
				pkgRefused = true
			}
		}
		v, err := jsonvalue.Decode([]byte(pkg), 0)
		_, object := v.(map[string]any)
		if wantRefused := err != nil || !object; pkgRefused != wantRefused {
			t.Fatalf("package.json %q: refused %v, want %v (a JSON object is accepted, nothing else)", pkg, pkgRefused, wantRefused)
		}
		if !strings.HasSuffix(reqs, "\n") && reqs != "" {
			return
		}
		if more := lint(reqs + "requests==2.31\n"); len(more) != len(issues) {
			b, _ := json.Marshal(more)
			t.Fatalf("a valid requirement added to requirements.txt changed %d findings into %d: %s", len(issues), len(more), b)
		}
	})
}

// FuzzEntrypointRoots lints, from a real directory, a script tool whose
// entrypoint is any string, beside a symbolic link that leads out of the
// tool's directory to a script with a syntax error: whatever the string,
// the lint never reads that script (no syntax error is found, and no
// finding names it), and never locates a finding outside the root.
func FuzzEntrypointRoots(f *testing.F) {
	for _, s := range []string{"main.py", "out/secret.py", "../outside/secret.py", "../../outside/secret.py", "/etc/passwd",
		"./out/../out/secret.py", "sub/../main.py", `out\secret.py`, "C:/x.py", "out", "", ".", "main.py/", "%2e%2e/secret.py"} {
		f.Add(s)
	}
	base := f.TempDir()
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	dir := filepath.Join(root, "t", "s")
	for _, d := range []string{dir, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	const secret = "def SECRET_OUTSIDE(:\n"
	for name, content := range map[string]string{filepath.Join(outside, "secret.py"): secret, filepath.Join(dir, "main.py"): "print('hi')\n"} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		f.Skipf("no symbolic links here: %v", err)
	}
	man := filepath.Join(dir, "tool.yaml")
	f.Fuzz(func(t *testing.T, ep string) {
		if strings.ContainsRune(ep, 0) {
			return
		}
		data := "tool_id: s\ntool_type: script\nversion: 1.0.0\ndescription: Runs a script.\nconfig:\n  entrypoint: " + location.Quote(ep) + "\n"
		if err := os.WriteFile(man, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		reg, err := manifest.LoadDirs(context.Background(), root)
		if err != nil {
			t.Fatalf("LoadDirs: %v", err)
		}
		rep, err := manifest.Lint(context.Background(), reg)
		if err != nil {
			t.Fatal(err)
		}
		for key, r := range rep.Results {
			for _, is := range r.Issues {
				file, _, _, _ := manifest.SplitLocation(is.Location)
				rel, err := filepath.Rel(root, file)
				if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
					t.Fatalf("%s: issue %q located outside the root: %q", key, is.Message, is.Location)
				}
				if is.Rule == "manifest.script.syntax" && is.Severity == result.Error || strings.Contains(is.Message, "SECRET_OUTSIDE") {
					t.Fatalf("entrypoint %q: the script outside the tool's directory was read: %s: %s", ep, is.Location, is.Message)
				}
			}
		}
	})
}
