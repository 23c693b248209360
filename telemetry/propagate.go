package telemetry

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

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
	s := &serverSpan{}
	return t.startServer(r, route, s), s.end
}

// serverSpan is an HTTP request's SERVER span and what ending it needs.
type serverSpan struct {
	t     *Telemetry
	span  trace.Span
	r     *http.Request // as it came: method, path, protocol
	route string
}

// startServer starts s, the SERVER span of r, and returns r with it in
// its context.
func (t *Telemetry) startServer(r *http.Request, route string, s *serverSpan) *http.Request {
	*s = serverSpan{t: t, r: r, route: route}
	var ctx context.Context
	ctx, s.span = t.startSpan(r.Context(), r, route, time.Time{})
	return r.WithContext(ctx)
}

// StartRequest returns ctx with the SERVER span of r started in it at
// start, as [Telemetry.StartHTTPServer] starts it, for a middleware that
// keeps the request's route, status and times itself and gives r the
// context once (internal/httpapi's ObserveSpans); [Telemetry.EndRequest]
// ends it. With t nil or exporting nothing, it returns ctx as it is.
func (t *Telemetry) StartRequest(ctx context.Context, r *http.Request, route string, start time.Time) context.Context {
	if !t.Enabled() {
		return ctx
	}
	ctx, _ = t.startSpan(ctx, r, route, start)
	return ctx
}

// ConnContext returns the context of a connection's requests made from
// ctx (for http.Server's ConnContext): when ctx holds no span, one that
// answers the trace API's question for a span at once, without asking
// the contexts above it (the server's, the listener's, the process's:
// each request's SERVER span looks its parent up through all of them,
// and they are seldom in the cache), else ctx itself. Contexts do not
// change, so the answer stays true. Every other value, the deadline and
// the cancellation are ctx's. With t nil or exporting nothing, or judge's
// own recorder not in use, it returns ctx.
func (t *Telemetry) ConnContext(ctx context.Context) context.Context {
	if !t.Enabled() {
		return ctx
	}
	p, ok := t.TracerProvider.(*provider)
	if !ok || p.spanKey == nil || ctx.Value(p.spanKey) != nil {
		return ctx
	}
	return &spanless{Context: ctx, key: p.spanKey}
}

// spanless is a context whose parent holds no span (see ConnContext).
type spanless struct {
	context.Context
	key any // the trace API's key (provider.spanKey)
}

// Value is nil for the trace API's key, else the parent's value.
func (c *spanless) Value(key any) any {
	if key == c.key {
		return nil
	}
	return c.Context.Value(key)
}

// EndRequest ends the SERVER span that ctx holds (StartRequest's) at end
// with the response's status; r and route are those the span started
// with.
func (t *Telemetry) EndRequest(ctx context.Context, r *http.Request, route string, status int, end time.Time) {
	if !t.Enabled() {
		return
	}
	t.endSpan(trace.SpanFromContext(ctx), r, route, status, end)
}

// startSpan starts the SERVER span of r in ctx, under the context its
// traceparent header gives, at start (zero: now). The request's
// attributes are given at the start only when a sampler or a span
// processor could read them there (a caller's provider, [ForProvider],
// or a caller's Config.Sampler); judge's own provider has neither (the
// samplers OTEL_TRACES_SAMPLER names read no attribute, and judge's
// batch processor none at the start), so they are given at the end with
// the status, all at once: the SDK then copies them once, into a slice
// of their exact size, where giving them at the start costs the option,
// the SDK's copy into its start configuration, the span's slice and that
// slice grown again at the end. judge's own tracer is given the kind and
// the time without options (no option values made, no clock read).
func (t *Telemetry) startSpan(ctx context.Context, r *http.Request, route string, start time.Time) (context.Context, trace.Span) {
	if hasContextHeader(r.Header) {
		ctx = t.Propagator.Extract(ctx, propagation.HeaderCarrier(r.Header))
	}
	name := t.names.name(r.Method, route)
	if !t.attrsAtStart {
		if own, ok := t.tracer.(*tracer); ok && !start.IsZero() {
			return own.startAt(ctx, name, trace.SpanKindServer, start)
		}
		if start.IsZero() {
			return t.Tracer().Start(ctx, name, t.serverKind...)
		}
		return t.Tracer().Start(ctx, name, t.serverKind[0], trace.WithTimestamp(start))
	}
	kv := t.attrs.get()
	*kv = requestAttrs(*kv, r, route)
	opts := []trace.SpanStartOption{t.serverKind[0], trace.WithAttributes(*kv...)}
	if !start.IsZero() {
		opts = append(opts, trace.WithTimestamp(start))
	}
	ctx, span := t.Tracer().Start(ctx, name, opts...)
	t.attrs.put(kv)
	return ctx, span
}

// requestAttrs appends the attributes of r, its route route, to kv.
func requestAttrs(kv []attribute.KeyValue, r *http.Request, route string) []attribute.KeyValue {
	return append(kv,
		attribute.String("http.request.method", r.Method),
		attribute.String("http.route", route),
		attribute.String("url.path", r.URL.Path),
		attribute.String("url.scheme", "http"),
		attribute.String("network.protocol.version", protoVersion(r)),
	)
}

// end ends the span with the response's status.
func (s *serverSpan) end(status int) { s.t.endSpan(s.span, s.r, s.route, status, time.Time{}) }

// endSpan ends sp, the SERVER span of r, at end (zero: now) with the
// response's status.
func (t *Telemetry) endSpan(sp trace.Span, r *http.Request, route string, status int, end time.Time) {
	if own, ok := sp.(*span); ok && !end.IsZero() && !t.attrsAtStart && status < 500 && r.URL.Path == route {
		if own.endWith(t.blocks.get(r, route, status), end) {
			return
		}
	}
	kv := t.attrs.get()
	if !t.attrsAtStart {
		*kv = requestAttrs(*kv, r, route)
	}
	*kv = append(*kv, attribute.Int("http.response.status_code", status))
	if status >= 500 {
		sp.SetStatus(codes.Error, http.StatusText(status))
		*kv = append(*kv, attribute.String("error.type", itoa(status)))
	}
	sp.SetAttributes(*kv...)
	t.attrs.put(kv)
	switch own, ok := sp.(*span); {
	case ok && !end.IsZero():
		own.endAt(end)
	case end.IsZero() || !sp.IsRecording(): // a span not recorded: no option made for it
		sp.End()
	default:
		sp.End(trace.WithTimestamp(end))
	}
}

// requestBlock is a SERVER span's request attributes and status code
// (requestAttrs and http.response.status_code, in that order), encoded
// as the Span's KeyValue messages, once for every request of the same
// method, route, protocol and status whose path is its route (judge's
// routes are exact paths): the attributes are the same every time, and
// building them, setting them and encoding them cost a request about as
// much as the rest of its span (see span.endWith).
type requestBlock struct {
	method, route, proto string
	status               int
	n                    int    // attributes
	enc                  []byte // never changed once made
}

// requestBlocks keeps the last request blocks made, at most
// maxRequestBlocks, replaced in turn (read without a lock).
type requestBlocks struct {
	slots [maxRequestBlocks]atomic.Pointer[requestBlock]
	next  atomic.Uint32
}

// maxRequestBlocks bounds the request blocks kept: a server answers on
// a few routes with a few statuses; methods and protocols come from
// clients.
const maxRequestBlocks = 8

// get returns the block of r, answered with status on route.
func (c *requestBlocks) get(r *http.Request, route string, status int) *requestBlock {
	proto := protoVersion(r)
	for i := range c.slots {
		if b := c.slots[i].Load(); b != nil && b.status == status && b.route == route && b.method == r.Method && b.proto == proto {
			return b
		}
	}
	var e otlpEncoder
	kv := append(requestAttrs(make([]attribute.KeyValue, 0, 6), r, route), attribute.Int("http.response.status_code", status))
	for _, a := range kv {
		e.keyValue(fSpanAttributes, a)
	}
	b := &requestBlock{method: r.Method, route: route, proto: proto, status: status, n: len(kv), enc: e.b}
	c.slots[c.next.Add(1)%maxRequestBlocks].Store(b)
	return b
}

// maxSpanNames bounds the span names kept: the routes are bounded (a
// route label), the methods a client sends are not.
const maxSpanNames = 256

// spanNames keeps the SERVER spans' names, "{method} {route}", made once
// per pair rather than once per request. The pair named last is looked
// at first, by comparing its two strings: a server answers most of its
// requests on one route, and the map's lookup (hashing a struct through
// an interface, comparing it through another) cost a request more than
// the span's name is worth.
type spanNames struct {
	m    sync.Map // methodRoute → *spanName
	n    atomic.Int64
	last atomic.Pointer[spanName] // the pair named last (one of m's values)
}

type methodRoute struct{ method, route string }

// spanName is a pair and its span name, made once.
type spanName struct {
	methodRoute
	name string
}

// name is "{method} {route}".
func (s *spanNames) name(method, route string) string {
	if l := s.last.Load(); l != nil && l.route == route && l.method == method {
		return l.name
	}
	k := methodRoute{method, route}
	if v, ok := s.m.Load(k); ok {
		n := v.(*spanName)
		s.last.Store(n)
		return n.name
	}
	n := &spanName{methodRoute: k, name: method + " " + route}
	if s.n.Add(1) <= maxSpanNames {
		s.m.Store(k, n)
		s.last.Store(n)
	}
	return n.name
}

// attrPool holds attribute slices for one span call each: the SDK copies
// the attributes it is given, so the slice is free again once the call
// returns.
type attrPool struct{ p sync.Pool }

func (a *attrPool) get() *[]attribute.KeyValue {
	if kv, ok := a.p.Get().(*[]attribute.KeyValue); ok {
		return kv
	}
	kv := make([]attribute.KeyValue, 0, 8)
	return &kv
}

func (a *attrPool) put(kv *[]attribute.KeyValue) {
	clear(*kv) // drop the strings the attributes held
	*kv = (*kv)[:0]
	a.p.Put(kv)
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
func LogHandler(h slog.Handler) slog.Handler { return &logHandler{h} }

// logHandler is LogHandler's handler, a pointer (ContextAttrs returns
// it as a slog.Handler: a value would be copied to the heap each time).
type logHandler struct{ slog.Handler }

// idsHandler is a handler that writes a record's trace_id and span_id
// itself, from their digits, where it can (internal/accesslog's, the
// access-log line): HandleIDs(ctx, r, ids) handles r as Handle handles
// it with the attributes trace_id ids[:32] and span_id ids[32:] added
// last, and reports true; or does nothing and reports false. ids are
// the trace id's and the span id's lowercase hex digits (putHexIDs).
type idsHandler interface {
	HandleIDs(ctx context.Context, r slog.Record, ids [48]byte) (bool, error)
}

func (l *logHandler) Handle(ctx context.Context, r slog.Record) error {
	sp := trace.SpanFromContext(ctx)
	sc := sp.SpanContext()
	if !sc.IsValid() {
		return l.Handler.Handle(ctx, r)
	}
	if w, ok := l.Handler.(idsHandler); ok {
		// The digits handed over as they are: no attributes, no copy of
		// the record, and nothing for the writer to check.
		var ids [48]byte
		putHexIDs(&ids, sc.TraceID(), sc.SpanID())
		if done, err := w.HandleIDs(ctx, r, ids); done {
			return err
		}
	}
	tid, sid := spanIDAttrs(sp)
	r = r.Clone()
	r.AddAttrs(tid, sid)
	return l.Handler.Handle(ctx, r)
}

// ContextAttrs returns the attributes Handle adds to a record logged
// with ctx, trace_id and span_id when ctx holds a valid span (none
// otherwise), and the handler it wraps, for a caller that makes its
// record with them (internal/httpapi's ContextAttrsHandler, the
// access-log line): Handle must clone the record it is given and grow
// its attributes to add them. When the handler it wraps writes the ids
// itself (an idsHandler), it returns none and l: Handle then adds them
// without a copy.
func (l *logHandler) ContextAttrs(ctx context.Context) (attrs [2]slog.Attr, n int, next slog.Handler) {
	if _, ok := l.Handler.(idsHandler); ok {
		return attrs, 0, l
	}
	if sp := trace.SpanFromContext(ctx); sp.SpanContext().IsValid() {
		attrs[0], attrs[1] = spanIDAttrs(sp)
		n = 2
	}
	return attrs, n, l.Handler
}

// spanIDAttrs are the trace_id and span_id attributes of sp's context.
func spanIDAttrs(sp trace.Span) (slog.Attr, slog.Attr) {
	if s, ok := sp.(*span); ok {
		return s.logIDs() // a SERVER span's made once, in its handle
	}
	return hexIDAttrs(sp.SpanContext())
}

// hexIDAttrs are the trace_id and span_id attributes of sc.
func hexIDAttrs(sc trace.SpanContext) (slog.Attr, slog.Attr) {
	// Both ids in one string, cut in two: one allocation, not two.
	var b [48]byte
	putHexIDs(&b, sc.TraceID(), sc.SpanID())
	ids := string(b[:])
	return slog.String("trace_id", ids[:32]), slog.String("span_id", ids[32:])
}

func (l *logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &logHandler{l.Handler.WithAttrs(attrs)}
}

func (l *logHandler) WithGroup(name string) slog.Handler {
	return &logHandler{l.Handler.WithGroup(name)}
}

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
		s := &spanWriter{statusWriter: statusWriter{ResponseWriter: w}}
		r = t.startServer(r, route(r.URL.Path), &s.span)
		defer s.end()
		next.ServeHTTP(&s.statusWriter, r)
	})
}

// spanWriter is a request's status writer and SERVER span, made at once.
type spanWriter struct {
	statusWriter
	span serverSpan
}

func (s *spanWriter) end() { s.span.end(s.code()) }

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
