package criteria

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// Judge is a model the criteria layer asks about the plain-language
// criteria of a request. judge's client of an OpenAI-compatible API
// (judge.WithLLM) is one; a program can give [NewLayer] its own, or hand
// it to an engine with judge.WithModel.
type Judge interface {
	// Model names the model, for metadata.model.
	Model() string
	// JudgeCriteria decides each criterion of q on q's output. It returns
	// one answer per criterion, in q.Criteria's order, and what its calls
	// cost. It returns when ctx ends; a criterion it did not answer stays
	// undecided.
	JudgeCriteria(ctx context.Context, q ModelQuestion) ([]ModelVerdict, result.TokenUsage)
}

// ModelQuestion is what a [Judge] is asked: the plain-language criteria of
// one request.
type ModelQuestion struct {
	// Output is the output as the request gave it when that was a string,
	// else its JSON; Context is the request's context as JSON, "" when it
	// has none.
	Output, Context string
	Criteria        []ModelCriterion
}

// ModelCriterion is a plain-language criterion put to a [Judge].
type ModelCriterion struct {
	// Index is the criterion's index in the request's
	// acceptance_criteria; Text is what it says.
	Index int
	Text  string
}

// ModelVerdict is a [Judge]'s answer on one criterion.
type ModelVerdict struct {
	// Verdict is [Met], [NotMet] or [CannotTell]; anything else leaves
	// the criterion undecided.
	Verdict string
	// Confidence is the judge's own, in [0, 1].
	Confidence float64
	// Reason says why, for the message of a criterion not met.
	Reason string
	// Err, when not nil, says why the criterion was not decided; the
	// other fields are then not read.
	Err error
}

// The verdicts of a [ModelVerdict] (judge's client answers the same
// words).
const (
	Met        = "met"
	NotMet     = "not_met"
	CannotTell = "cannot_tell"
)

// NewLayer returns the criteria layer with its plain-language criteria
// judged by the model m; with a nil m it is [Layer].
//
// An engine with a model (judge.WithLLM, judge.WithModel) hands it to
// [Layer], which declares layer.Layer.UsesModel, through its pass;
// NewLayer fixes the model on the layer instead, for a layer run without
// an engine's model.
func NewLayer(m Judge) *layer.Layer {
	if m == nil {
		return Layer
	}
	return newLayer(config{costLimit: CostLimit, judge: modelJudge(m)})
}

// judgeOf is the Judge of the model an engine hands through the pass: a
// Judge itself, or judge's own client; nil for none.
func judgeOf(m layer.Model) Judge {
	switch m := m.(type) {
	case Judge:
		return m
	case *llm.Client:
		return clientJudge{m}
	}
	return nil
}

// clientJudge is the Judge of judge's client of an OpenAI-compatible API.
type clientJudge struct{ c *llm.Client }

func (j clientJudge) Model() string { return j.c.Model() }

// JudgeCriteria asks the client (see llm.Client.JudgeCriteria): every
// criterion in as few calls as fit.
func (j clientJudge) JudgeCriteria(ctx context.Context, q ModelQuestion) ([]ModelVerdict, result.TokenUsage) {
	lq := llm.CriteriaQuestion{Output: q.Output, Context: q.Context}
	for _, c := range q.Criteria {
		lq.Criteria = append(lq.Criteria, llm.Criterion{ID: c.Index, Text: c.Text})
	}
	res, usage := j.c.JudgeCriteria(ctx, lq)
	out := make([]ModelVerdict, len(res))
	for i, r := range res {
		if r.Err != nil {
			out[i].Err = r.Err
			continue
		}
		out[i] = ModelVerdict{Verdict: r.Verdict.Verdict, Confidence: r.Verdict.Confidence, Reason: r.Verdict.Reason}
	}
	return out, result.TokenUsage{PromptTokens: usage.PromptTokens, CompletionTokens: usage.CompletionTokens}
}

// deadlineMargin is how long before the layer's deadline the model must
// have answered, so that the layer can still report its criteria as
// undecided instead of being cut off whole.
func deadlineMargin(left time.Duration) time.Duration {
	return min(left/4, time.Second)
}

// modelJudge is the judgeFunc of the model m: every plain criterion of a
// request at once.
func modelJudge(m Judge) judgeFunc {
	return func(ctx context.Context, in *layer.Input, crits []plainCriterion) ([]verdict, [2]int64) {
		if dl, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, dl.Add(-deadlineMargin(time.Until(dl))))
			defer cancel()
		}
		q := ModelQuestion{Output: in.Text}
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
			q.Criteria = append(q.Criteria, ModelCriterion{Index: c.index, Text: c.Name()})
		}
		res, usage := m.JudgeCriteria(ctx, q)
		for i := range out {
			if i >= len(res) {
				out[i].err = errors.New("the model gave no verdict")
				continue
			}
			out[i] = verdictOf(res[i], m.Model())
		}
		return out, [2]int64{usage.PromptTokens, usage.CompletionTokens}
	}
}

// verdictOf reads the model's answer r.
func verdictOf(r ModelVerdict, model string) verdict {
	switch {
	case r.Err != nil:
		return verdict{err: r.Err}
	case r.Verdict == CannotTell:
		return verdict{model: model, cannotTell: true, err: fmt.Errorf("the model could not tell from the output (%s)", r.Reason)}
	case r.Verdict != Met && r.Verdict != NotMet:
		return verdict{err: fmt.Errorf("the model's verdict %q is not one of %s, %s, %s", r.Verdict, Met, NotMet, CannotTell)}
	case !(r.Confidence >= 0 && r.Confidence <= 1):
		return verdict{err: fmt.Errorf("the model's confidence %v is not in [0, 1]", r.Confidence)}
	}
	return verdict{met: r.Verdict == Met, certainty: r.Confidence, reason: r.Reason, model: model}
}
