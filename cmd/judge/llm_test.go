package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/result"
)

// fakeModel starts the fake model server with replies, checking that every
// request carries the criteria check's response_format.
func fakeModel(t *testing.T, replies ...llmtest.Reply) *llmtest.Server {
	t.Helper()
	srv := llmtest.NewServer(t, replies...)
	rf, err := json.Marshal(llm.CriteriaSchema.ResponseFormat())
	if err != nil {
		t.Fatal(err)
	}
	srv.ResponseFormat = rf
	return srv
}

const sortOutput = `{"code": "def sort_list(xs): return sorted(xs)", "tests": []}`

func TestValidateWithModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		replies []llmtest.Reply
		env     func(url string) map[string]string
		timeout time.Duration // --timeout
		code    int
		wantErr string
		check   func(t *testing.T, r *result.ValidationResult)
	}{
		{
			name:    "met: exit 0, the model in the metadata",
			replies: []llmtest.Reply{{Fixture: "criteria_met"}},
			code:    0,
			check: func(t *testing.T, r *result.ValidationResult) {
				if r.Metadata.Model != llmtest.Model || r.Confidence != 0.9 || len(r.PassedCriteria) != 1 ||
					r.Metadata.TokenUsage == nil || r.Metadata.TokenUsage.TotalTokens != 443 {
					t.Errorf("got %+v", r)
				}
			},
		},
		{
			name:    "not met: exit 1 with criteria_not_met",
			replies: []llmtest.Reply{{Fixture: "criteria_not_met"}},
			code:    1,
			check: func(t *testing.T, r *result.ValidationResult) {
				if r.Valid || len(r.Issues) != 1 || r.Issues[0].Type != result.CriteriaNotMet || r.Issues[0].Rule != "criteria.judge" {
					t.Errorf("got %+v", r)
				}
			},
		},
		{
			name:    "malformed twice: undecided, exit 1 for too little decided",
			replies: []llmtest.Reply{{Fixture: "criteria_free_text"}, {Fixture: "criteria_free_text"}},
			code:    1,
			wantErr: "confidence 0.00 is below --min-confidence",
			check: func(t *testing.T, r *result.ValidationResult) {
				if !r.Valid || len(r.PassedCriteria) != 0 || len(r.Issues) != 1 || r.Issues[0].Type != result.NotChecked {
					t.Errorf("got %+v", r)
				}
			},
		},
		{
			name:    "429 then met: exit 0",
			replies: []llmtest.Reply{{Status: 429, Fixture: "rate_limited", Header: map[string]string{"Retry-After": "0"}}, {Fixture: "criteria_met"}},
			code:    0,
		},
		{
			name:    "the model slower than --timeout: undecided, exit 1",
			replies: []llmtest.Reply{{Fixture: "criteria_met", Delay: 30 * time.Second}},
			timeout: 4 * time.Second,
			code:    1,
			wantErr: "confidence 0.00 is below --min-confidence",
			check: func(t *testing.T, r *result.ValidationResult) {
				if len(r.Issues) != 1 || !strings.Contains(r.Issues[0].Message, "did not answer in time") {
					t.Errorf("got %+v", r.Issues)
				}
			},
		},
		{
			name: "only the URL set: bad input",
			env:  func(url string) map[string]string { return map[string]string{llm.EnvBaseURL: url} },
			code: 2, wantErr: "JUDGE_LLM_MODEL: is not set",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := fakeModel(t, tt.replies...)
			env := map[string]string{llm.EnvBaseURL: srv.URL, llm.EnvModel: llmtest.Model}
			if tt.env != nil {
				env = tt.env(srv.URL)
			}
			dir := writeFiles(t, map[string]string{"out.json": sortOutput})
			params := newValidateParams()
			params.getenv = func(k string) string { return env[k] }
			params.criteria = []string{"Code implements sorting"}
			params.minConf = DefaultMinConfidence // the flag's default
			params.timeout = tt.timeout
			var out bytes.Buffer
			err := runValidate(context.Background(), params, []string{filepath.Join(dir, "out.json")}, &out)
			if got := exitCode(err); got != tt.code {
				t.Fatalf("got exit %d (%v), want %d\n%s", got, err, tt.code, out.String())
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("got error %v, want %q", err, tt.wantErr)
			}
			if tt.check != nil {
				var r result.ValidationResult
				if err := json.Unmarshal(out.Bytes(), &r); err != nil {
					t.Fatalf("%v\n%s", err, out.String())
				}
				tt.check(t, &r)
			}
			if n := len(srv.Requests()); n != len(tt.replies) {
				t.Errorf("got %d model calls, want %d", n, len(tt.replies))
			}
		})
	}
}

// TestBinaryWithModel runs the judge binary with the JUDGE_LLM_* variables
// pointing at the fake: judge validate, then judge serve.
func TestBinaryWithModel(t *testing.T) {
	t.Parallel()
	srv := fakeModel(t, llmtest.Reply{Fixture: "criteria_not_met"}, llmtest.Reply{Fixture: "criteria_met"})
	env := append(os.Environ(), llm.EnvBaseURL+"="+srv.URL, llm.EnvModel+"="+llmtest.Model, llm.EnvAPIKey+"=sk-cli-test")
	srv.APIKey = "sk-cli-test"
	dir := writeFiles(t, map[string]string{"out.json": sortOutput})

	res := execJudge(t, nil, env, "validate", filepath.Join(dir, "out.json"), "--criteria", "Tests are included", "--format", "json")
	if res.code != 1 {
		t.Fatalf("judge validate: exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	var r result.ValidationResult
	if err := json.Unmarshal([]byte(res.stdout), &r); err != nil {
		t.Fatal(err)
	}
	if r.Metadata.Model != llmtest.Model || len(r.FailedCriteria) != 1 || r.Metadata.TokenUsage == nil {
		t.Errorf("judge validate: got %+v", r)
	}

	serve := exec.Command(judgeBin(t), "serve", "--addr", "127.0.0.1:0")
	serve.Env = append(env, "JUDGE_API_TOKEN=")
	logs, err := serve.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = serve.Process.Kill(); _ = serve.Wait() })
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(logs)
		for sc.Scan() {
			var rec struct{ URL, Model string }
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.URL != "" {
				if rec.Model != llmtest.Model {
					t.Errorf("judge serve logged model %q", rec.Model)
				}
				urlc <- rec.URL
			}
		}
	}()
	var base string
	select {
	case base = <-urlc:
	case <-time.After(20 * time.Second):
		t.Fatal("judge serve logged no address within 20s")
	}
	body := `{"output": ` + sortOutput + `, "acceptance_criteria": ["Code implements sorting"]}`
	// The address is logged once the listener is bound: the request waits
	// in its backlog until the server serves it, with no retry.
	client := &http.Client{Timeout: 20 * time.Second}
	resp, err := client.Post(base+"/validate", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var sr result.ValidationResult
	if err := json.NewDecoder(resp.Body).Decode(&sr); err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST /validate: %d %v", resp.StatusCode, err)
	}
	if !sr.Valid || sr.Metadata.Model != llmtest.Model || sr.Confidence != 0.9 || len(sr.PassedCriteria) != 1 {
		t.Errorf("POST /validate: got %+v", sr)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("got %d model calls, want 2", n)
	}
}

func TestServeBadModelConfig(t *testing.T) {
	t.Parallel()
	params := newServeParams()
	params.addr = "127.0.0.1:0"
	params.getenv = func(k string) string {
		if k == llm.EnvModel {
			return "m"
		}
		return ""
	}
	err := runServe(context.Background(), params, nil, new(bytes.Buffer))
	if exitCode(err) != 2 || !strings.Contains(err.Error(), "JUDGE_LLM_BASE_URL: is not set") {
		t.Errorf("got %v, want bad input naming JUDGE_LLM_BASE_URL", err)
	}
}

// TestValidateModelUnreachable: a configured model on a closed loopback
// port does not pass the output quietly: the criterion is a not_checked
// warning, and stderr says the model did not judge it.
func TestValidateModelUnreachable(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/v1"
	ln.Close() // nothing listens there any more: connections are refused
	env := map[string]string{llm.EnvBaseURL: url, llm.EnvModel: llmtest.Model}
	dir := writeFiles(t, map[string]string{"out.json": sortOutput, "s.json": `{"type": "object", "required": ["code"]}`})
	params := newValidateParams()
	params.getenv = func(k string) string { return env[k] }
	params.schema = filepath.Join(dir, "s.json")
	params.criteria = []string{"Code implements sorting"}
	params.minConf = DefaultMinConfidence
	var out, stderr bytes.Buffer
	params.stderr = &stderr
	err = runValidate(context.Background(), params, []string{filepath.Join(dir, "out.json")}, &out)
	var r result.ValidationResult
	if jerr := json.Unmarshal(out.Bytes(), &r); jerr != nil {
		t.Fatalf("%v (exit %d: %v)\n%s", jerr, exitCode(err), err, out.String())
	}
	if len(r.Issues) != 1 || r.Issues[0].Severity != result.Warning || r.Issues[0].Type != result.NotChecked || r.Issues[0].Rule != "criteria.model_failed" {
		t.Errorf("issues %+v, want one not_checked warning of rule criteria.model_failed", r.Issues)
	}
	if !strings.Contains(stderr.String(), "judge: warning: the configured model did not judge 1 criterion") {
		t.Errorf("stderr %q does not say that the model did not judge the criterion", stderr.String())
	}
}
