package criteria

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// TestJudgeHook checks the plumbing a model plugs into: verdicts become
// passed and failed criteria with the model's certainty.
func TestJudgeHook(t *testing.T) {
	t.Parallel()
	judge := func(_ context.Context, c layer.Criterion, output, _ any) (verdict, error) {
		switch c.Description {
		case "met":
			return verdict{met: true, certainty: 0.9, model: "m1"}, nil
		case "not met":
			return verdict{certainty: 0.7, reason: "the output has no tests", model: "m1"}, nil
		}
		return verdict{}, errors.New("model unavailable")
	}
	l := newLayer(config{costLimit: CostLimit, judge: judge})
	p := layer.NewPass(l, &layer.Input{Output: "x", Criteria: []layer.Criterion{
		{Description: "met"}, {Description: "not met"}, {Description: "broken"},
	}}, layer.NewCache(0))
	if err := l.Run(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	f := p.Findings()
	if !slices.Equal(f.Passed, []string{"met"}) || !slices.Equal(f.Failed, []string{"not met"}) {
		t.Errorf("got passed %q failed %q", f.Passed, f.Failed)
	}
	if f.Checks != 3 || f.Confidence < 0.53 || f.Confidence > 0.54 || !slices.Equal(f.Models, []string{"m1", "m1"}) {
		t.Errorf("got %d checks, confidence %v, models %q", f.Checks, f.Confidence, f.Models)
	}
	want := []result.Issue{
		{Severity: result.Error, Type: result.CriteriaNotMet, Location: "acceptance_criteria[1]",
			Message: "Acceptance criterion not met: not met (the output has no tests)", Suggestion: "Change the output so that it meets the criterion 'not met'", Rule: "criteria.judge"},
		{Severity: result.Info, Type: result.NotChecked, Location: "acceptance_criteria[2]",
			Message: "Criterion 'broken' could not be judged by the model: model unavailable", Suggestion: "Retry the validation, or give the criterion a CEL rule so no model is needed"},
	}
	if !slices.Equal(f.Issues, want) {
		t.Errorf("got issues\n%+v\nwant\n%+v", f.Issues, want)
	}
}
