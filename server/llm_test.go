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

// TestValidateWithModel sends POST /validate to a server whose engine has
// a model behind the fake OpenAI-compatible server.
func TestValidateWithModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		replies  []llmtest.Reply
		timeout  string // options.timeout_ms
		valid    bool
		conf     float64
		model    string
		tokens   int64
		wantType result.Type
	}{
		{"fail", []llmtest.Reply{{Fixture: "criteria_not_met"}}, "", false, 0.8, llmtest.Model, 427, result.CriteriaNotMet},
		{"429 then a pass", []llmtest.Reply{{Status: 429, Fixture: "rate_limited", Header: map[string]string{"Retry-After": "0"}}, {Fixture: "criteria_met"}}, "", true, 0.9, llmtest.Model, 443, ""},
		{"a model slower than timeout_ms: undecided", []llmtest.Reply{{Fixture: "criteria_met", Delay: 30 * time.Second}}, `, "options": {"timeout_ms": 4000}`, true, 0, result.Deterministic, 0, result.NotChecked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := llmtest.NewServer(t, tt.replies...)
			rf, _ := json.Marshal(llm.CriteriaSchema.ResponseFormat())
			fake.ResponseFormat = rf
			e := newEngine(t, judge.WithLLM(judge.LLMConfig{BaseURL: fake.URL, Model: llmtest.Model, Backoff: time.Millisecond}))
			ts := httptest.NewServer(New(e, Options{}).Handler())
			t.Cleanup(ts.Close)
			body := `{"output": {"code": "def sort_list(xs): return sorted(xs)", "tests": []}, "acceptance_criteria": ["Tests are included"]` + tt.timeout + `}`
			res := mustResult(t, do(t, ts, "POST", "/validate", body, nil))
			if res.Valid != tt.valid || res.Confidence != tt.conf || res.Metadata.Model != tt.model {
				t.Errorf("got valid %v confidence %v model %q", res.Valid, res.Confidence, res.Metadata.Model)
			}
			var tokens int64
			if res.Metadata.TokenUsage != nil {
				tokens = res.Metadata.TokenUsage.TotalTokens
			}
			if tokens != tt.tokens {
				t.Errorf("got %d tokens, want %d", tokens, tt.tokens)
			}
			if tt.wantType != "" && (len(res.Issues) != 1 || res.Issues[0].Type != tt.wantType) {
				t.Errorf("got issues %+v, want one %s", res.Issues, tt.wantType)
			}
			if tt.wantType == result.NotChecked && !strings.Contains(res.Issues[0].Message, "did not answer in time") {
				t.Errorf("got %q", res.Issues[0].Message)
			}
		})
	}
}

// TestValidateWithModelCache checks that the same request twice costs one
// model call: the second answer comes from the cache, with no tokens.
func TestValidateWithModelCache(t *testing.T) {
	t.Parallel()
	fake := llmtest.NewServer(t, llmtest.Reply{Fixture: "criteria_met"})
	rf, _ := json.Marshal(llm.CriteriaSchema.ResponseFormat())
	fake.ResponseFormat = rf
	e := newEngine(t, judge.WithLLM(judge.LLMConfig{BaseURL: fake.URL, Model: llmtest.Model}))
	ts := httptest.NewServer(New(e, Options{}).Handler())
	t.Cleanup(ts.Close)
	body := `{"output": {"code": "def sort_list(xs): return sorted(xs)"}, "acceptance_criteria": ["Code implements sorting"]}`
	first := mustResult(t, do(t, ts, "POST", "/validate", body, nil))
	second := mustResult(t, do(t, ts, "POST", "/validate", body, nil))
	if n := len(fake.Requests()); n != 1 {
		t.Errorf("got %d model calls, want 1", n)
	}
	if first.Metadata.TokenUsage == nil || second.Metadata.TokenUsage != nil {
		t.Errorf("got tokens %+v then %+v; want the second from the cache, free", first.Metadata.TokenUsage, second.Metadata.TokenUsage)
	}
	if !second.Valid || second.Confidence != 0.9 || second.Metadata.Model != llmtest.Model {
		t.Errorf("the cached answer: %+v", second)
	}
}

// TestCapabilitiesModel checks that /capabilities names the model, or
// "deterministic" without one.
func TestCapabilitiesModel(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		opts []judge.Option
		want string
	}{
		{nil, result.Deterministic},
		{[]judge.Option{judge.WithLLM(judge.LLMConfig{BaseURL: "http://127.0.0.1:1/v1", Model: "qwen2.5:7b"})}, "qwen2.5:7b"},
	} {
		ts := httptest.NewServer(New(newEngine(t, tt.opts...), Options{}).Handler())
		t.Cleanup(ts.Close)
		r := do(t, ts, "GET", "/capabilities", "", nil)
		var c struct{ Model string }
		if err := json.Unmarshal(r.body, &c); err != nil || r.status != 200 || c.Model != tt.want {
			t.Errorf("got %d %s (%v), want model %q", r.status, r.body, err, tt.want)
		}
	}
}
