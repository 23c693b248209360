package facts_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/facts"
	"github.com/agentjudge/judge/result"
)

// negationJudge is a Judge of a program's own: it finds a negated claim
// supported by the first passage that negates too, and cannot tell
// otherwise. A real one would ask a model.
type negationJudge struct{}

func (negationJudge) Model() string { return "negation-rule" }

func (negationJudge) JudgeClaims(ctx context.Context, claims []facts.ModelClaim) ([]facts.ModelVerdict, result.TokenUsage) {
	out := make([]facts.ModelVerdict, len(claims))
	for i, c := range claims {
		out[i] = facts.ModelVerdict{Verdict: facts.CannotTell}
		for k, p := range c.Passages {
			if c.Kind == "negation" && strings.Contains(p.Text, " not ") {
				out[i] = facts.ModelVerdict{Verdict: facts.Supported, Evidence: k, Confidence: 0.6}
				break
			}
		}
	}
	return out, result.TokenUsage{}
}

func ExampleNewLayer() {
	l := facts.NewLayer(negationJudge{})
	src := layer.Source{ID: "advisory", Content: "The service does not require authentication for the status page."}
	p := layer.NewPass(l, &layer.Input{Output: "The status page is not protected by a password.", Sources: []layer.Source{src}}, layer.NewCache(0))
	if err := l.Run(context.Background(), p); err != nil {
		fmt.Println(err)
		return
	}
	f := p.Findings()
	fmt.Println(len(f.Issues), f.Models, f.Confidence)
	// Output:
	// 0 [negation-rule] 0.6
}
