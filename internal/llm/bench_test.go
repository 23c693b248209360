package llm_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
)

// BenchmarkJudgeCriteria measures judge's own cost of one criteria
// question against the fake server on loopback: building the prompt, the
// HTTP round trip, decoding and validating the answer; and a cache hit.
func BenchmarkJudgeCriteria(b *testing.B) {
	b.Run("call", func(b *testing.B) {
		replies := make([]llmtest.Reply, b.N)
		for i := range replies {
			replies[i] = llmtest.Reply{Fixture: "criteria_met"}
		}
		srv := llmtest.NewServer(b, replies...)
		c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: llmtest.Model, CacheEntries: -1})
		if err != nil {
			b.Fatal(err)
		}
		q := llm.CriteriaQuestion{Output: `{"code": "def sort_list(xs): return sorted(xs)"}`, Criteria: []llm.Criterion{{ID: 0, Text: "Code implements sorting"}}}
		b.ResetTimer()
		for range b.N { // not b.Loop: the fake needs b.N replies ready
			if res, _ := c.JudgeCriteria(context.Background(), q); res[0].Err != nil {
				b.Fatal(res[0].Err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		srv := llmtest.NewServer(b, llmtest.Reply{Fixture: "criteria_met"})
		c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: llmtest.Model})
		if err != nil {
			b.Fatal(err)
		}
		q := llm.CriteriaQuestion{Output: fmt.Sprintf(`{"code": %q}`, "def sort_list(xs): return sorted(xs)"), Criteria: []llm.Criterion{{ID: 0, Text: "Code implements sorting"}}}
		for b.Loop() {
			if res, _ := c.JudgeCriteria(context.Background(), q); res[0].Err != nil {
				b.Fatal(res[0].Err)
			}
		}
	})
}
