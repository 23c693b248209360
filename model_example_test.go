package judge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/criteria"
	"github.com/agentjudge/judge/result"
)

// keywordJudge is a criteria.Judge of a program's own: a criterion "Mentions
// WORD" is met when the output has WORD. A real one would ask a model.
type keywordJudge struct{}

func (keywordJudge) Model() string { return "keyword-judge" }

func (keywordJudge) JudgeCriteria(ctx context.Context, q criteria.ModelQuestion) ([]criteria.ModelVerdict, result.TokenUsage) {
	out := make([]criteria.ModelVerdict, len(q.Criteria))
	for i, c := range q.Criteria {
		word, ok := strings.CutPrefix(c.Text, "Mentions ")
		switch {
		case !ok:
			out[i] = criteria.ModelVerdict{Verdict: criteria.CannotTell, Reason: "not a Mentions criterion"}
		case strings.Contains(q.Output, word):
			out[i] = criteria.ModelVerdict{Verdict: criteria.Met, Confidence: 0.9}
		default:
			out[i] = criteria.ModelVerdict{Verdict: criteria.NotMet, Confidence: 0.9, Reason: word + " is not in the output"}
		}
	}
	return out, result.TokenUsage{}
}

func ExampleWithModel() {
	e, err := judge.New(judge.WithModel(keywordJudge{}))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close(context.Background())
	res, err := e.Validate(context.Background(), &judge.Request{
		Output:             json.RawMessage(`{"summary": "The payments service is down."}`),
		AcceptanceCriteria: []layer.Criterion{{Description: "Mentions payments"}, {Description: "Mentions a ticket"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Valid, res.Metadata.Model, res.PassedCriteria, res.FailedCriteria)
	fmt.Println(res.Issues[0].Message)
	// Output:
	// false keyword-judge [Mentions payments] [Mentions a ticket]
	// Acceptance criterion not met: Mentions a ticket (a ticket is not in the output)
}
