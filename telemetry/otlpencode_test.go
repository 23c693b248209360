package telemetry

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// official sends spans with the official otlptracehttp exporter to a
// loopback receiver and returns the request it received, decoded: what
// the official transform makes of the spans.
type official struct {
	exp    sdktrace.SpanExporter
	bodies chan []byte
}

func newOfficial(tb testing.TB) *official {
	tb.Helper()
	o := &official{bodies: make(chan []byte, 1)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		o.bodies <- b
	}))
	tb.Cleanup(srv.Close)
	exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(srv.URL+"/v1/traces"),
		otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: false}))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = exp.Shutdown(context.Background()) })
	o.exp = exp
	return o
}

func (o *official) request(tb testing.TB, spans []sdktrace.ReadOnlySpan) *coltracepb.ExportTraceServiceRequest {
	tb.Helper()
	for len(o.bodies) > 0 { // left by a test that failed half-way
		<-o.bodies
	}
	if err := o.exp.ExportSpans(context.Background(), spans); err != nil {
		tb.Fatalf("the official exporter: %v", err)
	}
	select {
	case b := <-o.bodies:
		return decodeRequest(tb, b)
	default:
		tb.Fatal("the official exporter sent nothing")
	}
	return nil
}

func decodeRequest(tb testing.TB, b []byte) *coltracepb.ExportTraceServiceRequest {
	tb.Helper()
	var r coltracepb.ExportTraceServiceRequest
	if err := proto.Unmarshal(b, &r); err != nil {
		tb.Fatalf("the request does not decode: %v", err)
	}
	// The official transform lists resources in a map's order.
	slices.SortFunc(r.ResourceSpans, func(a, b *tracepb.ResourceSpans) int { return strings.Compare(a.String(), b.String()) })
	return &r
}

// sameRequest fails tb unless got and want are equal messages.
func sameRequest(tb testing.TB, got, want *coltracepb.ExportTraceServiceRequest) {
	tb.Helper()
	if !proto.Equal(got, want) {
		tb.Fatalf("judge's encoding decodes to\n%s\nthe official exporter's to\n%s", protojson.Format(got), protojson.Format(want))
	}
}

func spanCtx(tb testing.TB, tid, sid string, flags trace.TraceFlags, state string, remote bool) trace.SpanContext {
	tb.Helper()
	t, err := trace.TraceIDFromHex(tid)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := trace.SpanIDFromHex(sid)
	if err != nil {
		tb.Fatal(err)
	}
	ts, err := trace.ParseTraceState(state)
	if err != nil {
		tb.Fatal(err)
	}
	return trace.NewSpanContext(trace.SpanContextConfig{TraceID: t, SpanID: s, TraceFlags: flags, TraceState: ts, Remote: remote})
}

// everyAttribute holds a value of every attribute type, zero values and
// lengths that need more than one varint byte among them.
func everyAttribute() []attribute.KeyValue {
	long := strings.Repeat("ünïcode ", 40)
	return []attribute.KeyValue{
		attribute.Bool("t", true), attribute.Bool("f", false),
		attribute.Int64("zero", 0), attribute.Int64("neg", -42), attribute.Int64("max", math.MaxInt64),
		attribute.Float64("pi", 3.25), attribute.Float64("fzero", 0), attribute.Float64("nan", math.NaN()), attribute.Float64("inf", math.Inf(-1)),
		attribute.String("empty", ""), attribute.String("long", long), attribute.String("", "empty key"),
		attribute.BoolSlice("bs", []bool{true, false}), attribute.Int64Slice("is", []int64{0, -1, 1 << 40}),
		attribute.Float64Slice("fs", []float64{0, 1.5}), attribute.StringSlice("ss", []string{"", "a", long}),
		attribute.StringSlice("ss0", nil), attribute.ByteSlice("bytes", []byte{0, 1, 0xff}), attribute.ByteSlice("nobytes", nil),
		attribute.Slice("mixed", attribute.IntValue(1), attribute.StringValue("two"), attribute.SliceValue(attribute.BoolValue(true)),
			attribute.MapValue(attribute.String("k", "v")), attribute.Value{}),
		attribute.Map("map", attribute.Int("n", 1), attribute.Map("inner", attribute.Float64("x", -0.5))),
		attribute.Map("emptymap"), {Key: "emptyvalue"},
	}
}

// testSpans are spans whose every field is set somewhere: two
// resources (one with a schema URL), a nil one, three scopes (one the
// zero scope), interleaved so that grouping matters.
func testSpans(tb testing.TB) []sdktrace.ReadOnlySpan {
	tb.Helper()
	res1 := resource.NewWithAttributes("https://opentelemetry.io/schemas/1.26.0", attribute.String("service.name", "judge"), attribute.Int("n", 3))
	res2 := resource.NewSchemaless(attribute.String("service.name", "other"))
	scope1 := instrumentation.Scope{Name: ScopeName, Version: "1.2.3", SchemaURL: "https://example.com/s", Attributes: attribute.NewSet(attribute.Bool("scoped", true))}
	scope2 := instrumentation.Scope{Name: "other"}
	t0 := time.Date(2026, 11, 27, 10, 0, 0, 123456789, time.UTC)
	tid := "4bf92f3577b34da6a3ce929d0e0e4736"
	parent := spanCtx(tb, tid, "00f067aa0ba902b7", trace.FlagsSampled, "vendor=x,other=y", true)
	full := tracetest.SpanStub{
		Name:        "POST /validate",
		SpanContext: spanCtx(tb, tid, "a1b2c3d4e5f60718", trace.FlagsSampled, "vendor=x", false),
		Parent:      parent,
		SpanKind:    trace.SpanKindServer,
		StartTime:   t0, EndTime: t0.Add(1500 * time.Microsecond),
		Attributes: everyAttribute(),
		Events: []sdktrace.Event{
			{Name: "exception", Time: t0.Add(time.Microsecond), Attributes: []attribute.KeyValue{attribute.String("exception.message", "boom")}, DroppedAttributeCount: 2},
			{Name: "", Time: time.Time{}},
		},
		Links: []sdktrace.Link{
			{SpanContext: spanCtx(tb, "0123456789abcdef0123456789abcdef", "0123456789abcdef", 0, "k=v", true), Attributes: everyAttribute()[:3], DroppedAttributeCount: 1},
			{SpanContext: spanCtx(tb, tid, "1111111111111111", trace.FlagsSampled, "", false)},
		},
		Status:            sdktrace.Status{Code: codes.Error, Description: "the output is invalid"},
		DroppedAttributes: 3, DroppedEvents: 4, DroppedLinks: math.MaxInt32 + 10,
		Resource: res1, InstrumentationScope: scope1,
	}
	many := make([]attribute.KeyValue, 0, 400)
	for i := range 400 {
		many = append(many, attribute.String(strings.Repeat("k", i%50+1), strings.Repeat("v", i)))
	}
	stubs := tracetest.SpanStubs{
		full,
		{Name: "minimal", Resource: res2, InstrumentationScope: scope1}, // zero ids, times, kind, status
		{Name: "judge.validate", SpanContext: spanCtx(tb, tid, "2222222222222222", 0, "", false), Parent: full.SpanContext,
			SpanKind: trace.SpanKindClient, StartTime: t0, EndTime: t0, Status: sdktrace.Status{Code: codes.Ok},
			Resource: res1, InstrumentationScope: scope2},
		{Name: "big", SpanContext: spanCtx(tb, tid, "3333333333333333", trace.FlagsSampled, "", false), SpanKind: trace.SpanKindProducer,
			Attributes: many, Resource: res1, InstrumentationScope: scope1},
		{Name: "unscoped", SpanKind: trace.SpanKindConsumer, Resource: res2},
		{Name: "no resource", SpanKind: trace.SpanKind(9)},
		{Name: "string slices again", Resource: res1, InstrumentationScope: scope1, Attributes: []attribute.KeyValue{ // the encoder's memo of string slices
			attribute.StringSlice("a", []string{"schema"}), attribute.StringSlice("b", []string{"schema"}), attribute.StringSlice("c", []string{"schema", "facts"}),
			attribute.StringSlice("d", []string{"schema", "facts"}), attribute.StringSlice("e", []string{"facts"}), attribute.StringSlice("f", []string{"schema"}),
			attribute.StringSlice("i", []string{strings.Repeat("x", 200)}),
			attribute.StringSlice("j", []string{strings.Repeat("x", 200)}), attribute.StringSlice("k", nil), attribute.StringSlice("l", []string{}),
			attribute.StringSlice("m", []string{"schema"}),
			// more distinct values than the memo's slots, then the first
			// ones again: replaced slots must give the new values
			attribute.StringSlice("n1", []string{"1"}), attribute.StringSlice("n2", []string{"2"}), attribute.StringSlice("n3", []string{"3"}),
			attribute.StringSlice("n4", []string{"4"}), attribute.StringSlice("n5", []string{"5"}), attribute.StringSlice("n6", []string{"6"}),
			attribute.StringSlice("n7", []string{"7"}), attribute.StringSlice("n8", []string{"8"}), attribute.StringSlice("n9", []string{"9", "x"}),
			attribute.StringSlice("o1", []string{"schema"}), attribute.StringSlice("o2", []string{"1"}), attribute.StringSlice("o3", []string{"9", "x"}),
			attribute.StringSlice("o4", []string{"schema", "facts"}), attribute.StringSlice("o5", []string{"8"}),
		}},
		{Name: "same resource, another pointer", SpanKind: trace.SpanKindInternal,
			Resource:             resource.NewWithAttributes("https://opentelemetry.io/schemas/1.26.0", attribute.String("service.name", "judge"), attribute.Int("n", 3)),
			InstrumentationScope: scope2},
	}
	out := stubs.Snapshots()
	return append(out[:2], append([]sdktrace.ReadOnlySpan{nil}, out[2:]...)...)
}

// TestEncodeMatchesOfficial: the bytes judge's encoder writes decode,
// with the official proto types, to what the official exporter sends
// for the same spans, batch after batch with the buffer reused.
func TestEncodeMatchesOfficial(t *testing.T) {
	t.Parallel()
	off := newOfficial(t)
	spans := testSpans(t)
	reversed := slices.Clone(spans)
	slices.Reverse(reversed)
	var enc otlpEncoder
	for _, c := range []struct {
		name  string
		spans []sdktrace.ReadOnlySpan
	}{
		{"every field", spans},
		{"one span", spans[:1]},
		{"reversed", reversed},
		{"the big span alone", spans[4:5]},
	} {
		want := off.request(t, c.spans)
		sameRequest(t, decodeRequest(t, enc.encode(c.spans)), want)
		if c.name == "every field" && (len(want.ResourceSpans) != 3 || len(want.ResourceSpans[0].ScopeSpans)+len(want.ResourceSpans[1].ScopeSpans)+len(want.ResourceSpans[2].ScopeSpans) != 5) {
			t.Fatalf("%s: the test spans should make 3 resources and 5 scopes: %s", c.name, protojson.Format(want))
		}
	}
	if b := enc.encode(nil); len(b) != 0 {
		t.Fatalf("no span encodes to %d bytes", len(b))
	}
}

// TestEncodeInvalidUTF8: a string with bytes that are not UTF-8 is
// sent with U+FFFD in their place, where proto.Marshal (and so the
// official exporter) would refuse the whole batch.
func TestEncodeInvalidUTF8(t *testing.T) {
	t.Parallel()
	bad := tracetest.SpanStub{Name: "bad\xffname", Attributes: []attribute.KeyValue{attribute.String("k\xfe", "v\xc3"), attribute.StringSlice("s", []string{"\x80"})}}
	good := tracetest.SpanStub{Name: "bad\uFFFDname", Attributes: []attribute.KeyValue{attribute.String("k\uFFFD", "v\uFFFD"), attribute.StringSlice("s", []string{"\uFFFD"})}}
	var enc otlpEncoder
	got := decodeRequest(t, enc.encode([]sdktrace.ReadOnlySpan{bad.Snapshot()}))
	sameRequest(t, got, newOfficial(t).request(t, []sdktrace.ReadOnlySpan{good.Snapshot()}))
}

// FuzzOTLPEncode builds spans from the fuzzer's strings and numbers and
// checks that judge's encoding decodes (proto.Unmarshal checks that
// every string is UTF-8) to the official exporter's for the same spans
// when their strings are UTF-8 (the official exporter refuses others;
// TestEncodeInvalidUTF8 checks what judge's sends instead).
func FuzzOTLPEncode(f *testing.F) {
	f.Add("POST /validate", "judge.valid", "ok", int64(1), 0.5, []byte{1, 2}, "vendor=x", uint8(2), uint8(1), 3)
	f.Add("", "", "", int64(-1), math.Inf(1), []byte(nil), "", uint8(0), uint8(0), 0)
	f.Add(strings.Repeat("x", 200), "\xff", "\xc3", int64(math.MinInt64), math.Copysign(0, -1), bytes.Repeat([]byte{0}, 300), "a=b,c=d", uint8(5), uint8(2), 1000)
	off := newOfficial(f)
	var enc otlpEncoder
	f.Fuzz(func(t *testing.T, name, key, str string, n int64, x float64, raw []byte, state string, kind, code uint8, count int) {
		mk := func(fix func(string) string) []sdktrace.ReadOnlySpan {
			ts, err := trace.ParseTraceState(state)
			if err != nil {
				ts = trace.TraceState{}
			}
			var tid trace.TraceID
			var sid trace.SpanID
			copy(tid[:], raw)
			copy(sid[:], raw[min(len(raw), 16):])
			sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceState: ts, TraceFlags: trace.TraceFlags(kind), Remote: code%2 == 1})
			attrs := []attribute.KeyValue{
				attribute.String(fix(key), fix(str)), attribute.Int64(fix(str), n), attribute.Float64(fix(key)+"f", x), attribute.Bool(fix(name)+"b", n%2 == 0),
				attribute.ByteSlice("raw", raw), attribute.StringSlice(fix(name), []string{fix(key), fix(str)}),
				attribute.Map(fix(key), attribute.String(fix(str), fix(name)), attribute.Slice(fix(name), attribute.Int64Value(n))),
			}
			t0 := time.Unix(0, n)
			stub := tracetest.SpanStub{
				Name: fix(name), SpanContext: sc, Parent: sc, SpanKind: trace.SpanKind(kind), StartTime: t0, EndTime: t0.Add(time.Duration(count)),
				Attributes: attrs, Events: []sdktrace.Event{{Name: fix(str), Time: t0, Attributes: attrs[:count&3], DroppedAttributeCount: count}},
				Links:  []sdktrace.Link{{SpanContext: sc, Attributes: attrs[count&3:], DroppedAttributeCount: -count}},
				Status: sdktrace.Status{Code: codes.Code(code % 4), Description: fix(str)}, DroppedAttributes: count, DroppedEvents: count * 2, DroppedLinks: count,
				Resource:             resource.NewSchemaless(attribute.String(fix(key), fix(name))),
				InstrumentationScope: instrumentation.Scope{Name: fix(name), Version: fix(str), SchemaURL: fix(key)},
			}
			return tracetest.SpanStubs{stub, stub}.Snapshots()
		}
		got := decodeRequest(t, enc.encode(mk(func(s string) string { return s }))) // proto.Unmarshal checks UTF-8
		// A span's attributes written whole from their encoding made
		// apart (a request's or a verdict's block: span.endWith,
		// span.SetBlock) are the bytes of the attributes themselves.
		sp := mk(func(s string) string { return s })[0]
		d := spanData{sc: sp.SpanContext(), parent: sp.Parent(), name: sp.Name(), kind: sp.SpanKind(), start: sp.StartTime(), end: sp.EndTime(), status: sp.Status(),
			attrs: sp.Attributes(), droppedAttrs: sp.DroppedAttributes(), events: sp.Events(), droppedEvents: sp.DroppedEvents(), links: sp.Links(), droppedLinks: sp.DroppedLinks()}
		var whole, block, apart otlpEncoder
		whole.encodeData(&d, nil)
		for _, kv := range d.attrs {
			block.keyValue(fSpanAttributes, kv)
		}
		d.attrs = nil
		apart.encodeData(&d, block.b)
		if !bytes.Equal(whole.b, apart.b) {
			t.Fatalf("the span with its attributes written whole:\n%x\nwith them one by one:\n%x", apart.b, whole.b)
		}
		if !utf8.ValidString(name) || !utf8.ValidString(key) || !utf8.ValidString(str) {
			// Made valid, the strings may sort differently in the
			// attribute sets: TestEncodeInvalidUTF8 checks the
			// replacement; here, that the request decodes.
			return
		}
		sameRequest(t, got, off.request(t, mk(func(s string) string { return s })))
	})
}

// TestEncodeEncodedScopes: a batch of judge's own spans from tracers of
// different scopes, interleaved (two tracers of one scope among them),
// is written as one ScopeSpans per distinct scope, in the order the
// scopes first appear, each with its spans in their order: what encode
// writes for the SDK's spans of the same scopes.
func TestEncodeEncodedScopes(t *testing.T) {
	t.Parallel()
	a := instrumentation.Scope{Name: "a", Version: "1"}
	b := instrumentation.Scope{Name: "b", SchemaURL: "https://opentelemetry.io/schemas/1.26.0"}
	ta, tb, ta2, t0 := &tracer{scope: a}, &tracer{scope: b}, &tracer{scope: a}, &tracer{}
	res := resource.NewSchemaless(attribute.String("service.name", "judge"))
	for _, c := range []struct {
		name    string
		tracers []*tracer
		want    [][]int // per scope in order, the indexes of its spans
	}{
		{"one tracer", []*tracer{ta, ta, ta}, [][]int{{0, 1, 2}}},
		{"interleaved", []*tracer{ta, tb, ta2, ta, tb, t0, tb}, [][]int{{0, 2, 3}, {1, 4, 6}, {5}}},
		{"runs", []*tracer{tb, tb, ta, ta, ta2, tb}, [][]int{{0, 1, 5}, {2, 3, 4}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var spans []encSpan
			for i, tr := range c.tracers {
				spans = append(spans, encSpan{tr, []byte{fScopeSpansSpans<<3 | wireBytes, 3, fSpanName<<3 | wireBytes, 1, byte('a' + i)}}) // a Span named by its index
			}
			var e otlpEncoder
			got := decodeRequest(t, slices.Clone(e.encodeEncoded(res, spans)))
			if n := len(got.ResourceSpans); n != 1 {
				t.Fatalf("%d ResourceSpans, want 1", n)
			}
			ss := got.ResourceSpans[0].ScopeSpans
			if len(ss) != len(c.want) {
				t.Fatalf("%d ScopeSpans, want %d", len(ss), len(c.want))
			}
			for g, want := range c.want {
				scope := c.tracers[want[0]].scope
				if ss[g].GetScope().GetName() != scope.Name || ss[g].GetScope().GetVersion() != scope.Version || ss[g].SchemaUrl != scope.SchemaURL {
					t.Errorf("ScopeSpans %d: scope %v, schema %q, want %+v", g, ss[g].GetScope(), ss[g].SchemaUrl, scope)
				}
				var ids []int
				for _, s := range ss[g].Spans {
					ids = append(ids, int(s.Name[0]-'a'))
				}
				if !slices.Equal(ids, want) {
					t.Errorf("ScopeSpans %d: spans %v, want %v", g, ids, want)
				}
			}
		})
	}
}

// TestValidUTF8: validUTF8 is utf8.ValidString for strings of 1 to 24
// bytes, ASCII or not, valid or not, with a byte of every value at every
// position (so that the last, overlapping word and every tail are read).
func TestValidUTF8(t *testing.T) {
	t.Parallel()
	for _, fill := range []string{"a", "é", "\x7f"} {
		for n := 1; n <= 24; n++ {
			base := []byte(strings.Repeat(fill, n))[:n]
			for pos := range n {
				for v := range 256 {
					b := bytes.Clone(base)
					b[pos] = byte(v)
					if got, want := validUTF8(string(b)), utf8.Valid(b); got != want {
						t.Fatalf("validUTF8(%q) = %v, want %v", b, got, want)
					}
				}
			}
		}
	}
}

// FuzzValidUTF8 holds validUTF8 to utf8.ValidString.
func FuzzValidUTF8(f *testing.F) {
	f.Add("POST /validate")
	f.Add("judge.validate \xff")
	f.Add("ünïcödé, then ASCII")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validUTF8(s), utf8.ValidString(s); got != want {
			t.Fatalf("validUTF8(%q) = %v, want %v", s, got, want)
		}
	})
}

// TestCloseWide: a message opened with a two-byte length (openWide) is
// written byte for byte as open and close write it, whatever its length:
// under 128 bytes (moved down), 128 to 16383 (in place), longer (moved
// up), each behind a prefix and followed by more bytes.
func TestCloseWide(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 127, 128, 129, 300, 16383, 16384, 16385, 1 << 21} {
		content := bytes.Repeat([]byte{0xa5}, n)
		var narrow, wide otlpEncoder
		for _, e := range []*otlpEncoder{&narrow, &wide} {
			e.b = append(e.b, "prefix"...)
		}
		m := narrow.open(fScopeSpansSpans)
		narrow.b = append(narrow.b, content...)
		narrow.close(m)
		m = wide.openWide(fScopeSpansSpans)
		wide.b = append(wide.b, content...)
		wide.closeWide(m)
		narrow.b, wide.b = append(narrow.b, 1, 2), append(wide.b, 1, 2)
		if !bytes.Equal(narrow.b, wide.b) {
			t.Fatalf("length %d: openWide/closeWide wrote %d bytes, open/close %d", n, len(wide.b), len(narrow.b))
		}
	}
}

// TestEncodeDataWide: a span written with a two-byte length (its
// pre-encoded attributes make it 128 bytes or longer) is the span
// written without them in pre, the same attributes as its own.
func TestEncodeDataWide(t *testing.T) {
	t.Parallel()
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1, 2, 3}, SpanID: trace.SpanID{4, 5, 6}, TraceFlags: trace.FlagsSampled})
	start := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	for _, n := range []int{1, 2, 3, 6, 400} {
		var kv []attribute.KeyValue
		for i := range n {
			kv = append(kv, attribute.Int(fmt.Sprintf("k%d", i), i))
		}
		var pre otlpEncoder
		for _, a := range kv {
			pre.keyValue(fSpanAttributes, a)
		}
		for _, d := range []spanData{
			{sc: sc, name: "judge.validate", start: start, end: start.Add(time.Millisecond)},
			{sc: sc, name: "zero times"},
			{sc: sc, name: strings.Repeat("long name ", 2000), start: start, end: start},
		} {
			var with, without otlpEncoder
			with.encodeData(&d, pre.b)
			d.attrs = kv
			without.encodeData(&d, nil)
			if !bytes.Equal(with.b, without.b) {
				t.Fatalf("%d attributes, %.20q: with pre %d bytes, without %d", n, d.name, len(with.b), len(without.b))
			}
		}
	}
}

// TestStrAlways: a string field is written as protowire writes it, a
// one-byte tag and length taken directly (field numbers up to 15,
// strings under 128 bytes) or not, at each side of those bounds.
func TestStrAlways(t *testing.T) {
	t.Parallel()
	for _, num := range []protowire.Number{1, 15, 16, 300} {
		for _, n := range []int{0, 1, 127, 128, 129, 20000} {
			s := strings.Repeat("x", n)
			var e otlpEncoder
			e.strAlways(num, s)
			want := protowire.AppendString(protowire.AppendTag(nil, num, protowire.BytesType), s)
			if !bytes.Equal(e.b, want) {
				t.Fatalf("field %d, %d bytes: %x…, want %x…", num, n, e.b[:min(8, len(e.b))], want[:min(8, len(want))])
			}
		}
	}
}
