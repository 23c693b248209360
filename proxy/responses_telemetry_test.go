package proxy

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentjudge/judge/proxy/proxytest"
	"github.com/agentjudge/judge/telemetry"
)

// TestResponsesSpan checks that a Responses API request through the
// proxy has the model call's GenAI CLIENT span under its SERVER span, as
// a chat request does, with what the response object says, and that the
// request to the model carries that span's context; streamed and not.
func TestResponsesSpan(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{false, true} {
		t.Run(map[bool]string{false: "whole", true: "stream"}[stream], func(t *testing.T) {
			t.Parallel()
			rec := tracetest.NewSpanRecorder()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
			up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{{Content: `{"city":"Paris"}`}}})
			hr := &headerRecorder{}
			p, err := New(Options{Upstream: up.URL + "/v1", Mode: Stop, Transport: hr, Telemetry: telemetry.ForProvider(tp, false)})
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(p.Handler())
			defer ts.Close()
			body := `{"model":"m","input":"hi","max_output_tokens":300,"stream":` + map[bool]string{false: "false", true: "true"}[stream] +
				`,"text":{"format":{"type":"json_schema","name":"w","schema":{"type":"object","required":["city","unit"]}}}}`
			req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v1/responses", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d", resp.StatusCode)
			}
			var server, model sdktrace.ReadOnlySpan
			for _, s := range rec.Ended() {
				switch s.Name() {
				case "POST /v1/responses":
					server = s
				case "chat m":
					model = s
				}
			}
			if server == nil || model == nil {
				t.Fatalf("no POST /v1/responses or chat m span among %d", len(rec.Ended()))
			}
			if model.Parent().SpanID() != server.SpanContext().SpanID() || model.SpanKind() != trace.SpanKindClient {
				t.Errorf("the model call's span: kind %v under %v, want a client span under the server span", model.SpanKind(), model.Parent())
			}
			got := map[string]string{}
			for _, kv := range model.Attributes() {
				got[string(kv.Key)] = kv.Value.String()
			}
			want := map[string]string{
				"gen_ai.operation.name":          "chat",
				"gen_ai.request.model":           "m",
				"gen_ai.request.max_tokens":      "300",
				"gen_ai.response.model":          proxytest.Model,
				"gen_ai.response.id":             proxytest.ResponseID,
				"gen_ai.response.finish_reasons": `["completed"]`,
				"gen_ai.usage.input_tokens":      "120",
				"gen_ai.usage.output_tokens":     "4",
				"judge.valid":                    "false",
				"judge.mode":                     "stop",
				"judge.stopped":                  "false",
			}
			if stream {
				// Stopped at the closing brace, mid-stream: the id and
				// model of response.created, no finish and no usage
				// (the upstream was cancelled before it sent them).
				want["gen_ai.response.finish_reasons"], want["gen_ai.usage.input_tokens"], want["gen_ai.usage.output_tokens"] = "", "", ""
				want["judge.stopped"] = "true"
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
			hr.mu.Lock()
			defer hr.mu.Unlock()
			if len(hr.seen) != 1 || !strings.Contains(hr.seen[0], model.SpanContext().SpanID().String()) {
				t.Errorf("the model received traceparent %q, want the model call's span %v", hr.seen, model.SpanContext().SpanID())
			}
		})
	}
}
