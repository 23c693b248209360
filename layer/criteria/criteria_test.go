package criteria_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/criteria"
	"github.com/agentjudge/judge/result"
)

// decode decodes JSON as the engine does, with json.Number numbers.
func decode(t testing.TB, s string) any {
	t.Helper()
	if s == "" {
		return nil
	}
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

// run runs l on in with a fresh cache and returns the findings and Run's
// error.
func run(t testing.TB, ctx context.Context, l *layer.Layer, in *layer.Input) (layer.Findings, error) {
	t.Helper()
	p := layer.NewPass(l, in, layer.NewCache(0))
	err := l.Run(ctx, p)
	return p.Findings(), err
}

// wantIssue is an expected issue: severity, type and location exactly,
// message and suggestion by regular expression ("" matches anything).
type wantIssue struct {
	sev       result.Severity
	typ       result.Type
	loc       string
	msg, sugg string
}

func checkIssues(t *testing.T, got []result.Issue, want []wantIssue) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d issues, want %d:\n%s", len(got), len(want), dump(got))
	}
	for i, w := range want {
		g := got[i]
		if g.Severity != w.sev || g.Type != w.typ || g.Location != w.loc ||
			!regexp.MustCompile(w.msg).MatchString(g.Message) || !regexp.MustCompile(w.sugg).MatchString(g.Suggestion) {
			t.Errorf("issue %d:\n got %s %s %s %q | %q\nwant %s %s %s /%s/ | /%s/", i,
				g.Severity, g.Type, g.Location, g.Message, g.Suggestion, w.sev, w.typ, w.loc, w.msg, w.sugg)
		}
	}
}

func dump(issues []result.Issue) string {
	var sb strings.Builder
	for _, is := range issues {
		fmt.Fprintf(&sb, "  %s %s %s: %s | %s [%s]\n", is.Severity, is.Type, is.Location, is.Message, is.Suggestion, is.Rule)
	}
	return sb.String()
}

const program = `{
	"code": "def add(a, b):\n    return a + b",
	"language": "python",
	"count": 3,
	"ratio": 0.75,
	"big": 12345678901234567890,
	"items": [1, 2, 3],
	"scores": {"a": 1, "b": 2},
	"tags": ["math", "python"],
	"author": null
}`

func TestRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		output  string // JSON
		text    string // a string output, when output is ""
		context string // JSON
		crit    layer.Criterion
		pass    bool
		want    []wantIssue // for a failure
	}{
		{name: "object true", output: program,
			crit: layer.Criterion{Description: "Code defines a function", Rule: `output.code.contains("def ")`}, pass: true},
		{name: "object false", output: program,
			crit: layer.Criterion{Description: "Code is JavaScript", Rule: `output.language == "javascript"`},
			want: []wantIssue{{result.Error, result.CriteriaNotMet, "acceptance_criteria[0]",
				`^Acceptance criterion not met: Code is JavaScript$`,
				`^Change the output so that 'Code is JavaScript' holds \(rule: output.language == "javascript"\)$`}}},
		{name: "string output true", text: "Hello, world! The answer is 42.",
			crit: layer.Criterion{Description: "Greets", Rule: `output.startsWith("Hello") && output.matches("[0-9]+")`}, pass: true},
		{name: "string output false", text: "Goodbye.",
			crit: layer.Criterion{Rule: `output.size() >= 20`},
			want: []wantIssue{{result.Error, result.CriteriaNotMet, "acceptance_criteria[0]",
				`^Acceptance criterion not met: output.size\(\) >= 20$`, `^Change the output so that the rule output.size\(\) >= 20 holds$`}}},
		{name: "context", output: program, context: `{"expected_language": "python", "min_items": 2}`,
			crit: layer.Criterion{ID: "lang", Rule: `output.language == context.expected_language && size(output.items) >= context.min_items`}, pass: true},
		{name: "context missing field", output: program, context: `{}`,
			crit: layer.Criterion{ID: "lang", Rule: `output.language == context.expected_language`},
			want: []wantIssue{{result.Error, result.CriteriaNotMet, "acceptance_criteria[0]",
				`^Acceptance criterion not met: lang \(rule could not be evaluated on this output: no such key: expected_language\)$`,
				`^Add the field 'expected_language' that the rule of 'lang' reads to the output \(or the context\)`}}},
		{name: "numbers: integers are int, others double", output: program,
			crit: layer.Criterion{Description: "numbers",
				Rule: `output.count + 1 == 4 && type(output.count) == int && type(output.ratio) == double && output.ratio > 0.5 && output.ratio < 1 && type(output.big) == double && output.count > 2.5`}, pass: true},
		{name: "null", output: program,
			crit: layer.Criterion{Description: "no author", Rule: `output.author == null`}, pass: true},
		{name: "message", output: program,
			crit: layer.Criterion{Description: "Tests are included", Rule: `has(output.tests)`, Message: "The output must contain a 'tests' field with unit tests",
				MessageExpression: `"ignored"`},
			want: []wantIssue{{result.Error, result.CriteriaNotMet, "acceptance_criteria[0]",
				`^The output must contain a 'tests' field with unit tests$`, `^Change the output so that 'Tests are included' holds \(rule: has\(output.tests\)\)$`}}},
		{name: "messageExpression", output: program,
			crit: layer.Criterion{Description: "At least five items", Rule: `size(output.items) >= 5`,
				MessageExpression: `"Expected at least 5 items, found " + string(size(output.items))`},
			want: []wantIssue{{result.Error, result.CriteriaNotMet, "acceptance_criteria[0]", `^Expected at least 5 items, found 3$`, ``}}},
		{name: "messageExpression that fails falls back", output: program,
			crit: layer.Criterion{Description: "At least five items", Rule: `size(output.items) >= 5`,
				MessageExpression: `"missing " + output.nothing`},
			want: []wantIssue{{result.Error, result.CriteriaNotMet, "acceptance_criteria[0]", `^Acceptance criterion not met: At least five items$`, ``}}},
		{name: "messageExpression yielding a non-string falls back", output: program,
			crit: layer.Criterion{Description: "At least five items", Rule: `size(output.items) >= 5`,
				MessageExpression: `output.count`},
			want: []wantIssue{{result.Error, result.CriteriaNotMet, "acceptance_criteria[0]", `^Acceptance criterion not met: At least five items$`, ``}}},
		{name: "evaluation error fails", output: program,
			crit: layer.Criterion{Description: "Tests are included", Rule: `output.tests.size() > 0`},
			want: []wantIssue{{result.Error, result.CriteriaNotMet, "acceptance_criteria[0]",
				`^Acceptance criterion not met: Tests are included \(rule could not be evaluated on this output: no such key: tests\)$`,
				`^Add the field 'tests' that the rule of 'Tests are included' reads to the output \(rule: output.tests.size\(\) > 0\)$`}}},
		{name: "wrong type in output fails", output: program,
			crit: layer.Criterion{Description: "language is short", Rule: `output.count.size() < 10`},
			want: []wantIssue{{result.Error, result.CriteriaNotMet, "acceptance_criteria[0]",
				`^Acceptance criterion not met: language is short \(rule could not be evaluated on this output: no such overload`, `^Change the output`}}},
		{name: "non-bool at run time fails", output: program,
			crit: layer.Criterion{Description: "items", Rule: `output.items`},
			want: []wantIssue{{result.Error, result.CriteriaNotMet, "acceptance_criteria[0]",
				`^Acceptance criterion not met: items \(rule yielded \[1, 2, 3\], not a bool\)$`, `^Change the rule of 'items' so that it yields true or false`}}},
		{name: "has guards a missing field", output: program,
			crit: layer.Criterion{Description: "tests if any are non-empty", Rule: `!has(output.tests) || output.tests.size() > 0`}, pass: true},
		{name: "macros", output: program,
			crit: layer.Criterion{Description: "macros", Rule: `output.items.all(i, i > 0) && output.items.exists(i, i == 2) && output.items.exists_one(i, i == 3) && output.items.map(i, i * 2) == [2, 4, 6] && output.items.filter(i, i > 1).size() == 2`}, pass: true},
		{name: "strings extension", output: program,
			crit: layer.Criterion{Description: "strings", Rule: `output.language.upperAscii() == "PYTHON" && output.code.split("\n").size() == 2 && output.tags.join(",") == "math,python" && output.code.indexOf("return") > 0`}, pass: true},
		{name: "lists, sets and math extensions", output: program,
			crit: layer.Criterion{Description: "lists", Rule: `lists.range(3) == [0, 1, 2] && output.items.slice(0, 2) == [1, 2] && sets.contains(output.tags, ["python"]) && math.greatest(output.items) == 3 && [3, 1, 2].sort() == output.items`}, pass: true},
		{name: "encoders, bindings, optionals, regex", output: program,
			crit: layer.Criterion{Description: "misc", Rule: `base64.encode(b"hi") == "aGk=" && cel.bind(n, output.count, n * n == 9) && output.?missing.orValue(7) == 7 && regex.extract(output.code, "def ([a-z]+)").value() == "add"`}, pass: true},
		{name: "two-variable comprehensions", output: program,
			crit: layer.Criterion{Description: "scores positive", Rule: `output.scores.all(k, v, v > 0) && output.items.exists(i, v, i == 2 && v == 3)`}, pass: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &layer.Input{Output: decode(t, tt.output), Context: decode(t, tt.context), Criteria: []layer.Criterion{tt.crit}}
			if tt.output == "" {
				in.Output = tt.text
			}
			f, err := run(t, context.Background(), criteria.Layer, in)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			name := tt.crit.Name()
			if tt.pass {
				if !slices.Equal(f.Passed, []string{name}) || len(f.Failed) != 0 || len(f.Issues) != 0 {
					t.Fatalf("got passed %q failed %q issues\n%s; want passed", f.Passed, f.Failed, dump(f.Issues))
				}
			} else {
				if !slices.Equal(f.Failed, []string{name}) || len(f.Passed) != 0 {
					t.Fatalf("got passed %q failed %q; want failed", f.Passed, f.Failed)
				}
				checkIssues(t, f.Issues, tt.want)
				for _, is := range f.Issues {
					if is.Rule != "criteria.rule" {
						t.Errorf("rule %q, want criteria.rule", is.Rule)
					}
				}
			}
			if f.Checks != 1 || f.Confidence != 1 {
				t.Errorf("got %d checks, confidence %v; want 1 decided check", f.Checks, f.Confidence)
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		crit     []layer.Criterion
		location string
		msg      string // the whole message, caret snippet included
	}{
		{name: "syntax error", crit: []layer.Criterion{{Description: "ok", Rule: "true"}, {Description: "bad", Rule: "output.count >"}},
			location: "acceptance_criteria[1].rule:1:15",
			msg: "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n" +
				" | output.count >\n" +
				" | ..............^"},
		{name: "undeclared reference on line 2", crit: []layer.Criterion{{Rule: "output.a == 1 &&\n  outputs.b == 2"}},
			location: "acceptance_criteria[0].rule:2:3",
			msg: "undeclared reference to 'outputs'\n" +
				" |   outputs.b == 2\n" +
				" | ..^"},
		{name: "type error", crit: []layer.Criterion{{Rule: `1 + "a" == 2`}},
			location: "acceptance_criteria[0].rule:1:3",
			msg: "found no matching overload for '_+_' applied to '(int, string)'\n" +
				" | 1 + \"a\" == 2\n" +
				" | ..^"},
		{name: "not a bool", crit: []layer.Criterion{{Description: "count", Rule: `size(output.items) + 1`}},
			location: "acceptance_criteria[0].rule:1:20",
			msg: "rule must yield a bool, not int\n" +
				" | size(output.items) + 1\n" +
				" | ...................^"},
		{name: "bad regular expression", crit: []layer.Criterion{{Rule: `output.code.matches("(")`}},
			location: "acceptance_criteria[0].rule:1:21",
			msg: "invalid matches argument\n" +
				" | output.code.matches(\"(\")\n" +
				" | ....................^"},
		{name: "messageExpression not a string", crit: []layer.Criterion{{Rule: `true`, MessageExpression: `output.count > 1`}},
			location: "acceptance_criteria[0].messageExpression:1:14",
			msg: "messageExpression must yield a string, not bool\n" +
				" | output.count > 1\n" +
				" | .............^"},
		{name: "always over the cost limit", crit: []layer.Criterion{{Rule: `lists.range(1000).map(a, lists.range(1000).map(b, a * b)).size() > 0`}},
			location: "acceptance_criteria[0].rule:1:66",
			msg: "rule costs at least 16035024 to evaluate on any output, more than the limit of 1000000\n" +
				" | lists.range(1000).map(a, lists.range(1000).map(b, a * b)).size() > 0\n" +
				" | .................................................................^"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := run(t, context.Background(), criteria.Layer, &layer.Input{Output: decode(t, program), Criteria: tt.crit})
			var ie *layer.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("got error %v, want an *layer.InputError", err)
			}
			if ie.Layer != "criteria" || ie.Location != tt.location || ie.Msg != tt.msg {
				t.Errorf("got  %s at %s:\n%s\nwant criteria at %s:\n%s", ie.Layer, ie.Location, ie.Msg, tt.location, tt.msg)
			}
			if len(f.Issues)+len(f.Passed)+len(f.Failed) != 0 {
				t.Errorf("a rejected request reported findings: %+v", f)
			}
		})
	}
}

func TestInputErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		crit     layer.Criterion
		location *regexp.Regexp
	}{
		{"empty criterion", layer.Criterion{}, regexp.MustCompile(`^acceptance_criteria\[0\]$`)},
		{"blank rule", layer.Criterion{ID: "x", Rule: " "}, regexp.MustCompile(`^acceptance_criteria\[0\]\.rule:1:2$`)},
		{"too long", layer.Criterion{Rule: "true" + strings.Repeat(" && true", criteria.MaxExpressionLen/8)}, regexp.MustCompile(`^acceptance_criteria\[0\]\.rule:\d+:\d+$`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := run(t, context.Background(), criteria.Layer, &layer.Input{Output: "x", Criteria: []layer.Criterion{tt.crit}})
			var ie *layer.InputError
			if !errors.As(err, &ie) || !tt.location.MatchString(ie.Location) {
				t.Fatalf("got %v, want an InputError at %s", err, tt.location)
			}
		})
	}
}

// manyItems is an object output with n integer items.
func manyItems(n int) any {
	items := make([]any, n)
	for i := range items {
		items[i] = json.Number(fmt.Sprint(i))
	}
	return map[string]any{"items": items}
}

func TestCostLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		layer *layer.Layer
		limit int
		items int
	}{
		{"low limit", criteria.LayerWithCostLimit(1000), 1000, 20},
		{"default limit", criteria.Layer, criteria.CostLimit, 200},
	}
	const rule = `output.items.map(a, output.items.map(b, output.items.map(c, a * b * c))).size() > 0`
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &layer.Input{Output: manyItems(tt.items), Criteria: []layer.Criterion{
				{Description: "Cubes exist", Rule: rule},
				{Description: "Has items", Rule: "size(output.items) > 0"},
			}}
			f, err := run(t, context.Background(), tt.layer, in)
			if err != nil {
				t.Fatal(err)
			}
			checkIssues(t, f.Issues, []wantIssue{{result.Info, result.NotChecked, "acceptance_criteria[0]",
				fmt.Sprintf(`^Rule of criterion 'Cubes exist' was stopped: cost limit of %d exceeded$`, tt.limit), `^Simplify the rule`}})
			if !slices.Equal(f.Passed, []string{"Has items"}) || len(f.Failed) != 0 {
				t.Errorf("got passed %q failed %q; want only 'Has items' passed", f.Passed, f.Failed)
			}
			if f.Checks != 2 || f.Confidence != 0.5 {
				t.Errorf("got %d checks, confidence %v; want 2 checks, confidence 0.5", f.Checks, f.Confidence)
			}
		})
	}
}

func TestDeadline(t *testing.T) {
	t.Parallel()
	crit := []layer.Criterion{{Description: "Squares exist", Rule: `output.items.map(a, output.items.map(b, a * b)).size() > 0`}}
	want := []wantIssue{{result.Info, result.NotChecked, "acceptance_criteria[0]",
		`^Rule of criterion 'Squares exist' was stopped: the deadline passed before it finished$`, `^Allow the validation more time`}}

	t.Run("already passed", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		defer cancel()
		f, err := run(t, ctx, criteria.Layer, &layer.Input{Output: manyItems(300), Criteria: crit})
		if err != nil {
			t.Fatal(err)
		}
		checkIssues(t, f.Issues, want)
		if len(f.Passed)+len(f.Failed) != 0 || f.Confidence != 0 {
			t.Errorf("got passed %q failed %q confidence %v; want neither, confidence 0", f.Passed, f.Failed, f.Confidence)
		}
	})
	t.Run("passes during evaluation", func(t *testing.T) {
		t.Parallel()
		// Without the cost limit this rule takes seconds: 4e6 steps.
		l := criteria.LayerWithCostLimit(1 << 62)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		start := time.Now()
		f, err := run(t, ctx, l, &layer.Input{Output: manyItems(2000), Criteria: crit})
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("evaluation took %v after a 50ms deadline", d)
		}
		checkIssues(t, f.Issues, want)
	})
	t.Run("cancelled", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		f, err := run(t, ctx, criteria.Layer, &layer.Input{Output: manyItems(300), Criteria: crit})
		if err != nil {
			t.Fatal(err)
		}
		checkIssues(t, f.Issues, []wantIssue{{result.Info, result.NotChecked, "acceptance_criteria[0]", `was cancelled before it finished$`, ``}})
	})
}

func TestPlainLanguage(t *testing.T) {
	t.Parallel()
	in := &layer.Input{Output: decode(t, program), Criteria: []layer.Criterion{
		{Description: "Code implements addition"},
		{Description: "Has a language", Rule: "has(output.language)"},
	}}
	f, err := run(t, context.Background(), criteria.Layer, in)
	if err != nil {
		t.Fatal(err)
	}
	checkIssues(t, f.Issues, []wantIssue{{result.Info, result.NotChecked, "acceptance_criteria[0]",
		`^Criterion 'Code implements addition' is plain language and was not checked: no model is configured to judge it$`,
		`^Configure a model \(JUDGE_LLM_BASE_URL and JUDGE_LLM_MODEL; see docs/llm.md\), or give the criterion a CEL rule that states it$`}})
	if !slices.Equal(f.Passed, []string{"Has a language"}) || len(f.Failed) != 0 {
		t.Errorf("got passed %q failed %q; want the plain criterion in neither", f.Passed, f.Failed)
	}
	if f.Checks != 2 || f.Confidence != 0.5 {
		t.Errorf("got %d checks, confidence %v; want 2, 0.5", f.Checks, f.Confidence)
	}
}

func TestAmbiguityWarnings(t *testing.T) {
	t.Parallel()
	in := &layer.Input{Output: "def f(): pass", Criteria: []layer.Criterion{
		{Description: "code is good"},
		{Description: "Code is clean, readable and fast"},
		{Description: "Code is readable and follows PEP 8"},
		{Description: "Code is good", Rule: `output.contains("def")`},
		{Description: "Tests are included"},
	}}
	f, err := run(t, context.Background(), criteria.Layer, in)
	if err != nil {
		t.Fatal(err)
	}
	var got []result.Issue
	for _, is := range f.Issues {
		if is.Type == result.CriteriaAmbiguous {
			got = append(got, is)
			if is.Rule != "criteria.ambiguous" {
				t.Errorf("rule %q, want criteria.ambiguous", is.Rule)
			}
		}
	}
	checkIssues(t, got, []wantIssue{
		{result.Warning, result.CriteriaAmbiguous, "acceptance_criteria[0]",
			`^Criterion 'code is good' is subjective: 'good' has no measurable meaning$`,
			`^State what makes it good, e.g. 'all functions have docstrings', or add a rule$`},
		{result.Warning, result.CriteriaAmbiguous, "acceptance_criteria[1]",
			`^Criterion 'Code is clean, readable and fast' is subjective: 'clean', 'readable' and 'fast' have no measurable meaning$`,
			`^State what makes it clean, e.g. `},
	})
}

func TestDuplicateNames(t *testing.T) {
	t.Parallel()
	in := &layer.Input{Output: decode(t, program), Criteria: []layer.Criterion{
		{Description: "A", Rule: "true"},
		{Description: "B", Rule: "true"},
		{Description: "A", Rule: "false"},
		{Description: "C", Rule: "true"},
		{Description: "C"}, // plain language: undecided
		{Description: "B", Rule: "output.count == 3"},
		{Description: "D", Rule: "true"},
	}}
	f, err := run(t, context.Background(), criteria.Layer, in)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.Passed, []string{"B", "D"}) || !slices.Equal(f.Failed, []string{"A"}) {
		t.Errorf("got passed %q failed %q; want passed [B D], failed [A]", f.Passed, f.Failed)
	}
	var locs []string
	for _, is := range f.Issues {
		locs = append(locs, is.Location)
	}
	if !slices.Equal(locs, []string{"acceptance_criteria[2]", "acceptance_criteria[4]"}) {
		t.Errorf("issues at %q, want one for the failed A and one for the plain C", locs)
	}
}

func TestOrder(t *testing.T) {
	t.Parallel()
	var crit []layer.Criterion
	var want []string
	for i := range 20 {
		name := fmt.Sprintf("criterion %02d", 19-i)
		crit = append(crit, layer.Criterion{Description: name, Rule: fmt.Sprintf("output.count != %d", i)})
		if i != 3 {
			want = append(want, name)
		}
	}
	f, err := run(t, context.Background(), criteria.Layer, &layer.Input{Output: decode(t, program), Criteria: crit})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.Passed, want) || !slices.Equal(f.Failed, []string{"criterion 16"}) {
		t.Errorf("got passed %q failed %q; want request order", f.Passed, f.Failed)
	}
}

func TestCache(t *testing.T) {
	t.Parallel()
	cache := layer.NewCache(0)
	in := &layer.Input{Output: decode(t, program), Criteria: []layer.Criterion{
		{Description: "a", Rule: "output.count == 3", MessageExpression: `"count is " + string(output.count)`},
		{Description: "b", Rule: "output.count == 3"}, // same rule: shared
		{Description: "c", Rule: "size(output.items) == 3"},
	}}
	for range 3 {
		p := layer.NewPass(criteria.Layer, in, cache)
		if err := criteria.Layer.Run(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		if f := p.Findings(); len(f.Passed) != 3 {
			t.Fatalf("passed %q", f.Passed)
		}
	}
	// 3 distinct expressions, 4 loads per run: 1 hit in the first run, 4
	// in each of the next two.
	if entries, hits := cache.Stats(); entries != 3 || hits != 9 {
		t.Errorf("got %d entries, %d hits; want 3 and 9", entries, hits)
	}

	// A compile error is cached too, and placed at each request's index.
	bad := layer.Criterion{Rule: "output.count >"}
	for i := range 2 {
		crit := append(slices.Repeat([]layer.Criterion{{Rule: "true"}}, i), bad)
		p := layer.NewPass(criteria.Layer, &layer.Input{Output: "x", Criteria: crit}, cache)
		var ie *layer.InputError
		if err := criteria.Layer.Run(context.Background(), p); !errors.As(err, &ie) || !strings.HasPrefix(ie.Location, fmt.Sprintf("acceptance_criteria[%d].rule:", i)) {
			t.Fatalf("got %v", err)
		}
	}
	if entries, hits := cache.Stats(); entries != 5 || hits != 10 {
		t.Errorf("got %d entries, %d hits; want 5 and 10", entries, hits)
	}
}

func TestConcurrent(t *testing.T) {
	t.Parallel()
	cache := layer.NewCache(0)
	out := decode(t, program)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			in := &layer.Input{Output: out, Criteria: []layer.Criterion{
				{Description: "count", Rule: fmt.Sprintf("output.count == %d", 3+i%2)},
				{Description: "items", Rule: "output.items.all(x, x > 0)"},
			}}
			p := layer.NewPass(criteria.Layer, in, cache)
			if err := criteria.Layer.Run(context.Background(), p); err != nil {
				t.Error(err)
				return
			}
			f := p.Findings()
			if want := 2 - i%2; len(f.Passed) != want {
				t.Errorf("run %d: passed %q", i, f.Passed)
			}
		})
	}
	wg.Wait()
}

func TestLayer(t *testing.T) {
	t.Parallel()
	l := criteria.Layer
	if err := l.Validate(); err != nil {
		t.Fatal(err)
	}
	if l.Name != "criteria" || !strings.HasPrefix(l.Doc, "criteria: check the output against the request's acceptance criteria\n") {
		t.Errorf("name %q, doc %q", l.Name, l.Doc)
	}
	if l.Applies(&layer.Input{Output: "x"}) || !l.Applies(&layer.Input{Criteria: []layer.Criterion{{Description: "x"}}}) {
		t.Error("Applies should be true exactly when there are criteria")
	}
}

// TestResultsAreValid builds a result from the findings of every kind and
// checks it against the ValidationResult schema.
func TestResultsAreValid(t *testing.T) {
	t.Parallel()
	f, err := run(t, context.Background(), criteria.LayerWithCostLimit(100), &layer.Input{Output: manyItems(50), Criteria: []layer.Criterion{
		{Description: "good", Rule: "true"},
		{Description: "x", Rule: "false", Message: "no"},
		{Rule: "output.missing"},
		{Description: "code is nice"},
		{Description: "heavy", Rule: "output.items.map(a, output.items.map(b, a)).size() > 0"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	b := result.NewBuilder().Add(f.Issues...).Confidence(f.Confidence)
	for _, n := range f.Passed {
		b.Pass(n)
	}
	for _, n := range f.Failed {
		b.Fail(n)
	}
	if err := result.Check(b.Build()); err != nil {
		t.Fatal(err)
	}
}

// TestDocExamples evaluates the rules shown in docs/criteria.md on an output
// that satisfies them all.
func TestDocExamples(t *testing.T) {
	t.Parallel()
	output := decode(t, `{
		"code": "def sort_list(xs): return sorted(xs)", "tests": [1], "name": "Ada", "title": " T ",
		"tags": ["python", "math"], "items": [{"id": 1, "price": 2.5}], "nested": [[1], [2]],
		"scores": {"a": 1}, "status": "ok", "email": "a@b.c", "language": "python", "blob": "aGk=",
		"summary": "short", "user": {"email": "x@y.z"}, "ok": true, "refund_issued": true}`)
	rules := []string{
		`output.name.lowerAscii() == "ada"`,
		`output.code.split("\n").size() == 1`,
		`output.tags.join(", ") == "python, math"`,
		`output.title.trim() == "T"`,
		`"%d items".format([size(output.items)]) == "1 items"`,
		`lists.range(3) == [0, 1, 2]`,
		`output.tags.slice(0, 1) == ["python"]`,
		`output.tags.sort() == ["math", "python"]`,
		`[1, 1, 2].distinct() == [1, 2]`,
		`output.nested.flatten() == [1, 2]`,
		`sets.contains(output.tags, ["python"])`,
		`sets.intersects(output.tags, ["math", "x"]) && sets.equivalent([1, 2], [2, 1])`,
		`math.greatest([1, 5, 2]) == 5 && math.least(1, 2) == 1 && math.abs(-2) == 2 && math.round(2.4) == 2.0`,
		`base64.encode(b"hi") == "aGk=" && base64.decode(output.blob) == b"hi"`,
		`cel.bind(n, size(output.items), n > 0 && n < 10)`,
		`output.scores.all(k, v, v >= 0)`,
		`output.tags.exists(i, v, i == 0 && v == "python")`,
		`regex.extract(output.code, "def ([a-z_]+)").value() == "sort_list"`,
		`regex.replace("a  b", "\\s+", " ") == "a b"`,
		`output.?user.?email.orValue("") == "x@y.z"`,
		`output.items[?0].hasValue()`,
		`has(output.tests) && size(output.tests) > 0`,
		`output.items.all(i, has(i.id) && i.price > 0)`,
		`output.status in ["ok", "done"]`,
		`output.email.matches("^[^@\\s]+@[^@\\s]+$")`,
		`output.language == context.expected_language`,
		`size(output.summary.split(" ")) <= 200`,
		`!output.code.contains("eval(")`,
		`text.contains("refund")`,
		`text.contains("refund") && output.refund_issued == true`,
		`size(text.split(" ")) <= 200`,
		`output.ok`,
		`output["content-type"] == "json" || !has(output.x)`,
	}
	var crit []layer.Criterion
	for _, r := range rules {
		crit = append(crit, layer.Criterion{Rule: r})
	}
	f, err := run(t, context.Background(), criteria.Layer, &layer.Input{Output: output, Text: "We issued the refund.\n```json\n{}\n```",
		Context: map[string]any{"expected_language": "python"}, Criteria: crit})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Failed) != 0 || len(f.Passed) != len(rules) {
		t.Errorf("failed %q\n%s", f.Failed, dump(f.Issues))
	}
}

// TestNilCache checks that a pass without a cache compiles every time, as
// layer.Cache.Load does for a nil Cache.
func TestNilCache(t *testing.T) {
	t.Parallel()
	p := layer.NewPass(criteria.Layer, &layer.Input{Output: decode(t, program), Criteria: []layer.Criterion{
		{Description: "count", Rule: "output.count == 3"}, {Description: "bad", Rule: "output.count >"},
	}}, nil)
	var ie *layer.InputError
	if err := criteria.Layer.Run(context.Background(), p); !errors.As(err, &ie) || ie.Location != "acceptance_criteria[1].rule:1:15" {
		t.Fatalf("got %v, want the InputError of the second rule", err)
	}
	p = layer.NewPass(criteria.Layer, &layer.Input{Output: decode(t, program), Criteria: []layer.Criterion{{Description: "count", Rule: "output.count == 3"}}}, nil)
	if err := criteria.Layer.Run(context.Background(), p); err != nil || !slices.Equal(p.Findings().Passed, []string{"count"}) {
		t.Fatalf("got %v, passed %q", err, p.Findings().Passed)
	}
}
