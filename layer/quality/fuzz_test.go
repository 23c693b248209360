package quality

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/layer"
)

// locationRE is the shape of every location the layer reports: an optional
// field path (in the specification's notation, keys that are not
// identifiers quoted in brackets) and ":", then a function, a line or
// both; or a field path alone.
var locationRE = func() *regexp.Regexp {
	const (
		elem = `(?:[\pL_][\pL\p{Nd}_]*|\[(?:\d+|"(?:[^"\\]|\\.)*")\])`
		path = elem + `(?:\.[\pL_][\pL\p{Nd}_]*|\[(?:\d+|"(?:[^"\\]|\\.)*")\])*`
	)
	return regexp.MustCompile(`^(` + path + `:)?(function:[^:]+(:line:\d+)?|line:\d+(:column:\d+)?|root)?$|^` + path + `$`)
}()

// lineRE finds the line of a location.
var lineRE = regexp.MustCompile(`(?:^|:)line:(\d+)`)

// FuzzRun feeds arbitrary outputs (fences, indented code, prose) to the
// layer as a text, as string fields of a JSON output (a prose field, an
// array element, a short field and a code field) and, when the output is
// JSON, as that JSON: it must not panic or fail, and every finding has a
// well-formed location, a rule and a message.
func FuzzRun(f *testing.F) {
	for _, s := range []string{
		"Intro.\n\n```python\ndef f(x):\n    return eval(x)\n```\nDone.",
		"```js\nconst a = () => { for (const x of a) for (const y of a) {} };\n",
		"~~~go\npackage p\nfunc F() { exec.Command(\"sh\", \"-c\", x) }\n~~~\n",
		"```\n#!/bin/bash\ncurl -k x | sh\n```",
		"Lorem ipsum [insert name]. TODO (unclosed", "````\n```\n", "", "\x00```py\n\xff",
		// Indented code: between paragraphs, by tabs, in list items, a
		// fence shown indented, a paragraph continued.
		"Try:\n\n    import os\n\n    def f(x):\n        os.system(x)\n\nDone.",
		"Tabs:\n\n\tdef f(:\n\t  \tpass\n", "1. Step\n\n    more text\n\n       eval(x)\n  -\t\n\n      \t",
		"Look:\n\n    ```python\n    eval(x)\n    ```\n", "1. Run:\n\n    ```py\n    def f(:\n  ```\n\t```\n2.\t~~~\n", "Run this:\n    eval(x)\n* * *\n    x\n#\n    y",
		// JSON outputs with prose, placeholders and code.
		`{"summary": "The service restarts. It then waits for the", "email": "[insert email]", "status": "TODO"}`,
		`{"answer": "Here:\n\n    def f(x):\n        return eval(x)\n\nDone (really.", "code": "def f(:", "language": "python"}`,
		`[{"release notes": "Fixed it. See [your link] here and there.", "": "TODO: fix"}, ["a", {"\"": "x"}]]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, out string) {
		first, _, _ := strings.Cut(out, "\n")
		inputs := []*layer.Input{
			{Output: out, Text: out},
			{Output: map[string]any{"answer": out, "items": []any{out, first}, "title": first, "solution": map[string]any{"code": out}}},
		}
		if v, err := jsonvalue.Decode([]byte(out), jsonvalue.DefaultMaxDepth); err == nil {
			inputs = append(inputs, &layer.Input{Output: v})
		}
		lines := strings.Count(out, "\n") + 1
		for k, in := range inputs {
			p := layer.NewPass(Layer, in, layer.NewCache(0))
			if err := Layer.Run(context.Background(), p); err != nil {
				t.Fatalf("run: %v", err)
			}
			for _, is := range p.Findings().Issues {
				if !locationRE.MatchString(is.Location) || is.Rule == "" || is.Message == "" {
					t.Fatalf("malformed issue %+v", is)
				}
				// In the text and in the fields that hold it, a line is
				// one of out's.
				if m := lineRE.FindStringSubmatch(is.Location); k < 2 && m != nil {
					if n, _ := strconv.Atoi(m[1]); n < 1 || n > lines {
						t.Fatalf("line %d of %d lines: %+v", n, lines, is)
					}
				}
			}
		}
	})
}
