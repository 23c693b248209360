package facts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/source"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// NewLayer returns the facts layer with the claims its checker leaves
// undecided or unsupported judged by the model m, from the five passages
// most related to each; with a nil m it is [Layer].
//
// An engine with a model (judge.WithLLM) hands it to [Layer], which
// declares layer.Layer.UsesModel, through its pass; NewLayer fixes the
// model on the layer instead, for a layer run without an engine's model.
func NewLayer(m *llm.Client) *layer.Layer {
	if m == nil {
		return Layer
	}
	return newLayer(config{judge: modelJudge(m)})
}

// deadlineMargin is how long before the layer's deadline the model must
// have answered, so that the layer can still report its claims as
// undecided instead of being cut off whole: the criteria layer's margin.
func deadlineMargin(left time.Duration) time.Duration {
	return min(left/4, time.Second)
}

// Bounds of what a claim shows the model, in bytes.
const (
	maxSentence = 400
	maxPassage  = 800
)

// modelJudge is the claimJudge of the model m: every claim of a request
// in as few calls as fit (see llm.Client.JudgeClaims).
func modelJudge(m *llm.Client) claimJudge {
	return func(ctx context.Context, qs []question) ([]judged, [2]int64) {
		if dl, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, dl.Add(-deadlineMargin(time.Until(dl))))
			defer cancel()
		}
		claims := make([]llm.Claim, len(qs))
		for i, q := range qs {
			c := q.claim
			lc := llm.Claim{ID: i, Kind: string(c.Kind), Subject: c.Subject(), Value: c.Text, Sentence: result.ClipText(c.Sentence, maxSentence)}
			if c.Kind == claim.Negation {
				lc.Value = c.Text + " (a negation)"
			}
			for _, p := range q.passages {
				lc.Passages = append(lc.Passages, llm.Passage{Source: q.ix.SourceOf(p).ID, Line: p.Line, Text: result.ClipText(p.Text, maxPassage)})
			}
			claims[i] = lc
		}
		res, usage := m.JudgeClaims(ctx, claims)
		out := make([]judged, len(qs))
		for i, r := range res {
			out[i] = judged{status: source.Undecided}
			switch {
			case r.Err != nil:
				out[i].err = r.Err
			case r.Verdict.Verdict == llm.CannotTell:
				out[i].model = m.Model()
				out[i].err = errors.New("it could not tell from the passages")
			default:
				v := r.Verdict
				if v.Evidence < 0 || v.Evidence >= len(qs[i].passages) {
					out[i].err = fmt.Errorf("its evidence is passage %d of %d", v.Evidence+1, len(qs[i].passages))
					continue
				}
				out[i] = judged{status: source.Supported, evidence: qs[i].passages[v.Evidence], certainty: v.Confidence, model: m.Model()}
				if v.Verdict == llm.Contradicted {
					out[i].status, out[i].found = source.Contradicted, v.SourceValue
				}
			}
		}
		return out, [2]int64{usage.PromptTokens, usage.CompletionTokens}
	}
}
