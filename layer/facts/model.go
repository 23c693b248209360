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

// Judge is a model the facts layer asks about the claims its checker
// leaves undecided or unsupported. judge's client of an OpenAI-compatible
// API (judge.WithLLM) is one; a program can give [NewLayer] its own, or
// hand it to an engine with judge.WithModel.
type Judge interface {
	// Model names the model, for metadata.model.
	Model() string
	// JudgeClaims decides each claim from the passages shown with it. It
	// returns one answer per claim, in claims' order, and what its calls
	// cost. It returns when ctx ends; a claim it did not answer stays
	// undecided.
	JudgeClaims(ctx context.Context, claims []ModelClaim) ([]ModelVerdict, result.TokenUsage)
}

// ModelClaim is a claim of the output put to a [Judge].
type ModelClaim struct {
	// Kind is what the claim is ("number", "date", "name", "negation"…),
	// Subject what it is about ("CVSS score"), Value what it states
	// ("9.8"; a negation's ends in " (a negation)"), Sentence the
	// sentence it is in, clipped.
	Kind, Subject, Value, Sentence string
	// Passages are the sources' passages most related to the claim, best
	// first.
	Passages []ModelPassage
}

// ModelPassage is a passage of a trusted source shown with a claim.
type ModelPassage struct {
	// Source is the id of the passage's source, Line its 1-based line in
	// it, Text the passage, clipped.
	Source string
	Line   int
	Text   string
}

// ModelVerdict is a [Judge]'s answer on one claim.
type ModelVerdict struct {
	// Verdict is [Supported], [Contradicted] or [CannotTell]; anything
	// else leaves the claim undecided.
	Verdict string
	// Evidence is the index, in the claim's Passages, of the passage that
	// decides it (not read for CannotTell).
	Evidence int
	// SourceValue is the source's value for a contradicted claim.
	SourceValue string
	// Confidence is the judge's own, in [0, 1].
	Confidence float64
	// Err, when not nil, says why the claim was not decided; the other
	// fields are then not read.
	Err error
}

// The verdicts of a [ModelVerdict] (judge's client answers the same
// words).
const (
	Supported    = "supported"
	Contradicted = "contradicted"
	CannotTell   = "cannot_tell"
)

// NewLayer returns the facts layer with the claims its checker leaves
// undecided or unsupported judged by m, from the five passages most
// related to each; with a nil m it is [Layer].
//
// An engine with a model (judge.WithLLM, judge.WithModel) hands it to
// [Layer], which declares layer.Layer.UsesModel, through its pass;
// NewLayer fixes the model on the layer instead, for a layer run without
// an engine's model.
func NewLayer(m Judge) *layer.Layer {
	if m == nil {
		return Layer
	}
	return newLayer(config{judge: modelJudge(m)})
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

// JudgeClaims asks the client (see llm.Client.JudgeClaims): every claim in
// as few calls as fit.
func (j clientJudge) JudgeClaims(ctx context.Context, claims []ModelClaim) ([]ModelVerdict, result.TokenUsage) {
	lcs := make([]llm.Claim, len(claims))
	for i, c := range claims {
		lc := llm.Claim{ID: i, Kind: c.Kind, Subject: c.Subject, Value: c.Value, Sentence: c.Sentence}
		for _, p := range c.Passages {
			lc.Passages = append(lc.Passages, llm.Passage{Source: p.Source, Line: p.Line, Text: p.Text})
		}
		lcs[i] = lc
	}
	res, usage := j.c.JudgeClaims(ctx, lcs)
	out := make([]ModelVerdict, len(res))
	for i, r := range res {
		if r.Err != nil {
			out[i].Err = r.Err
			continue
		}
		v := r.Verdict
		out[i] = ModelVerdict{Verdict: v.Verdict, Evidence: v.Evidence, SourceValue: v.SourceValue, Confidence: v.Confidence}
	}
	return out, result.TokenUsage{PromptTokens: usage.PromptTokens, CompletionTokens: usage.CompletionTokens}
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
// at once.
func modelJudge(m Judge) claimJudge {
	return func(ctx context.Context, qs []question) ([]judged, [2]int64) {
		if dl, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, dl.Add(-deadlineMargin(time.Until(dl))))
			defer cancel()
		}
		claims := make([]ModelClaim, len(qs))
		for i, q := range qs {
			c := q.claim
			mc := ModelClaim{Kind: string(c.Kind), Subject: c.Subject(), Value: c.Text, Sentence: result.ClipText(c.Sentence, maxSentence)}
			if c.Kind == claim.Negation {
				mc.Value = c.Text + " (a negation)"
			}
			for _, p := range q.passages {
				mc.Passages = append(mc.Passages, ModelPassage{Source: q.ix.SourceOf(p).ID, Line: p.Line, Text: result.ClipText(p.Text, maxPassage)})
			}
			claims[i] = mc
		}
		res, usage := m.JudgeClaims(ctx, claims)
		out := make([]judged, len(qs))
		for i := range out {
			if i >= len(res) {
				out[i] = judged{status: source.Undecided, err: errors.New("the model gave no verdict")}
				continue
			}
			out[i] = judgedOf(res[i], qs[i], m.Model())
		}
		return out, [2]int64{usage.PromptTokens, usage.CompletionTokens}
	}
}

// judgedOf reads the model's answer r on q.
func judgedOf(r ModelVerdict, q question, model string) judged {
	switch {
	case r.Err != nil:
		return judged{status: source.Undecided, err: r.Err}
	case r.Verdict == CannotTell:
		return judged{status: source.Undecided, model: model, err: errors.New("it could not tell from the passages")}
	case r.Verdict != Supported && r.Verdict != Contradicted:
		return judged{status: source.Undecided, err: fmt.Errorf("its verdict %q is not one of %s, %s, %s", r.Verdict, Supported, Contradicted, CannotTell)}
	case !(r.Confidence >= 0 && r.Confidence <= 1):
		return judged{status: source.Undecided, err: fmt.Errorf("its confidence %v is not in [0, 1]", r.Confidence)}
	case r.Evidence < 0 || r.Evidence >= len(q.passages):
		return judged{status: source.Undecided, err: fmt.Errorf("its evidence is passage %d of %d", r.Evidence+1, len(q.passages))}
	}
	j := judged{status: source.Supported, evidence: q.passages[r.Evidence], certainty: r.Confidence, model: model}
	if r.Verdict == Contradicted {
		j.status, j.found = source.Contradicted, r.SourceValue
	}
	return j
}
