package facts_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/facts"
	"github.com/agentjudge/judge/result"
)

// advisory is a source the deterministic checker cannot settle everything
// against: it names the discoverer as "A. Smith" and says nothing, in the
// output's words, of a password.
var advisory = layer.Source{ID: "advisory", Title: "Vendor advisory", URL: "https://example.com/adv",
	Content: "Credit: the flaw was reported by A. Smith of the libfoo security team.\n" +
		"The service does not require authentication for the status page.\n" +
		"Patched releases: libfoo 1.24.1 ships on 3 March 2024."}

// Outputs with one claim the checker leaves to the model: a negation no
// source states in its words (undecided), and a name no source gives
// (unsupported).
const (
	negationOutput = "The status page is not protected by a password."
	nameOutput     = "The flaw was discovered by Bob Stone."
)

// runWithModel runs the facts layer with the fake model giving replies,
// under a layer deadline of timeout.
func runWithModel(t *testing.T, output string, timeout time.Duration, replies ...llmtest.Reply) (layer.Findings, *llmtest.Server) {
	t.Helper()
	srv := llmtest.NewServer(t, replies...)
	rf, _ := json.Marshal(llm.FactsSchema.ResponseFormat())
	srv.ResponseFormat = rf
	m, err := llm.New(llm.Config{BaseURL: srv.URL, Model: llmtest.Model, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	l := facts.NewLayer(facts.ClientJudge(m))
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	p := layer.NewPass(l, &layer.Input{Output: output, Sources: []layer.Source{advisory}}, layer.NewCache(0))
	if err := l.Run(ctx, p); err != nil {
		t.Fatal(err)
	}
	return p.Findings(), srv
}

func TestModelJudgesClaims(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		output  string
		timeout time.Duration
		replies []llmtest.Reply
		// issues are "type rule location: message | suggestion".
		issues     []string
		passed     []string
		failed     []string
		confidence float64
		models     []string
		tokens     [2]int64
	}{
		{
			name:       "an undecided negation decided supported",
			output:     negationOutput,
			timeout:    5 * time.Second,
			replies:    []llmtest.Reply{{Fixture: "facts_supported"}},
			passed:     []string{facts.Criterion},
			confidence: 0.8,
			models:     []string{llmtest.Model},
			tokens:     [2]int64{520, 40},
		},
		{
			name:    "an unsupported name decided contradicted",
			output:  nameOutput,
			timeout: 5 * time.Second,
			replies: []llmtest.Reply{{Fixture: "facts_contradicted"}},
			issues: []string{"hallucination facts.model_contradicted line:1:discoverer: " +
				`Discoverer stated as 'Bob Stone' but 'A. Smith' according to Vendor advisory (advisory line 1: "Credit: the flaw was reported by A. Smith of the libfoo security team.")` +
				" | Correct discoverer to 'A. Smith' based on https://example.com/adv"},
			failed:     []string{facts.Criterion},
			confidence: 0.85,
			models:     []string{llmtest.Model},
			tokens:     [2]int64{510, 44},
		},
		{
			name:       "a malformed answer twice: undecided",
			output:     negationOutput,
			timeout:    5 * time.Second,
			replies:    []llmtest.Reply{{Fixture: "facts_bad_evidence"}, {Fixture: "facts_bad_evidence"}},
			issues:     []string{"not_checked  line:1: The negated statement 'The status page is not protected by a password.' could not be checked: no source states it, and the model could not decide it (the model's answer was malformed 2 times: the verdict for claim 0 cites passage \"P9\", which is not among its passages (P1)) | Give a source that covers this statement, or check it by hand"},
			confidence: 0,
			tokens:     [2]int64{1010, 80},
		},
		{
			name:       "cannot tell: undecided",
			output:     negationOutput,
			timeout:    5 * time.Second,
			replies:    []llmtest.Reply{{Fixture: "facts_cannot_tell"}},
			issues:     []string{"not_checked  line:1: The negated statement 'The status page is not protected by a password.' could not be checked: no source states it, and the model could not decide it (it could not tell from the passages) | Give a source that covers this statement, or check it by hand"},
			confidence: 0,
			models:     []string{llmtest.Model},
			tokens:     [2]int64{500, 38},
		},
		{
			name:       "no answer before the deadline: undecided",
			output:     negationOutput,
			timeout:    400 * time.Millisecond,
			replies:    []llmtest.Reply{{Fixture: "facts_supported", Delay: 5 * time.Second}},
			issues:     []string{"not_checked  line:1: The negated statement 'The status page is not protected by a password.' could not be checked: no source states it, and the model could not decide it (the model did not answer in time) | Give a source that covers this statement, or check it by hand"},
			confidence: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, srv := runWithModel(t, tt.output, tt.timeout, tt.replies...)
			var got []string
			for _, is := range f.Issues {
				got = append(got, string(is.Type)+" "+is.Rule+" "+is.Location+": "+is.Message+" | "+is.Suggestion)
			}
			if !slices.Equal(got, tt.issues) {
				t.Errorf("issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.issues, "\n"))
			}
			if !slices.Equal(f.Passed, tt.passed) || !slices.Equal(f.Failed, tt.failed) {
				t.Errorf("passed %q failed %q, want %q %q", f.Passed, f.Failed, tt.passed, tt.failed)
			}
			if math.Abs(f.Confidence-tt.confidence) > 1e-9 {
				t.Errorf("confidence %v, want %v", f.Confidence, tt.confidence)
			}
			if !slices.Equal(f.Models, tt.models) {
				t.Errorf("models %q, want %q", f.Models, tt.models)
			}
			if got := [2]int64{f.PromptTokens, f.CompletionTokens}; got != tt.tokens {
				t.Errorf("tokens %v, want %v", got, tt.tokens)
			}
			if n := len(srv.Requests()); n == 0 {
				t.Error("the model was never asked")
			}
		})
	}
}

// TestNoModel checks that without a model the layer is what it was: the
// negation undecided, the name unsupported, no call made.
func TestNoModel(t *testing.T) {
	t.Parallel()
	if facts.NewLayer(nil) != facts.Layer {
		t.Fatal("NewLayer(nil) is not Layer")
	}
	for _, tc := range []struct{ output, typ, rule string }{
		{negationOutput, "not_checked", ""},
		{nameOutput, "unsupported_claim", "facts.unsupported"},
	} {
		f := runFacts(t, &layer.Input{Output: tc.output, Sources: []layer.Source{advisory}})
		if len(f.Issues) != 1 || string(f.Issues[0].Type) != tc.typ || f.Issues[0].Rule != tc.rule || len(f.Models) != 0 {
			t.Errorf("%q: issues %s, models %v", tc.output, dump(f.Issues), f.Models)
		}
	}
}

// answers is a Judge of the test's own that gives fixed answers.
type answers []facts.ModelVerdict

func (answers) Model() string { return "fixed" }

func (a answers) JudgeClaims(ctx context.Context, claims []facts.ModelClaim) ([]facts.ModelVerdict, result.TokenUsage) {
	return a, result.TokenUsage{PromptTokens: 3, CompletionTokens: 1}
}

// TestProgramJudge runs the layer with a Judge a program wrote: its
// answers count as the client's do, and an answer the layer cannot read
// leaves the claim undecided, saying why, instead of being believed.
func TestProgramJudge(t *testing.T) {
	t.Parallel()
	if facts.Supported != llm.Supported || facts.Contradicted != llm.Contradicted || facts.CannotTell != llm.CannotTell {
		t.Fatal("the verdicts of facts.ModelVerdict are not the words of judge's client, which its adapter passes on")
	}
	tests := []struct {
		name    string
		answers answers
		want    string // in the not_checked message; "" for a decided claim
	}{
		{"supported", answers{{Verdict: facts.Supported, Confidence: 0.7}}, ""},
		{"error", answers{{Err: errors.New("quota spent")}}, "quota spent"},
		{"unknown verdict", answers{{Verdict: "maybe", Confidence: 0.7}}, `its verdict "maybe" is not one of`},
		{"confidence out of range", answers{{Verdict: facts.Supported, Confidence: 1.5}}, "its confidence 1.5 is not in [0, 1]"},
		{"evidence out of range", answers{{Verdict: facts.Supported, Evidence: 5, Confidence: 0.7}}, "its evidence is passage 6 of"},
		{"no answer", answers{}, "the model gave no verdict"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			l := facts.NewLayer(tt.answers)
			p := layer.NewPass(l, &layer.Input{Output: negationOutput, Sources: []layer.Source{advisory}}, layer.NewCache(0))
			if err := l.Run(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			f := p.Findings()
			if f.PromptTokens != 3 || f.CompletionTokens != 1 {
				t.Errorf("tokens %d/%d, want 3/1", f.PromptTokens, f.CompletionTokens)
			}
			if tt.want == "" {
				if len(f.Issues) != 0 || !slices.Equal(f.Models, []string{"fixed"}) || f.Confidence != 0.7 {
					t.Errorf("issues %s, models %v, confidence %v; want none, [fixed], 0.7", dump(f.Issues), f.Models, f.Confidence)
				}
				return
			}
			if len(f.Issues) != 1 || string(f.Issues[0].Type) != "not_checked" || !strings.Contains(f.Issues[0].Message, tt.want) {
				t.Errorf("issues %s; want one not_checked saying %q", dump(f.Issues), tt.want)
			}
		})
	}
}
