package judge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/layer"
)

func ExampleWithLLM() {
	// A stand-in for an OpenAI-compatible server such as Ollama
	// (http://127.0.0.1:11434/v1) or vLLM (http://127.0.0.1:8000/v1).
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(llmtest.Fixture("criteria_not_met"))
	}))
	defer srv.Close()

	e, err := judge.New(judge.WithLLM(judge.LLMConfig{BaseURL: srv.URL + "/v1", Model: "judge-test-model"}))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := e.Validate(context.Background(), &judge.Request{
		Output:             json.RawMessage(`{"code": "def sort_list(xs): return sorted(xs)", "tests": []}`),
		AcceptanceCriteria: []layer.Criterion{{Description: "Tests are included"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Valid, res.Confidence, res.Metadata.Model, res.Metadata.TokenUsage.TotalTokens)
	fmt.Println(res.Issues[0].Message)
	// Output:
	// false 0.8 judge-test-model 427
	// Acceptance criterion not met: Tests are included (The tests list is empty, so no tests are included.)
}
