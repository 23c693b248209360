package criteria

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/layer"
)

// NewLayer returns the criteria layer with its plain-language criteria
// judged by the model m; with a nil m it is [Layer].
//
// An engine with a model (judge.WithLLM) hands it to [Layer], which
// declares layer.Layer.UsesModel, through its pass; NewLayer fixes the
// model on the layer instead, for a layer run without an engine's model.
func NewLayer(m *llm.Client) *layer.Layer {
	if m == nil {
		return Layer
	}
	return newLayer(config{costLimit: CostLimit, judge: modelJudge(m)})
}

// deadlineMargin is how long before the layer's deadline the model must
// have answered, so that the layer can still report its criteria as
// undecided instead of being cut off whole.
func deadlineMargin(left time.Duration) time.Duration {
	return min(left/4, time.Second)
}

// modelJudge is the judgeFunc of the model m: every plain criterion of a
// request in as few calls as fit (see llm.Client.JudgeCriteria).
func modelJudge(m *llm.Client) judgeFunc {
	return func(ctx context.Context, in *layer.Input, crits []plainCriterion) ([]verdict, [2]int64) {
		if dl, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, dl.Add(-deadlineMargin(time.Until(dl))))
			defer cancel()
		}
		q := llm.CriteriaQuestion{Output: in.Text}
		out := make([]verdict, len(crits))
		if q.Output == "" {
			b, err := json.Marshal(in.Output)
			if err != nil {
				for i := range out {
					out[i].err = fmt.Errorf("the output could not be written for the model: %w", err)
				}
				return out, [2]int64{}
			}
			q.Output = string(b)
		}
		if in.Context != nil {
			if b, err := json.Marshal(in.Context); err == nil {
				q.Context = string(b)
			}
		}
		for _, c := range crits {
			q.Criteria = append(q.Criteria, llm.Criterion{ID: c.index, Text: c.Name()})
		}
		res, usage := m.JudgeCriteria(ctx, q)
		for i, r := range res {
			switch {
			case r.Err != nil:
				out[i].err = r.Err
			case r.Verdict.Verdict == llm.CannotTell:
				out[i] = verdict{model: m.Model(), cannotTell: true, err: fmt.Errorf("the model could not tell from the output (%s)", r.Verdict.Reason)}
			default:
				out[i] = verdict{met: r.Verdict.Verdict == llm.Met, certainty: r.Verdict.Confidence,
					reason: r.Verdict.Reason, model: m.Model()}
			}
		}
		return out, [2]int64{usage.PromptTokens, usage.CompletionTokens}
	}
}
