package code

import (
	"context"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fzipp/gocyclo"
)

// The differential tests run judge's complexity count and the reference
// tool of each language over real code that was not written here, and
// require per-function agreement on at least minAgreement of the
// functions, listing every disagreement in the log.
const minAgreement = 0.99

// missingTool fails the test under CI=true, where scripts/test installs
// every reference tool, and skips it otherwise.
func missingTool(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: scripts/test installs it)", msg)
	}
	t.Skipf("%s; skipping the differential test (scripts/test installs it)", msg)
}

// sample returns every step-th of the sorted paths, a fixed, deterministic
// subset.
func sample(paths []string, step int) []string {
	step *= sampleScale
	sort.Strings(paths)
	var out []string
	for i := 0; i < len(paths); i += step {
		out = append(out, paths[i])
	}
	return out
}

// reference is one function as a reference tool reports it.
type reference struct {
	file       string
	line       int
	name       string
	complexity int
}

// compare matches the reference functions with ours by file and line
// (several functions may share a line: each reference function takes one
// of ours with the same complexity if there is one) and reports the
// agreement.
func compare(t *testing.T, lang Language, refs []reference) {
	t.Helper()
	ours := map[string]map[int][]Function{}
	for _, r := range refs {
		if ours[r.file] != nil {
			continue
		}
		src, err := os.ReadFile(r.file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(context.Background(), lang, src)
		if err != nil {
			t.Fatalf("%s: %v", r.file, err)
		}
		byLine := map[int][]Function{}
		for _, fn := range f.Functions() {
			byLine[fn.Line] = append(byLine[fn.Line], fn)
		}
		ours[r.file] = byLine
	}
	agree := 0
	var bad []string
	for _, r := range refs {
		cands := ours[r.file][r.line]
		i := slices.IndexFunc(cands, func(fn Function) bool { return fn.Complexity == r.complexity })
		if i >= 0 {
			agree++
			ours[r.file][r.line] = slices.Delete(cands, i, i+1)
			continue
		}
		got := "no function on that line"
		if len(cands) > 0 {
			var s []string
			for _, c := range cands {
				s = append(s, fmt.Sprintf("%s=%d", c.Name, c.Complexity))
			}
			got = strings.Join(s, ", ")
		}
		bad = append(bad, fmt.Sprintf("%s:%d %s: reference %d, ours %s", r.file, r.line, r.name, r.complexity, got))
	}
	if len(refs) == 0 {
		t.Fatal("the reference tool reported no function")
	}
	rate := float64(agree) / float64(len(refs))
	t.Logf("%s: %d of %d functions agree (%.2f%%), %d disagree", lang, agree, len(refs), 100*rate, len(bad))
	for _, b := range bad {
		t.Logf("disagreement: %s", b)
	}
	if rate < minAgreement {
		t.Errorf("%s: agreement %.4f is under %.2f", lang, rate, minAgreement)
	}
}

// pythonStdlib finds the standard library of the python3 that radon runs
// on.
func pythonStdlib(t *testing.T) string {
	matches, _ := filepath.Glob("/usr/lib/python3.*/os.py")
	if len(matches) == 0 {
		missingTool(t, "the Debian python3 standard library (/usr/lib/python3.*) is not installed")
	}
	sort.Strings(matches)
	return filepath.Dir(matches[len(matches)-1])
}

func TestComplexityMatchesRadon(t *testing.T) {
	t.Parallel()
	radon, err := exec.LookPath("radon")
	if err != nil {
		missingTool(t, "radon is not installed (apt-get install radon)")
	}
	dir := pythonStdlib(t)
	all, _ := filepath.Glob(filepath.Join(dir, "*.py"))
	files := sample(all, 2)
	out, err := exec.Command(radon, append([]string{"cc", "-j"}, files...)...).Output()
	if err != nil {
		t.Fatalf("radon: %v", err)
	}
	type block struct {
		Type       string  `json:"type"`
		Name       string  `json:"name"`
		Class      string  `json:"classname"`
		Line       int     `json:"lineno"`
		Complexity int     `json:"complexity"`
		Closures   []block `json:"closures"`
	}
	var report map[string]json.RawMessage
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("radon output: %v", err)
	}
	var refs []reference
	var add func(file string, b block)
	add = func(file string, b block) {
		if b.Type == "class" {
			return // its methods are listed on their own
		}
		name := b.Name
		if b.Class != "" {
			name = b.Class + "." + name
		}
		refs = append(refs, reference{file, b.Line, name, b.Complexity})
		for _, c := range b.Closures {
			add(file, c)
		}
	}
	for _, file := range slices.Sorted(maps.Keys(report)) {
		var blocks []block
		if err := json.Unmarshal(report[file], &blocks); err != nil {
			t.Logf("radon could not analyse %s: %s", file, report[file])
			continue
		}
		for _, b := range blocks {
			add(file, b)
		}
	}
	t.Logf("radon over %d files of %s", len(files), dir)
	compare(t, Python, refs)
}

func TestComplexityMatchesGocyclo(t *testing.T) {
	t.Parallel()
	root := filepath.Join(runtimeGOROOT(t), "src")
	var all []string
	for _, pkg := range []string{"fmt", "strconv", "net/http", "go/parser", "encoding/json", "regexp/syntax", "text/template", "compress/flate", "sort", "time"} {
		files, _ := filepath.Glob(filepath.Join(root, pkg, "*.go"))
		all = append(all, files...)
	}
	files := sample(all, 2)
	var refs []reference
	for _, file := range files {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range gocyclo.AnalyzeASTFile(f, fset, nil) {
			refs = append(refs, reference{file, s.Pos.Line, s.FuncName, s.Complexity})
		}
	}
	t.Logf("gocyclo over %d files of %s", len(files), root)
	compare(t, Go, refs)
}

func runtimeGOROOT(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		missingTool(t, "go env GOROOT: %v", err)
	}
	return strings.TrimSpace(string(out))
}

var eslintComplexity = regexp.MustCompile(`has a complexity of (\d+)`)

func TestComplexityMatchesESLint(t *testing.T) {
	t.Parallel()
	node := eslintDir(t)
	// ESLint's own rules and linter: real JavaScript of an npm package.
	var all []string
	for _, pattern := range []string{"lib/rules/*.js", "lib/linter/*.js", "lib/linter/code-path-analysis/*.js", "lib/config/*.js"} {
		m, _ := filepath.Glob(filepath.Join(node, "node_modules", "eslint", pattern))
		all = append(all, m...)
	}
	compare(t, JavaScript, runESLint(t, node, sample(all, 2)))
}

func TestComplexityMatchesESLintTypeScript(t *testing.T) {
	t.Parallel()
	node := eslintDir(t)
	// ajv's TypeScript sources, which its npm package ships.
	var all []string
	for _, pattern := range []string{"lib/*.ts", "lib/*/*.ts", "lib/*/*/*.ts", "lib/*/*/*/*.ts"} {
		m, _ := filepath.Glob(filepath.Join(node, "node_modules", "ajv", pattern))
		all = append(all, m...)
	}
	compare(t, TypeScript, runESLint(t, node, sample(all, 2)))
}

// eslintDir returns the directory where ESLint is installed.
func eslintDir(t *testing.T) string {
	t.Helper()
	node, err := filepath.Abs("testdata/node")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"node_modules/.bin/eslint", "node_modules/@typescript-eslint/parser", "node_modules/ajv/lib"} {
		if _, err := os.Stat(filepath.Join(node, dir)); err != nil {
			missingTool(t, "%s is not installed in %s (npm ci there)", dir, node)
		}
	}
	if _, err := exec.LookPath("node"); err != nil {
		missingTool(t, "node is not installed")
	}
	return node
}

// runESLint copies files to a temporary directory (ESLint ignores
// node_modules), runs ESLint's complexity rule on them and returns what it
// reports.
func runESLint(t *testing.T, node string, files []string) []reference {
	t.Helper()
	if len(files) == 0 {
		t.Fatal("no source files found")
	}
	tmp := t.TempDir()
	var copies []string
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(tmp, fmt.Sprintf("%03d-%s", i, filepath.Base(f)))
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
		copies = append(copies, dst)
	}
	cmd := exec.Command(filepath.Join(node, "node_modules", ".bin", "eslint"), append([]string{"--config", filepath.Join(node, "eslint.config.mjs"), "--format", "json"}, copies...)...)
	cmd.Dir = tmp
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("eslint: %v\n%s", err, out)
	}
	var report []struct {
		FilePath string `json:"filePath"`
		Messages []struct {
			RuleID  string `json:"ruleId"`
			Line    int    `json:"line"`
			Message string `json:"message"`
			Fatal   bool   `json:"fatal"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("eslint output: %v", err)
	}
	var refs []reference
	for _, f := range report {
		for _, m := range f.Messages {
			if m.Fatal {
				t.Logf("eslint could not parse %s: %s", f.FilePath, m.Message)
				continue
			}
			if m.RuleID != "complexity" {
				continue
			}
			sub := eslintComplexity.FindStringSubmatch(m.Message)
			if sub == nil {
				t.Fatalf("unexpected ESLint message %q", m.Message)
			}
			n, _ := strconv.Atoi(sub[1])
			name, _, _ := strings.Cut(m.Message, " has a complexity")
			refs = append(refs, reference{f.FilePath, m.Line, name, n})
		}
	}
	t.Logf("eslint over %d files", len(files))
	return refs
}
