package telemetry

import (
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/embedded"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/agentjudge/judge/internal/otelattr"
)

// provider is judge's own implementation of OpenTelemetry's trace API
// (trace.TracerProvider, Tracer, Span), used when judge exports with its
// own OTLP/HTTP exporter and one of the samplers OTEL_TRACES_SAMPLER
// names (decision 90). It records what the official SDK records, under
// the same sampler and the same span limits (the SDK's own
// [sdktrace.NewSpanLimits], the OTEL_SPAN_*, OTEL_EVENT_* and OTEL_LINK_*
// variables), and at End hands the span's record to the batch that the
// exporter encodes with the same encoder as the SDK's spans, at a
// fraction of the cost: a span is one small handle and a pooled record
// (its attributes, events and links in slices kept from span to span),
// ids come from math/rand/v2 as the SDK's do, attributes are
// de-duplicated as they are set (the SDK appends and de-duplicates with
// a map at End), and no snapshot is taken at End (the record is the
// snapshot: the handle lets go of it).
//
// What is rare is left to the SDK itself, so that the result is the
// SDK's: an attribute whose value is a generic slice or a map (nested
// values, de-duplicated and depth-limited), any string attribute when a
// value length limit is set, events and links with such values, and the
// instrumentation scope of a tracer are normalised by a span of an SDK
// provider of the same limits that nothing is exported from (norm).
type provider struct {
	embedded.TracerProvider

	res     *resource.Resource
	sampler sdktrace.Sampler
	// parentOn: sampler is ParentBased(AlwaysSample()) with its default
	// options, decided in Start as it decides (see sample).
	parentOn bool
	limits   sdktrace.SpanLimits
	// normStrings: a value length limit applies, so that string values
	// are normalised by the SDK (see normAttr).
	normStrings bool
	queue       *batchQueue[encSpan]

	// free holds emptied records for the next spans, at most maxFree,
	// the last released first (its memory the most likely in cache): a
	// list of its own rather than a sync.Pool, which the garbage
	// collector empties every other cycle.
	freeMu sync.Mutex
	free   []*spanRec

	norm       *sdktrace.TracerProvider // the SDK's normalisation of rare values
	normTracer trace.Tracer

	mu      sync.Mutex
	tracers map[tracerKey]*tracer
	shut    atomic.Bool

	// spanKey is the key the trace API keeps a context's span under
	// (unexported there), learned by asking (see spanKeyOf); nil when
	// asking did not work, and then spans are put in contexts by
	// trace.ContextWithSpan.
	spanKey any
}

// tracerKey is a Tracer call's scope as given (the SDK keys its tracers
// by the scope it makes of them, which is a function of this).
type tracerKey struct {
	name, version, schema string
	attrs                 attribute.Distinct
}

var _ trace.TracerProvider = (*provider)(nil)

// newProvider returns judge's provider, exporting through exp in batches
// as b says, with resource res, sampler smp (parentOn: it is
// ParentBased(AlwaysSample()) with its default options) and the span
// limits of the environment (as the SDK reads them).
func newProvider(exp *otlpHTTPExporter, b Batch, res *resource.Resource, smp sdktrace.Sampler, parentOn bool) *provider {
	p := &provider{
		res:      res,
		sampler:  smp,
		parentOn: parentOn,
		limits:   sdktrace.NewSpanLimits(),
		tracers:  map[tracerKey]*tracer{},
		norm:     sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithResource(res)),
	}
	p.normStrings = p.limits.AttributeValueLengthLimit >= 0
	p.normTracer = p.norm.Tracer(ScopeName)
	p.spanKey = spanKeyOf()
	p.queue = newBatchQueue(func(ctx context.Context, spans []encSpan) error { return exp.exportEncoded(ctx, res, spans) },
		exp.Shutdown, func([]encSpan) {}, b)
	return p
}

// Tracer returns the tracer of the scope name and opts make, the same
// one for the same scope. After Shutdown it returns a no-op tracer, as
// the SDK's provider does.
func (p *provider) Tracer(name string, opts ...trace.TracerOption) trace.Tracer {
	if p.shut.Load() {
		return noop.NewTracerProvider().Tracer(name, opts...)
	}
	c := trace.NewTracerConfig(opts...)
	attrs := c.InstrumentationAttributes()
	key := tracerKey{name: name, version: c.InstrumentationVersion(), schema: c.SchemaURL(), attrs: attrs.Equivalent()}
	p.mu.Lock()
	t := p.tracers[key]
	p.mu.Unlock()
	if t != nil {
		return t
	}
	// The scope is the SDK's own: its default name for "", its
	// normalisation of the scope's attributes (made outside the lock:
	// the SDK logs the tracer it makes).
	_, s := p.norm.Tracer(name, opts...).Start(context.Background(), "scope")
	scope := s.(sdktrace.ReadOnlySpan).InstrumentationScope()
	s.End()
	p.mu.Lock()
	defer p.mu.Unlock()
	if t := p.tracers[key]; t != nil { // another call made it meanwhile
		return t
	}
	t = &tracer{p: p, scope: scope, key: p.spanKey}
	p.tracers[key] = t
	return t
}

// ForceFlush exports every span ended before it was called, within ctx.
func (p *provider) ForceFlush(ctx context.Context) error { return p.queue.ForceFlush(ctx) }

// Shutdown exports the spans waiting and shuts the exporter down, within
// ctx; spans that end afterwards are dropped and Tracer returns no-op
// tracers. Only the first call does anything.
func (p *provider) Shutdown(ctx context.Context) error {
	p.shut.Store(true)
	return p.queue.Shutdown(ctx)
}

// maxFree is the most records kept for reuse: more than the spans a
// process has open at once, usually.
const maxFree = 1024

// encSpan is an ended span in the batch: its Span message, encoded as
// it ended (in the queue's arena), and its tracer, for its scope.
type encSpan struct {
	tr *tracer
	b  []byte
}

// getRec returns an empty record.
func (p *provider) getRec() *spanRec {
	p.freeMu.Lock()
	if n := len(p.free); n > 0 {
		r := p.free[n-1]
		p.free[n-1] = nil
		p.free = p.free[:n-1]
		p.freeMu.Unlock()
		return r
	}
	p.freeMu.Unlock()
	return &spanRec{spanData: spanData{attrs: make([]attribute.KeyValue, 0, 16)}}
}

// maxKeptAttrs is the most attribute slots a record keeps for the next
// span; a record that grew more lets them go.
const maxKeptAttrs = 64

// release empties r and keeps it for a next span.
func (p *provider) release(r *spanRec) {
	p.empty(r)
	p.freeMu.Lock()
	if len(p.free) < maxFree {
		p.free = append(p.free, r)
	}
	p.freeMu.Unlock()
}

// empty clears r, keeping its slices (emptied) unless they grew large.
// Only what the next span does not set at its start (tracer, contexts,
// name, kind, time) and end (time) is reset, and a slice is cut in place
// (its length only): each pointer written while the collector marks
// costs a write barrier.
func (p *provider) empty(r *spanRec) {
	// A slice grows only with its length: an empty one (a span of
	// blocks, with no event or link) is left as it is.
	if len(r.attrs) > 0 {
		clear(r.attrs)
		r.attrs = r.attrs[:0]
		if cap(r.attrs) > maxKeptAttrs {
			r.attrs = make([]attribute.KeyValue, 0, 16)
		}
	}
	if len(r.events) > 0 {
		clear(r.events)
		r.events = r.events[:0]
		if cap(r.events) > maxKeptAttrs {
			r.events = nil
		}
	}
	if len(r.links) > 0 {
		clear(r.links)
		r.links = r.links[:0]
		if cap(r.links) > maxKeptAttrs {
			r.links = nil
		}
	}
	r.enc.b = r.enc.b[:0]
	if cap(r.enc.b) > maxKeptAttrs*64 {
		r.enc.b = nil
	}
	if r.block != nil {
		r.block = nil
	}
	r.droppedAttrs, r.droppedEvents, r.droppedLinks = 0, 0, 0
	if r.status != (sdktrace.Status{}) {
		r.status = sdktrace.Status{}
	}
}

// ended encodes a sampled span's record into the batch, and releases
// the record: it is reused by the next span at once, so that the
// records in use stay few and in cache, and the batch holds bytes the
// garbage collector need not scan.
//
// pre is the span's attributes encoded beforehand (span.endWith), or nil;
// a record's block (span.SetBlock) gives its own. It is not kept in the
// record: each pointer written while the collector marks costs a write
// barrier, and one more to clear it.
func (p *provider) ended(r *spanRec, pre []byte) {
	if r.sc.IsSampled() {
		r.enc.b = r.enc.b[:0]
		// The dropped counts as the SDK's snapshot reports them.
		r.droppedEvents, r.droppedLinks = keptOr0(r.events, r.droppedEvents), keptOr0(r.links, r.droppedLinks)
		if r.block != nil {
			pre = blockEncoding(r.block)
		}
		r.enc.encodeData(&r.spanData, pre)
		p.queue.addBytes(r.enc.b, func(b []byte) encSpan { return encSpan{r.tr, b} })
	}
	p.release(r)
}

// tracer is judge's trace.Tracer of one instrumentation scope.
type tracer struct {
	embedded.Tracer

	p     *provider
	scope instrumentation.Scope
	key   any // p.spanKey
}

var _ trace.Tracer = (*tracer)(nil)

// Start starts a span as the SDK's tracer does: the parent is ctx's span
// (none with trace.WithNewRoot), a new trace id for a root, a new span id
// always, the sampler's decision and trace state; a span that is not
// recorded keeps its context and records nothing.
func (t *tracer) Start(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	if len(opts) == 0 { // what the configuration of no option gives
		return t.start(ctx, name, spanStart{})
	}
	cfg := trace.NewSpanStartConfig(opts...)
	return t.start(ctx, name, spanStart{newRoot: cfg.NewRoot(), kind: cfg.SpanKind(), ts: cfg.Timestamp(), attrs: cfg.Attributes(), links: cfg.Links()})
}

// startAt is Start with the options trace.WithSpanKind(kind) and
// trace.WithTimestamp(ts), without making them: for the SERVER span of
// an HTTP request, started at the time its middleware took (see
// Telemetry.StartRequest).
func (t *tracer) startAt(ctx context.Context, name string, kind trace.SpanKind, ts time.Time) (context.Context, trace.Span) {
	return t.start(ctx, name, spanStart{kind: kind, ts: ts})
}

// spanStart is what start reads of a span's start options
// (trace.SpanConfig's).
type spanStart struct {
	newRoot bool
	kind    trace.SpanKind
	ts      time.Time
	attrs   []attribute.KeyValue
	links   []trace.Link
}

// start is Start of the options cfg gives.
func (t *tracer) start(ctx context.Context, name string, cfg spanStart) (context.Context, trace.Span) {
	if ctx == nil {
		ctx = context.Background()
	}
	var psc trace.SpanContext
	var parent *span // the parent's handle, when it is one of judge's
	switch {
	case cfg.newRoot:
		ctx = trace.ContextWithSpanContext(ctx, psc)
	case t.key != nil: // trace.SpanContextFromContext, and the parent's handle
		switch v := ctx.Value(t.key).(type) {
		case *span:
			parent, psc = v, v.sc
		case trace.Span:
			psc = v.SpanContext()
		}
	default:
		psc = trace.SpanContextFromContext(ctx)
	}
	var sc trace.SpanContext
	var sr sdktrace.SamplingResult
	if parent != nil && t.p.parentOn && psc.IsSampled() && !psc.IsRemote() {
		// A sampled span of judge's under the default sampler (judge
		// serve's judge.validate under its SERVER span): what follows
		// decides to sample it, with the parent's trace id, flags and
		// trace state, which are psc's; a span id of its own.
		sc, sr.Decision = psc.WithSpanID(newSpanID()), sdktrace.RecordAndSample
	} else {
		tid := psc.TraceID()
		if !tid.IsValid() {
			tid = newTraceID()
		}
		if t.p.parentOn {
			sr = parentOnResult(psc)
		} else {
			sr = t.p.sampler.ShouldSample(sdktrace.SamplingParameters{
				ParentContext: ctx,
				TraceID:       tid,
				Name:          name,
				Kind:          cfg.kind,
				Attributes:    cfg.attrs,
				Links:         cfg.links,
			})
		}
		flags := psc.TraceFlags() &^ trace.FlagsSampled
		if sr.Decision == sdktrace.RecordAndSample {
			flags |= trace.FlagsSampled
		}
		sc = trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: newSpanID(), TraceFlags: flags, TraceState: sr.Tracestate})
	}
	if sr.Decision != sdktrace.RecordOnly && sr.Decision != sdktrace.RecordAndSample {
		s := &nonRecordingSpan{sc: sc, p: t.p, ctxOfSpan: ctxOfSpan{parent: ctx, key: t.key}}
		if t.key == nil {
			return trace.ContextWithSpan(ctx, s), s
		}
		return s, s
	}
	r := t.p.getRec()
	r.tr, r.sc, r.parent, r.name, r.kind = t, sc, psc, name, trace.ValidateSpanKind(cfg.kind)
	if r.start = cfg.ts; r.start.IsZero() {
		r.start = time.Now()
	}
	s := t.newHandle(ctx, parent, sc, r)
	for _, l := range cfg.links {
		s.AddLink(l)
	}
	r.setAttrs(sr.Attributes)
	r.setAttrs(cfg.attrs)
	if t.key == nil {
		return trace.ContextWithSpan(ctx, s), s
	}
	return s, s
}

// newHandle makes a recording span's handle: a SERVER span's (a
// request's) with its log lines' ids and a spare handle for its first
// child in the same allocation (spanWithIDs); the first child of such a
// span, other than a SERVER span, takes that spare (one
// allocation a request fewer: judge serve's validation span); any other
// span is allocated on its own. A spare is taken once (taken) and so,
// like every handle, never reused; it lives as long as its parent's.
func (t *tracer) newHandle(ctx context.Context, parent *span, sc trace.SpanContext, r *spanRec) *span {
	if r.kind == trace.SpanKindServer {
		h := &spanWithIDs{span: span{sc: sc, tr: t, rec: r, ctxOfSpan: ctxOfSpan{parent: ctx, key: t.key}}}
		h.span.ext = &h.ext
		return &h.span
	}
	if parent != nil && parent.ext != nil && parent.ext.taken.CompareAndSwap(false, true) {
		s := &parent.ext.child
		s.sc, s.tr, s.rec, s.ctxOfSpan = sc, t, r, ctxOfSpan{parent: ctx, key: t.key}
		return s
	}
	return &span{sc: sc, tr: t, rec: r, ctxOfSpan: ctxOfSpan{parent: ctx, key: t.key}}
}

// parentOnResult is what ParentBased(AlwaysSample()), with the SDK's
// default options, decides for a span whose parent is psc (the span
// context of the parent context it is given): a valid parent's sampled
// flag (the options' AlwaysSample for a sampled parent, local or remote,
// NeverSample for one not sampled), AlwaysSample's for a root, and the
// parent's trace state either way. The SDK's sampler finds psc again in
// the context, twice.
func parentOnResult(psc trace.SpanContext) sdktrace.SamplingResult {
	d := sdktrace.RecordAndSample
	if psc.IsValid() && !psc.IsSampled() {
		d = sdktrace.Drop
	}
	return sdktrace.SamplingResult{Decision: d, Tracestate: psc.TraceState()}
}

// ctxOfSpan makes a span the context that holds it: the context Start
// returns is the span's handle itself, whose Value answers the trace
// API's key with the span and every other key as the parent context
// does, where trace.ContextWithSpan would make a context of its own (an
// allocation a span). It is what context.WithValue(parent, key, span)
// is, Deadline, Done and Err included.
type ctxOfSpan struct {
	parent context.Context
	key    any // the trace API's key (provider.spanKey)
}

func (c *ctxOfSpan) Deadline() (time.Time, bool) { return c.parent.Deadline() }
func (c *ctxOfSpan) Done() <-chan struct{}       { return c.parent.Done() }
func (c *ctxOfSpan) Err() error                  { return c.parent.Err() }

// Value is the span for the trace API's key, else the parent's value.
func (s *span) Value(key any) any {
	if key == s.key {
		return s
	}
	return s.parent.Value(key)
}

// Value is the span for the trace API's key, else the parent's value.
func (s *nonRecordingSpan) Value(key any) any {
	if key == s.key {
		return s
	}
	return s.parent.Value(key)
}

// keyProbe is a context that records the key it is asked for.
type keyProbe struct {
	context.Context
	key any
}

func (p *keyProbe) Value(key any) any {
	p.key = key
	return nil
}

// spanKeyOf returns the key under which the trace API looks a context's
// span up (trace.SpanFromContext asks the context for it), checked: a
// span context answering it with a span must be what SpanFromContext and
// SpanContextFromContext find. nil when the check fails (a trace API that
// looks spans up otherwise), and then spans are put in contexts as the
// API does it (trace.ContextWithSpan).
func spanKeyOf() any {
	probe := &keyProbe{Context: context.Background()}
	trace.SpanFromContext(probe)
	if probe.key == nil {
		return nil
	}
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{1}})
	s := &nonRecordingSpan{sc: sc, ctxOfSpan: ctxOfSpan{parent: context.Background(), key: probe.key}}
	if trace.SpanFromContext(s) != trace.Span(s) || !trace.SpanContextFromContext(s).Equal(sc) {
		return nil
	}
	return probe.key
}

// newTraceID is a random, valid trace id (math/rand/v2, as the SDK's).
func newTraceID() trace.TraceID {
	var tid trace.TraceID
	for !tid.IsValid() {
		binary.NativeEndian.PutUint64(tid[:8], rand.Uint64())
		binary.NativeEndian.PutUint64(tid[8:], rand.Uint64())
	}
	return tid
}

// newSpanID is a random, valid span id.
func newSpanID() trace.SpanID {
	var sid trace.SpanID
	for !sid.IsValid() {
		binary.NativeEndian.PutUint64(sid[:], rand.Uint64())
	}
	return sid
}

// span is a recording span: its context, which outlives it, and its
// record until End hands the record to the batch (rec nil: ended). The
// handle is not reused, so a late call (IsRecording, SpanContext,
// SetAttributes after End, as the API allows) sees this span and no
// other; only the record is pooled.
type span struct {
	embedded.Span
	ctxOfSpan // the span is the context that holds it

	sc trace.SpanContext
	tr *tracer

	mu  sync.Mutex
	rec *spanRec
	// ended is set, under mu, when rec is handed on (rec nil): what
	// IsRecording reads, without the lock (the engine, the verdict's
	// setter and the request's end each ask, a request's span up to
	// four times).
	ended atomic.Bool

	// ext, for a SERVER span (nil for others), is the rest of its
	// handle's allocation (spanWithIDs): its log ids' bytes and a spare
	// handle for its first child.
	ext *serverExt
}

// spanWithIDs is a SERVER span's handle: the span and its serverExt, in
// one allocation.
type spanWithIDs struct {
	span
	ext serverExt
}

// serverExt is what a SERVER span's handle holds beside the span.
type serverExt struct {
	// ids is where the span's trace id and span id are written in hex
	// for the log lines logged under it (LogHandler's trace_id and
	// span_id): once, when first asked for (under the span's mu), and
	// never again. It is part of the handle's own allocation, which is
	// not reused, so that the lines' two strings point into it and cost
	// no allocation of their own (see logIDs); a request's log lines
	// are under its SERVER span.
	ids [48]byte
	// taken is set by the child that takes child (tracer.newHandle).
	taken atomic.Bool
	child span
}

var (
	_ trace.Span           = (*span)(nil)
	_ otelattr.BlockSetter = (*span)(nil)
)

// logIDs returns the trace_id and span_id attributes of the span's log
// lines (spanIDAttrs's), their strings in s.ext.ids when it has them.
func (s *span) logIDs() (slog.Attr, slog.Attr) {
	if s.ext == nil {
		return hexIDAttrs(s.sc)
	}
	b := &s.ext.ids
	s.mu.Lock()
	if b[0] == 0 { // not written yet: a hex digit is never 0
		putHexIDs(b, s.sc.TraceID(), s.sc.SpanID())
	}
	s.mu.Unlock()
	// The bytes are not written again once set, and the handle lives as
	// long as a string points into it.
	ids := unsafe.String(&b[0], len(b))
	return slog.String("trace_id", ids[:32]), slog.String("span_id", ids[32:])
}

// SpanContext returns the span's context.
func (s *span) SpanContext() trace.SpanContext { return s.sc }

// IsRecording reports whether the span has not ended.
func (s *span) IsRecording() bool {
	return !s.ended.Load()
}

// SetStatus sets the status, as the SDK does: a code below the one set is
// ignored (Ok is final), the description kept for Error only.
func (s *span) SetStatus(code codes.Code, description string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.rec
	if r == nil || r.status.Code > code {
		return
	}
	r.status = sdktrace.Status{Code: code}
	if code == codes.Error {
		r.status.Description = description
	}
}

// SetAttributes sets attributes: a key set again takes its new value in
// its first place, invalid ones and those over the count limit are
// dropped and counted.
func (s *span) SetAttributes(kv ...attribute.KeyValue) {
	if len(kv) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec != nil {
		s.rec.setAttrs(kv)
	}
}

// SetBlock sets b's attributes as SetAttributes(b.Attributes()...)
// would (otelattr.BlockSetter). A span that has no attribute yet keeps
// the block, whose encoding, made once per block, is written for it at
// End; one that has attributes, or whose limits could drop or cut one,
// has them set one by one. An attribute set afterwards sets the block's
// first (see spanRec.setAttrs).
func (s *span) SetBlock(b *otelattr.Block) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.rec
	if r == nil {
		return
	}
	p := s.tr.p
	if kv := b.Attributes(); len(r.attrs) > 0 || r.block != nil || p.normStrings || (p.limits.AttributeCountLimit >= 0 && p.limits.AttributeCountLimit < len(kv)) {
		r.setAttrs(kv)
		return
	}
	r.block = b
}

// SetName renames the span.
func (s *span) SetName(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec != nil {
		s.rec.name = name
	}
}

// AddEvent adds an event.
func (s *span) AddEvent(name string, opts ...trace.EventOption) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec != nil {
		s.rec.addEvent(name, opts...)
	}
}

// RecordError adds err as an "exception" event, as the SDK does; it does
// not set the status.
func (s *span) RecordError(err error, opts ...trace.EventOption) {
	if err == nil || !s.IsRecording() {
		return
	}
	opts = append(opts, trace.WithAttributes(
		attribute.String("exception.type", typeStr(err)),
		attribute.String("exception.message", err.Error()),
	))
	if c := trace.NewEventConfig(opts...); c.StackTrace() {
		opts = append(opts, trace.WithAttributes(attribute.String("exception.stacktrace", stackTrace())))
	}
	s.AddEvent("exception", opts...)
}

// AddLink adds a link, as the SDK does: none for an invalid context with
// neither attributes nor trace state.
func (s *span) AddLink(l trace.Link) {
	if !l.SpanContext.IsValid() && len(l.Attributes) == 0 && l.SpanContext.TraceState().Len() == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec != nil {
		s.rec.addLink(l)
	}
}

// TracerProvider returns judge's provider.
func (s *span) TracerProvider() trace.TracerProvider { return s.tr.p }

// endAt is End(trace.WithTimestamp(ts)) without making the option, for
// the SERVER span of an HTTP request, ended at the time its middleware
// took (see Telemetry.EndRequest). Not deferred, it records no panic.
func (s *span) endAt(ts time.Time) {
	s.mu.Lock()
	r := s.rec
	if r == nil {
		s.mu.Unlock()
		return
	}
	r.end = ts
	s.rec = nil
	s.ended.Store(true)
	s.mu.Unlock()
	s.tr.p.ended(r, nil)
}

// endWith ends the span at end with b's attributes, the request's,
// encoded once for every such request: what SetAttributes of b's
// attributes and endAt(end) do, when the span has no attribute yet
// (they are then its attributes, in order) and no limit could drop or
// cut one (a count limit under b's count, a value length limit). It
// reports false, the span left as it was, when it does not apply.
func (s *span) endWith(b *requestBlock, end time.Time) bool {
	p := s.tr.p
	if p.normStrings || (p.limits.AttributeCountLimit >= 0 && p.limits.AttributeCountLimit < b.n) {
		return false
	}
	s.mu.Lock()
	r := s.rec
	if r == nil { // ended: as SetAttributes and endAt, nothing
		s.mu.Unlock()
		return true
	}
	if len(r.attrs) > 0 || r.block != nil {
		s.mu.Unlock()
		return false
	}
	r.end = end
	s.rec = nil
	s.ended.Store(true)
	s.mu.Unlock()
	p.ended(r, b.enc)
	return true
}

// End ends the span (at the time trace.WithTimestamp gives, else now, on
// the monotonic clock from its start, as the SDK's does) and hands its record to the batch.
// Called while panicking (deferred), it records the panic as an
// "exception" event and lets the panic go on, as the SDK's does.
func (s *span) End(opts ...trace.SpanEndOption) {
	s.mu.Lock()
	r := s.rec
	if r == nil {
		s.mu.Unlock()
		return
	}
	var cfg trace.SpanConfig // what no option gives
	if len(opts) > 0 {
		cfg = trace.NewSpanEndConfig(opts...)
	}
	if recovered := recover(); recovered != nil {
		defer panic(recovered) // recorded, not stopped
		kv := []attribute.KeyValue{
			attribute.String("exception.type", typeStr(recovered)),
			attribute.String("exception.message", fmt.Sprint(recovered)),
		}
		if cfg.StackTrace() {
			kv = append(kv, attribute.String("exception.stacktrace", stackTrace()))
		}
		r.addEvent("exception", trace.WithAttributes(kv...))
	}
	if ts := cfg.Timestamp(); !ts.IsZero() {
		r.end = ts
	} else {
		// The SDK's monotonicEndTime: the start and the time since it,
		// one reading of the monotonic clock (time.Now reads the wall
		// clock too, which is not used).
		r.end = r.start.Add(time.Since(r.start))
	}
	s.rec = nil
	s.ended.Store(true)
	s.mu.Unlock()
	s.tr.p.ended(r, nil)
}

// typeStr is the SDK's exception.type of a value: package path and name.
func typeStr(i any) string {
	t := reflect.TypeOf(i)
	if t.PkgPath() == "" && t.Name() == "" {
		return t.String()
	}
	return fmt.Sprintf("%s.%s", t.PkgPath(), t.Name())
}

// stackTrace is the SDK's exception.stacktrace: this goroutine's stack,
// at most 2 KB.
func stackTrace() string {
	b := make([]byte, 2048)
	return string(b[:runtime.Stack(b, false)])
}

// nonRecordingSpan is a span the sampler dropped: its context only.
type nonRecordingSpan struct {
	embedded.Span
	ctxOfSpan // the span is the context that holds it

	sc trace.SpanContext
	p  *provider
}

func (s *nonRecordingSpan) SpanContext() trace.SpanContext        { return s.sc }
func (*nonRecordingSpan) IsRecording() bool                       { return false }
func (*nonRecordingSpan) SetStatus(codes.Code, string)            {}
func (*nonRecordingSpan) SetAttributes(...attribute.KeyValue)     {}
func (*nonRecordingSpan) End(...trace.SpanEndOption)              {}
func (*nonRecordingSpan) RecordError(error, ...trace.EventOption) {}
func (*nonRecordingSpan) AddEvent(string, ...trace.EventOption)   {}
func (*nonRecordingSpan) AddLink(trace.Link)                      {}
func (*nonRecordingSpan) SetName(string)                          {}
func (s *nonRecordingSpan) TracerProvider() trace.TracerProvider  { return s.p }

// spanRec is what a span records, from its start until it ends: its
// data, which the encoder writes at End (encodeData, without a call per
// field), and its tracer. It is pooled: its slices are kept, emptied,
// for the next span.
type spanRec struct {
	spanData
	tr *tracer
	// block holds the span's attributes when they were set as one block
	// (span.SetBlock): attrs is then empty, and at End the block's
	// encoding is the span's attributes (see provider.ended).
	block *otelattr.Block

	enc otlpEncoder // the span's message is encoded in enc.b as it ends
}

// blockEncoding returns b's attributes encoded as a span's (KeyValue
// messages of field fSpanAttributes), made at b's first use and kept in
// it.
func blockEncoding(b *otelattr.Block) []byte {
	if enc := b.Kept(); enc != nil {
		return enc
	}
	var e otlpEncoder
	for _, kv := range b.Attributes() {
		e.keyValue(fSpanAttributes, kv)
	}
	enc := slices.Clip(e.b)
	if enc == nil {
		enc = []byte{}
	}
	b.Keep(enc)
	return enc
}

// keptOr0 is a dropped count as the SDK's snapshot reports it: 0 when
// nothing was kept (with a count limit of 0, the dropped events or
// links are not reported; matched, so that a receiver sees no
// difference).
func keptOr0[T any](kept []T, dropped int) int {
	if len(kept) == 0 {
		return 0
	}
	return dropped
}

// setAttrs sets kv as the SDK's SetAttributes does (see span.SetAttributes).
func (r *spanRec) setAttrs(kv []attribute.KeyValue) {
	if len(kv) == 0 {
		return
	}
	if b := r.block; b != nil { // the block's attributes were set first: attrs was empty
		r.block = nil
		r.attrs = append(r.attrs, b.Attributes()...)
	}
	p := r.tr.p
	limit := p.limits.AttributeCountLimit
	if limit == 0 {
		r.droppedAttrs += len(kv)
		return
	}
	for _, a := range kv {
		if !a.Valid() {
			r.droppedAttrs++
			continue
		}
		if t := a.Value.Type(); t == attribute.SLICE || t == attribute.MAP || p.normStrings {
			a = p.normAttr(a)
		}
		if i := indexKey(r.attrs, a.Key); i >= 0 {
			r.attrs[i] = a
			continue
		}
		if limit > 0 && len(r.attrs) >= limit {
			r.droppedAttrs++
			continue
		}
		r.attrs = append(r.attrs, a)
	}
}

// indexKey is the index of key's attribute in kv, or -1.
func indexKey(kv []attribute.KeyValue, key attribute.Key) int {
	for i := range kv {
		if kv[i].Key == key {
			return i
		}
	}
	return -1
}

// composite reports whether v is a generic slice or a map: values the
// SDK de-duplicates and limits in depth.
func composite(v attribute.Value) bool {
	t := v.Type()
	return t == attribute.SLICE || t == attribute.MAP
}

// normAttr is a span attribute as the SDK stores it: as it is, unless it
// is composite or a value length limit applies to it, and then as the
// SDK's own span makes it.
func (p *provider) normAttr(a attribute.KeyValue) attribute.KeyValue {
	switch t := a.Value.Type(); {
	case t == attribute.SLICE || t == attribute.MAP:
	case p.limits.AttributeValueLengthLimit >= 0 && (t == attribute.STRING || t == attribute.STRINGSLICE || t == attribute.BYTESLICE):
	default:
		return a
	}
	_, s := p.normTracer.Start(context.Background(), "norm", trace.WithAttributes(a))
	defer s.End()
	if kv := s.(sdktrace.ReadOnlySpan).Attributes(); len(kv) == 1 {
		return kv[0]
	}
	return a
}

// addEvent adds an event as the SDK does: its attributes as given (the
// SDK's normalisation for composite values), the first
// AttributePerEventCountLimit kept, the oldest event dropped when the
// span has EventCountLimit.
func (r *spanRec) addEvent(name string, opts ...trace.EventOption) {
	p := r.tr.p
	c := trace.NewEventConfig(opts...)
	ev := sdktrace.Event{Name: name, Attributes: c.Attributes(), Time: c.Timestamp()}
	if hasComposite(ev.Attributes) {
		_, s := p.normTracer.Start(context.Background(), "norm")
		s.AddEvent(name, opts...)
		if evs := s.(sdktrace.ReadOnlySpan).Events(); len(evs) == 1 {
			ev.Attributes, ev.DroppedAttributeCount = evs[0].Attributes, evs[0].DroppedAttributeCount
		}
		s.End()
	} else {
		ev.Attributes, ev.DroppedAttributeCount = limitAttrs(ev.Attributes, p.limits.AttributePerEventCountLimit)
	}
	r.events, r.droppedEvents = evict(r.events, r.droppedEvents, p.limits.EventCountLimit, ev)
}

// addLink adds a link as the SDK does (see addEvent).
func (r *spanRec) addLink(l trace.Link) {
	p := r.tr.p
	out := sdktrace.Link{SpanContext: l.SpanContext, Attributes: l.Attributes}
	if hasComposite(l.Attributes) {
		_, s := p.normTracer.Start(context.Background(), "norm")
		s.AddLink(l)
		if ls := s.(sdktrace.ReadOnlySpan).Links(); len(ls) == 1 {
			out.Attributes, out.DroppedAttributeCount = ls[0].Attributes, ls[0].DroppedAttributeCount
		}
		s.End()
	} else {
		out.Attributes, out.DroppedAttributeCount = limitAttrs(out.Attributes, p.limits.AttributePerLinkCountLimit)
	}
	r.links, r.droppedLinks = evict(r.links, r.droppedLinks, p.limits.LinkCountLimit, out)
}

// limitAttrs keeps the first limit attributes of kv, as the SDK does for
// an event's or a link's (a negative limit keeps all), and returns them
// with the count dropped.
func limitAttrs(kv []attribute.KeyValue, limit int) ([]attribute.KeyValue, int) {
	if limit < 0 || len(kv) <= limit {
		return kv, 0
	}
	if limit == 0 {
		return nil, len(kv)
	}
	return kv[:limit], len(kv) - limit
}

// hasComposite reports whether an attribute of kv is composite.
func hasComposite(kv []attribute.KeyValue) bool {
	for _, a := range kv {
		if composite(a.Value) {
			return true
		}
	}
	return false
}

// evict appends x to q as the SDK's evicted queue does: with capacity 0
// nothing is kept, at capacity the oldest is dropped; dropped counts.
func evict[T any](q []T, dropped, capacity int, x T) ([]T, int) {
	switch {
	case capacity == 0:
		return q, dropped + 1
	case capacity > 0 && len(q) == capacity:
		copy(q, q[1:])
		q = q[:capacity-1]
		dropped++
	}
	return append(q, x), dropped
}
