package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/telemetry"
)

// agreeRequest is one request of TestSpansAgreeWithSDK.
type agreeRequest struct {
	name, body, traceparent string
	status                  int
}

// agreeRequests are the requests both recorders answer: the fast path
// (valid, invalid), the layers' path, with and without a caller's
// traceparent, and requests the engine refuses (an error status and an
// exception event on judge.validate) or the server does not route.
func agreeRequests(t *testing.T) []agreeRequest {
	t.Helper()
	bc := sharedtest.LoadBenchCorpus(t).Cases[0]
	doc := func(out string) string {
		r, err := json.Marshal(map[string]any{"output": json.RawMessage(out), "expected_schema": json.RawMessage(bc.Schema)})
		if err != nil {
			t.Fatal(err)
		}
		return string(r)
	}
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	return []agreeRequest{
		{"fast path, valid", doc(bc.Valid), "", http.StatusOK},
		{"fast path, invalid, traceparent", doc(bc.Invalid), "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", http.StatusOK},
		{"layers' path, traceparent", inlineToolOutput, tp, http.StatusOK},
		{"layers' path", inlineToolOutput, "", http.StatusOK},
		{"layers' path, unsampled parent", inlineToolOutput, "00-5bf92f3577b34da6a3ce929d0e0e4736-10f067aa0ba902b7-00", http.StatusOK},
		{"unknown validation type", `{"output": {"a": 1}, "validation_types": ["nope"]}`, "", http.StatusBadRequest},
		{"no output", `{"expected_schema": {"type": "object"}}`, "00-6bf92f3577b34da6a3ce929d0e0e4736-20f067aa0ba902b7-01", http.StatusBadRequest},
		{"not JSON", `{"output": `, "", http.StatusBadRequest},
	}
}

// TestSpansAgreeWithSDK runs the same requests through judge serve's
// handler with spans recorded by judge's own recorder and by the
// official SDK (Config.SDKSpans), both exported by judge's OTLP/HTTP
// exporter to a loopback receiver, and compares the decoded exports span
// by span: names, kinds, parents, attributes, events, links, status,
// flags, trace state, dropped counts, resource and scope (ids and times
// aside), with message content capture off and on.
func TestSpansAgreeWithSDK(t *testing.T) {
	t.Parallel()
	reqs := agreeRequests(t)
	for _, capture := range []bool{false, true} {
		run := func(sdk bool) [][]sharedtest.NormSpan {
			sink := sharedtest.NewOTLPSink(t)
			tel, err := telemetry.New(context.Background(), telemetry.Config{Export: true, Protocol: "http/protobuf", Endpoint: sink.URL,
				CaptureContent: capture, SDKSpans: sdk, Resource: []attribute.KeyValue{attribute.String("deployment.environment", "test"), attribute.String("service.name", "judge-agree")}})
			if err != nil {
				t.Fatal(err)
			}
			h := New(newEngine(t, judge.WithTracerProvider(tel.TracerProvider)), Options{Telemetry: tel}).Handler()
			for _, r := range reqs {
				req := httptest.NewRequest(http.MethodPost, "/validate", strings.NewReader(r.body))
				req.Header.Set("Content-Type", "application/json")
				if r.traceparent != "" {
					req.Header.Set("traceparent", r.traceparent)
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != r.status {
					t.Fatalf("%s: status %d, want %d: %s", r.name, w.Code, r.status, w.Body)
				}
			}
			if err := tel.Shutdown(context.Background()); err != nil {
				t.Fatal(err)
			}
			return sink.Traces(t)
		}
		sdk, own := run(true), run(false)
		// One trace per request but the unsampled one (nothing exported).
		if len(sdk) != len(reqs)-1 {
			t.Fatalf("capture %v: the SDK's export has %d traces, want %d", capture, len(sdk), len(reqs)-1)
		}
		sawEvent, sawError, sawLayer := false, false, false
		sharedtest.SameTraces(t, fmt.Sprintf("capture %v", capture), own, sdk, func(s sharedtest.NormSpan) {
			sp := s.Span
			sawEvent = sawEvent || len(sp.Events) > 0
			sawError = sawError || sp.GetStatus().GetCode() == 2
			sawLayer = sawLayer || strings.HasPrefix(sp.Name, "judge.layer ")
		})
		if !sawEvent || !sawError || !sawLayer {
			t.Errorf("the requests made no event (%v), no error status (%v) or no layer span (%v): the comparison misses them", sawEvent, sawError, sawLayer)
		}
	}
}

// TestSpansAgreeThroughServe sends agreeRequests to a real loopback
// server (Server.Serve, whose connections' contexts telemetry makes:
// ConnContext), in turn on one kept-alive connection, and compares
// judge's spans with the SDK's: each request's SERVER span is a root, or
// the child of its traceparent, as the SDK's is.
func TestSpansAgreeThroughServe(t *testing.T) {
	t.Parallel()
	reqs := agreeRequests(t)
	run := func(sdk bool) [][]sharedtest.NormSpan {
		sink := sharedtest.NewOTLPSink(t)
		tel, err := telemetry.New(context.Background(), telemetry.Config{Export: true, Protocol: "http/protobuf", Endpoint: sink.URL, SDKSpans: sdk,
			Resource: []attribute.KeyValue{attribute.String("service.name", "judge-agree")}})
		if err != nil {
			t.Fatal(err)
		}
		s := New(newEngine(t, judge.WithTracerProvider(tel.TracerProvider)), Options{Telemetry: tel})
		ctx, cancel := context.WithCancel(context.Background())
		url, done := serve(t, ctx, s)
		client := &http.Client{}
		for _, r := range reqs {
			req, err := http.NewRequest(http.MethodPost, url+"/validate", strings.NewReader(r.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			if r.traceparent != "" {
				req.Header.Set("traceparent", r.traceparent)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != r.status {
				t.Fatalf("%s: status %d, want %d", r.name, resp.StatusCode, r.status)
			}
		}
		client.CloseIdleConnections()
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("Serve: %v", err)
		}
		if err := tel.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		return sink.Traces(t)
	}
	sdk, own := run(true), run(false)
	if len(sdk) != len(reqs)-1 { // the unsampled request's trace is not exported
		t.Fatalf("the SDK's export has %d traces, want %d", len(sdk), len(reqs)-1)
	}
	roots := 0
	sharedtest.SameTraces(t, "through Serve", own, sdk, func(s sharedtest.NormSpan) {
		if s.ParentName == "" {
			roots++
		}
	})
	if roots == 0 {
		t.Error("no request's span was a root: the comparison misses them")
	}
}
