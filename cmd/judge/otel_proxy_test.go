package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjudge/judge/proxy/proxytest"
)

// TestOtelProxyJaeger streams a chat completion through a real judge
// proxy exporting to Jaeger, with a known traceparent, and reads the
// trace back: the proxy's SERVER span under the caller's span, the GenAI
// CLIENT span of the model call under it (request and response model,
// finish reasons, token usage, server address, judge's verdict on the
// answer), and the upstream received that client span's traceparent.
func TestOtelProxyJaeger(t *testing.T) {
	t.Parallel()
	j := startJaeger(t)
	up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{{Content: `{"n": "one"}`}}})
	target, _ := url.Parse(up.URL)
	var mu sync.Mutex
	var seen []string
	rp := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("traceparent"))
		mu.Unlock()
		rp.ServeHTTP(w, r)
	}))
	defer front.Close()

	cmd := exec.Command(judgeBin(t), "proxy", "--upstream", front.URL+"/v1", "--addr", "127.0.0.1:0")
	cmd.Env = otelEnv(j)
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := false
	t.Cleanup(func() {
		if !exited {
			cmd.Process.Signal(os.Interrupt)
			cmd.Wait()
		}
		pw.Close()
	})
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			var rec struct{ URL string }
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.URL != "" {
				select {
				case urls <- rec.URL:
				default:
				}
			}
		}
	}()
	var base string
	select {
	case base = <-urls:
	case <-time.After(60 * time.Second):
		t.Fatal("judge proxy logged no URL within 60s")
	}

	tp, traceID, callerSpan := newTraceparent()
	body := `{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"n?"}],` +
		`"response_format":{"type":"json_schema","json_schema":{"name":"n","schema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}}}`
	req, _ := http.NewRequest(http.MethodPost, base+"/v1/chat/completions", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("traceparent", tp)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(answer), `"judge"`) {
		t.Fatalf("answer %d: %.500s", resp.StatusCode, answer)
	}
	cmd.Process.Signal(os.Interrupt) // the spans are flushed on shutdown
	if err := cmd.Wait(); err != nil {
		t.Fatalf("judge proxy exited with %v", err)
	}
	exited = true

	tr := j.trace(t, traceID, names("POST /v1/chat/completions", "chat m"))
	server, model := tr.byName(t, "POST /v1/chat/completions"), tr.byName(t, "chat m")
	if server.parent() != callerSpan || model.parent() != server.SpanID {
		t.Errorf("parents: server span under %q (want the caller's %s), chat m under %q (want %s)", server.parent(), callerSpan, model.parent(), server.SpanID)
	}
	mu.Lock()
	if want := "00-" + traceID + "-" + model.SpanID + "-01"; len(seen) != 1 || seen[0] != want {
		t.Errorf("the upstream received traceparent %q, want the model call's %q", seen, want)
	}
	mu.Unlock()
	for k, want := range map[string]any{
		"span.kind":                      "client",
		"gen_ai.operation.name":          "chat",
		"gen_ai.provider.name":           "openai",
		"gen_ai.request.model":           "m",
		"gen_ai.response.model":          proxytest.Model,
		"gen_ai.response.id":             proxytest.ID,
		"gen_ai.response.finish_reasons": `["stop"]`,
		"server.address":                 "127.0.0.1",
		"judge.valid":                    false,
		"judge.mode":                     "annotate",
		"judge.stopped":                  false,
		"judge.invalid_count":            1.0,
	} {
		if got := model.tag(k); got != want {
			t.Errorf("chat m: %s = %v (%T), want %v", k, got, got, want)
		}
	}
	if n, _ := model.tag("gen_ai.usage.output_tokens").(float64); n <= 0 {
		t.Errorf("chat m: gen_ai.usage.output_tokens = %v, want the upstream's usage", model.tag("gen_ai.usage.output_tokens"))
	}
	t.Logf("trace %s as Jaeger answers it:\n%s", traceID, tr.render(callerSpan))
}
