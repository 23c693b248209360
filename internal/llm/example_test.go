package llm_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
)

func ExampleClient_JudgeCriteria() {
	// A stand-in for an OpenAI-compatible server (Ollama, vLLM, OpenAI).
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(llmtest.Fixture("criteria_met"))
	}))
	defer srv.Close()

	c, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: llmtest.Model})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, usage := c.JudgeCriteria(context.Background(), llm.CriteriaQuestion{
		Output:   `{"code": "def sort_list(xs): return sorted(xs)"}`,
		Criteria: []llm.Criterion{{ID: 0, Text: "Code implements sorting"}},
	})
	v := res[0].Verdict
	fmt.Println(v.Verdict, v.Confidence, v.Reason)
	fmt.Println(usage.PromptTokens, usage.CompletionTokens)
	// Output:
	// met 0.9 The code returns sorted(xs), which sorts the list.
	// 412 31
}
