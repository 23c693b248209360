package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
)

// claimsFor returns n claims, each shown with one passage.
func claimsFor(n int) []llm.Claim {
	out := make([]llm.Claim, n)
	for i := range out {
		out[i] = llm.Claim{ID: i, Kind: "name", Subject: "Discoverer", Value: fmt.Sprintf("Person %d", i),
			Sentence: fmt.Sprintf("The flaw was discovered by Person %d.", i),
			Passages: []llm.Passage{{Source: "advisory", Line: 1, Text: "Credit: the flaw was reported by A. Smith."}}}
	}
	return out
}

func ExampleClient_JudgeClaims() {
	// A stand-in for an OpenAI-compatible server (Ollama, vLLM, OpenAI).
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(llmtest.Fixture("facts_contradicted"))
	}))
	defer srv.Close()

	c, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: llmtest.Model})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, usage := c.JudgeClaims(context.Background(), []llm.Claim{{
		ID: 0, Kind: "name", Subject: "Discoverer", Value: "Bob Stone",
		Sentence: "The flaw was discovered by Bob Stone.",
		Passages: []llm.Passage{{Source: "advisory", Line: 1, Text: "Credit: the flaw was reported by A. Smith of the libfoo security team."}},
	}})
	v := res[0].Verdict
	fmt.Println(v.Verdict, v.SourceValue, v.Evidence, v.Confidence)
	fmt.Println(usage.PromptTokens, usage.CompletionTokens)
	// Output:
	// contradicted A. Smith 0 0.85
	// 510 44
}

// TestJudgeClaims checks the answers JudgeClaims accepts and those it
// treats as malformed, and that it batches.
func TestJudgeClaims(t *testing.T) {
	t.Parallel()
	newClient := func(t *testing.T, replies ...llmtest.Reply) (*llm.Client, *llmtest.Server) {
		srv := llmtest.NewServer(t, replies...)
		rf, _ := json.Marshal(llm.FactsSchema.ResponseFormat())
		srv.ResponseFormat = rf
		c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: llmtest.Model, Backoff: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		return c, srv
	}
	t.Run("evidence not shown with the claim: malformed twice", func(t *testing.T) {
		t.Parallel()
		c, srv := newClient(t, llmtest.Reply{Fixture: "facts_bad_evidence"}, llmtest.Reply{Fixture: "facts_bad_evidence"})
		res, usage := c.JudgeClaims(context.Background(), claimsFor(1))
		var me *llm.MalformedError
		if !errors.As(res[0].Err, &me) || !strings.Contains(me.Error(), `cites passage "P9"`) || usage.PromptTokens != 1010 {
			t.Errorf("got %+v %v, usage %+v", res[0].Verdict, res[0].Err, usage)
		}
		if reqs := srv.Requests(); len(reqs) != 2 || !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "not among its passages") {
			t.Errorf("the retry does not state the problem: %+v", reqs)
		}
	})
	t.Run("cannot tell", func(t *testing.T) {
		t.Parallel()
		c, _ := newClient(t, llmtest.Reply{Fixture: "facts_cannot_tell"})
		res, _ := c.JudgeClaims(context.Background(), claimsFor(1))
		if res[0].Err != nil || res[0].Verdict.Verdict != llm.CannotTell || res[0].Verdict.Evidence != -1 {
			t.Errorf("got %+v %v", res[0].Verdict, res[0].Err)
		}
	})
	t.Run("more claims than a batch: two calls in parallel", func(t *testing.T) {
		t.Parallel()
		c, srv := newClient(t,
			llmtest.Reply{Fixture: "facts_batch_a", Match: "claim 0:", Delay: 100 * time.Millisecond},
			llmtest.Reply{Fixture: "facts_batch_b", Match: "claim 10:", Delay: 100 * time.Millisecond})
		res, usage := c.JudgeClaims(context.Background(), claimsFor(llm.MaxBatch+1))
		if len(srv.Requests()) != 2 || srv.MaxInFlight() != 2 {
			t.Errorf("%d requests, %d at once; want 2, 2", len(srv.Requests()), srv.MaxInFlight())
		}
		for i, r := range res {
			want := 0.9
			if i == llm.MaxBatch {
				want = 0.7
			}
			if r.Err != nil || r.Verdict.ID != i || r.Verdict.Verdict != llm.Contradicted || r.Verdict.SourceValue != "A. Smith" || r.Verdict.Confidence != want {
				t.Errorf("claim %d: %+v %v", i, r.Verdict, r.Err)
			}
		}
		if usage.PromptTokens != 1200 || usage.CompletionTokens != 330 {
			t.Errorf("usage %+v, want the sum of both calls", usage)
		}
	})
}
