package facts_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/facts"
)

func ExampleNewLayer() {
	// A stand-in for an OpenAI-compatible server (Ollama, vLLM, OpenAI).
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(llmtest.Fixture("facts_contradicted"))
	}))
	defer srv.Close()
	m, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: llmtest.Model})
	if err != nil {
		fmt.Println(err)
		return
	}

	l := facts.NewLayer(m)
	src := layer.Source{ID: "advisory", Title: "Vendor advisory", URL: "https://example.com/adv",
		Content: "Credit: the flaw was reported by A. Smith of the libfoo security team."}
	p := layer.NewPass(l, &layer.Input{Output: "The flaw was discovered by Bob Stone.", Sources: []layer.Source{src}}, layer.NewCache(0))
	if err := l.Run(context.Background(), p); err != nil {
		fmt.Println(err)
		return
	}
	f := p.Findings()
	for _, is := range f.Issues {
		fmt.Println(is.Type, is.Rule)
		fmt.Println(is.Suggestion)
	}
	fmt.Println(f.Models, f.Confidence)
	// Output:
	// hallucination facts.model_contradicted
	// Correct discoverer to 'A. Smith' based on https://example.com/adv
	// [judge-test-model] 0.85
}
