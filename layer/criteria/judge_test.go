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
// passed and failed criteria with the model's certainty, and every plain
// criterion goes to the judge in one call.
func TestJudgeHook(t *testing.T) {
	t.Parallel()
	var calls int
	judge := func(_ context.Context, _ *layer.Input, crits []plainCriterion) ([]verdict, [2]int64) {
		calls++
		var out []verdict
		for _, c := range crits {
			switch c.Description {
			case "met":
				out = append(out, verdict{met: true, certainty: 0.9, model: "m1"})
			case "not met":
				out = append(out, verdict{certainty: 0.7, reason: "the output has no tests", model: "m1"})
			default:
				out = append(out, verdict{err: errors.New("model unavailable")})
			}
		}
		return out, [2]int64{100, 20}
	}
	l := newLayer(config{costLimit: CostLimit, judge: judge})
	p := layer.NewPass(l, &layer.Input{Output: "x", Criteria: []layer.Criterion{
		{Description: "met"}, {Description: "not met"}, {Description: "broken"},
	}}, layer.NewCache(0))
	if err := l.Run(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	f := p.Findings()
	if calls != 1 || f.PromptTokens != 100 || f.CompletionTokens != 20 {
		t.Errorf("got %d judge calls and tokens %d/%d; want every plain criterion in one call, its tokens recorded", calls, f.PromptTokens, f.CompletionTokens)
	}
	if !slices.Equal(f.Passed, []string{"met"}) || !slices.Equal(f.Failed, []string{"not met"}) {
		t.Errorf("got passed %q failed %q", f.Passed, f.Failed)
	}
	if f.Checks != 3 || f.Confidence < 0.53 || f.Confidence > 0.54 || !slices.Equal(f.Models, []string{"m1", "m1"}) {
		t.Errorf("got %d checks, confidence %v, models %q", f.Checks, f.Confidence, f.Models)
	}
	want := []result.Issue{
		{Severity: result.Error, Type: result.CriteriaNotMet, Location: "acceptance_criteria[1]",
			Message: "Acceptance criterion not met: not met (the output has no tests)", Suggestion: "Change the output so that it meets the criterion 'not met'", Rule: "criteria.judge"},
		{Severity: result.Warning, Type: result.NotChecked, Location: "acceptance_criteria[2]", Rule: RuleModelFailed,
			Message: "Criterion 'broken' could not be judged by the configured model: model unavailable", Suggestion: "Check that the model's server is running and reachable (JUDGE_LLM_BASE_URL), then retry; or give the criterion a CEL rule so no model is needed"},
	}
	if !slices.Equal(f.Issues, want) {
		t.Errorf("got issues\n%+v\nwant\n%+v", f.Issues, want)
	}
}
