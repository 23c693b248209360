package schema_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/schema"
)

// TestFindings checks the structure Findings hands out beside each issue,
// and that its messages name the value as asked, with the same issues as
// the layer's Run otherwise.
func TestFindings(t *testing.T) {
	t.Parallel()
	exp := decode(t, `{"type": "object", "required": ["id", "a very long name"],
		"additionalProperties": false,
		"properties": {"id": {"type": "integer"}, "a very long name": {},
			"mode": {"const": "fast"}, "n": {"type": "number", "minimum": 3},
			"tags": {"type": "array", "items": {"type": "object", "required": ["k"]}}}}`)
	out := decode(t, `{"mode": "slow", "n": 1, "extra": true, "tags": [{"v": 1}]}`)
	found, err := schema.Findings(context.Background(), layer.NewCache(2),
		&layer.Input{Output: out, ExpectedSchema: exp}, "the arguments")
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		keyword, path, field, expected, actual, inMessage string
	}
	wants := []want{
		{"additionalProperties", "extra", "extra", "", "", "Field 'extra' is not allowed at root"},
		{"const", "mode", "", `"fast"`, `"slow"`, `must be the constant "fast"`},
		{"minimum", "n", "", "3", "1", "below the minimum 3"},
		{"required", "", "a very long name", "", "", "Missing required field 'a very long name' at root"},
		{"required", "", "id", "", "", "Missing required field 'id' at root"},
		{"required", "tags/0", "k", "", "", "Missing required field 'k' in tags[0]"},
	}
	var got []want
	for _, f := range found {
		got = append(got, want{f.Keyword, strings.Join(f.Path, "/"), f.Field, f.Expected, f.Actual, f.Issue.Message})
		if f.Issue.Rule != "schema."+f.Keyword {
			t.Errorf("finding %q has keyword %q but rule %q", f.Issue.Message, f.Keyword, f.Issue.Rule)
		}
	}
	for _, w := range wants {
		if !slices.ContainsFunc(got, func(g want) bool {
			return g.keyword == w.keyword && g.path == w.path && g.field == w.field &&
				g.expected == w.expected && g.actual == w.actual && strings.Contains(g.inMessage, w.inMessage)
		}) {
			t.Errorf("no finding %+v among\n%+v", w, got)
		}
	}
	if len(got) != len(wants) {
		t.Errorf("got %d findings, want %d: %+v", len(got), len(wants), got)
	}

	// The root is named as asked: a type error at the root.
	found, err = schema.Findings(context.Background(), nil,
		&layer.Input{Output: decode(t, `[1]`), ExpectedSchema: exp}, "the arguments")
	if err != nil || len(found) != 1 {
		t.Fatalf("Findings = %+v, %v; want one type finding", found, err)
	}
	if f := found[0]; f.Issue.Message != "The arguments has type array, expected object" ||
		!strings.Contains(f.Issue.Suggestion, "the arguments") || f.Expected != "object" || f.Actual != "array" {
		t.Errorf("root finding = %+v", f)
	}

	// Without a noun the issues are the layer's own, in its order.
	found, err = schema.Findings(context.Background(), nil, &layer.Input{Output: out, ExpectedSchema: exp}, "")
	if err != nil {
		t.Fatal(err)
	}
	p := layer.NewPass(schema.Layer, &layer.Input{Output: out, ExpectedSchema: exp}, nil)
	if err := schema.Layer.Run(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	run := p.Findings().Issues
	if len(run) != len(found) {
		t.Fatalf("Run reports %d issues, Findings %d", len(run), len(found))
	}
	for i := range run {
		if run[i] != found[i].Issue {
			t.Errorf("issue %d: Run %+v, Findings %+v", i, run[i], found[i].Issue)
		}
	}
}
