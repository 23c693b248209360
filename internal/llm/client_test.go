package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
)

// newClient returns a client of the fake srv with short waits.
func newClient(t *testing.T, srv *llmtest.Server, edit func(*llm.Config)) *llm.Client {
	t.Helper()
	rf, err := json.Marshal(llm.CriteriaSchema.ResponseFormat())
	if err != nil {
		t.Fatal(err)
	}
	srv.ResponseFormat = rf
	cfg := llm.Config{BaseURL: srv.URL, Model: llmtest.Model, APIKey: srv.APIKey, Backoff: time.Millisecond, CallTimeout: 5 * time.Second}
	if edit != nil {
		edit(&cfg)
	}
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var sortQuestion = llm.CriteriaQuestion{
	Output:   `{"code":"def sort_list(xs): return sorted(xs)","tests":[]}`,
	Criteria: []llm.Criterion{{ID: 0, Text: "Code implements sorting"}},
}

func TestJudgeCriteria(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		replies []llmtest.Reply
		key     string
		edit    func(*llm.Config)
		q       llm.CriteriaQuestion
		// want is the verdict ("met 0.9 reason") or the error, per criterion.
		want      []string
		usage     llm.Usage
		requests  int
		checkReqs func(t *testing.T, reqs []llmtest.Request)
	}{
		{
			name:     "pass",
			replies:  []llmtest.Reply{{Fixture: "criteria_met"}},
			want:     []string{"met 0.9 The code returns sorted(xs), which sorts the list."},
			usage:    llm.Usage{PromptTokens: 412, CompletionTokens: 31},
			requests: 1,
			checkReqs: func(t *testing.T, reqs []llmtest.Request) {
				u := reqs[0].Messages[1].Content
				if !strings.Contains(u, `- id 0: "Code implements sorting"`) || !strings.Contains(u, sortQuestion.Output) {
					t.Errorf("the user message does not carry the criterion and the output:\n%s", u)
				}
				if reqs[0].MaxCompletionTokens != llm.DefaultMaxTokens {
					t.Errorf("max_completion_tokens %d", reqs[0].MaxCompletionTokens)
				}
			},
		},
		{
			name:     "fail",
			replies:  []llmtest.Reply{{Fixture: "criteria_not_met"}},
			want:     []string{"not_met 0.8 The tests list is empty, so no tests are included."},
			usage:    llm.Usage{PromptTokens: 398, CompletionTokens: 29},
			requests: 1,
		},
		{
			name:     "cannot tell",
			replies:  []llmtest.Reply{{Fixture: "criteria_cannot_tell"}},
			want:     []string{"cannot_tell 0.2 The output does not show whether the code was run."},
			usage:    llm.Usage{PromptTokens: 401, CompletionTokens: 30},
			requests: 1,
		},
		{
			name:     "malformed twice: free text, then off the schema",
			replies:  []llmtest.Reply{{Fixture: "criteria_free_text"}, {Fixture: "criteria_bad_schema"}},
			want:     []string{"error: the model's answer was malformed 2 times: the answer does not match the schema criteria_verdicts"},
			usage:    llm.Usage{PromptTokens: 810, CompletionTokens: 34},
			requests: 2,
			checkReqs: func(t *testing.T, reqs []llmtest.Request) {
				m := reqs[1].Messages
				if len(m) != 4 || m[2].Role != "assistant" || !strings.HasPrefix(m[2].Content, "The output meets") ||
					m[3].Role != "user" || !strings.Contains(m[3].Content, "not valid: the answer is not JSON") {
					t.Errorf("the retry does not show the model its answer and the problem: %+v", m)
				}
			},
		},
		{
			name:     "malformed once, then a good answer",
			replies:  []llmtest.Reply{{Fixture: "criteria_cut_short"}, {Fixture: "criteria_met"}},
			want:     []string{"met 0.9 The code returns sorted(xs), which sorts the list."},
			usage:    llm.Usage{PromptTokens: 817, CompletionTokens: 2079},
			requests: 2,
			checkReqs: func(t *testing.T, reqs []llmtest.Request) {
				if m := reqs[1].Messages; !strings.Contains(m[len(m)-1].Content, "cut short at the token limit") {
					t.Errorf("the retry does not say the answer was cut short: %+v", m)
				}
			},
		},
		{
			name:     "an answer that misses a criterion is malformed",
			replies:  []llmtest.Reply{{Fixture: "criteria_met"}, {Fixture: "criteria_met"}},
			q:        llm.CriteriaQuestion{Output: "x", Criteria: []llm.Criterion{{ID: 0, Text: "a"}, {ID: 1, Text: "b"}}},
			want:     []string{"error: the model's answer was malformed 2 times: the answer has no verdict for id 1", "error: the model's answer was malformed 2 times: the answer has no verdict for id 1"},
			usage:    llm.Usage{PromptTokens: 824, CompletionTokens: 62},
			requests: 2,
		},
		{
			name:     "timeout",
			replies:  []llmtest.Reply{{Fixture: "criteria_met", Delay: 5 * time.Second}},
			edit:     func(c *llm.Config) { c.CallTimeout = 100 * time.Millisecond },
			want:     []string{"error: the model did not answer in time"},
			requests: 1,
		},
		{
			name: "429 then success; the rate limit is not fed to the model",
			replies: []llmtest.Reply{
				{Status: 429, Fixture: "rate_limited", Header: map[string]string{"Retry-After": "0"}},
				{Fixture: "criteria_met"},
			},
			want:     []string{"met 0.9 The code returns sorted(xs), which sorts the list."},
			usage:    llm.Usage{PromptTokens: 412, CompletionTokens: 31},
			requests: 2,
			checkReqs: func(t *testing.T, reqs []llmtest.Request) {
				a, _ := json.Marshal(reqs[0].Messages)
				b, _ := json.Marshal(reqs[1].Messages)
				if string(a) != string(b) {
					t.Errorf("the retry after 429 changed the messages:\n%s\n%s", a, b)
				}
			},
		},
		{
			name:     "5xx until the retries run out",
			replies:  []llmtest.Reply{{Status: 500, Fixture: "server_error"}, {Status: 502, Fixture: "server_error"}, {Status: 503, Fixture: "server_error"}},
			want:     []string{"error: the model server answered 503 Service Unavailable after 3 attempts"},
			requests: 3,
		},
		{
			name:     "400 is not retried",
			replies:  []llmtest.Reply{{Status: 400, Fixture: "bad_request"}},
			want:     []string{"error: the model server answered 400 Bad Request"},
			requests: 1,
		},
		{
			name:     "the API key is sent as a bearer token",
			key:      "sk-test",
			replies:  []llmtest.Reply{{Fixture: "criteria_met"}},
			want:     []string{"met 0.9 The code returns sorted(xs), which sorts the list."},
			usage:    llm.Usage{PromptTokens: 412, CompletionTokens: 31},
			requests: 1,
		},
		{
			name:  "an output too large for a prompt is not sent",
			q:     llm.CriteriaQuestion{Output: strings.Repeat("a", llm.MaxPromptChars), Criteria: []llm.Criterion{{ID: 0, Text: "a"}}},
			want:  []string{"error: the output and context take 48000 bytes, over the"},
			usage: llm.Usage{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t, tt.replies...)
			srv.APIKey = tt.key
			c := newClient(t, srv, tt.edit)
			q := tt.q
			if q.Criteria == nil {
				q = sortQuestion
			}
			res, usage := c.JudgeCriteria(context.Background(), q)
			if len(res) != len(tt.want) {
				t.Fatalf("got %d results, want %d", len(res), len(tt.want))
			}
			for i, r := range res {
				got := ""
				if r.Err != nil {
					got = "error: " + r.Err.Error()
				} else {
					got = fmt.Sprintf("%s %v %s", r.Verdict.Verdict, r.Verdict.Confidence, r.Verdict.Reason)
				}
				if !strings.HasPrefix(got, tt.want[i]) {
					t.Errorf("criterion %d: got %q, want %q", i, got, tt.want[i])
				}
			}
			if usage != tt.usage {
				t.Errorf("got usage %+v, want %+v", usage, tt.usage)
			}
			reqs := srv.Requests()
			if len(reqs) != tt.requests || srv.Pending() != 0 {
				t.Errorf("got %d requests with %d replies unused, want %d requests", len(reqs), srv.Pending(), tt.requests)
			}
			if tt.checkReqs != nil && len(reqs) == tt.requests {
				tt.checkReqs(t, reqs)
			}
		})
	}
}

func TestErrorTypes(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Reply{Status: 429, Fixture: "rate_limited"}, llmtest.Reply{Fixture: "criteria_free_text"}, llmtest.Reply{Fixture: "criteria_free_text"})
	c := newClient(t, srv, func(c *llm.Config) { c.MaxRetries = -1 })
	res, _ := c.JudgeCriteria(context.Background(), sortQuestion)
	var ce *llm.CallError
	if !errors.As(res[0].Err, &ce) || ce.Status != 429 || ce.Attempts != 1 {
		t.Fatalf("with retries off, got %v, want a *CallError 429 after 1 attempt", res[0].Err)
	}
	res, _ = c.JudgeCriteria(context.Background(), sortQuestion)
	var me *llm.MalformedError
	if !errors.As(res[0].Err, &me) || me.Attempts != 2 {
		t.Fatalf("got %v, want a *MalformedError after 2 attempts", res[0].Err)
	}
}

func TestCache(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Reply{Fixture: "criteria_met"}, llmtest.Reply{Fixture: "criteria_not_met"})
	c := newClient(t, srv, nil)
	first, u1 := c.JudgeCriteria(context.Background(), sortQuestion)
	second, u2 := c.JudgeCriteria(context.Background(), sortQuestion)
	if first[0].Verdict == nil || second[0].Verdict == nil {
		t.Fatalf("got %v, %v", first[0].Err, second[0].Err)
	}
	if first[0].Verdict.Cached || !second[0].Verdict.Cached || *first[0].Verdict != (llm.Verdict{ID: 0, Verdict: "met", Confidence: 0.9, Reason: second[0].Verdict.Reason}) {
		t.Errorf("got %+v then %+v; want the same verdict, the second from the cache", first[0].Verdict, second[0].Verdict)
	}
	if u1.PromptTokens == 0 || u2 != (llm.Usage{}) {
		t.Errorf("got usage %+v then %+v; a cache hit costs nothing", u1, u2)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("got %d requests, want 1", n)
	}
	// Another output is another question.
	other := sortQuestion
	other.Output = `{"code":"pass"}`
	res, _ := c.JudgeCriteria(context.Background(), other)
	if res[0].Verdict == nil || res[0].Verdict.Verdict != llm.NotMet || res[0].Verdict.Cached {
		t.Errorf("got %+v, %v; want a fresh not_met", res[0].Verdict, res[0].Err)
	}
}

func TestBatches(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t,
		llmtest.Reply{Fixture: "criteria_batch_b", Match: "- id 10:", Delay: 50 * time.Millisecond},
		llmtest.Reply{Fixture: "criteria_batch_a", Match: "- id 0:", Delay: 50 * time.Millisecond})
	c := newClient(t, srv, nil)
	q := llm.CriteriaQuestion{Output: "the output", Context: `{"lang":"en"}`}
	for i := range 12 {
		q.Criteria = append(q.Criteria, llm.Criterion{ID: i, Text: fmt.Sprintf("criterion %d holds", i)})
	}
	start := time.Now()
	res, usage := c.JudgeCriteria(context.Background(), q)
	took := time.Since(start)
	for i, r := range res {
		want := llm.Met
		if i >= 10 {
			want = llm.NotMet
		}
		if r.Verdict == nil || r.Verdict.Verdict != want || r.Verdict.ID != i {
			t.Errorf("criterion %d: got %+v, %v; want %s", i, r.Verdict, r.Err, want)
		}
	}
	if usage != (llm.Usage{PromptTokens: 1400, CompletionTokens: 360}) {
		t.Errorf("got usage %+v", usage)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("got %d requests, want 2 batches", len(reqs))
	}
	for _, r := range reqs {
		if !strings.Contains(r.Messages[1].Content, "BEGIN DATA context ") {
			t.Errorf("the context is not fenced as data:\n%s", r.Messages[1].Content)
		}
	}
	if took > 95*time.Millisecond {
		t.Logf("the two batches took %v: not in parallel?", took)
	}
}

func TestConfigFromEnv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		env     map[string]string
		ok      bool
		wantErr string
	}{
		{"unset: no model", nil, false, ""},
		{"both set", map[string]string{llm.EnvBaseURL: "http://127.0.0.1:11434/v1", llm.EnvModel: "llama3.2"}, true, ""},
		{"only the URL", map[string]string{llm.EnvBaseURL: "http://127.0.0.1:11434/v1"}, false, "llm: JUDGE_LLM_MODEL: is not set, but JUDGE_LLM_BASE_URL is"},
		{"only the model", map[string]string{llm.EnvModel: "m"}, false, "llm: JUDGE_LLM_BASE_URL: is not set, but JUDGE_LLM_MODEL is"},
		{"not http", map[string]string{llm.EnvBaseURL: "file:///etc/passwd", llm.EnvModel: "m"}, false, `llm: JUDGE_LLM_BASE_URL: "file:///etc/passwd" is not an http or https URL`},
		{"no host", map[string]string{llm.EnvBaseURL: "http://", llm.EnvModel: "m"}, false, `is not an http or https URL`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, ok, err := llm.ConfigFromEnv(func(k string) string { return tt.env[k] })
			if ok != tt.ok {
				t.Errorf("got ok %v, want %v", ok, tt.ok)
			}
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if ok && (cfg.Model != tt.env[llm.EnvModel] || cfg.BaseURL != tt.env[llm.EnvBaseURL]) {
					t.Errorf("got %+v", cfg)
				}
				return
			}
			var ce *llm.ConfigError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("got %v, want a *ConfigError %q", err, tt.wantErr)
			}
		})
	}
}

func TestDeadlineOfTheRequest(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Reply{Status: 429, Fixture: "rate_limited", Header: map[string]string{"Retry-After": "5"}})
	c := newClient(t, srv, func(c *llm.Config) { c.RequestTimeout = 200 * time.Millisecond })
	start := time.Now()
	res, _ := c.JudgeCriteria(context.Background(), sortQuestion)
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %v; the request deadline of 200ms did not end the backoff", took)
	}
	if res[0].Err == nil || !strings.Contains(res[0].Err.Error(), "did not answer in time") {
		t.Errorf("got %v", res[0].Err)
	}
}

// TestConcurrency asks one client from many goroutines: every question is
// answered, and no more than MaxConcurrency calls are under way at once.
func TestConcurrency(t *testing.T) {
	t.Parallel()
	const n = 12
	replies := make([]llmtest.Reply, n)
	for i := range replies {
		replies[i] = llmtest.Reply{Fixture: "criteria_met", Delay: 20 * time.Millisecond}
	}
	srv := llmtest.NewServer(t, replies...)
	c := newClient(t, srv, func(c *llm.Config) { c.MaxConcurrency = 2 })
	errs := make(chan error, n)
	for i := range n {
		go func() {
			q := sortQuestion
			q.Output = fmt.Sprintf(`{"code": "sorted(xs)", "n": %d}`, i) // distinct: no cache hits
			res, _ := c.JudgeCriteria(context.Background(), q)
			if res[0].Err != nil {
				errs <- res[0].Err
				return
			}
			if res[0].Verdict.Verdict != llm.Met {
				errs <- fmt.Errorf("got %+v", res[0].Verdict)
				return
			}
			errs <- nil
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if m := srv.MaxInFlight(); m > 2 || m < 1 {
		t.Errorf("%d calls were under way at once, want at most 2", m)
	}
	if len(srv.Requests()) != n {
		t.Errorf("got %d requests, want %d", len(srv.Requests()), n)
	}
}

func TestAskNeedsSchema(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	c := newClient(t, srv, nil)
	if _, err := c.Ask(context.Background(), llm.Question{Messages: []llm.Message{{Role: "user", Content: "x"}}}); err == nil {
		t.Error("a question without a schema was asked")
	}
	if len(srv.Requests()) != 0 {
		t.Error("a call was made")
	}
}

// TestSameQuestionAtOnce checks that a question asked twice at once is paid
// once: the second waits for the first's answer.
func TestSameQuestionAtOnce(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Reply{Fixture: "criteria_met", Delay: 100 * time.Millisecond})
	c := newClient(t, srv, nil)
	type out struct {
		res   []llm.CriterionResult
		usage llm.Usage
	}
	outs := make(chan out, 2)
	for range 2 {
		go func() {
			res, u := c.JudgeCriteria(context.Background(), sortQuestion)
			outs <- out{res, u}
		}()
	}
	var total llm.Usage
	for range 2 {
		o := <-outs
		if o.res[0].Verdict == nil || o.res[0].Verdict.Verdict != llm.Met {
			t.Errorf("got %+v, %v", o.res[0].Verdict, o.res[0].Err)
		}
		total = total.Add(o.usage)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("got %d model calls, want 1", n)
	}
	if total != (llm.Usage{PromptTokens: 412, CompletionTokens: 31}) {
		t.Errorf("got total usage %+v; the tokens were counted twice", total)
	}
}
