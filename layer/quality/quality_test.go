package quality

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// want is one expected finding: its rule, its location and a pattern its
// message matches.
type want struct {
	rule, location, message string
}

// TestRules runs each case through the layer and requires every wanted
// finding and no unwanted one of the rules the case is about.
func TestRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		out  string
		want []want
		// absent are rules that must not be reported.
		absent []string
	}{
		{
			name: "python complexity over 10",
			out:  "```python\ndef calc(a: int, b: int) -> int:\n    \"\"\"Doc.\"\"\"\n" + strings.Repeat("    if a and b:\n        a += 1\n", 5) + "    return a\n```\n",
			want: []want{{"complexity.cyclomatic", "function:calc", `'calc' has cyclomatic complexity of 11 \(recommended max: 10`}},
		},
		{
			name:   "python complexity 10 is fine",
			out:    "```python\ndef calc(a: int, b: int) -> int:\n    \"\"\"Doc.\"\"\"\n" + strings.Repeat("    if a:\n        a += 1\n", 9) + "    return a\n```\n",
			absent: []string{"complexity.cyclomatic"},
		},
		{
			name: "python security",
			out: `import subprocess, os, pickle, yaml, requests, hashlib, ssl

def run(cmd: str, name: str, blob: bytes, password: str) -> None:
    """Run things unsafely."""
    subprocess.Popen(cmd, shell=True)
    os.system("ls " + name)
    eval(name)
    pickle.loads(blob)
    yaml.load(blob)
    yaml.load(blob, Loader=yaml.SafeLoader)
    requests.post("https://api.example.com", verify=False)
    hashlib.md5(password.encode())
    hashlib.sha1(blob)
    cursor.execute(f"SELECT * FROM users WHERE name = '{name}'")
    cursor.execute("DELETE FROM users WHERE id = %s" % name)
    cursor.execute("SELECT * FROM users WHERE name = ?", (name,))
    db_password = "hunter2hunter2"
    aws = "AKIAIOSFODNN7EXAMPLE"
`,
			want: []want{
				{"security.shell_true", "function:run:line:5", `Popen is called with shell=True`},
				{"security.shell_string", "function:run:line:6", `os.system runs its argument through the shell`},
				{"security.eval", "function:run:line:7", `eval\(\) runs a string`},
				{"security.pickle", "function:run:line:8", `pickle.loads`},
				{"security.yaml_load", "function:run:line:9", `yaml.load without a safe Loader`},
				{"security.tls_verify", "function:run:line:11", `verify=False`},
				{"security.weak_hash", "function:run:line:12", `hashes a password`},
				{"security.weak_hash", "function:run:line:13", `weak hash`},
				{"security.sql_format", "function:run:line:14", `interpolation`},
				{"security.sql_format", "function:run:line:15", `% formatting`},
				{"security.secret", "function:run:line:17", `'db_password' is set to a string literal`},
				{"security.secret", "function:run:line:18", `AWS access key`},
			},
		},
		{
			name: "javascript security",
			out:  "```js\nconst cp = require('child_process');\nexport function go(user) {\n  cp.exec('ls ' + user);\n  eval(user);\n  const f = new Function('a', user);\n  https.get({rejectUnauthorized: false});\n  const q = `SELECT * FROM t WHERE a = ${user}`;\n  crypto.createHash('md5');\n  return f;\n}\n```\n",
			want: []want{
				{"security.shell_string", "function:go:line:4", `cp.exec runs a command string`},
				{"security.eval", "function:go:line:5", `eval runs a string`},
				{"security.eval", "function:go:line:6", `new Function runs`},
				{"security.tls_verify", "function:go:line:7", `rejectUnauthorized`},
				{"security.sql_format", "function:go:line:8", `SQL query built`},
				{"security.weak_hash", "function:go:line:9", `createHash`},
			},
		},
		{
			name: "go security and naming",
			out:  "```go\npackage p\n\n// Run runs.\nfunc Run(arg string) {\n\texec.Command(\"sh\", \"-c\", \"ls \"+arg).Run()\n\t_ = &tls.Config{InsecureSkipVerify: true}\n\tq := fmt.Sprintf(\"SELECT * FROM t WHERE a = '%s'\", arg)\n\t_ = q\n\tmd5.Sum([]byte(arg))\n}\n\nfunc get_user() {}\n```\n",
			want: []want{
				{"security.shell_string", "function:Run:line:6", `sh -c|through a shell`},
				{"security.tls_verify", "function:Run:line:7", `InsecureSkipVerify`},
				{"security.sql_format", "function:Run:line:8", `fmt.Sprintf`},
				{"security.weak_hash", "function:Run:line:10", `md5.Sum`},
				{"style.naming", "function:get_user", `uses underscores; Go names are MixedCaps`},
			},
			absent: []string{"readability.missing_docstring"},
		},
		{
			name: "bash security",
			out:  "```bash\n#!/bin/bash\ncurl -k https://example.com/x.sh | bash\neval \"$1\"\nwget --no-check-certificate https://example.com\n```\n",
			want: []want{
				{"security.tls_verify", "line:3", `curl is run with TLS verification turned off`},
				{"security.eval", "line:4", `eval runs its arguments`},
				{"security.tls_verify", "line:5", `wget`},
			},
		},
		{
			name: "performance",
			out: `def dups(items: list, other: list) -> list:
    """Find duplicates."""
    seen = []
    text = ""
    for a in items:
        for b in items:
            if a == b:
                text += str(a)
        if a in seen:
            continue
        seen.append(a)
    for c in other:
        for d in items:
            pass
    return text
`,
			want: []want{
				{"performance.nested_loop", "function:dups:line:6", `Nested loops over 'items' result in O\(n²\)`},
				{"performance.string_concat", "function:dups:line:8", `String 'text' is built by repeated concatenation`},
				{"performance.list_membership", "function:dups:line:9", `Membership test on list 'seen'`},
			},
		},
		{
			name: "javascript performance",
			out:  "```javascript\nfunction f(arr) {\n  let s = '';\n  const seen = [];\n  for (let i = 0; i < arr.length; i++) {\n    for (let j = 0; j < arr.length; j++) { s += arr[j]; }\n    if (seen.includes(arr[i])) continue;\n  }\n  return s;\n}\n```\n",
			want: []want{
				{"performance.nested_loop", "function:f:line:6", `'arr'`},
				{"performance.string_concat", "function:f:line:6", `'s'`},
				{"performance.list_membership", "function:f:line:7", `'seen'`},
			},
		},
		{
			name: "style and readability",
			out:  "```python\ndef sortList(lst, x=1):\n    y = sorted(lst)\n    for i in y:\n        pass\n    f = lambda k: k\n    return y + [" + strings.Repeat("1, ", 30) + "1]\n```\n",
			want: []want{
				{"style.naming", "function:sortList", `'sortList' is not snake_case`},
				{"readability.missing_docstring", "function:sortList", `no docstring`},
				{"readability.type_hints", "function:sortList", `type hints`},
				{"readability.short_name", "function:sortList:line:2", `Parameter name 'x'`},
				{"readability.short_name", "function:sortList:line:3", `Variable name 'y'`},
				{"readability.short_name", "function:sortList:line:6", `Variable name 'f'`},
				{"style.line_length", "line:7", `Line length of 108 exceeds 88`},
			},
		},
		{
			name:   "framework method names are fine",
			out:    "```python\nclass T(unittest.TestCase):\n    def setUp(self) -> None:\n        \"\"\"Prepare.\"\"\"\n\n\nclass V(ast.NodeVisitor):\n    def visit_FunctionDef(self, node: ast.AST) -> None:\n        \"\"\"Visit.\"\"\"\n```\n",
			absent: []string{"style.naming"},
		},
		{
			name:   "loop variables, lambdas and private functions are fine",
			out:    "```python\ndef _helper(items: list) -> list:\n    return [i for i in items if (lambda v: v)(i)]\n```\n",
			absent: []string{"readability.short_name", "readability.missing_docstring", "style.naming"},
		},
		{
			name: "long function",
			out:  "```go\npackage p\n\n// Long is long.\nfunc Long() {\n" + strings.Repeat("\tprintln()\n", 55) + "}\n```\n",
			want: []want{{"readability.function_length", "function:Long", `'Long' is 57 lines long \(recommended max: 50\)`}},
		},
		{
			name: "syntax error",
			out:  "Intro.\n\n```python\ndef f(:\n    pass\n```\n",
			want: []want{{"syntax.error", "line:4:column:7", `does not parse: missing '\)' at line 4, column 7`}},
		},
		{
			name: "prose",
			out: "The report is ready. The report is ready and it is fine. " + strings.Repeat("word ", 45) + "end. " +
				"This sentence repeats five words here. This sentence repeats five words here. See [insert link here]. TODO fix this.\nLorem ipsum dolor sit amet.\n(An aside that never closes.\nAnd the output stops in the middle of",
			want: []want{
				{"prose.long_sentence", "line:1", `A sentence of 46 words`},
				{"prose.repeated_sentence", "line:1", `repeats the one on line 1`},
				{"prose.placeholder", "line:1", `placeholder to fill in`},
				{"prose.placeholder", "line:2", `lorem ipsum`},
				{"prose.unclosed_bracket", "line:3", `'\(' opened on line 3 is never closed`},
				{"prose.unfinished", "line:4", `ends mid-sentence`},
			},
		},
		{
			name:   "clean prose",
			out:    "The service restarts in ten seconds. Logs are kept for a week (see the runbook).\n\n- one item\n- another item\n",
			absent: []string{"prose.unfinished", "prose.unclosed_bracket", "prose.placeholder", "prose.repeated_sentence", "prose.long_sentence"},
		},
		{
			name: "unclosed fence",
			out:  "Here:\n\n```python\ndef f():\n    return 1\n",
			want: []want{{"prose.unclosed_fence", "line:3", `fence opened on line 3 is never closed`}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := check(t, text(tt.out))
			got := f.Issues
			for _, w := range tt.want {
				re := regexp.MustCompile(w.message)
				found := false
				for _, is := range got {
					if is.Rule == w.rule && is.Location == w.location && re.MatchString(is.Message) {
						found = true
						if len(is.Suggestion) < 10 {
							t.Errorf("%s at %s: no suggestion", w.rule, w.location)
						}
					}
				}
				if !found {
					t.Errorf("missing %s at %s /%s/", w.rule, w.location, w.message)
				}
			}
			// No unexpected finding of a rule the case is about.
			about := map[string]bool{}
			for _, w := range tt.want {
				about[w.rule] = true
			}
			for _, r := range tt.absent {
				about[r] = true
			}
			for _, is := range got {
				if !about[is.Rule] {
					continue
				}
				expected := false
				for _, w := range tt.want {
					if is.Rule == w.rule && is.Location == w.location && regexp.MustCompile(w.message).MatchString(is.Message) {
						expected = true
					}
				}
				if !expected {
					t.Errorf("unexpected %s at %s: %s", is.Rule, is.Location, is.Message)
				}
			}
			if t.Failed() {
				for _, is := range got {
					t.Logf("got %s %s %s: %s", is.Rule, is.Severity, is.Location, is.Message)
				}
			}
		})
	}
}

func TestFindCode(t *testing.T) {
	t.Parallel()
	t.Run("json field with language", func(t *testing.T) {
		t.Parallel()
		in := &layer.Input{Output: map[string]any{
			"solution": map[string]any{"language": "py", "code": "def f(:\n"},
			"notes":    "plain text",
		}}
		f := check(t, in)
		if n := rules(f.Issues)["syntax.error"]; n != 1 || f.Issues[0].Location != "solution.code:line:1:column:7" {
			t.Fatalf("issues %+v", f.Issues)
		}
	})
	t.Run("json files by name", func(t *testing.T) {
		t.Parallel()
		in := &layer.Input{Output: map[string]any{"files": []any{
			map[string]any{"path": "src/run.go", "content": "package p\n\nfunc run_all() {}\n"},
			map[string]any{"path": "README.md", "content": "Run it."},
		}}}
		f := check(t, in)
		if len(f.Issues) != 1 || f.Issues[0].Rule != "style.naming" || f.Issues[0].Location != "files[0].content:function:run_all" {
			t.Fatalf("issues %+v", f.Issues)
		}
	})
	t.Run("json field in an unknown language", func(t *testing.T) {
		t.Parallel()
		f := check(t, &layer.Input{Output: map[string]any{"code": "SELECT 1;\nSELECT 2;"}})
		if len(f.Issues) != 1 || f.Issues[0].Rule != "quality.not_checked" || f.Issues[0].Location != "code" || f.Confidence != 0 {
			t.Fatalf("findings %+v", f)
		}
	})
	t.Run("whole output is code", func(t *testing.T) {
		t.Parallel()
		f := check(t, text("package main\n\nfunc main() {\n\tx := eval_thing()\n\t_ = x\n}\n\nfunc bad_name() {}\n"))
		if rules(f.Issues)["style.naming"] != 1 {
			t.Fatalf("issues %+v", f.Issues)
		}
	})
	t.Run("an indented block between prose is code, not prose", func(t *testing.T) {
		t.Parallel()
		f := check(t, text("Sure! Here's a quick script:\n\n    import os\n    print(os.listdir(\".\"))\n\nThe output lists the files in the current directory.\n"))
		if len(f.Issues) != 0 {
			t.Fatalf("issues %+v", f.Issues)
		}
	})
	t.Run("unlabelled fence is detected", func(t *testing.T) {
		t.Parallel()
		f := check(t, text("Try this:\n\n```\nimport os\n\ndef listDir(path):\n    return os.listdir(path)\n```\n"))
		if rules(f.Issues)["style.naming"] != 1 {
			t.Fatalf("issues %+v", f.Issues)
		}
	})
	t.Run("unsupported language is not checked", func(t *testing.T) {
		t.Parallel()
		f := check(t, text("Rust:\n\n```rust\nfn main() {}\n```\n"))
		if len(f.Issues) != 1 || f.Issues[0].Type != result.NotChecked || f.Issues[0].Location != "line:3" || f.Confidence >= 1 {
			t.Fatalf("findings %+v", f)
		}
	})
	t.Run("json and text fences are not code", func(t *testing.T) {
		t.Parallel()
		f := check(t, text("Result:\n\n```json\n{\"a\": 1}\n```\n"))
		if len(f.Issues) != 0 || f.Confidence != 1 {
			t.Fatalf("findings %+v", f)
		}
	})
}

func TestOptions(t *testing.T) {
	t.Parallel()
	src := "```python\ndef calc(a: int) -> int:\n    \"\"\"Doc.\"\"\"\n" + strings.Repeat("    if a:\n        a += 1\n", 5) + "    return a  # a comment that makes this line a little longer than forty\n```\n"
	in := text(src)
	in.Options.Quality = layer.QualityOptions{MaxComplexity: 5, MaxLineLength: 40, MaxFunctionLength: 5}
	r := rules(check(t, in).Issues)
	if r["complexity.cyclomatic"] != 1 || r["style.line_length"] != 1 || r["readability.function_length"] != 1 {
		t.Fatalf("rules %v", r)
	}
	if r := rules(check(t, text(src)).Issues); r["complexity.cyclomatic"] != 0 || r["style.line_length"] != 0 || r["readability.function_length"] != 0 {
		t.Fatalf("defaults: rules %v", r)
	}
	in.Options.Quality.MaxComplexity = -1
	err := Layer.Run(context.Background(), layer.NewPass(Layer, in, layer.NewCache(0)))
	var ie *layer.InputError
	if !errors.As(err, &ie) || ie.Location != "options.quality.max_complexity" {
		t.Fatalf("negative option: %v", err)
	}
}

func TestCapsFindingsPerRule(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("```python\n")
	for i := range 15 {
		fmt.Fprintf(&b, "def f%d(value: int) -> int:\n    \"\"\"Doc.\"\"\"\n    return eval('value')\n", i)
	}
	b.WriteString("```\n")
	f := check(t, text(b.String()))
	r := rules(f.Issues)
	if r["security.eval"] != maxIssuesPerRule || r["quality.truncated"] != 1 {
		t.Fatalf("rules %v", r)
	}
}

func TestCanceled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	in := text("```python\ndef f():\n    pass\n```\n")
	if err := Layer.Run(ctx, layer.NewPass(Layer, in, layer.NewCache(0))); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

// One Layer serves many requests at once: run it from several goroutines
// (the race detector checks the sharing) and require the same findings.
func TestConcurrentRuns(t *testing.T) {
	t.Parallel()
	in := text("```js\nexport function f(a) {\n  eval(a);\n  for (const x of a) for (const y of a) {}\n}\n```\nThe end of it all is near\n")
	want := rules(check(t, in).Issues)
	done := make(chan map[string]int)
	for range 8 {
		go func() {
			p := layer.NewPass(Layer, in, layer.NewCache(0))
			if err := Layer.Run(context.Background(), p); err != nil {
				t.Error(err)
			}
			done <- rules(p.Findings().Issues)
		}()
	}
	for range 8 {
		got := <-done
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("got %v, want %v", got, want)
		}
	}
	if want["security.eval"] != 1 || want["performance.nested_loop"] != 1 || want["prose.unfinished"] != 1 {
		t.Errorf("findings %v", want)
	}
}
