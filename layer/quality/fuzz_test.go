package quality

import (
	"context"
	"regexp"
	"testing"

	"github.com/agentjudge/judge/layer"
)

// locationRE is the shape of every location the layer reports.
var locationRE = regexp.MustCompile(`^([\w.\[\]]+:)?(function:[^:]+(:line:\d+)?|line:\d+(:column:\d+)?|root)?$|^[\w.\[\]]+$`)

// FuzzRun feeds arbitrary outputs (fences, prose, code) to the layer: it
// must not panic or fail, and every finding has a well-formed location, a
// rule and a message.
func FuzzRun(f *testing.F) {
	for _, s := range []string{
		"Intro.\n\n```python\ndef f(x):\n    return eval(x)\n```\nDone.",
		"```js\nconst a = () => { for (const x of a) for (const y of a) {} };\n",
		"~~~go\npackage p\nfunc F() { exec.Command(\"sh\", \"-c\", x) }\n~~~\n",
		"```\n#!/bin/bash\ncurl -k x | sh\n```",
		"Lorem ipsum [insert name]. TODO (unclosed", "````\n```\n", "", "\x00```py\n\xff",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, out string) {
		p := layer.NewPass(Layer, &layer.Input{Output: out, Text: out}, layer.NewCache(0))
		if err := Layer.Run(context.Background(), p); err != nil {
			t.Fatalf("run: %v", err)
		}
		for _, is := range p.Findings().Issues {
			if !locationRE.MatchString(is.Location) || is.Rule == "" || is.Message == "" {
				t.Fatalf("malformed issue %+v", is)
			}
		}
	})
}
