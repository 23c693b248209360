package criteria_test

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/criteria"
	"github.com/agentjudge/judge/result"
)

var inputErrorLocation = regexp.MustCompile(`^acceptance_criteria\[0\]\.(rule|messageExpression):[1-9][0-9]*:[1-9][0-9]*$`)

// FuzzCriteriaRule feeds arbitrary rules, message expressions and outputs
// to the layer: it must not panic, must finish soon after its deadline,
// must report compile errors as InputErrors with a line:column location,
// and must otherwise place the criterion in at most one of passed and
// failed, with issues that make a valid result.
func FuzzCriteriaRule(f *testing.F) {
	seeds := []struct{ rule, msg, output string }{
		{`output.code.contains("def ")`, ``, `{"code": "def f(): pass"}`},
		{`output.tests.size() > 0`, `"tests: " + string(size(output.tests))`, `{"tests": [1, 2]}`},
		{`output.items.all(i, i > 0)`, ``, `{"items": [1, -2, 3.5, "x", null]}`},
		{`output.startsWith("Hello")`, ``, `"Hello, world"`},
		{`output == null`, `'x'`, `null`},
		{`output.items.map(a, output.items.map(b, output.items.map(c, a*b*c))).size() > 0`, ``, `{"items": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30]}`},
		{`lists.range(100).map(a, lists.range(100).map(b, a*b)).size() > 0`, ``, `{}`},
		{`output.a +`, ``, `{}`},
		{"output.a == 1 &&\n\toutputs.b", ``, `{"a": 1}`},
		{`size(output)`, ``, `[]`},
		{`output.x.matches("(")`, ``, `{"x": "("}`},
		{`output.?a.?b.orValue(1) == 1 && cel.bind(x, output, x == x)`, ``, `{"a": {"b": 1e400}}`},
		{`math.greatest(output) > 0 && base64.encode(b"x") != "" && sets.contains(output, [1])`, ``, `[1, 2, 9223372036854775808]`},
		{`output.m.all(k, v, k.size() > 0 && v != null)`, ``, `{"m": {"": 0}}`},
		{`1/output.z == 1`, ``, `{"z": 0}`},
		{`"ü\u0000".size() == 2`, `"\xff"`, `"\u00e9"`},
		// Rules that build far more than the output, or work far longer.
		{`output.s.replace("a", output.s) != ""`, ``, `{"s": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}`},
		{`output.xs.map(x, output.s + output.s).size() > 0`, `output.s + output.s`, `{"s": "aaaaaaaa", "xs": [1, 2, 3, 4]}`},
		{`lists.range(1000).map(i, text).join(text) != ""`, `"%s%s".format([text, lists.range(100).map(i, text)])`, `"aaaaaaaaaaaaaaaa"`},
		{`regex.replace(text, "", text) != "" && regex.extractAll(text, "").size() > 0`, `text.split("").join(text)`, `"abcdefgh"`},
		{`text.matches(text) && text.indexOf(text.substring(1)) >= 0 && strings.quote(text.reverse()) != ""`, ``, `"(a|b)*c"`},
		{`output.distinct().size() > 0 && sets.contains(output, output) && output.flatten().sort().size() >= 0`, ``, `[[1], [2], [3, 3]]`},
		{`cel.bind(a, output + output, cel.bind(b, a + a, b + b)).size() > 0 && lists.range(3000).transformMap(i, v, v).size() > 0`, ``, `[1, 2, 3]`},
	}
	for _, s := range seeds {
		f.Add(s.rule, s.msg, s.output)
	}
	cache := layer.NewCache(256)
	f.Fuzz(func(t *testing.T, rule, msg, output string) {
		var out any = output
		dec := json.NewDecoder(strings.NewReader(output))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) == nil {
			out = v
		}
		c := layer.Criterion{Description: "fuzzed", Rule: rule, MessageExpression: msg}
		in := &layer.Input{Output: out, Text: output, Context: out, Criteria: []layer.Criterion{c}}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		p := layer.NewPass(criteria.Layer, in, cache)
		start := time.Now()
		err := criteria.Layer.Run(ctx, p)
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("Run took %v", d)
		}
		fd := p.Findings()
		if err != nil {
			var ie *layer.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("Run returned %T %v, not an InputError", err, err)
			}
			if !inputErrorLocation.MatchString(ie.Location) || ie.Msg == "" {
				t.Fatalf("InputError without a location or message: %q %q", ie.Location, ie.Msg)
			}
			if len(fd.Issues)+len(fd.Passed)+len(fd.Failed) != 0 {
				t.Fatalf("findings for a rejected request: %+v", fd)
			}
			return
		}
		if rule == "" {
			return // a plain-language criterion
		}
		if len(fd.Passed)+len(fd.Failed) > 1 || fd.Checks != 1 {
			t.Fatalf("passed %q failed %q checks %d", fd.Passed, fd.Failed, fd.Checks)
		}
		b := result.NewBuilder().Add(fd.Issues...)
		if err := result.Check(b.Build()); err != nil {
			t.Fatal(err)
		}
	})
}
