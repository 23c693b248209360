package manifest

import (
	"strings"
	"testing"
	"time"
)

// checkDepFindings fails on a finding that a reader could not have made:
// no position, no message, or too many.
func checkDepFindings(t *testing.T, what string, fs []depFinding, elapsed time.Duration) {
	t.Helper()
	if len(fs) > maxDepFindings {
		t.Fatalf("%s: %d findings, more than %d", what, len(fs), maxDepFindings)
	}
	for _, f := range fs {
		if f.pos.Line < 1 || f.pos.Col < 1 || f.rule == "" || len(f.msg) < 10 || f.sugg == "" {
			t.Fatalf("%s: malformed finding %+v", what, f)
		}
	}
	// A bound that only a hang (or quadratic work) exceeds, even on a
	// loaded machine running other tests in parallel.
	if elapsed > 10*time.Second {
		t.Fatalf("%s: took %v", what, elapsed)
	}
}

// FuzzPyproject runs the pyproject.toml reader on arbitrary input: it
// never panics, never hangs, and every finding has a position.
func FuzzPyproject(f *testing.F) {
	for _, s := range []string{
		"",
		"[project]\nname = \"x\"\ndependencies = [\"httpx>=0.24\", \"pydantic >> 2\"]\n",
		"[project.optional-dependencies]\ndev = [\"pytest\", 3]\n",
		"project = {dependencies = [\"a\", \"b c\"]}\n",
		"[tool.poetry.dependencies]\npython = \"^3.10\"\nrequests = {version = \"~2.31\", extras = [\"socks\"]}\nbad = \"==>1\"\n",
		"[tool.poetry.group.dev.dependencies]\npytest = [{version = \"^7\", python = \"<3.12\"}, {git = \"https://x\"}]\n",
		"[project\nname = 1\n",
		"a = 1\na = 2\n",
		"x = [[[[[[[[[[1]]]]]]]]]]\n",
		"s = \"\"\"\nunterminated\n",
		"[tool.poetry.dependencies]\n\"bad name!\" = {verison = \"1\"}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		fs := pyprojectFindings(data)
		checkDepFindings(t, "pyproject.toml", fs, time.Since(start))
	})
}

// FuzzGoMod runs the go.mod reader on arbitrary input: it never panics,
// never hangs, and every finding has a position.
func FuzzGoMod(f *testing.F) {
	for _, s := range []string{
		"",
		"module example.com/x\n\ngo 1.22\n",
		"go 1.22\nrequire golang.org/x/mod v0.42.0\n",
		"module example.com/x\nrequire (\n\tgolang.org/x/mod v0.42\n)\n",
		"module \"unterminated\n",
		"module example.com/x\nreplace a => \n",
		"module a\nmodule b\n",
		"module example.com/x\ntoolchain go1.22.0\ngodebug default=go1.21\nretract [v1.0.0, v1.1.0]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		fs := goModFindings(data)
		checkDepFindings(t, "go.mod", fs, time.Since(start))
	})
}

// TestDepReadersDeep checks that deeply nested input, as large as a file
// may be, is read in bounded time, and is reported: each input is broken,
// and the dependency array stops at the findings cap.
func TestDepReadersDeep(t *testing.T) {
	t.Parallel()
	n := MaxFileBytes/2 - 10
	for name, data := range map[string]string{
		"toml array":  "x = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n",
		"toml table":  "x = " + strings.Repeat("{a = ", n/5) + "1" + strings.Repeat("}", n/5) + "\n",
		"toml deps":   "[project]\ndependencies = [" + strings.Repeat("\"a b\", ", n/7) + "]\n",
		"go.mod open": "module x\nrequire (\n" + strings.Repeat("(", n) + "\n",
	} {
		start := time.Now()
		var fs []depFinding
		if strings.HasPrefix(name, "go.mod") {
			fs = goModFindings([]byte(data))
		} else {
			fs = pyprojectFindings([]byte(data))
		}
		checkDepFindings(t, name, fs, time.Since(start))
		switch {
		case name == "toml deps" && len(fs) != maxDepFindings:
			t.Errorf("%s: %d findings, want the cap of %d", name, len(fs), maxDepFindings)
		case len(fs) == 0:
			t.Errorf("%s: no finding", name)
		}
	}
}
