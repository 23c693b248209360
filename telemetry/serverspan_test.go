package telemetry

import (
	"context"
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
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// seenSampler samples every span and keeps the attributes it was shown.
type seenSampler struct {
	mu   sync.Mutex
	seen []attribute.KeyValue
}

func (s *seenSampler) ShouldSample(p sdktrace.SamplingParameters) sdktrace.SamplingResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = append(s.seen, p.Attributes...)
	return sdktrace.SamplingResult{Decision: sdktrace.RecordAndSample}
}
func (*seenSampler) Description() string { return "seen" }

// The SERVER span has the same attributes whether they are given at its
// start (a caller's provider: its sampler is shown them) or at its end
// (judge's own provider, whose samplers read none), the status's
// included; a 5xx answer is an error.
func TestServerSpanAttributes(t *testing.T) {
	t.Parallel()
	want := []attribute.KeyValue{
		attribute.String("error.type", "503"),
		attribute.String("http.request.method", "POST"),
		attribute.Int("http.response.status_code", 503),
		attribute.String("http.route", "/validate"),
		attribute.String("network.protocol.version", "1.1"),
		attribute.String("url.path", "/validate"),
		attribute.String("url.scheme", "http"),
	}
	for _, own := range []bool{false, true} {
		rec := tracetest.NewSpanRecorder()
		smp := &seenSampler{}
		tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(smp), sdktrace.WithSpanProcessor(rec))
		tel := ForProvider(tp, false)
		if own {
			tel = withTracer(&Telemetry{TracerProvider: tp, Propagator: Propagator(), shutdown: tp.Shutdown})
		}
		h := tel.Handler(func(p string) string { return p }, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusServiceUnavailable)
		}))
		for range 3 { // the pooled slices are reused: each span has its own attributes only
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/validate", nil))
		}
		spans := rec.Ended()
		if len(spans) != 3 {
			t.Fatalf("own %v: %d spans, want 3", own, len(spans))
		}
		for _, s := range spans {
			got := slices.Clone(s.Attributes())
			slices.SortFunc(got, func(a, b attribute.KeyValue) int { return strings.Compare(string(a.Key), string(b.Key)) })
			if !slices.Equal(got, want) {
				t.Errorf("own %v: attributes %v, want %v", own, got, want)
			}
			if s.Name() != "POST /validate" || s.Status().Code != codes.Error {
				t.Errorf("own %v: %q, status %v", own, s.Name(), s.Status())
			}
		}
		if shown := len(smp.seen) > 0; shown == own {
			t.Errorf("own %v: the sampler was shown %v", own, smp.seen)
		}
	}
}

// The request's attributes wait for the span's end only under a sampler
// OTEL_TRACES_SAMPLER names (or the default one), never under a caller's.
func TestAttrsAtStart(t *testing.T) {
	t.Parallel()
	c, err := ReadConfig(func(k string) string {
		return map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a", "OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.5"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []struct {
		name string
		c    Config
		want bool
	}{
		{"default sampler", Config{}, false},
		{"OTEL_TRACES_SAMPLER", c, false},
		{"a caller's sampler", Config{Sampler: &seenSampler{}}, true},
	} {
		tel := WithExporter(k.c, &recordExporter{})
		if tel.attrsAtStart != k.want {
			t.Errorf("%s: attributes at start %v, want %v", k.name, tel.attrsAtStart, k.want)
		}
		if err := tel.Shutdown(t.Context()); err != nil {
			t.Error(err)
		}
	}
}

// StartRequest and EndRequest start and end the SERVER span at the times
// the middleware gives them, with judge's own recorder (the kind and the
// time given without options) and with the SDK's spans (as options), as
// the exporter sends them.
func TestRequestSpanTimes(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 27, 16, 0, 0, 123456789, time.UTC)
	end := start.Add(1234567 * time.Nanosecond)
	for _, sdk := range []bool{false, true} {
		rc := newReceiver(t)
		tel, err := New(context.Background(), Config{Export: true, Protocol: "http/protobuf", Endpoint: rc.srv.URL + "/v1/traces", SDKSpans: sdk})
		if err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest(http.MethodPost, "/validate", nil)
		ctx := tel.StartRequest(r.Context(), r, "/validate", start)
		tel.EndRequest(ctx, r, "/validate", http.StatusOK, end)
		if err := tel.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		rc.mu.Lock()
		bodies := rc.bodies
		rc.mu.Unlock()
		if len(bodies) != 1 {
			t.Fatalf("sdk %v: %d requests, want 1", sdk, len(bodies))
		}
		var req coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(bodies[0], &req); err != nil {
			t.Fatal(err)
		}
		if n := len(req.GetResourceSpans()); n != 1 || len(req.GetResourceSpans()[0].GetScopeSpans()) != 1 || len(req.GetResourceSpans()[0].GetScopeSpans()[0].GetSpans()) != 1 {
			t.Fatalf("sdk %v: %v, want one span", sdk, &req)
		}
		s := req.GetResourceSpans()[0].GetScopeSpans()[0].GetSpans()[0]
		if s.GetName() != "POST /validate" || s.GetKind() != tracepb.Span_SPAN_KIND_SERVER {
			t.Errorf("sdk %v: span %q of kind %v", sdk, s.GetName(), s.GetKind())
		}
		if got, want := s.GetStartTimeUnixNano(), uint64(start.UnixNano()); got != want {
			t.Errorf("sdk %v: start %d, want %d", sdk, got, want)
		}
		if got, want := s.GetEndTimeUnixNano(), uint64(end.UnixNano()); got != want {
			t.Errorf("sdk %v: end %d, want %d", sdk, got, want)
		}
	}
}

// ConnContext makes a connection's context answer the trace API's
// question for a span at once only where none is above it: a span in
// the context (a remote parent, one of judge's) stays the parent of the
// request's SERVER span; without one the request's span is a root, and
// every other value, the deadline and the cancellation are the
// context's. Without export, or with the SDK's spans, the context is
// returned as it is.
func TestConnContext(t *testing.T) {
	t.Parallel()
	type key struct{}
	remote := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{7}, SpanID: trace.SpanID{8}, TraceFlags: trace.FlagsSampled, Remote: true})
	base, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
	for _, c := range []struct {
		name   string
		ctx    context.Context
		parent trace.SpanContext
	}{
		{"no span", base, trace.SpanContext{}},
		{"a remote parent", trace.ContextWithRemoteSpanContext(base, remote), remote},
	} {
		tel, err := New(context.Background(), Config{Export: true, Protocol: "http/protobuf", Endpoint: "http://127.0.0.1:1/v1/traces"})
		if err != nil {
			t.Fatal(err)
		}
		conn := tel.ConnContext(c.ctx)
		if c.parent.IsValid() != (conn == c.ctx) {
			t.Errorf("%s: ConnContext returned %T", c.name, conn)
		}
		if conn.Value(key{}) != "v" {
			t.Errorf("%s: the context's value is lost", c.name)
		}
		// A request's context, as http.Server makes it, and its span.
		reqCtx, done := context.WithCancel(conn)
		r := httptest.NewRequest(http.MethodPost, "/validate", nil)
		ctx := tel.StartRequest(reqCtx, r, "/validate", time.Now())
		sp := trace.SpanFromContext(ctx).(*span)
		sp.mu.Lock()
		parent := sp.rec.parent
		sp.mu.Unlock()
		if !parent.Equal(c.parent) {
			t.Errorf("%s: the SERVER span's parent is %v, want %v", c.name, parent, c.parent)
		}
		if c.parent.IsValid() && sp.SpanContext().TraceID() != c.parent.TraceID() {
			t.Errorf("%s: the SERVER span is not in its parent's trace", c.name)
		}
		_, child := tel.Tracer().Start(ctx, "judge.validate")
		if ch := child.(*span); ch.rec.parent.SpanID() != sp.SpanContext().SpanID() {
			t.Errorf("%s: the span under the SERVER span has parent %v", c.name, ch.rec.parent)
		}
		child.End()
		tel.EndRequest(ctx, r, "/validate", http.StatusOK, time.Now())
		done()
		if err := tel.Shutdown(context.Background()); err != nil && !strings.Contains(err.Error(), "127.0.0.1:1") {
			t.Error(err)
		}
	}
	// The cancellation reaches a request's context made under it.
	conn := withTracer(&Telemetry{}).ConnContext(base)
	if conn != base {
		t.Errorf("a Telemetry exporting nothing changed the context")
	}
	sdk, err := New(context.Background(), Config{Export: true, Protocol: "http/protobuf", Endpoint: "http://127.0.0.1:1/v1/traces", SDKSpans: true})
	if err != nil {
		t.Fatal(err)
	}
	if sdk.ConnContext(base) != base {
		t.Errorf("the SDK's spans: the context was changed")
	}
	_ = sdk.Shutdown(context.Background())
	tel, err := New(context.Background(), Config{Export: true, Protocol: "http/protobuf", Endpoint: "http://127.0.0.1:1/v1/traces"})
	if err != nil {
		t.Fatal(err)
	}
	reqCtx, done := context.WithCancel(tel.ConnContext(base))
	defer done()
	cancel()
	<-reqCtx.Done() // a request's context ends with the connection's
	_ = tel.Shutdown(context.Background())
}
