package quality_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// The specification's complete examples 1, 2 and 4, rebuilt as outputs
// that give the same kinds of issues, land in their rubric bands through
// the engine. (Example 3 is a facts/hallucination result; its band is
// tested in result.)
func TestSpecExamplesThroughEngine(t *testing.T) {
	t.Parallel()
	e, err := judge.New()
	if err != nil {
		t.Fatal(err)
	}
	long := "    return [" + strings.Repeat("value, ", 12) + "value]\n"
	tests := []struct {
		name      string
		req       judge.Request
		specScore float64
		// wantTypes are the issue types, by count, that the spec lists.
		wantTypes map[result.Type]int
	}{
		{
			name: "example 1: valid output with warnings",
			req: judge.Request{
				Output:          mustJSON(t, "```python\ndef sortList(lst):\n    \"\"\"Sort lst.\"\"\"\n    return sorted(lst)\n```\n"),
				ValidationTypes: []string{"quality"},
			},
			specScore: 0.82,
			wantTypes: map[result.Type]int{result.StyleIssue: 1, result.Optimization: 1},
		},
		{
			name: "example 2: schema violation",
			req: judge.Request{
				Output:          json.RawMessage(`{"code": "def sort_list(lst: list) -> list:\n    return sorted(lst)\n", "language": "python"}`),
				ExpectedSchema:  json.RawMessage(`{"type": "object", "required": ["code", "tests"]}`),
				ValidationTypes: []string{"schema", "criteria", "quality"},
				AcceptanceCriteria: []layer.Criterion{
					{ID: "tests", Description: "Tests are included", Rule: `has(output.tests)`},
				},
			},
			specScore: 0.55,
			wantTypes: map[result.Type]int{result.MissingField: 1, result.CriteriaNotMet: 1, result.ReadabilityIssue: 1},
		},
		{
			name: "example 4: quality assessment (low score)",
			req: judge.Request{
				Output: mustJSON(t, "```python\nimport subprocess\n\n\n"+
					"def calculate_statistics(values: list, mode: str) -> float:\n    \"\"\"Summarize values by mode.\"\"\"\n    total = 0.0\n"+
					strings.Repeat("    if mode == 'a' or mode == 'b':\n        total += 1\n", 7)+"    return total\n\n\n"+
					"def find_duplicates(items: list) -> list:\n    \"\"\"Find items seen twice.\"\"\"\n    found = []\n    for first in items:\n        for second in items:\n            found.append((first, second))\n    return found\n\n\n"+
					"def process_data(value: str) -> list:\n    \"\"\"Run value as a command.\"\"\"\n    x = value.strip()\n    subprocess.run(x, shell=True)\n"+long+"```\n"),
				ValidationTypes: []string{"quality"},
			},
			specScore: 0.52,
			wantTypes: map[result.Type]int{result.ComplexityIssue: 1, result.PerformanceIssue: 1, result.SecurityIssue: 1, result.ReadabilityIssue: 1, result.StyleIssue: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := e.Validate(context.Background(), &tt.req)
			if err != nil {
				t.Fatal(err)
			}
			got := map[result.Type]int{}
			for _, is := range r.Issues {
				got[is.Type]++
			}
			for typ, n := range tt.wantTypes {
				if got[typ] != n {
					t.Errorf("%d %s issues, want %d", got[typ], typ, n)
				}
			}
			if len(r.Issues) != sum(tt.wantTypes) {
				t.Errorf("%d issues, want %d", len(r.Issues), sum(tt.wantTypes))
			}
			if result.Grade(r.QualityScore) != result.Grade(tt.specScore) {
				t.Errorf("quality %.3f is %s; the spec's %.2f is %s", r.QualityScore, result.Grade(r.QualityScore), tt.specScore, result.Grade(tt.specScore))
			}
			if t.Failed() {
				for _, is := range r.Issues {
					t.Logf("%s %s %s %s: %s", is.Severity, is.Type, is.Rule, is.Location, is.Message)
				}
			}
			if len(r.Metadata.QualityDimensions) != len(result.Dimensions()) {
				t.Errorf("dimensions %v", r.Metadata.QualityDimensions)
			}
			if err := result.Check(r); err != nil {
				t.Errorf("result breaks the schema: %v", err)
			}
		})
	}
}

func sum(m map[result.Type]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A JSON answer's prose fields are reviewed through the engine as the same
// prose as a text output is: the same findings, located by field path, and
// so the same quality_score and quality_dimensions; a code field is code,
// and an indented block in a prose field is code too.
func TestJSONProseThroughEngine(t *testing.T) {
	t.Parallel()
	e, err := judge.New()
	if err != nil {
		t.Fatal(err)
	}
	const prose = "The fix restarts the worker. See [insert link] for the details.\n\nThe queue is drained and then the"
	asJSON, err := e.Validate(context.Background(), &judge.Request{
		Output: mustJSON(t, map[string]any{
			"summary":  prose,
			"status":   "TODO",
			"owner":    "<your name>",
			"solution": map[string]any{"language": "python", "code": "def run(cmd: str) -> None:\n    \"\"\"Run cmd. TODO: (quote it.\"\"\"\n    eval(cmd)\n"},
			"steps":    []any{"Install it with the command below, then restart the service.\n\n    import os\n\n    def install(name: str) -> None:\n        \"\"\"Install name.\"\"\"\n        os.system(\"pip install \" + name)\n"},
		}),
		ValidationTypes: []string{"quality"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"error readability_issue prose.placeholder owner",
		"error readability_issue prose.placeholder summary:line:1",
		"warning readability_issue prose.unfinished summary:line:3",
		"warning security_issue security.eval solution.code:function:run:line:3",
		"warning security_issue security.shell_string steps[0]:function:install:line:7",
	}
	var got []string
	for _, is := range asJSON.Issues {
		got = append(got, string(is.Severity)+" "+string(is.Type)+" "+is.Rule+" "+is.Location)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("issues:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	if asJSON.Valid || asJSON.Confidence != 1 {
		t.Errorf("valid %v, confidence %v", asJSON.Valid, asJSON.Confidence)
	}
	if err := result.Check(asJSON); err != nil {
		t.Errorf("result breaks the schema: %v", err)
	}

	// The summary alone, as a JSON field and as a text output.
	scores := func(out json.RawMessage) (float64, map[string]float64) {
		r, err := e.Validate(context.Background(), &judge.Request{Output: out, ValidationTypes: []string{"quality"}})
		if err != nil {
			t.Fatal(err)
		}
		return r.QualityScore, r.Metadata.QualityDimensions
	}
	fs, fd := scores(mustJSON(t, map[string]any{"summary": prose}))
	ts, td := scores(mustJSON(t, prose))
	if fs != ts || !maps.Equal(fd, td) || fd[result.Completeness] >= 1 || fd[result.Readability] != 1 {
		t.Errorf("as a field %v %v, as text %v %v", fs, fd, ts, td)
	}
}
