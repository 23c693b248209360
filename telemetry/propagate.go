package telemetry

import (
	"context"
	"log/slog"
	"net/http"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// MetaKeys are the keys of an MCP request's params._meta that carry the
// caller's context (SEP-414, and the OpenTelemetry MCP conventions'
// "Context propagation"): W3C traceparent, tracestate and baggage.
var MetaKeys = [...]string{"traceparent", "tracestate", "baggage"}

// metaCarrier reads and writes context in an MCP _meta map.
type metaCarrier map[string]any

func (c metaCarrier) Get(key string) string {
	s, _ := c[key].(string)
	return s
}

func (c metaCarrier) Set(key, value string) { c[key] = value }

func (c metaCarrier) Keys() []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	return keys
}

// ExtractMeta returns ctx with the remote span context and baggage of an
// MCP request's _meta, and whether _meta held a valid traceparent. ctx's
// own span (the transport's, an HTTP request's) is replaced as the parent;
// [Telemetry.StartMCPServer] links it.
func (t *Telemetry) ExtractMeta(ctx context.Context, meta map[string]any) (context.Context, bool) {
	if t == nil || len(meta) == 0 {
		return ctx, false
	}
	if _, ok := meta["traceparent"].(string); !ok {
		return ctx, false
	}
	out := t.Propagator.Extract(ctx, metaCarrier(meta))
	sc := trace.SpanContextFromContext(out)
	return out, sc.IsValid() && sc.IsRemote()
}

// InjectMeta returns the _meta members that carry ctx's span context and
// baggage to an upstream MCP server (traceparent, tracestate, baggage), or
// nil when ctx has no valid span.
func (t *Telemetry) InjectMeta(ctx context.Context) map[string]string {
	if t == nil || !trace.SpanContextFromContext(ctx).IsValid() {
		return nil
	}
	c := propagation.MapCarrier{}
	t.Propagator.Inject(ctx, c)
	if len(c) == 0 {
		return nil
	}
	return c
}

// StartHTTPServer starts the SERVER span of an HTTP request under the
// context its traceparent header gives (W3C Trace Context), named
// "{method} {route}" with the HTTP conventions' attributes, and returns
// the request with the span in its context and the function that ends
// the span with the response's status. With t nil or exporting nothing,
// it returns r as it is and a function that does nothing.
func (t *Telemetry) StartHTTPServer(r *http.Request, route string) (*http.Request, func(status int)) {
	if !t.Enabled() {
		return r, func(int) {}
	}
	ctx := r.Context()
	if hasContextHeader(r.Header) {
		ctx = t.Propagator.Extract(ctx, propagation.HeaderCarrier(r.Header))
	}
	ctx, span := t.Tracer().Start(ctx, r.Method+" "+route, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(
		attribute.String("http.request.method", r.Method),
		attribute.String("http.route", route),
		attribute.String("url.path", r.URL.Path),
		attribute.String("url.scheme", "http"),
		attribute.String("network.protocol.version", protoVersion(r)),
	))
	return r.WithContext(ctx), func(status int) {
		span.SetAttributes(attribute.Int("http.response.status_code", status))
		if status >= 500 {
			span.SetStatus(codes.Error, http.StatusText(status))
			span.SetAttributes(attribute.String("error.type", itoa(status)))
		}
		span.End()
	}
}

// hasContextHeader reports whether h carries a caller's context
// (traceparent or baggage; tracestate means nothing without a
// traceparent), so that a request without one skips the propagator.
func hasContextHeader(h http.Header) bool {
	return len(h["Traceparent"]) > 0 || len(h["Baggage"]) > 0
}

func protoVersion(r *http.Request) string {
	switch {
	case r.ProtoMajor == 2:
		return "2"
	case r.ProtoMajor == 1 && r.ProtoMinor == 0:
		return "1.0"
	}
	return "1.1"
}

func itoa(n int) string {
	if n < 0 || n > 999 {
		return "_OTHER"
	}
	return string([]byte{byte('0' + n/100), byte('0' + n/10%10), byte('0' + n%10)})
}

// LogHandler wraps h so that every record logged with a context holding a
// valid span carries trace_id and span_id, for finding a log line's trace
// (and a trace's log lines).
func LogHandler(h slog.Handler) slog.Handler { return logHandler{h} }

type logHandler struct{ slog.Handler }

func (l logHandler) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r = r.Clone()
		r.AddAttrs(slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
	}
	return l.Handler.Handle(ctx, r)
}

func (l logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return logHandler{l.Handler.WithAttrs(attrs)}
}

func (l logHandler) WithGroup(name string) slog.Handler { return logHandler{l.Handler.WithGroup(name)} }

// Handler wraps next so that each request gets its SERVER span (see
// [Telemetry.StartHTTPServer]) for the whole of its handling, the
// middleware inside next included, so that their log lines carry its ids.
// route labels a request by its path, bounded to the routes served. With
// t nil or exporting nothing, next is returned as it is.
func (t *Telemetry) Handler(route func(path string) string, next http.Handler) http.Handler {
	if !t.Enabled() {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, end := t.StartHTTPServer(r, route(r.URL.Path))
		sw := &statusWriter{ResponseWriter: w}
		defer func() { end(sw.code()) }()
		next.ServeHTTP(sw, r)
	})
}

// statusWriter records a response's status.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 && code >= 200 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Flush passes flushes on, for streamed (SSE) answers.
func (s *statusWriter) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *statusWriter) code() int {
	if s.status == 0 {
		return http.StatusOK
	}
	return s.status
}
