package server

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/result"
)

// TestValidateFactsWithModel sends POST /validate with inline sources to a
// server whose engine has a model behind the fake OpenAI-compatible
// server, and to one with none.
func TestValidateFactsWithModel(t *testing.T) {
	t.Parallel()
	const advisory = `{"id": "advisory", "title": "Vendor advisory", "url": "https://example.com/adv", "content": "Credit: the flaw was reported by A. Smith of the libfoo security team.\nThe service does not require authentication for the status page."}`
	const negation, name = `"The status page is not protected by a password."`, `"The flaw was discovered by Bob Stone."`
	tests := []struct {
		name     string
		output   string
		model    bool
		replies  []llmtest.Reply
		options  string
		valid    bool
		conf     float64
		usedBy   string
		tokens   int64
		wantType result.Type
		wantRule string
		wantMsg  string
	}{
		{"undecided claim decided supported", negation, true, []llmtest.Reply{{Fixture: "facts_supported"}}, "", true, 0.8, llmtest.Model, 560, "", "", ""},
		{"unsupported claim decided contradicted", name, true, []llmtest.Reply{{Fixture: "facts_contradicted"}}, "", false, 0.85, llmtest.Model, 554, result.Hallucination, "facts.model_contradicted",
			"Discoverer stated as 'Bob Stone' but 'A. Smith' according to Vendor advisory"},
		{"malformed twice: undecided", negation, true, []llmtest.Reply{{Fixture: "facts_bad_evidence"}, {Fixture: "facts_bad_evidence"}}, "", true, 0, result.Deterministic, 1090, result.NotChecked, "", "malformed 2 times"},
		{"a model slower than timeout_ms: undecided", negation, true, []llmtest.Reply{{Fixture: "facts_supported", Delay: 30 * time.Second}}, `, "options": {"timeout_ms": 4000}`, true, 0, result.Deterministic, 0, result.NotChecked, "", "did not answer in time"},
		{"no model: as before", negation, false, nil, "", true, 0, result.Deterministic, 0, result.NotChecked, "", "no source speaks of it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := llmtest.NewServer(t, tt.replies...)
			rf, _ := json.Marshal(llm.FactsSchema.ResponseFormat())
			fake.ResponseFormat = rf
			var opts []judge.Option
			if tt.model {
				opts = append(opts, judge.WithLLM(judge.LLMConfig{BaseURL: fake.URL, Model: llmtest.Model, Backoff: time.Millisecond}))
			}
			e := newEngine(t, opts...)
			ts := httptest.NewServer(New(e, Options{}).Handler())
			t.Cleanup(ts.Close)
			body := `{"output": ` + tt.output + `, "sources": [` + advisory + `], "validation_types": ["facts"]` + tt.options + `}`
			res := mustResult(t, do(t, ts, "POST", "/validate", body, nil))
			if res.Valid != tt.valid || res.Confidence != tt.conf || res.Metadata.Model != tt.usedBy {
				t.Errorf("got valid %v confidence %v model %q", res.Valid, res.Confidence, res.Metadata.Model)
			}
			var tokens int64
			if res.Metadata.TokenUsage != nil {
				tokens = res.Metadata.TokenUsage.TotalTokens
			}
			if tokens != tt.tokens {
				t.Errorf("got %d tokens, want %d", tokens, tt.tokens)
			}
			switch {
			case tt.wantType == "" && len(res.Issues) != 0:
				t.Errorf("got issues %+v, want none", res.Issues)
			case tt.wantType != "" && (len(res.Issues) != 1 || res.Issues[0].Type != tt.wantType || res.Issues[0].Rule != tt.wantRule || !strings.Contains(res.Issues[0].Message, tt.wantMsg)):
				t.Errorf("got issues %+v, want one %s (rule %q) saying %q", res.Issues, tt.wantType, tt.wantRule, tt.wantMsg)
			}
			if n := len(fake.Requests()); n != len(tt.replies) {
				t.Errorf("got %d model calls, want %d", n, len(tt.replies))
			}
		})
	}
}
