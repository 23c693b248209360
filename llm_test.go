package judge_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// fakeModel starts the fake server with replies and returns its config.
func fakeModel(t *testing.T, replies ...llmtest.Reply) (*llmtest.Server, judge.LLMConfig) {
	t.Helper()
	srv := llmtest.NewServer(t, replies...)
	rf, _ := json.Marshal(llm.CriteriaSchema.ResponseFormat())
	srv.ResponseFormat = rf
	return srv, judge.LLMConfig{BaseURL: srv.URL, Model: llmtest.Model, Backoff: time.Millisecond}
}

func TestEngineWithLLM(t *testing.T) {
	t.Parallel()
	req := func() *judge.Request {
		return &judge.Request{
			Output:         json.RawMessage(`{"code": "def sort_list(xs): return sorted(xs)", "tests": []}`),
			ExpectedSchema: json.RawMessage(`{"type": "object", "required": ["code"]}`),
			AcceptanceCriteria: []layer.Criterion{
				{Description: "Code implements sorting"},
				{Description: "Tests are included"},
				{Description: "Has code", Rule: "has(output.code)"},
			},
		}
	}
	tests := []struct {
		name    string
		replies []llmtest.Reply
		valid   bool
		passed  []string
		failed  []string
		conf    float64
		model   string
		tokens  *result.TokenUsage
		rule    string // the rule of the issue at acceptance_criteria[1]
	}{
		{
			name:    "a pass and a fail in one call",
			replies: []llmtest.Reply{{Fixture: "criteria_mixed"}},
			valid:   false,
			passed:  []string{"Code implements sorting", "Has code"},
			failed:  []string{"Tests are included"},
			// schema 1; criteria (0.9 + 0.7 + 1) / 3
			conf:   (1 + (0.9+0.7+1)/3) / 2,
			model:  llmtest.Model,
			tokens: &result.TokenUsage{PromptTokens: 455, CompletionTokens: 48, TotalTokens: 503},
			rule:   "criteria.judge",
		},
		{
			name:    "429 then a malformed answer twice: undecided, never passed",
			replies: []llmtest.Reply{{Status: 429, Fixture: "rate_limited"}, {Fixture: "criteria_free_text"}, {Fixture: "criteria_bad_schema"}},
			valid:   true,
			passed:  []string{"Has code"},
			conf:    (1 + 1.0/3) / 2,
			model:   result.Deterministic,
			tokens:  &result.TokenUsage{PromptTokens: 810, CompletionTokens: 34, TotalTokens: 844},
			rule:    "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, cfg := fakeModel(t, tt.replies...)
			e, err := judge.New(judge.WithLLM(cfg))
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Validate(context.Background(), req())
			if err != nil {
				t.Fatal(err)
			}
			if err := result.Check(res); err != nil {
				t.Errorf("the result breaks the specification: %v", err)
			}
			if res.Valid != tt.valid || strings.Join(res.PassedCriteria, "|") != strings.Join(tt.passed, "|") || strings.Join(res.FailedCriteria, "|") != strings.Join(tt.failed, "|") {
				t.Errorf("got valid %v passed %q failed %q", res.Valid, res.PassedCriteria, res.FailedCriteria)
			}
			if d := res.Confidence - tt.conf; d > 0.0001 || d < -0.0001 {
				t.Errorf("got confidence %v, want %.4f", res.Confidence, tt.conf)
			}
			if res.Metadata.Model != tt.model || (res.Metadata.TokenUsage == nil) != (tt.tokens == nil) || (tt.tokens != nil && *res.Metadata.TokenUsage != *tt.tokens) {
				t.Errorf("got model %q tokens %+v, want %q %+v", res.Metadata.Model, res.Metadata.TokenUsage, tt.model, tt.tokens)
			}
			for _, is := range res.Issues {
				if is.Location == "acceptance_criteria[1]" && is.Type == result.CriteriaNotMet && is.Rule != tt.rule {
					t.Errorf("got rule %q, want %q", is.Rule, tt.rule)
				}
				if is.Location == "acceptance_criteria[0]" && tt.rule == "" && is.Type != result.NotChecked {
					t.Errorf("an undecided criterion gave %+v", is)
				}
			}
			if n := len(srv.Requests()); n != len(tt.replies) {
				t.Errorf("got %d requests, want %d", n, len(tt.replies))
			}
		})
	}
}

// TestEngineCachesModelAnswers checks that the same request is not paid
// twice.
func TestEngineCachesModelAnswers(t *testing.T) {
	t.Parallel()
	srv, cfg := fakeModel(t, llmtest.Reply{Fixture: "criteria_met"})
	e, err := judge.New(judge.WithLLM(cfg))
	if err != nil {
		t.Fatal(err)
	}
	req := &judge.Request{Output: json.RawMessage(`{"code": "def sort_list(xs): return sorted(xs)", "tests": []}`),
		AcceptanceCriteria: []layer.Criterion{{Description: "Code implements sorting"}}}
	first, err := e.Validate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	second, err := e.Validate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(srv.Requests()) != 1 {
		t.Errorf("got %d model calls, want 1", len(srv.Requests()))
	}
	if first.Confidence != 0.9 || second.Confidence != 0.9 || second.PassedCriteria[0] != "Code implements sorting" {
		t.Errorf("got %+v then %+v", first, second)
	}
	if first.Metadata.TokenUsage == nil || second.Metadata.TokenUsage != nil || second.Metadata.Model != llmtest.Model {
		t.Errorf("got tokens %+v then %+v, model %q; a cached answer costs nothing but still names the model", first.Metadata.TokenUsage, second.Metadata.TokenUsage, second.Metadata.Model)
	}
}

func TestWithLLMConfig(t *testing.T) {
	t.Parallel()
	_, err := judge.New(judge.WithLLM(judge.LLMConfig{BaseURL: "ftp://x", Model: "m"}))
	var ce *llm.ConfigError
	if !errors.As(err, &ce) {
		t.Errorf("got %v, want a *llm.ConfigError", err)
	}
	e, err := judge.New()
	if err != nil || e.Model() != "" {
		t.Errorf("an engine without WithLLM has model %q (%v)", e.Model(), err)
	}
	cfg, ok, err := judge.LLMConfigFromEnv(func(string) string { return "" })
	if ok || err != nil || cfg != (judge.LLMConfig{}) {
		t.Errorf("empty environment: got %+v %v %v, want no model", cfg, ok, err)
	}
}

// TestEngineModelTimeout checks that a model slower than the layer's
// deadline leaves its criteria undecided, and the rules beside them decided.
func TestEngineModelTimeout(t *testing.T) {
	t.Parallel()
	// The deadline leaves the layer a second after the model's own
	// deadline, so that a loaded machine (CI runs -race on two cores)
	// still sees the model time out, not the layer.
	_, cfg := fakeModel(t, llmtest.Reply{Fixture: "criteria_met", Delay: 30 * time.Second})
	e, err := judge.New(judge.WithLLM(cfg))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, err := e.Validate(context.Background(), &judge.Request{
		Output: json.RawMessage(`{"code": "sorted(xs)"}`),
		AcceptanceCriteria: []layer.Criterion{{Description: "Code implements sorting"},
			{Description: "Has code", Rule: "has(output.code)"}},
		Options: judge.Options{TimeoutMS: 4000},
	})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %v with a 4s deadline and a model answering in 30s", took)
	}
	if res.Confidence != 0.5 || len(res.PassedCriteria) != 1 || res.Metadata.Model != result.Deterministic {
		t.Errorf("got %+v", res)
	}
	if len(res.Issues) != 1 || res.Issues[0].Type != result.NotChecked || !strings.Contains(res.Issues[0].Message, "did not answer in time") {
		t.Errorf("got issues %+v", res.Issues)
	}
}
