package telemetry

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentjudge/judge/internal/otelattr"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/result"
)

// spanScript uses every part of the trace API that records something:
// start options (kind, attributes, links, timestamps, a new root),
// attributes of every type set twice, invalid, composite and long,
// events over the limits, links, statuses in every order, a rename,
// errors, a panic ended by a deferred End, and calls after End.
func spanScript(tp trace.TracerProvider) {
	tr := tp.Tracer("agree", trace.WithInstrumentationVersion("1.2.3"), trace.WithSchemaURL("https://opentelemetry.io/schemas/1.26.0"),
		trace.WithInstrumentationAttributes(attribute.String("lib", "x"), attribute.Map("nested", attribute.String("k", "v"), attribute.String("k", "w"))))
	ts, _ := trace.ParseTraceState("vendor=value,other=2")
	parent := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36},
		SpanID:  trace.SpanID{0, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7}, TraceFlags: trace.FlagsSampled, TraceState: ts, Remote: true,
	})
	linked := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1, 2, 3}, SpanID: trace.SpanID{4, 5, 6}, TraceFlags: trace.FlagsSampled})
	ctx := trace.ContextWithRemoteSpanContext(context.Background(), parent)
	start := time.Unix(1_700_000_000, 0)
	long := "a string of more than ten characters, ünïcödé"
	ctx1, root := tr.Start(ctx, "root", trace.WithSpanKind(trace.SpanKindServer), trace.WithTimestamp(start),
		trace.WithAttributes(attribute.Int("a", 1), attribute.String("b", long), attribute.Int("a", 2), attribute.String("", "invalid key")),
		trace.WithLinks(trace.Link{SpanContext: linked, Attributes: []attribute.KeyValue{attribute.String("l1", "x"), attribute.String("l2", "y")}},
			trace.Link{}, trace.Link{Attributes: []attribute.KeyValue{attribute.Bool("no context", true)}}))
	root.SetAttributes(
		attribute.StringSlice("ss", []string{long, "b"}), attribute.Int64Slice("is", []int64{1, 2}), attribute.BoolSlice("bs", []bool{true}),
		attribute.Float64Slice("fs", []float64{1.5}), attribute.ByteSlice("bytes", []byte(long)), attribute.Float64("f", 0.25),
		attribute.Slice("slice", attribute.StringValue(long), attribute.MapValue(attribute.Int("x", 1), attribute.Int("x", 2))),
		attribute.Map("map", attribute.String("k", long), attribute.String("k", "again")),
		attribute.Bool("a", true), // a again: replaced in place
	)
	root.SetAttributes()
	for i := range 5 {
		root.SetAttributes(attribute.Int(fmt.Sprintf("n%d", i), i))
	}
	root.AddEvent("e1", trace.WithAttributes(attribute.Int("x", 1), attribute.Int("y", 2), attribute.Int("x", 3)), trace.WithTimestamp(start.Add(time.Millisecond)))
	root.AddEvent("e2")
	root.AddEvent("e3", trace.WithAttributes(attribute.Map("m", attribute.String("k", "v"), attribute.String("k", "w"))))
	root.RecordError(errors.New("boom"))
	root.RecordError(nil)
	root.SetStatus(codes.Error, "bad")
	root.SetStatus(codes.Unset, "ignored")
	root.SetName("root renamed")
	root.AddLink(trace.Link{SpanContext: linked, Attributes: []attribute.KeyValue{attribute.Int("after start", 1), attribute.Int("second", 2)}})

	cctx, child := tr.Start(ctx1, "child", trace.WithSpanKind(trace.SpanKindClient))
	child.SetStatus(codes.Ok, "description dropped")
	child.SetStatus(codes.Error, "ignored after Ok")
	_, grandchild := tr.Start(cctx, "grandchild", trace.WithSpanKind(trace.SpanKind(42)), trace.WithTimestamp(start)) // an unknown kind: INTERNAL
	grandchild.End(trace.WithTimestamp(start.Add(time.Second)))
	child.End()

	_, newRoot := tr.Start(ctx1, "new root", trace.WithNewRoot(), trace.WithSpanKind(trace.SpanKindProducer))
	newRoot.End()

	func() {
		defer func() { _ = recover() }()
		_, p := tr.Start(ctx1, "panics")
		defer p.End()
		panic(errors.New("oops"))
	}()

	root.End()
	root.End()
	root.SetAttributes(attribute.String("late", "ignored"))
	root.AddEvent("late")
	root.SetStatus(codes.Ok, "")
	if root.IsRecording() || !root.SpanContext().IsValid() {
		panic("a span after End is recording, or lost its context")
	}
	tp.Tracer("").Start(ctx, "default scope")
}

// requestScript starts and ends SERVER spans as judge serve's middleware
// does (StartRequest, EndRequest): requests whose attributes judge's
// recorder writes from an encoding made once (the same request twice,
// another method, protocol and status), and those it sets one by one (a
// handler that set attributes first, one of them a request attribute; a
// path that is not its route; a 5xx status), so that both agree with
// the SDK under every limit.
func requestScript(tel *Telemetry) {
	start := time.Unix(1_700_000_100, 0)
	for i, c := range []struct {
		method, path, route string
		proto               int // minor version of HTTP/1
		status              int
		set                 []attribute.KeyValue // by the handler, before the end
	}{
		{"POST", "/validate", "/validate", 1, 200, nil},
		{"POST", "/validate", "/validate", 1, 200, nil},
		{"GET", "/healthz", "/healthz", 0, 404, nil},
		{"POST", "/validate", "/validate", 1, 200, []attribute.KeyValue{attribute.String("handler", "x"), attribute.String("http.route", "/set by the handler")}},
		{"POST", "/v1/tools/x", "/v1/tools/{name}", 1, 200, nil},
		{"POST", "/validate", "/validate", 1, 503, nil},
		{"POST", "/validate", "/validate", 1, 200, nil},
	} {
		r := httptest.NewRequest(c.method, c.path, nil)
		r.ProtoMinor = c.proto
		at := start.Add(time.Duration(i) * time.Second)
		ctx := tel.StartRequest(r.Context(), r, c.route, at)
		trace.SpanFromContext(ctx).SetAttributes(c.set...)
		tel.EndRequest(ctx, r, c.route, c.status, at.Add(time.Millisecond))
	}
}

// verdictScript sets verdicts on spans as the engine does
// (otelattr.Setter.Verdict), which judge's recorder takes as blocks made
// once per verdict: verdicts repeated, with and without an extra
// attribute, more distinct ones than a Setter keeps, attributes set
// after a verdict (one of its keys again, and a new one) and before one,
// and verdicts that are never blocks (a NaN, an extra attribute that
// repeats a verdict's key or is not a scalar, several extra ones).
func verdictScript(tel *Telemetry) {
	tr := tel.Tracer()
	var set otelattr.Setter
	valid := &result.ValidationResult{Valid: true, Confidence: 1, QualityScore: 1, Metadata: result.Metadata{ValidationTypesRun: []string{"schema"}}}
	invalid := &result.ValidationResult{Confidence: 1, QualityScore: 0.64, Issues: []result.Issue{{Type: "missing_field"}, {Type: "invalid_type"}},
		Metadata: result.Metadata{ErrorCount: 2, ValidationTypesRun: []string{"schema"}, Model: "m"}}
	fast := []attribute.KeyValue{otelattr.FastPath.Bool(true)}
	type call struct {
		r            *result.ValidationResult
		extra        []attribute.KeyValue
		before, then []attribute.KeyValue
	}
	calls := []call{
		{valid, fast, nil, nil}, {invalid, fast, nil, nil}, {valid, fast, nil, nil}, {invalid, nil, nil, nil}, {invalid, nil, nil, nil},
		{valid, fast, nil, []attribute.KeyValue{otelattr.Valid.Bool(false), attribute.String("after", "x")}},
		{valid, fast, []attribute.KeyValue{attribute.String("before", "x")}, nil},
		{&result.ValidationResult{Confidence: math.NaN()}, nil, nil, nil},
		{valid, []attribute.KeyValue{otelattr.Valid.Bool(false)}, nil, nil},
		{valid, []attribute.KeyValue{attribute.StringSlice("list", []string{"a"})}, nil, nil},
		{valid, []attribute.KeyValue{attribute.Int("a", 1), attribute.Int("b", 2)}, nil, nil},
		{&result.ValidationResult{Confidence: math.Copysign(0, -1)}, nil, nil, nil},
		{&result.ValidationResult{}, nil, nil, nil},
		// extra attributes of every scalar type, each value its own block
		{valid, []attribute.KeyValue{otelattr.FastPath.Bool(false)}, nil, nil},
		{valid, []attribute.KeyValue{attribute.String("mode", "x")}, nil, nil},
		{valid, []attribute.KeyValue{attribute.String("mode", "y")}, nil, nil},
		{valid, []attribute.KeyValue{attribute.String("other", "y")}, nil, nil},
		{valid, []attribute.KeyValue{attribute.Int("n", 1)}, nil, nil},
		{valid, []attribute.KeyValue{attribute.Int("n", 2)}, nil, nil},
		{valid, []attribute.KeyValue{attribute.Float64("f", 0.5)}, nil, nil},
		{valid, []attribute.KeyValue{attribute.Float64("f", math.Copysign(0, -1))}, nil, nil},
		{valid, []attribute.KeyValue{attribute.Float64("f", 0)}, nil, nil},
		{valid, []attribute.KeyValue{attribute.String("mode", "x")}, nil, nil},
	}
	for i := range 20 { // more verdicts than are kept, then the first ones again
		calls = append(calls, call{&result.ValidationResult{Confidence: 1, QualityScore: float64(i) / 20}, nil, nil, nil})
	}
	calls = append(calls, calls[:5]...)
	for _, c := range calls {
		_, s := tr.Start(context.Background(), "judge.validate")
		s.SetAttributes(c.before...)
		set.Verdict(s, c.r, c.extra...)
		s.SetAttributes(c.then...)
		s.End()
	}
}

// runScript runs spanScript, requestScript and verdictScript on the Telemetry of c (SDK spans or
// judge's) exporting to a loopback receiver, and returns what it
// received.
func runScript(t *testing.T, c Config) [][]sharedtest.NormSpan {
	t.Helper()
	sink := sharedtest.NewOTLPSink(t)
	c.Export, c.Protocol, c.Endpoint = true, "http/protobuf", sink.URL
	c.Resource = []attribute.KeyValue{attribute.String("service.name", "agree")}
	tel, err := New(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	_, own := tel.TracerProvider.(*provider)
	if own == c.SDKSpans {
		t.Fatalf("SDKSpans %v, but the provider is %T", c.SDKSpans, tel.TracerProvider)
	}
	spanScript(tel.TracerProvider)
	requestScript(tel)
	verdictScript(tel)
	_, s := tel.Tracer().Start(context.Background(), "default scope, ended") // the one above is never ended: not exported
	s.End()
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	return sink.Traces(t)
}

// TestProviderAgreesWithSDK runs spanScript through judge's recorder and
// the official SDK, under the default span limits and under small ones
// (the OTEL_SPAN_*, OTEL_EVENT_* and OTEL_LINK_* variables), and compares
// the decoded exports field by field, ids and times aside.
func TestProviderAgreesWithSDK(t *testing.T) {
	for _, limits := range []map[string]string{
		nil,
		{"OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT": "6", "OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT": "10", "OTEL_SPAN_EVENT_COUNT_LIMIT": "2",
			"OTEL_EVENT_ATTRIBUTE_COUNT_LIMIT": "1", "OTEL_SPAN_LINK_COUNT_LIMIT": "1", "OTEL_LINK_ATTRIBUTE_COUNT_LIMIT": "1"},
		{"OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT": "0", "OTEL_SPAN_EVENT_COUNT_LIMIT": "0", "OTEL_SPAN_LINK_COUNT_LIMIT": "0"},
		{"OTEL_EVENT_ATTRIBUTE_COUNT_LIMIT": "0", "OTEL_LINK_ATTRIBUTE_COUNT_LIMIT": "0", "OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT": "0"},
	} {
		t.Run(fmt.Sprint(limits), func(t *testing.T) {
			for k, v := range limits {
				t.Setenv(k, v)
			}
			sdk, own := runScript(t, Config{SDKSpans: true}), runScript(t, Config{})
			if len(sdk) < 3 {
				t.Fatalf("the SDK exported %d traces, want 3 (the script's, its new root's, the default scope's)", len(sdk))
			}
			compareTraces(t, own, sdk)
		})
	}
}

// TestProviderSamplers compares judge's recorder with the SDK under each
// sampler OTEL_TRACES_SAMPLER names: the script's spans are under a
// remote parent of a fixed trace id, so that a ratio decides the same
// for both.
func TestProviderSamplers(t *testing.T) {
	t.Parallel()
	for _, s := range []struct {
		name, arg string
		sampled   bool // the script's trace, under its remote parent
	}{
		{"always_on", "", true}, {"always_off", "", false}, {"traceidratio", "0.7", true}, {"traceidratio", "0.3", false},
		{"parentbased_always_off", "", true}, {"parentbased_traceidratio", "0.1", true}, {"parentbased_always_on", "", true},
	} {
		t.Run(s.name+s.arg, func(t *testing.T) {
			t.Parallel()
			smp, err := sampler(s.name, s.arg)
			if err != nil {
				t.Fatal(err)
			}
			// The other traces have random ids: a ratio decides them
			// at random.
			sdk, own := scriptTrace(runScript(t, Config{SDKSpans: true, Sampler: smp})), scriptTrace(runScript(t, Config{Sampler: smp}))
			if want := map[bool]int{true: 1, false: 0}[s.sampled]; len(sdk) != want {
				t.Errorf("the SDK exported the script's trace %d times, want %d", len(sdk), want)
			}
			compareTraces(t, own, sdk)
		})
	}
}

// TestParentOnResult: judge's tracer decides as the SDK's
// ParentBased(AlwaysSample()) for every kind of parent: none, local or
// remote, sampled or not, with a trace state or without.
func TestParentOnResult(t *testing.T) {
	t.Parallel()
	smp := sdktrace.ParentBased(sdktrace.AlwaysSample())
	ts, err := trace.ParseTraceState("k=v,a=b")
	if err != nil {
		t.Fatal(err)
	}
	parents := []trace.SpanContext{{}}
	for _, remote := range []bool{false, true} {
		for _, flags := range []trace.TraceFlags{0, trace.FlagsSampled} {
			for _, state := range []trace.TraceState{{}, ts} {
				parents = append(parents, trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2},
					TraceFlags: flags, TraceState: state, Remote: remote}))
			}
		}
	}
	parents = append(parents, trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, TraceState: ts})) // no span id: invalid
	for i, psc := range parents {
		ctx := trace.ContextWithSpanContext(context.Background(), psc)
		want := smp.ShouldSample(sdktrace.SamplingParameters{ParentContext: ctx, TraceID: trace.TraceID{3}, Name: "x"})
		got := parentOnResult(trace.SpanContextFromContext(ctx))
		if got.Decision != want.Decision ||
			got.Tracestate.String() != want.Tracestate.String() || len(got.Attributes) != len(want.Attributes) {
			t.Errorf("parent %d (%v): %+v, the SDK's %+v", i, psc, got, want)
		}
	}
}

// scriptTrace keeps the trace of spanScript's remote parent.
func scriptTrace(traces [][]sharedtest.NormSpan) [][]sharedtest.NormSpan {
	var out [][]sharedtest.NormSpan
	for _, tr := range traces {
		for _, s := range tr {
			if s.ParentName == "remote 00f067aa0ba902b7" {
				out = append(out, tr)
				break
			}
		}
	}
	return out
}

func compareTraces(t *testing.T, own, sdk [][]sharedtest.NormSpan) {
	t.Helper()
	if len(own) != len(sdk) {
		t.Fatalf("judge's export has %d traces, the SDK's %d", len(own), len(sdk))
	}
	for i := range sdk {
		if len(own[i]) != len(sdk[i]) {
			t.Errorf("trace %d: %d spans, the SDK's %d", i, len(own[i]), len(sdk[i]))
			continue
		}
		for j := range sdk[i] {
			if !own[i][j].Equal(sdk[i][j]) {
				t.Errorf("trace %d, span %d differs:\njudge's:\n%s\nthe SDK's:\n%s", i, j, own[i][j], sdk[i][j])
			}
		}
	}
}

// TestProviderConcurrent starts, changes and ends spans from several
// goroutines at once, some on one shared span, with ForceFlush running
// alongside, and checks that every span is exported once with what was
// set on it (run with -race).
func TestProviderConcurrent(t *testing.T) {
	t.Parallel()
	sink := sharedtest.NewOTLPSink(t)
	tel, err := New(context.Background(), Config{Export: true, Protocol: "http/protobuf", Endpoint: sink.URL,
		Batch: Batch{Delay: time.Millisecond, MaxExportBatchSize: 7, MaxQueueSize: 1 << 16}})
	if err != nil {
		t.Fatal(err)
	}
	tr := tel.Tracer()
	ctx, shared := tr.Start(context.Background(), "shared")
	const workers, each = 8, 200
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				_, s := tr.Start(ctx, "work")
				s.SetAttributes(attribute.Int("worker", w), attribute.Int("i", i))
				shared.SetAttributes(attribute.Int(fmt.Sprintf("w%d", w), i))
				shared.AddEvent("tick")
				if i%50 == 0 {
					if err := tel.TracerProvider.(*provider).ForceFlush(context.Background()); err != nil {
						t.Error(err)
					}
				}
				s.End()
				_ = s.IsRecording()
			}
		})
	}
	wg.Wait()
	shared.End()
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	traces := sink.Traces(t)
	if len(traces) != 1 || len(traces[0]) != workers*each+1 {
		t.Fatalf("%d traces, want 1 of %d spans", len(traces), workers*each+1)
	}
	seen := map[[2]int64]bool{}
	for _, s := range traces[0] {
		switch s.Span.Name {
		case "shared":
			if got := len(s.Span.Attributes); got != workers {
				t.Errorf("the shared span has %d attributes, want %d", got, workers)
			}
			if got := len(s.Span.Events) + int(s.Span.DroppedEventsCount); got != workers*each {
				t.Errorf("the shared span has %d events, dropped included, want %d", got, workers*each)
			}
		case "work":
			kv := s.Span.Attributes
			if len(kv) != 2 {
				t.Fatalf("a span has %d attributes, want 2", len(kv))
			}
			k := [2]int64{kv[0].Value.GetIntValue(), kv[1].Value.GetIntValue()}
			if seen[k] {
				t.Errorf("span %v exported twice", k)
			}
			seen[k] = true
		}
	}
	if len(seen) != workers*each {
		t.Errorf("%d distinct work spans, want %d", len(seen), workers*each)
	}
}

// TestProviderFlushAndShutdown: ForceFlush exports every span ended
// before it (without waiting for the batch's delay); Shutdown exports
// what waits, and afterwards spans ending are dropped and Tracer gives a
// tracer whose spans record nothing, as with the SDK's provider.
func TestProviderFlushAndShutdown(t *testing.T) {
	t.Parallel()
	sink := sharedtest.NewOTLPSink(t)
	tel, err := New(context.Background(), Config{Export: true, Protocol: "http/protobuf", Endpoint: sink.URL, Batch: Batch{Delay: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	p := tel.TracerProvider.(*provider)
	tr := tel.Tracer()
	count := func() int {
		n := 0
		for _, tr := range sink.Traces(t) {
			n += len(tr)
		}
		return n
	}
	for range 3 {
		_, s := tr.Start(context.Background(), "before flush")
		s.End()
	}
	_, open := tr.Start(context.Background(), "open at flush")
	if err := p.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 3 {
		t.Fatalf("after ForceFlush the receiver has %d spans, want the 3 ended", n)
	}
	open.End()
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 4 {
		t.Fatalf("after Shutdown the receiver has %d spans, want 4", n)
	}
	_, late := tr.Start(context.Background(), "after shutdown")
	late.End()
	if _, s := p.Tracer("new").Start(context.Background(), "from a new tracer"); s.IsRecording() {
		t.Error("a tracer got after Shutdown records")
	}
	if err := p.ForceFlush(context.Background()); err != nil {
		t.Errorf("ForceFlush after Shutdown: %v", err)
	}
	if n := count(); n != 4 {
		t.Errorf("a span ended after Shutdown was exported: %d spans", n)
	}
}

// TestSpanIsItsContext checks the context judge's Start returns (the
// span's handle itself, decision 93) against what trace.ContextWithSpan
// makes: the span found by the trace API, the parent's values, deadline
// and cancellation passed through, contexts derived from it cancelled
// with the parent, for a recorded and an unsampled span.
func TestSpanIsItsContext(t *testing.T) {
	t.Parallel()
	tel, err := New(context.Background(), Config{Export: true, Protocol: "http/protobuf", Endpoint: "http://127.0.0.1:1/v1/traces"})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background()) //nolint:errcheck // nothing listens: the export fails
	if tel.TracerProvider.(*provider).spanKey == nil {
		t.Fatal("the trace API's span key was not learned: spans fall back to trace.ContextWithSpan")
	}
	type key struct{}
	unsampled := trace.ContextWithRemoteSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{9}, SpanID: trace.SpanID{9}, Remote: true}))
	for _, c := range []struct {
		name      string
		base      context.Context
		recording bool
	}{{"recorded", context.Background(), true}, {"unsampled", unsampled, false}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			deadline := time.Now().Add(time.Hour)
			parent, cancel := context.WithDeadline(context.WithValue(c.base, key{}, "v"), deadline)
			ctx, s := tel.Tracer().Start(parent, "s")
			defer s.End()
			if s.IsRecording() != c.recording {
				t.Fatalf("IsRecording %v, want %v", s.IsRecording(), c.recording)
			}
			if got := trace.SpanFromContext(ctx); got != s {
				t.Fatalf("SpanFromContext = %v, want the span started", got)
			}
			if !trace.SpanContextFromContext(ctx).Equal(s.SpanContext()) {
				t.Fatal("SpanContextFromContext is not the span's context")
			}
			if v := ctx.Value(key{}); v != "v" {
				t.Fatalf("the parent's value: %v", v)
			}
			if d, ok := ctx.Deadline(); !ok || !d.Equal(deadline) {
				t.Fatalf("deadline %v %v, want %v", d, ok, deadline)
			}
			_, child := tel.Tracer().Start(ctx, "child")
			if child.SpanContext().TraceID() != s.SpanContext().TraceID() {
				t.Fatal("a child started from the span's context is not in its trace")
			}
			child.End()
			derived, stop := context.WithCancel(ctx)
			defer stop()
			if ctx.Err() != nil || derived.Err() != nil {
				t.Fatal("cancelled before its parent")
			}
			cancel()
			<-ctx.Done()
			<-derived.Done()
			if !errors.Is(ctx.Err(), context.Canceled) || !errors.Is(derived.Err(), context.Canceled) {
				t.Fatalf("errors after the parent's cancel: %v, %v", ctx.Err(), derived.Err())
			}
		})
	}
}

// TestServerSpanSpareHandle: a SERVER span's first child (not itself a
// SERVER span) takes the spare handle in the SERVER span's allocation,
// and only that child: a second child and a SERVER child get handles of
// their own. Each child
// is its own span (its context, parent, End and late calls), and the
// first child costs no allocation.
func TestServerSpanSpareHandle(t *testing.T) { // not parallel: AllocsPerRun
	tel, err := New(context.Background(), Config{Export: true, Protocol: "http/protobuf", Endpoint: "http://127.0.0.1:1/v1/traces",
		Batch: Batch{MaxQueueSize: 1 << 16}})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background()) //nolint:errcheck // nothing listens: the export fails
	tr := tel.Tracer()
	ctx, srv := tr.Start(context.Background(), "server", trace.WithSpanKind(trace.SpanKindServer))
	spare := &srv.(*span).ext.child
	c1ctx, c1 := tr.Start(ctx, "first")
	c2ctx, c2 := tr.Start(ctx, "second")
	_, c3 := tr.Start(ctx, "server child", trace.WithSpanKind(trace.SpanKindServer))
	if c1.(*span) != spare {
		t.Fatal("the first child did not take the spare handle")
	}
	for _, c := range []trace.Span{c2, c3} {
		if c.(*span) == spare {
			t.Fatalf("%v took the spare handle, taken already or not to be given", c)
		}
	}
	for _, c := range []struct {
		ctx context.Context
		s   trace.Span
	}{{c1ctx, c1}, {c2ctx, c2}} {
		if trace.SpanFromContext(c.ctx) != c.s || c.s.SpanContext().TraceID() != srv.SpanContext().TraceID() ||
			c.s.SpanContext().SpanID() == srv.SpanContext().SpanID() || c.s.(*span).rec.parent.SpanID() != srv.SpanContext().SpanID() {
			t.Fatalf("a child's context or parent is wrong: %+v", c.s.SpanContext())
		}
	}
	if c1.SpanContext().SpanID() == c2.SpanContext().SpanID() {
		t.Fatal("two children share a span id")
	}
	c1.End()
	c1.SetAttributes(attribute.String("late", "x")) // ignored, as after any End
	if c1.IsRecording() || !c2.IsRecording() || !srv.IsRecording() {
		t.Fatal("ending the spare's span ended another, or not itself")
	}
	for _, s := range []trace.Span{c2, c3, srv} {
		s.End()
	}
	serverAlone := testing.AllocsPerRun(200, func() {
		_, s := tr.Start(context.Background(), "server", trace.WithSpanKind(trace.SpanKindServer))
		s.End()
	})
	withChild := testing.AllocsPerRun(200, func() {
		ctx, s := tr.Start(context.Background(), "server", trace.WithSpanKind(trace.SpanKindServer))
		_, c := tr.Start(ctx, "child")
		c.End()
		s.End()
	})
	if withChild != serverAlone {
		t.Fatalf("a SERVER span and its first child: %v allocations, the SERVER span alone %v", withChild, serverAlone)
	}
}

// TestChildOfOwnSpan: a span started under a sampled span of judge's,
// under the default sampler (the parent's context copied with a span
// id of its own, without the sampler's decision), has the span context
// the SDK gives a child of a parent of the same context: its trace id,
// flags and trace state, not remote, a new span id; with and without
// options, under parents whose own parents were remote, with a trace
// state and flags beyond the sampled bit, or none.
func TestChildOfOwnSpan(t *testing.T) {
	t.Parallel()
	tel, err := New(context.Background(), Config{Export: true, Protocol: "http/protobuf", Endpoint: "http://127.0.0.1:1/v1/traces"})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background()) //nolint:errcheck // nothing listens: the export fails
	sdk := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.AlwaysSample())))
	defer sdk.Shutdown(context.Background()) //nolint:errcheck // nothing is exported
	ts, err := trace.ParseTraceState("k=v,a=b")
	if err != nil {
		t.Fatal(err)
	}
	bases := []context.Context{context.Background()}
	for _, flags := range []trace.TraceFlags{trace.FlagsSampled, trace.FlagsSampled | 0x02} {
		for _, state := range []trace.TraceState{{}, ts} {
			bases = append(bases, trace.ContextWithRemoteSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
				TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2}, TraceFlags: flags, TraceState: state, Remote: true})))
		}
	}
	for i, base := range bases {
		ctx, parent := tel.Tracer().Start(base, "POST /validate", trace.WithSpanKind(trace.SpanKindServer))
		psc := parent.SpanContext()
		for _, opts := range [][]trace.SpanStartOption{nil, {trace.WithAttributes(attribute.Int("n", 1))}} {
			_, child := tel.Tracer().Start(ctx, "judge.validate", opts...)
			_, ref := sdk.Tracer("t").Start(trace.ContextWithSpanContext(context.Background(), psc), "judge.validate", opts...)
			got, want := child.SpanContext(), ref.SpanContext()
			if _, own := child.(*span); !own || !child.IsRecording() {
				t.Fatalf("base %d: the child is %T, recording %v", i, child, child.IsRecording())
			}
			if got.TraceID() != psc.TraceID() || got.TraceFlags() != want.TraceFlags() || got.TraceState().String() != want.TraceState().String() ||
				got.IsRemote() || !got.SpanID().IsValid() || got.SpanID() == psc.SpanID() {
				t.Errorf("base %d, %d options: child %+v, parent %+v; the SDK's child %+v", i, len(opts), got, psc, want)
			}
			child.End()
			ref.End()
		}
		parent.End()
	}
}
