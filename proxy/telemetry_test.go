package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentjudge/judge/internal/httpapi"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/proxy/proxytest"
	"github.com/agentjudge/judge/telemetry"
)

// headerRecorder is the real transport, recording each request's
// traceparent header.
type headerRecorder struct {
	mu   sync.Mutex
	seen []string
}

func (h *headerRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	h.mu.Lock()
	h.seen = append(h.seen, r.Header.Get("traceparent"))
	h.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

// postOK posts body as JSON to url with client (and traceparent when
// not ""), reads the whole answer and wants a 200.
func postOK(t *testing.T, client *http.Client, url, body, traceparent string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if traceparent != "" {
		req.Header.Set("traceparent", traceparent)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
}

// modelCallSpans posts body to path on ts (with traceparent when not
// ""), wants a 200, closes ts, and returns the request's SERVER span and the model
// call's span ("chat m") among rec's, the second a CLIENT span under the
// first.
func modelCallSpans(t *testing.T, ts *httptest.Server, rec *tracetest.SpanRecorder, path, body, traceparent string) (server, model sdktrace.ReadOnlySpan) {
	t.Helper()
	postOK(t, http.DefaultClient, ts.URL+path, body, traceparent)
	// The client may have the whole body before the middleware has
	// written its log line and ended the SERVER span; Close waits for the
	// request's handler to return.
	ts.Close()
	for _, s := range rec.Ended() {
		switch s.Name() {
		case "POST " + path:
			server = s
		case "chat m":
			model = s
		}
	}
	if server == nil || model == nil {
		t.Fatalf("no POST %s or chat m span among %d", path, len(rec.Ended()))
	}
	if model.Parent().SpanID() != server.SpanContext().SpanID() || model.SpanKind() != trace.SpanKindClient {
		t.Errorf("the model call's span: kind %v under %v, want a client span under the server span", model.SpanKind(), model.Parent())
	}
	return server, model
}

// spanAttrs is s's attributes as strings by key.
func spanAttrs(s sdktrace.ReadOnlySpan) map[string]string {
	got := map[string]string{}
	for _, kv := range s.Attributes() {
		got[string(kv.Key)] = kv.Value.String()
	}
	return got
}

// TestProxySpan checks that with telemetry a request through the proxy is
// a SERVER span under the client's traceparent, that the request to the
// model carries that span's context, and that the request's access-log
// line (written by the same middleware, httpapi.ObserveSpans, as judge
// serve's) carries the span's ids and lasts as long.
func TestProxySpan(t *testing.T) {
	t.Parallel()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{{Content: "hello"}}})
	hr := &headerRecorder{}
	var logs sharedtest.SyncBuffer
	p, err := New(Options{Upstream: up.URL + "/v1", Transport: hr, Telemetry: telemetry.ForProvider(tp, false),
		Logger: slog.New(telemetry.LogHandler(slog.NewJSONHandler(&logs, nil)))})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(p.Handler())
	defer ts.Close()
	const caller = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	server, model := modelCallSpans(t, ts, rec, "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, caller)
	got := spanAttrs(model)
	for k, v := range map[string]string{
		"gen_ai.operation.name":          "chat",
		"gen_ai.provider.name":           "openai",
		"gen_ai.request.model":           "m",
		"gen_ai.response.model":          proxytest.Model,
		"gen_ai.response.id":             proxytest.ID,
		"gen_ai.response.finish_reasons": `["stop"]`,
		"gen_ai.usage.input_tokens":      "120",
		"server.address":                 "127.0.0.1",
		"judge.valid":                    "true",
		"judge.mode":                     "annotate",
		"judge.stopped":                  "false",
	} {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if server.Parent().TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || server.Parent().SpanID().String() != "00f067aa0ba902b7" {
		t.Errorf("the server span's parent is %v, want the client's span", server.Parent())
	}
	var line map[string]any
	for _, l := range logLines(&logs) {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err == nil && m["msg"] == httpapi.AccessLogMessage {
			line = m
		}
	}
	if line == nil {
		t.Fatalf("no access-log line among %q", logLines(&logs))
	}
	if line["trace_id"] != server.SpanContext().TraceID().String() || line["span_id"] != server.SpanContext().SpanID().String() {
		t.Errorf("the access-log line's ids %v/%v, the server span's %v/%v", line["trace_id"], line["span_id"], server.SpanContext().TraceID(), server.SpanContext().SpanID())
	}
	if d, _ := line["duration"].(float64); server.EndTime().Sub(server.StartTime()) != time.Duration(d) {
		t.Errorf("the server span lasts %v, the access-log line's duration is %v", server.EndTime().Sub(server.StartTime()), time.Duration(d))
	}
	if got := spanAttrs(server); got["http.route"] != "/v1/chat/completions" || got["http.response.status_code"] != "200" {
		t.Errorf("the server span's attributes %v", got)
	}
	hr.mu.Lock()
	defer hr.mu.Unlock()
	want := "00-4bf92f3577b34da6a3ce929d0e0e4736-" + model.SpanContext().SpanID().String() + "-01"
	if len(hr.seen) != 1 || hr.seen[0] != want {
		t.Errorf("the model received traceparent %q, want %q", hr.seen, want)
	}
}

// logLines is the lines written to logs so far.
func logLines(logs *sharedtest.SyncBuffer) []string {
	return strings.Split(strings.TrimSpace(logs.String()), "\n")
}

// TestProxyConnContext serves the proxy (Proxy.Serve, a real loopback
// listener) with judge's own spans exported to a loopback OTLP receiver
// and sends requests in turn on one kept-alive connection, with and
// without a traceparent: each request's SERVER span is the child of its
// traceparent or a root, and the trace API asks the context the
// connection started from for a span once (Telemetry.ConnContext's
// check), not once a request.
func TestProxyConnContext(t *testing.T) {
	t.Parallel()
	sink := sharedtest.NewOTLPSink(t)
	tel, err := telemetry.New(context.Background(), telemetry.Config{Export: true, Protocol: "http/protobuf", Endpoint: sink.URL})
	if err != nil {
		t.Fatal(err)
	}
	up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{{Content: "hello"}}})
	p, err := New(Options{Upstream: up.URL + "/v1", Telemetry: tel})
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &sharedtest.CountingListener{Listener: l}
	base, cancel := context.WithCancel(context.Background())
	lookups := sharedtest.NewSpanLookups(base)
	done := make(chan error, 1)
	go func() { done <- p.Serve(lookups, ln) }()
	// Three requests without a traceparent: without ConnContext each of
	// their spans asks the connection's context for a parent.
	parents := []string{"00f067aa0ba902b7", "", "", "b7ad6b7169203331", ""}
	// One connection for all (the transport may otherwise dial a new one
	// before the last is back in its pool).
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	for i, parent := range parents {
		traceparent := ""
		if parent != "" {
			traceparent = fmt.Sprintf("00-4bf92f3577b34da6a3ce929d0e0e473%d-%s-01", i, parent)
		}
		postOK(t, client, "http://"+ln.Addr().String()+"/v1/chat/completions",
			`{"model":"m","messages":[{"role":"user","content":"hi"}]}`, traceparent)
	}
	client.CloseIdleConnections()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	sharedtest.CheckConnSpans(t, lookups, ln, sink, "POST /v1/chat/completions", parents)
}
