package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/telemetry"
)

// noMetrics counts nothing.
type noMetrics struct{}

func (noMetrics) Begin()                                 {}
func (noMetrics) End(string, string, int, time.Duration) {}

// ObserveSpans gives each request, over a real loopback server, its
// SERVER span (name, parent from traceparent, attributes, status) in the
// handler's context, and the access-log line carries that span's ids,
// logged while the span records; Observe alone starts none.
func TestObserveSpans(t *testing.T) {
	t.Parallel()
	rec := tracetest.NewSpanRecorder()
	tel := telemetry.ForProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)), false)
	var logs sharedtest.SyncBuffer
	log := slog.New(telemetry.LogHandler(slog.NewJSONHandler(&logs, nil)))
	if _, ok := log.Handler().(ContextAttrsHandler); !ok {
		t.Fatal("telemetry.LogHandler is not a ContextAttrsHandler: the access-log line would be cloned to add its ids")
	}
	var inHandler sync.Map // path → the span the handler saw
	h := ObserveSpans(log, func(path string) string { return "/r" + path[len("/x"):] }, noMetrics{}, tel,
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			inHandler.Store(r.URL.Path, trace.SpanContextFromContext(r.Context()))
			if RequestIDFrom(r.Context()) == "" {
				t.Error("no request id in the handler's context")
			}
			if r.URL.Path == "/x/fail" {
				w.WriteHeader(http.StatusBadGateway)
			}
		}))
	srv := httptest.NewServer(h)
	defer srv.Close()
	const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	for _, c := range []struct {
		path, traceparent string
		status            int
	}{{"/x/ok", "", http.StatusOK}, {"/x/fail", parent, http.StatusBadGateway}} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+c.path, nil)
		if c.traceparent != "" {
			req.Header.Set("traceparent", c.traceparent)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Fatalf("%s: status %d", c.path, resp.StatusCode)
		}
	}
	lines := bytes.Split(bytes.TrimSpace([]byte(logs.String())), []byte("\n"))
	spans := rec.Ended()
	if len(lines) != 2 || len(spans) != 2 {
		t.Fatalf("%d log lines and %d spans, want 2 of each", len(lines), len(spans))
	}
	for i, s := range spans {
		var line struct{ Path, TraceID, SpanID string }
		var raw map[string]any
		if err := json.Unmarshal(lines[i], &raw); err != nil {
			t.Fatal(err)
		}
		line.Path, _ = raw["path"].(string)
		line.TraceID, _ = raw["trace_id"].(string)
		line.SpanID, _ = raw["span_id"].(string)
		if d, _ := raw["duration"].(float64); s.EndTime().Sub(s.StartTime()) != time.Duration(d) {
			t.Errorf("%s: the span lasts %v, the line's duration is %v", line.Path, s.EndTime().Sub(s.StartTime()), time.Duration(d))
		}
		sc := s.SpanContext()
		if line.TraceID != sc.TraceID().String() || line.SpanID != sc.SpanID().String() {
			t.Errorf("log line %s has ids %s/%s, the span %s/%s", lines[i], line.TraceID, line.SpanID, sc.TraceID(), sc.SpanID())
		}
		seen, _ := inHandler.Load(line.Path)
		if got, _ := seen.(trace.SpanContext); !got.Equal(sc) {
			t.Errorf("%s: the handler's span %v, the ended span %v", line.Path, got, sc)
		}
		if want := "GET /r" + line.Path[len("/x"):]; s.Name() != want {
			t.Errorf("span name %q, want %q", s.Name(), want)
		}
		if s.SpanKind() != trace.SpanKindServer {
			t.Errorf("%s: kind %v", s.Name(), s.SpanKind())
		}
		attrs := attribute.NewSet(s.Attributes()...)
		switch line.Path {
		case "/x/ok":
			if s.Parent().IsValid() {
				t.Errorf("%s: a parent without traceparent", s.Name())
			}
			if v, _ := attrs.Value("http.response.status_code"); v.AsInt64() != 200 || s.Status().Code != codes.Unset {
				t.Errorf("%s: status %v, %v", s.Name(), v.AsInt64(), s.Status())
			}
		case "/x/fail":
			if got := s.Parent().TraceID().String(); got != "4bf92f3577b34da6a3ce929d0e0e4736" || !s.Parent().IsRemote() {
				t.Errorf("%s: parent %v, want the traceparent's", s.Name(), s.Parent())
			}
			if v, _ := attrs.Value("http.response.status_code"); v.AsInt64() != 502 || s.Status().Code != codes.Error {
				t.Errorf("%s: status %v, %v", s.Name(), v.AsInt64(), s.Status())
			}
		default:
			t.Errorf("unexpected path %q", line.Path)
		}
		if v, _ := attrs.Value("http.route"); v.AsString() != "/r"+line.Path[len("/x"):] {
			t.Errorf("%s: http.route %q", s.Name(), v.AsString())
		}
	}
}

// TestObserveSpansLogLine: the access-log line has the same attributes,
// in the same order, through a handler that adds the span's ids
// (telemetry.LogHandler, a ContextAttrsHandler: the ids added with the
// line's attributes) and through one that does not (no ids).
func TestObserveSpansLogLine(t *testing.T) {
	t.Parallel()
	tel := telemetry.ForProvider(sdktrace.NewTracerProvider(), false)
	for _, c := range []struct {
		name string
		wrap func(slog.Handler) slog.Handler
		ids  bool
	}{
		{"LogHandler", telemetry.LogHandler, true},
		{"plain", func(h slog.Handler) slog.Handler { return h }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var logs sharedtest.SyncBuffer
			h := ObserveSpans(slog.New(c.wrap(slog.NewJSONHandler(&logs, nil))), func(string) string { return "/r" }, noMetrics{}, tel,
				http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("hello")) }))
			srv := httptest.NewServer(h)
			defer srv.Close()
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/p", nil)
			req.Header.Set(HeaderRequestID, "req-1")
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			line := strings.TrimSpace(logs.String())
			keys := []string{"time", "level", "msg", "method", "route", "path", "status", "duration", "bytes", "request_id", "remote"}
			if c.ids {
				keys = append(keys, "trace_id", "span_id")
			}
			dec := json.NewDecoder(strings.NewReader(line))
			var got []string
			if _, err := dec.Token(); err != nil { // {
				t.Fatal(err)
			}
			for dec.More() {
				k, _ := dec.Token()
				got = append(got, k.(string))
				var v any
				if err := dec.Decode(&v); err != nil {
					t.Fatal(err)
				}
			}
			if !slices.Equal(got, keys) {
				t.Errorf("keys %v, want %v, in %s", got, keys, line)
			}
			for _, want := range []string{`"method":"POST"`, `"route":"/r"`, `"path":"/p"`, `"status":200`, `"bytes":5`, `"request_id":"req-1"`} {
				if !strings.Contains(line, want) {
					t.Errorf("no %s in %s", want, line)
				}
			}
		})
	}
}

// TestRequestID: a usable client id is kept, any other replaced by 26
// base32 letters in lower case (as strings.ToLower(rand.Text()) made
// them), new each time; the handler's context carries the id and, past
// it, the parent's values and cancellation; the answer's header has it.
func TestRequestID(t *testing.T) {
	t.Parallel()
	generated := func(id string) bool {
		return len(id) == 26 && strings.Trim(id, "abcdefghijklmnopqrstuvwxyz234567") == ""
	}
	type parentKey struct{}
	for _, c := range []struct {
		name, client string
		keep         bool
	}{
		{"none", "", false},
		{"usable", "req-42", true},
		{"space", "req 42", false},
		{"non-ascii", "réq", false},
		{"too long", strings.Repeat("a", MaxRequestIDLen+1), false},
		{"longest", strings.Repeat("a", MaxRequestIDLen), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var inHandler, parentValue string
			var cancelled bool
			h := Observe(slog.New(slog.DiscardHandler), func(string) string { return "/r" }, noMetrics{},
				http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					inHandler = RequestIDFrom(r.Context())
					parentValue, _ = r.Context().Value(parentKey{}).(string)
					<-r.Context().Done()
					cancelled = r.Context().Err() != nil
				}))
			ctx, cancel := context.WithCancel(context.WithValue(context.Background(), parentKey{}, "parent"))
			cancel()
			req := httptest.NewRequestWithContext(ctx, http.MethodGet, "/x", nil)
			if c.client != "" {
				req.Header.Set(HeaderRequestID, c.client)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			got := rec.Header().Get(HeaderRequestID)
			if got != inHandler || parentValue != "parent" || !cancelled {
				t.Fatalf("header %q, handler's id %q, parent's value %q, cancelled %v", got, inHandler, parentValue, cancelled)
			}
			if c.keep && got != c.client || !c.keep && !generated(got) {
				t.Fatalf("client id %q gave %q", c.client, got)
			}
			if again := RequestID(c.client); !c.keep && again == got {
				t.Fatalf("the same id %q twice", got)
			}
		})
	}
}
