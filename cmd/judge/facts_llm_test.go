package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/result"
)

// advisoryText names the discoverer "A. Smith" and says nothing, in the
// words of negationOut, of a password: the facts layer's checker leaves
// negationOut undecided and nameOut unsupported.
const (
	advisoryText = "Credit: the flaw was reported by A. Smith of the libfoo security team.\n" +
		"The service does not require authentication for the status page.\n" +
		"Patched releases: libfoo 1.24.1 ships on 3 March 2024.\n"
	negationOut = `"The status page is not protected by a password."`
	nameOut     = `"The flaw was discovered by Bob Stone."`
)

// factsFake starts the fake model server, checking that every request
// carries the facts check's response_format.
func factsFake(t *testing.T, replies ...llmtest.Reply) *llmtest.Server {
	t.Helper()
	srv := llmtest.NewServer(t, replies...)
	rf, err := json.Marshal(llm.FactsSchema.ResponseFormat())
	if err != nil {
		t.Fatal(err)
	}
	srv.ResponseFormat = rf
	return srv
}

// factIssue returns the only issue of the facts layer in r, or nil.
func factIssue(r *result.ValidationResult) *result.Issue {
	for i := range r.Issues {
		if strings.HasPrefix(r.Issues[i].Rule, "facts.") || r.Issues[i].Location == "line:1" {
			return &r.Issues[i]
		}
	}
	return nil
}

func TestValidateFactsWithModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		output  string
		replies []llmtest.Reply
		timeout time.Duration
		env     bool // false: no JUDGE_LLM_* variable set
		code    int
		check   func(t *testing.T, r *result.ValidationResult)
	}{
		{
			name: "undecided claim decided supported: exit 0", output: negationOut, env: true,
			replies: []llmtest.Reply{{Fixture: "facts_supported"}},
			code:    0,
			check: func(t *testing.T, r *result.ValidationResult) {
				if r.Metadata.Model != llmtest.Model || factIssue(r) != nil || r.Metadata.TokenUsage == nil || r.Metadata.TokenUsage.TotalTokens != 560 {
					t.Errorf("got %+v", r)
				}
			},
		},
		{
			name: "unsupported claim decided contradicted: exit 1", output: nameOut, env: true,
			replies: []llmtest.Reply{{Fixture: "facts_contradicted"}},
			code:    1,
			check: func(t *testing.T, r *result.ValidationResult) {
				is := factIssue(r)
				if r.Valid || is == nil || is.Type != result.Hallucination || is.Rule != "facts.model_contradicted" ||
					!strings.Contains(is.Message, "Discoverer stated as 'Bob Stone' but 'A. Smith' according to") {
					t.Errorf("got %+v", r)
				}
			},
		},
		{
			name: "malformed twice: undecided", output: negationOut, env: true,
			replies: []llmtest.Reply{{Fixture: "facts_bad_evidence"}, {Fixture: "facts_bad_evidence"}},
			code:    1, // too little decided for --min-confidence
			check: func(t *testing.T, r *result.ValidationResult) {
				is := factIssue(r)
				if !r.Valid || is == nil || is.Type != result.NotChecked || !strings.Contains(is.Message, "malformed") {
					t.Errorf("got %+v", r)
				}
			},
		},
		{
			name: "the model slower than --timeout: undecided", output: negationOut, env: true,
			replies: []llmtest.Reply{{Fixture: "facts_supported", Delay: 30 * time.Second}},
			timeout: 4 * time.Second,
			code:    1,
			check: func(t *testing.T, r *result.ValidationResult) {
				is := factIssue(r)
				if is == nil || is.Type != result.NotChecked || !strings.Contains(is.Message, "did not answer in time") {
					t.Errorf("got %+v", r.Issues)
				}
			},
		},
		{
			name: "no model: undecided as before, no call", output: negationOut,
			code: 1,
			check: func(t *testing.T, r *result.ValidationResult) {
				is := factIssue(r)
				if r.Metadata.Model != result.Deterministic || is == nil || is.Type != result.NotChecked || strings.Contains(is.Message, "model") {
					t.Errorf("got %+v", r)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := factsFake(t, tt.replies...)
			env := map[string]string{}
			if tt.env {
				env = map[string]string{llm.EnvBaseURL: srv.URL, llm.EnvModel: llmtest.Model}
			}
			dir := writeFiles(t, map[string]string{"out.json": tt.output, "src/advisory.txt": advisoryText})
			params := newValidateParams()
			params.getenv = func(k string) string { return env[k] }
			params.sources = []string{filepath.Join(dir, "src")}
			params.trusted = []string{"advisory.txt"}
			params.types = []string{"facts"}
			params.minConf = DefaultMinConfidence
			params.timeout = tt.timeout
			var out bytes.Buffer
			err := runValidate(context.Background(), params, []string{filepath.Join(dir, "out.json")}, &out)
			if got := exitCode(err); got != tt.code {
				t.Fatalf("got exit %d (%v), want %d\n%s", got, err, tt.code, out.String())
			}
			var r result.ValidationResult
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			tt.check(t, &r)
			if n := len(srv.Requests()); n != len(tt.replies) {
				t.Errorf("got %d model calls, want %d", n, len(tt.replies))
			}
		})
	}
}

// TestBinaryFactsWithModel runs the judge binary with the JUDGE_LLM_*
// variables pointing at the fake: a claim no source gives is decided
// contradicted by the model.
func TestBinaryFactsWithModel(t *testing.T) {
	t.Parallel()
	srv := factsFake(t, llmtest.Reply{Fixture: "facts_contradicted"})
	dir := writeFiles(t, map[string]string{"out.json": nameOut, "src/advisory.txt": advisoryText})
	res := runJudgeEnv(t, []string{llm.EnvBaseURL + "=" + srv.URL, llm.EnvModel + "=" + llmtest.Model},
		"validate", filepath.Join(dir, "out.json"), "--source", filepath.Join(dir, "src"),
		"--trusted-source", "advisory.txt", "--types", "facts", "--format", "json")
	if res.code != 1 {
		t.Fatalf("judge validate: exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	var r result.ValidationResult
	if err := json.Unmarshal([]byte(res.stdout), &r); err != nil {
		t.Fatal(err)
	}
	is := factIssue(&r)
	if r.Metadata.Model != llmtest.Model || is == nil || is.Rule != "facts.model_contradicted" || r.Metadata.TokenUsage == nil {
		t.Errorf("judge validate: got %+v", r)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("got %d model calls, want 1", n)
	}
}
