package criteria_test

import (
	"context"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/criteria"
	"github.com/agentjudge/judge/result"
)

// bigOutput is an output {"s": "aaa…" (s bytes), "xs": [0, 1, …] (n
// numbers)}.
func bigOutput(s, n int) map[string]any {
	xs := make([]any, n)
	for i := range xs {
		xs[i] = int64(i)
	}
	return map[string]any{"s": strings.Repeat("a", s), "xs": xs}
}

// maxAlloc is the most a rule over bigOutput may allocate.
const maxAlloc = 40 << 20

// measure runs l on in under a deadline and returns the findings, the
// bytes allocated meanwhile and the time taken. Tests that measure must
// not be parallel: parallel tests wait until they are done.
func measure(t *testing.T, l *layer.Layer, in *layer.Input) (layer.Findings, uint64, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	f, err := run(t, ctx, l, in)
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	return f, after.TotalAlloc - before.TotalAlloc, d
}

// TestBlowUps checks that rules which build huge values from a modest
// output, or do work growing faster than it, are stopped before they
// allocate much or run long, and are undecided. The message tells a guard,
// which stops a call before it runs, from the cost limit, which charges
// it after.
func TestBlowUps(t *testing.T) {
	tests := []struct {
		name string
		s, n int    // bigOutput(s, n)
		rule string //
		msg  string // the not_checked message after "was stopped: "
	}{
		{"replace with a long replacement", 10_000, 0, `output.s.replace("a", output.s) != ""`,
			`it would build a string of 100000000 bytes, over the cost limit of 1000000`},
		{"absorbing || does not hide a stop", 10_000, 0, `output.s.replace("a", output.s) == "" || true`,
			`it would build a string of 100000000 bytes, over the cost limit of 1000000`},
		{"dyn concatenation in a comprehension", 100_000, 1000, `output.xs.map(x, output.s + output.s).size() > 0`,
			`cost limit of 1000000 exceeded`},
		{"join of one string many times", 100_000, 0, `lists.range(1000).map(i, output.s).join() != ""`,
			`it would build a string of more than 10000000 bytes, over the cost limit of 1000000`},
		{"join with a long separator", 100_000, 0, `lists.range(1000).map(i, "").join(output.s) != ""`,
			`it would build a string of more than 10000000 bytes, over the cost limit of 1000000`},
		{"format of a list holding one string many times", 100_000, 0, `"%s".format([lists.range(1000).map(i, output.s)]) != ""`,
			`it would build a string of more than 10000000 bytes, over the cost limit of 1000000`},
		{"format with many clauses", 1_000_000, 0, `"%s%s%s%s%s%s%s%s%s%s%s".format([output.s, output.s, output.s, output.s, output.s, output.s, output.s, output.s, output.s, output.s, output.s]) != ""`,
			`it would build a string of more than 10000000 bytes, over the cost limit of 1000000`},
		{"split into characters", 1_000_000, 0, `output.s.split("").size() > 0`,
			`it would split a string into 1000000 parts, over the cost limit of 1000000`},
		{"regex.replace with a long replacement", 10_000, 0, `regex.replace(output.s, "a", output.s) != ""`,
			`it would build a string of up to 100010000 bytes, over the cost limit of 1000000`},
		{"regex.extractAll of empty matches", 1_000_000, 0, `regex.extractAll(output.s, "").size() > 0`,
			`it would keep more than 125000 matches of a regular expression, over the cost limit of 1000000`},
		{"regular expression from the output", 100_000, 0, `output.s.matches(output.s)`,
			`it would compile a regular expression of 100000 bytes, over the cost limit of 1000000`},
		{"search of a long string by a regular expression", 1_000_000, 0, `output.s.matches("(a|b)*(c|d)*(e|f)*(g|h)*(i|j)*(k|l)*(m|n)*(o|p)*(q|r)*(s|t)*")`,
			`it would search a string of 1000000 bytes with a regular expression of 60 bytes, over the cost limit of 1000000`},
		{"quadratic indexOf", 20_000, 0, `output.s.indexOf(output.s.substring(10000) + "b") >= -1`,
			`it would search a string of 20000 code points for one of 10001, over the cost limit of 1000000`},
		{"quote of a long string", 1_000_000, 0, `strings.quote(output.s) != ""`,
			`it would allocate about 12000000 bytes to work on a value of 1000000 bytes, over the cost limit of 1000000`},
		{"distinct", 0, 10_000, `output.xs.distinct().size() > 0`,
			`it would compare the 10000 elements of a list with each other, over the cost limit of 1000000`},
		{"sets.contains", 0, 10_000, `sets.contains(output.xs, output.xs)`,
			`it would compare 10000 × 10000 list elements, over the cost limit of 1000000`},
		{"flatten of shared lists", 0, 0, `cel.bind(a, lists.range(100), cel.bind(b, lists.range(100).map(i, a), lists.range(100).map(i, b))).flatten().flatten().size() > 0`,
			`it would flatten lists of more than 500000 elements, over the cost limit of 1000000`},
		{"a list doubled by concatenation", 0, 100_000, `cel.bind(a, output.xs + output.xs, cel.bind(b, a + a, cel.bind(c, b + b, c + c))).size() > 0`,
			`cost limit of 1000000 exceeded`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &layer.Input{Output: bigOutput(tt.s, tt.n), Criteria: []layer.Criterion{{Description: "blow-up", Rule: tt.rule}}}
			f, alloc, d := measure(t, criteria.Layer, in)
			t.Logf("allocated %d kB in %v", alloc>>10, d)
			checkIssues(t, f.Issues, []wantIssue{{result.Info, result.NotChecked, "acceptance_criteria[0]",
				`^Rule of criterion 'blow-up' was stopped: ` + tt.msg + `$`, `^Simplify the rule`}})
			if len(f.Passed)+len(f.Failed) != 0 || f.Checks != 1 || f.Confidence != 0 {
				t.Errorf("got passed %q failed %q, %d checks, confidence %v; want undecided", f.Passed, f.Failed, f.Checks, f.Confidence)
			}
			if alloc > maxAlloc && !raceEnabled {
				t.Errorf("allocated %d MB, want at most %d MB", alloc>>20, maxAlloc>>20)
			}
			if d > 2*time.Second && !raceEnabled {
				t.Errorf("took %v", d)
			}
		})
	}
}

// TestNoFalseStops checks that the guards and the charges for building
// leave alone what rules ordinarily do, on a large output.
func TestNoFalseStops(t *testing.T) {
	words := strings.Repeat("the customer asked for a refund and got one ", 5000) // 220 kB
	in := &layer.Input{Output: map[string]any{"answer": words, "xs": bigOutput(0, 10_000)["xs"]}, Text: words}
	for _, rule := range []string{
		`text.contains("refund")`,
		`text.split(" ").size() > 100`,
		`regex.replace(text, "\\s+", " ").size() > 0`,
		`regex.extractAll(text, "refund").size() == 5000`,
		`text.lowerAscii().contains("refund")`,
		`text.indexOf("refund") > 0`,
		`output.answer + "." != text`,
		`output.xs.map(x, x * 2).size() == 10000`,
		`output.xs.filter(x, x % 2 == 0).size() == 5000`,
		`output.xs.sort()[0] == 0 && output.xs.reverse()[0] == 9999 && output.xs.slice(0, 10).size() == 10`,
		`lists.range(10000).transformMap(i, v, v).size() == 10000`,
		`output.xs.transformList(i, v, v + i).size() == 10000`,
		`"%d items".format([size(output.xs)]) == "10000 items"`,
		`output.xs.map(x, string(x)).join(",").size() > 10000`,
		`sets.contains(output.xs, [1, 2, 3])`,
		`output.xs.slice(0, 100).distinct().size() == 100`,
		`cel.bind(a, output.xs + output.xs, a.size() == 20000)`,
	} {
		t.Run(rule, func(t *testing.T) {
			in := *in
			in.Criteria = []layer.Criterion{{Rule: rule}}
			f, alloc, _ := measure(t, criteria.Layer, &in)
			t.Logf("allocated %d kB", alloc>>10)
			if !slices.Equal(f.Passed, []string{rule}) {
				t.Errorf("got passed %q failed %q:\n%s", f.Passed, f.Failed, dump(f.Issues))
			}
			if alloc > maxAlloc && !raceEnabled {
				t.Errorf("allocated %d MB, want at most %d MB", alloc>>20, maxAlloc>>20)
			}
		})
	}
}

// TestBuildingIsCharged checks that a call pays for the value it builds
// even when its arguments are dyn, and that a value merely passed through
// is free.
func TestBuildingIsCharged(t *testing.T) {
	t.Parallel()
	l := criteria.LayerWithCostLimit(1000)
	out := bigOutput(10_000, 0)
	tests := []struct {
		rule    string
		stopped bool
	}{
		{`output.s + output.s != ""`, true},     // 20,000 bytes: 2,000 units
		{`string(bytes(output.s)) != ""`, true}, // 10,000 bytes twice
		{`base64.encode(b"x" + bytes(output.s)) != ""`, true},
		{`[output.s] + [output.s] != []`, false},         // shares its operands
		{`dyn(output.s).size() == 10000`, false},         // passes it through
		{`output.?s.orValue("").size() == 10000`, false}, // passes it through
		{`string(output.s).size() == 10000`, false},      // a conversion to its own type
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			t.Parallel()
			f, err := run(t, context.Background(), l, &layer.Input{Output: out, Criteria: []layer.Criterion{{Rule: tt.rule}}})
			if err != nil {
				t.Fatal(err)
			}
			if stopped := f.Confidence == 0; stopped != tt.stopped {
				t.Errorf("stopped %v, want %v: passed %q failed %q\n%s", stopped, tt.stopped, f.Passed, f.Failed, dump(f.Issues))
			}
		})
	}
}

// TestTextVariable checks the text variable: the output as the request
// gave it when that was a string, "" otherwise.
func TestTextVariable(t *testing.T) {
	t.Parallel()
	answer := "We issued the refund.\n\n```json\n{\"refund\": true}\n```\n"
	tests := []struct {
		name   string
		in     layer.Input
		rule   string
		pass   bool
		errMsg string // regexp of the failure message, when !pass
	}{
		{name: "prose around a JSON fence", in: layer.Input{Output: decode(t, `{"refund": true}`), Text: answer},
			rule: `text.contains("issued the refund") && output.refund`, pass: true},
		{name: "output is the parsed fence", in: layer.Input{Output: decode(t, `{"refund": true}`), Text: answer},
			rule: `output.contains("issued the refund")`, errMsg: `no such overload`},
		{name: "plain text", in: layer.Input{Output: "Refund issued.", Text: "Refund issued."},
			rule: `text == output && text.startsWith("Refund")`, pass: true},
		{name: "JSON output", in: layer.Input{Output: decode(t, `{"a": 1}`)},
			rule: `text == "" && output.a == 1`, pass: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := tt.in
			in.Criteria = []layer.Criterion{{Description: "c", Rule: tt.rule}}
			f, err := run(t, context.Background(), criteria.Layer, &in)
			if err != nil {
				t.Fatal(err)
			}
			if tt.pass {
				if !slices.Equal(f.Passed, []string{"c"}) {
					t.Errorf("got passed %q failed %q\n%s", f.Passed, f.Failed, dump(f.Issues))
				}
				return
			}
			if !slices.Equal(f.Failed, []string{"c"}) || len(f.Issues) != 1 || !regexp.MustCompile(tt.errMsg).MatchString(f.Issues[0].Message) {
				t.Errorf("got passed %q failed %q\n%s; want failed with /%s/", f.Passed, f.Failed, dump(f.Issues), tt.errMsg)
			}
		})
	}
}

// TestLongValuesInMessages checks that a rule yielding a huge value is
// described, not printed.
func TestLongValuesInMessages(t *testing.T) {
	t.Parallel()
	tests := []struct{ rule, want string }{
		{`output.xs`, `^Acceptance criterion not met: c \(rule yielded a list of 100000 elements, not a bool\)$`},
		{`output.s`, `^Acceptance criterion not met: c \(rule yielded "a{20,}…?, not a bool\)$`},
	}
	for _, tt := range tests {
		f, err := run(t, context.Background(), criteria.Layer, &layer.Input{Output: bigOutput(100_000, 100_000),
			Criteria: []layer.Criterion{{Description: "c", Rule: tt.rule}}})
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Issues) != 1 || !regexp.MustCompile(tt.want).MatchString(f.Issues[0].Message) {
			t.Errorf("%s: got\n%s", tt.rule, dump(f.Issues))
		}
		if len(f.Issues) == 1 && len(f.Issues[0].Message) > 200 {
			t.Errorf("%s: message of %d bytes", tt.rule, len(f.Issues[0].Message))
		}
	}
}

func ExampleLayer_text() {
	in := &layer.Input{
		Output: map[string]any{"refund": true}, // the parsed ```json fence
		Text:   "We issued the refund.\n\n```json\n{\"refund\": true}\n```",
		Criteria: []layer.Criterion{
			{Description: "The answer says the refund was issued", Rule: `text.contains("issued the refund")`},
		},
	}
	p := layer.NewPass(criteria.Layer, in, layer.NewCache(0))
	if err := criteria.Layer.Run(context.Background(), p); err != nil {
		panic(err)
	}
	fmt.Println("passed:", p.Findings().Passed)
	// Output:
	// passed: [The answer says the refund was issued]
}
