package proxy

import (
	"net/http/httptest"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

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
			_, model := modelCallSpans(t, ts, rec, "/v1/responses", body, "")
			got := spanAttrs(model)
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
