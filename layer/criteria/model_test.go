package criteria_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/criteria"
	"github.com/agentjudge/judge/result"
)

func modelLayer(t *testing.T, srv *llmtest.Server, edit func(*llm.Config)) *layer.Layer {
	t.Helper()
	rf, _ := json.Marshal(llm.CriteriaSchema.ResponseFormat())
	srv.ResponseFormat = rf
	cfg := llm.Config{BaseURL: srv.URL, Model: llmtest.Model, Backoff: time.Millisecond}
	if edit != nil {
		edit(&cfg)
	}
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return criteria.NewLayer(criteria.ClientJudge(c))
}

const sortOutput = `{"code": "def sort_list(xs): return sorted(xs)", "tests": []}`

// TestModel runs the layer with a model behind the fake server: verdicts,
// a rule beside them, vague criteria flagged before the call.
func TestModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		replies  []llmtest.Reply
		crit     []layer.Criterion
		edit     func(*llm.Config)
		deadline time.Duration
		want     []wantIssue
		passed   []string
		failed   []string
		conf     float64
		models   []string
		tokens   [2]int64
	}{
		{
			name:    "met, and a rule beside it",
			replies: []llmtest.Reply{{Fixture: "criteria_met"}},
			crit:    []layer.Criterion{{Description: "Code implements sorting"}, {Description: "Has code", Rule: "has(output.code)"}},
			passed:  []string{"Code implements sorting", "Has code"},
			conf:    0.95, models: []string{llmtest.Model}, tokens: [2]int64{412, 31},
		},
		{
			name:    "not met: criteria_not_met with the model's reason",
			replies: []llmtest.Reply{{Fixture: "criteria_not_met"}},
			crit:    []layer.Criterion{{Description: "Tests are included"}},
			want: []wantIssue{{result.Error, result.CriteriaNotMet, "acceptance_criteria[0]",
				`^Acceptance criterion not met: Tests are included \(The tests list is empty, so no tests are included\.\)$`,
				`^Change the output so that it meets the criterion 'Tests are included'$`}},
			failed: []string{"Tests are included"},
			conf:   0.8, models: []string{llmtest.Model}, tokens: [2]int64{398, 29},
		},
		{
			name:    "vague criterion flagged, and still judged in the same call as the other",
			replies: []llmtest.Reply{{Fixture: "criteria_mixed"}},
			crit:    []layer.Criterion{{Description: "Code is clean"}, {Description: "Tests are included"}},
			want: []wantIssue{
				{result.Warning, result.CriteriaAmbiguous, "acceptance_criteria[0]", `'clean' has no measurable meaning`, ``},
				{result.Error, result.CriteriaNotMet, "acceptance_criteria[1]", `\(The tests list is empty\.\)$`, ``},
			},
			passed: []string{"Code is clean"}, failed: []string{"Tests are included"},
			conf: 0.8, models: []string{llmtest.Model}, tokens: [2]int64{455, 48},
		},
		{
			name:    "malformed twice: undecided, never passed",
			replies: []llmtest.Reply{{Fixture: "criteria_free_text"}, {Fixture: "criteria_free_text"}},
			crit:    []layer.Criterion{{Description: "Code implements sorting"}},
			want: []wantIssue{{result.Warning, result.NotChecked, "acceptance_criteria[0]",
				`^Criterion 'Code implements sorting' could not be judged by the configured model: the model's answer was malformed 2 times: the answer is not JSON`,
				`^Check that the model's server is running and reachable \(JUDGE_LLM_BASE_URL\), then retry; or give the criterion a CEL rule`}},
			conf: 0, tokens: [2]int64{810, 28},
		},
		{
			name:    "cannot tell: undecided with the model's reason",
			replies: []llmtest.Reply{{Fixture: "criteria_cannot_tell"}},
			crit:    []layer.Criterion{{Description: "The code was run"}},
			want: []wantIssue{{result.Info, result.NotChecked, "acceptance_criteria[0]",
				`could not be judged by the model: the model could not tell from the output \(The output does not show whether the code was run\.\)$`, ``}},
			conf: 0, models: []string{llmtest.Model}, tokens: [2]int64{401, 30},
		},
		{
			name:     "the model is slower than the layer's deadline: undecided before it",
			replies:  []llmtest.Reply{{Fixture: "criteria_met", Delay: 5 * time.Second}},
			crit:     []layer.Criterion{{Description: "Code implements sorting"}, {Description: "Has code", Rule: "has(output.code)"}},
			deadline: time.Second,
			want: []wantIssue{{result.Warning, result.NotChecked, "acceptance_criteria[0]",
				`could not be judged by the configured model: the model did not answer in time$`, ``}},
			passed: []string{"Has code"},
			conf:   0.5,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t, tt.replies...)
			l := modelLayer(t, srv, tt.edit)
			ctx := context.Background()
			if tt.deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.deadline)
				defer cancel()
			}
			f, err := run(t, ctx, l, &layer.Input{Output: decode(t, sortOutput), Criteria: tt.crit})
			if err != nil {
				t.Fatal(err)
			}
			if tt.deadline > 0 && ctx.Err() != nil {
				t.Errorf("the layer returned after its deadline")
			}
			checkIssues(t, f.Issues, tt.want)
			if !slices.Equal(f.Passed, tt.passed) || !slices.Equal(f.Failed, tt.failed) {
				t.Errorf("got passed %q failed %q, want %q %q", f.Passed, f.Failed, tt.passed, tt.failed)
			}
			if diff := f.Confidence - tt.conf; diff > 1e-9 || diff < -1e-9 {
				t.Errorf("got confidence %v, want %v", f.Confidence, tt.conf)
			}
			if !slices.Equal(slices.Compact(f.Models), tt.models) {
				t.Errorf("got models %q, want %q", f.Models, tt.models)
			}
			if [2]int64{f.PromptTokens, f.CompletionTokens} != tt.tokens {
				t.Errorf("got tokens %d/%d, want %v", f.PromptTokens, f.CompletionTokens, tt.tokens)
			}
			if reqs := srv.Requests(); len(reqs) != len(tt.replies) {
				t.Errorf("got %d requests, want %d", len(reqs), len(tt.replies))
			} else if len(reqs) > 0 && strings.Contains(reqs[0].Messages[1].Content, "has(output.code)") {
				t.Errorf("a criterion with a rule was sent to the model")
			}
		})
	}
}

// TestModelTextOutput checks that a text output reaches the model as sent,
// prose included.
func TestModelTextOutput(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Reply{Fixture: "criteria_met"})
	l := modelLayer(t, srv, nil)
	text := "Here is the code:\n```json\n{\"code\": \"sorted(xs)\"}\n```\nIt sorts."
	_, err := run(t, context.Background(), l, &layer.Input{Output: decode(t, `{"code": "sorted(xs)"}`), Text: text,
		Criteria: []layer.Criterion{{Description: "Code implements sorting"}}})
	if err != nil {
		t.Fatal(err)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || !strings.Contains(reqs[0].Messages[1].Content, text) {
		t.Errorf("the text output was not sent as given: %+v", reqs)
	}
}

// answers is a Judge of the test's own that gives fixed answers.
type answers []criteria.ModelVerdict

func (answers) Model() string { return "fixed" }

func (a answers) JudgeCriteria(ctx context.Context, q criteria.ModelQuestion) ([]criteria.ModelVerdict, result.TokenUsage) {
	return a, result.TokenUsage{PromptTokens: 5, CompletionTokens: 2}
}

// TestProgramJudge runs the layer with a Judge a program wrote: its
// answers count as the client's do, and an answer the layer cannot read
// leaves the criterion undecided, saying why, instead of being believed.
func TestProgramJudge(t *testing.T) {
	t.Parallel()
	if criteria.Met != llm.Met || criteria.NotMet != llm.NotMet || criteria.CannotTell != llm.CannotTell {
		t.Fatal("the verdicts of criteria.ModelVerdict are not the words of judge's client, which its adapter passes on")
	}
	tests := []struct {
		name    string
		answers answers
		passed  bool
		want    string // in the not_checked message; "" for a decided criterion
	}{
		{"met", answers{{Verdict: criteria.Met, Confidence: 0.8}}, true, ""},
		{"error", answers{{Err: errors.New("quota spent")}}, false, "quota spent"},
		{"cannot tell", answers{{Verdict: criteria.CannotTell, Reason: "no tests shown"}}, false, "could not tell from the output (no tests shown)"},
		{"unknown verdict", answers{{Verdict: "maybe", Confidence: 0.8}}, false, `verdict "maybe" is not one of`},
		{"confidence out of range", answers{{Verdict: criteria.Met, Confidence: -1}}, false, "confidence -1 is not in [0, 1]"},
		{"no answer", answers{}, false, "the model gave no verdict"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			l := criteria.NewLayer(tt.answers)
			p := layer.NewPass(l, &layer.Input{Output: map[string]any{"code": "x"}, Criteria: []layer.Criterion{{Description: "Tests are included"}}}, layer.NewCache(0))
			if err := l.Run(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			f := p.Findings()
			if f.PromptTokens != 5 || f.CompletionTokens != 2 {
				t.Errorf("tokens %d/%d, want 5/2", f.PromptTokens, f.CompletionTokens)
			}
			if tt.passed {
				if len(f.Issues) != 0 || !slices.Equal(f.Passed, []string{"Tests are included"}) || f.Confidence != 0.8 {
					t.Errorf("issues %+v, passed %v, confidence %v; want none, the criterion, 0.8", f.Issues, f.Passed, f.Confidence)
				}
				return
			}
			if len(f.Issues) != 1 || f.Issues[0].Type != result.NotChecked || !strings.Contains(f.Issues[0].Message, tt.want) || len(f.Passed) != 0 {
				t.Errorf("issues %+v, passed %v; want one not_checked saying %q", f.Issues, f.Passed, tt.want)
			}
		})
	}
}
