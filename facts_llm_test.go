package judge_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// advisorySource names the discoverer "A. Smith" and says nothing, in the
// words of negationText, of a password: the facts layer's checker leaves
// negationText undecided and nameText unsupported.
var advisorySource = layer.Source{ID: "advisory", Title: "Vendor advisory", URL: "https://example.com/adv",
	Content: "Credit: the flaw was reported by A. Smith of the libfoo security team.\n" +
		"The service does not require authentication for the status page.\n" +
		"Patched releases: libfoo 1.24.1 ships on 3 March 2024."}

const (
	negationText = "The status page is not protected by a password."
	nameText     = "The flaw was discovered by Bob Stone."
)

// factsModel starts the fake server, expecting the facts check, and
// returns its config.
func factsModel(t *testing.T, replies ...llmtest.Reply) (*llmtest.Server, judge.LLMConfig) {
	t.Helper()
	srv := llmtest.NewServer(t, replies...)
	rf, _ := json.Marshal(llm.FactsSchema.ResponseFormat())
	srv.ResponseFormat = rf
	return srv, judge.LLMConfig{BaseURL: srv.URL, Model: llmtest.Model, Backoff: time.Millisecond}
}

func TestEngineFactsWithLLM(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		text    string
		timeout time.Duration
		replies []llmtest.Reply
		valid   bool
		rule    string // the rule of the one issue, "" for none
		typ     result.Type
		conf    float64
		model   string
		tokens  *result.TokenUsage
	}{
		{name: "undecided claim decided supported", text: negationText, replies: []llmtest.Reply{{Fixture: "facts_supported"}},
			valid: true, conf: 0.8, model: llmtest.Model, tokens: &result.TokenUsage{PromptTokens: 520, CompletionTokens: 40, TotalTokens: 560}},
		{name: "unsupported claim decided contradicted", text: nameText, replies: []llmtest.Reply{{Fixture: "facts_contradicted"}},
			valid: false, typ: result.Hallucination, rule: "facts.model_contradicted", conf: 0.85, model: llmtest.Model,
			tokens: &result.TokenUsage{PromptTokens: 510, CompletionTokens: 44, TotalTokens: 554}},
		{name: "malformed answer twice: undecided", text: negationText, replies: []llmtest.Reply{{Fixture: "facts_bad_evidence"}, {Fixture: "facts_bad_evidence"}},
			valid: true, typ: result.NotChecked, conf: 0, model: result.Deterministic,
			tokens: &result.TokenUsage{PromptTokens: 1010, CompletionTokens: 80, TotalTokens: 1090}},
		{name: "no answer in time: undecided", text: negationText, timeout: 4 * time.Second,
			replies: []llmtest.Reply{{Fixture: "facts_supported", Delay: 30 * time.Second}},
			valid:   true, typ: result.NotChecked, conf: 0, model: result.Deterministic},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, cfg := factsModel(t, tt.replies...)
			opts := []judge.Option{judge.WithLLM(cfg)}
			if tt.timeout > 0 {
				opts = append(opts, judge.WithLayerTimeout(tt.timeout))
			}
			e, err := judge.New(opts...)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := json.Marshal(tt.text)
			res, err := e.Validate(context.Background(), &judge.Request{Output: out, Sources: []layer.Source{advisorySource}, ValidationTypes: []string{"facts"}})
			if err != nil {
				t.Fatal(err)
			}
			if err := result.Check(res); err != nil {
				t.Errorf("the result breaks the specification: %v", err)
			}
			if res.Valid != tt.valid {
				t.Errorf("valid %v, want %v", res.Valid, tt.valid)
			}
			switch {
			case tt.typ == "" && len(res.Issues) != 0:
				t.Errorf("issues %+v, want none", res.Issues)
			case tt.typ != "" && (len(res.Issues) != 1 || res.Issues[0].Type != tt.typ || res.Issues[0].Rule != tt.rule):
				t.Errorf("issues %+v, want one %s (rule %q)", res.Issues, tt.typ, tt.rule)
			}
			if d := res.Confidence - tt.conf; d > 1e-4 || d < -1e-4 {
				t.Errorf("confidence %v, want %v", res.Confidence, tt.conf)
			}
			if res.Metadata.Model != tt.model || (res.Metadata.TokenUsage == nil) != (tt.tokens == nil) || (tt.tokens != nil && *res.Metadata.TokenUsage != *tt.tokens) {
				t.Errorf("model %q tokens %+v, want %q %+v", res.Metadata.Model, res.Metadata.TokenUsage, tt.model, tt.tokens)
			}
			if n := len(srv.Requests()); n != len(tt.replies) {
				t.Errorf("%d requests, want %d", n, len(tt.replies))
			}
		})
	}
}

// TestEngineFactsWithoutLLM checks that with no model the same requests
// are decided as before: the negation undecided, the name unsupported.
func TestEngineFactsWithoutLLM(t *testing.T) {
	t.Parallel()
	e, err := judge.New()
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]string{negationText: "not_checked", nameText: "unsupported_claim"} {
		out, _ := json.Marshal(text)
		res, err := e.Validate(context.Background(), &judge.Request{Output: out, Sources: []layer.Source{advisorySource}, ValidationTypes: []string{"facts"}})
		if err != nil {
			t.Fatal(err)
		}
		var types []string
		for _, is := range res.Issues {
			types = append(types, string(is.Type))
		}
		if strings.Join(types, ",") != want || res.Metadata.Model != result.Deterministic || res.Metadata.TokenUsage != nil {
			t.Errorf("%q: issues %v model %q tokens %+v", text, types, res.Metadata.Model, res.Metadata.TokenUsage)
		}
	}
}
