package manifest_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDependencyFiles lints a Python and a Go script tool whose directory
// holds one dependency file, written into a temporary directory, and
// compares every issue's severity, type, rule and file:line:column.
func TestDependencyFiles(t *testing.T) {
	t.Parallel()
	const runtimes = "py_runtime.yaml"
	tests := []struct {
		name string
		file string // pyproject.toml or go.mod
		data string
		want []string // "SEVERITY TYPE RULE LOCATION" within the tool's directory
	}{
		{name: "pyproject valid", file: "pyproject.toml", data: `[build-system]
requires = ["hatchling"]

[project]
name = "enricher"
dependencies = [
  "httpx>=0.24,<1",
  "pydantic[email] ~= 2.5",
  "tomli; python_version < '3.11'",
  "mylib @ https://example.com/mylib-1.0.tar.gz",
]

[project.optional-dependencies]
test = ["pytest>=7"]

[tool.poetry.dependencies]
python = "^3.10"
requests = { version = "~2.31", extras = ["socks"] }
local = { path = "../local", develop = true }
multi = [{ version = "<2", python = "<3.9" }, { version = "^2", python = ">=3.9" }]

torch = "==2.1.0+1"
legacy = "1!2.0"
patched = ">=1.0-1, <2.0.dev0"
either = "^1.0 || ^2.0"

[tool.poetry.group.dev.dependencies]
black = "*"
`},
		{name: "pyproject not toml", file: "pyproject.toml", data: "[project\nname = \"x\"\n",
			want: []string{"error syntax_error manifest.script.pyproject pyproject.toml:1:9"}},
		{name: "pyproject key twice", file: "pyproject.toml", data: "[project]\nname = \"x\"\nname = \"y\"\n",
			want: []string{"error syntax_error manifest.script.pyproject pyproject.toml:3:1"}},
		{name: "pyproject bad requirement", file: "pyproject.toml",
			data: "[project]\ndependencies = [\"ok\", \"bad name\"]\n[project.optional-dependencies]\nx = [\"==1\", 2]\n",
			want: []string{
				"error syntax_error manifest.script.requirement pyproject.toml:2:23",
				"error syntax_error manifest.script.requirement pyproject.toml:4:6",
				"error invalid_type manifest.type pyproject.toml:4:13",
			}},
		{name: "pyproject pip syntax", file: "pyproject.toml",
			data: "[project]\ndependencies = [\"httpx # pinned\", \"requests --hash=sha256:ab\", \"-e .\"]\n",
			want: []string{
				"error syntax_error manifest.script.requirement pyproject.toml:2:17",
				"error syntax_error manifest.script.requirement pyproject.toml:2:35",
				"error syntax_error manifest.script.requirement pyproject.toml:2:64",
			}},
		{name: "columns in characters", file: "pyproject.toml",
			data: "[project]\ndependencies = [\"a; extra == 'é'\", \"x y\"]\n",
			want: []string{"error syntax_error manifest.script.requirement pyproject.toml:2:36"}},
		{name: "syntax error column in characters", file: "pyproject.toml", data: "[project]\nname = \"é\" x\n",
			want: []string{"error syntax_error manifest.script.pyproject pyproject.toml:2:12"}},
		{name: "build-system requires", file: "pyproject.toml",
			data: "[build-system]\nrequires = [\"setuptools>=61\", \"wheel!\"]\nbuild-backend = \"setuptools.build_meta\"\n",
			want: []string{"error syntax_error manifest.script.requirement pyproject.toml:2:31"}},
		{name: "pyproject dependencies not a list", file: "pyproject.toml", data: "[project]\ndependencies = \"httpx\"\n",
			want: []string{"error invalid_type manifest.type pyproject.toml:2:1"}},
		{name: "pyproject dotted and inline", file: "pyproject.toml", data: "project = { dependencies = [\"a b\"] }\n",
			want: []string{"error syntax_error manifest.script.requirement pyproject.toml:1:29"}},
		{name: "inline tables", file: "pyproject.toml",
			data: "project = { optional-dependencies = { dev = [\"a b\"] } }\ntool = { poetry = { group = { dev = { dependencies = { rich = \"==>13\" } } } } }\n",
			want: []string{
				"error syntax_error manifest.script.requirement pyproject.toml:1:46",
				"error syntax_error manifest.script.requirement pyproject.toml:2:63",
			}},
		{name: "poetry", file: "pyproject.toml", data: `[tool.poetry.dependencies]
python = "^3.10"
rich = "==>13"
"bad name" = "1.0"
httpx = { verison = "1" }
num = 3
dangling = "^1.0 ||"
`,
			want: []string{
				"error syntax_error manifest.script.requirement pyproject.toml:7:12",
				"error syntax_error manifest.script.requirement pyproject.toml:3:8",
				"error syntax_error manifest.script.requirement pyproject.toml:4:1",
				"warning unknown_field manifest.unknown_field pyproject.toml:5:11",
				"error missing_field manifest.script.requirement pyproject.toml:5:9",
				"error invalid_type manifest.type pyproject.toml:6:7",
			}},
		{name: "go.mod valid", file: "go.mod", data: "module example.com/tool\n\ngo 1.22\n\nrequire golang.org/x/mod v0.42.0\n"},
		{name: "go.mod no module", file: "go.mod", data: "go 1.22\n",
			want: []string{"error missing_field manifest.script.go_mod go.mod:1:1"}},
		{name: "go.mod bad require", file: "go.mod", data: "module x\n\nrequire (\n\tgolang.org/x/mod\n)\n",
			want: []string{"error syntax_error manifest.script.go_mod go.mod:4:2"}},
		{name: "go.mod unterminated", file: "go.mod", data: "module \"x\n",
			want: []string{"error syntax_error manifest.script.go_mod go.mod:1:10"}},
		{name: "go.mod unknown directive", file: "go.mod", data: "module x\nfoo bar\nbaz\n",
			want: []string{"error syntax_error manifest.script.go_mod go.mod:2:1", "error syntax_error manifest.script.go_mod go.mod:3:1"}},
		{name: "too large", file: "go.mod", data: "module x\n" + strings.Repeat("// x\n", 1<<18),
			want: []string{"info not_checked manifest.script.dependencies go.mod:1:1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			files := map[string]string{
				runtimes:       "tool_id: py_runtime\ntool_type: runtime\nversion: \"1.0.0\"\ndescription: Python\nexecutor: subprocess\nconfig:\n  command: python3\n",
				"t/tool.yaml":  "tool_id: t\ntool_type: script\nversion: \"1.0.0\"\ndescription: A tool with dependencies the lint reads from its files\nexecutor: py_runtime\nconfig:\n  entrypoint: main.py\n",
				"t/main.py":    "print('hi')\n",
				"t/" + tt.file: tt.data,
			}
			for name, data := range files {
				writeFile(t, dir, name, []byte(data))
			}
			rep := lintDir(t, dir)
			res := rep.Results["t"]
			if res == nil {
				t.Fatalf("no result for t in %v", rep.Keys())
			}
			var got []string
			prefix := filepath.Join(dir, "t") + string(filepath.Separator)
			for _, is := range res.Issues {
				got = append(got, string(is.Severity)+" "+string(is.Type)+" "+is.Rule+" "+filepath.ToSlash(strings.TrimPrefix(is.Location, prefix)))
				if len(is.Message) < 10 || is.Suggestion == "" {
					t.Errorf("issue %+v lacks a message or a suggestion", is)
				}
			}
			slices.Sort(got)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if wantValid := !slices.ContainsFunc(tt.want, func(s string) bool { return strings.HasPrefix(s, "error ") }); res.Valid != wantValid {
				t.Errorf("valid = %v, want %v", res.Valid, wantValid)
			}
		})
	}
}
