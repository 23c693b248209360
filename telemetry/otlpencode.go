package telemetry

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/protobuf/encoding/protowire"
)

// otlpEncoder writes spans as an OTLP ExportTraceServiceRequest in the
// protobuf wire format, straight from the SDK's read-only spans: no
// intermediate protobuf structs. Its buffer and grouping state are reused
// from one batch to the next. The bytes decode, with the official proto
// types, to what the official exporter's transform makes of the same
// spans (otlpencode_test.go checks it field by field), with two
// differences: a string that is not valid UTF-8 has its bad bytes
// replaced by U+FFFD (proto.Marshal refuses the whole batch instead),
// and a link's trace state is left out, as the official transform does.
//
// Nested messages are written behind a one-byte length that is widened,
// moving the message's bytes, only when the message turns out to be
// 128 bytes or longer: every length stays the shortest varint.
type otlpEncoder struct {
	b []byte
	// groups holds the batch's distinct (resource, scope) pairs in the
	// order they first appear; of holds each span's group.
	groups []spanGroup
	of     []int32
	// memo holds the last short string slice values written and their
	// encodings, written again for an equal value: attribute.Value gives
	// a string slice only as a copy, an allocation each time, and a
	// span's string slices (judge's judge.validation_types and
	// judge.issue_types) repeat from one span to the next. A pointer, so
	// that emptying a pooled record keeps it at the cost of one word.
	memo *sliceMemo
}

// maxMemo bounds each string slice encoding an encoder keeps.
const maxMemo = 128

// memoSlots is how many string slice values a memo keeps: a span of an
// invalid document has two (its issue types and its layers), and the
// documents of a workload alternate between a few such pairs.
const memoSlots = 8

// sliceMemo is an encoder's memo of string slice values (see otlpEncoder).
type sliceMemo struct {
	v    [memoSlots]attribute.Value
	enc  [memoSlots][]byte
	n    int // slots filled
	next int // the slot the next new value replaces, once all are filled
}

// lookup returns the encoding kept for v (a STRINGSLICE value), if any.
func (m *sliceMemo) lookup(v attribute.Value) ([]byte, bool) {
	for i := range m.n {
		if m.v[i] == v {
			return m.enc[i], true
		}
	}
	return nil, false
}

// keep keeps enc as v's encoding, in a free slot or the oldest one.
func (m *sliceMemo) keep(v attribute.Value, enc []byte) {
	i := m.n
	if i < memoSlots {
		m.n++
	} else {
		i = m.next
		m.next = (m.next + 1) % memoSlots
	}
	m.v[i], m.enc[i] = v, append(m.enc[i][:0], enc...)
}

// spanGroup is one (resource, scope) pair of a batch.
type spanGroup struct {
	res   *resource.Resource
	rkey  attribute.Distinct
	scope instrumentation.Scope
	// first is the index of the first group with the same resource.
	first int
}

// OTLP field numbers (opentelemetry/proto/…/v1/*.proto).
const (
	fRequestResourceSpans = 1

	fResourceSpansResource   = 1
	fResourceSpansScopeSpans = 2
	fResourceSpansSchemaURL  = 3
	fResourceAttributes      = 1

	fScopeSpansScope     = 1
	fScopeSpansSpans     = 2
	fScopeSpansSchemaURL = 3
	fScopeName           = 1
	fScopeVersion        = 2
	fScopeAttributes     = 3

	fSpanTraceID           = 1
	fSpanSpanID            = 2
	fSpanTraceState        = 3
	fSpanParentSpanID      = 4
	fSpanName              = 5
	fSpanKind              = 6
	fSpanStart             = 7
	fSpanEnd               = 8
	fSpanAttributes        = 9
	fSpanDroppedAttributes = 10
	fSpanEvents            = 11
	fSpanDroppedEvents     = 12
	fSpanLinks             = 13
	fSpanDroppedLinks      = 14
	fSpanStatus            = 15
	fSpanFlags             = 16

	fEventTime              = 1
	fEventName              = 2
	fEventAttributes        = 3
	fEventDroppedAttributes = 4

	fLinkTraceID           = 1
	fLinkSpanID            = 2
	fLinkAttributes        = 4
	fLinkDroppedAttributes = 5
	fLinkFlags             = 6

	fStatusMessage = 2
	fStatusCode    = 3

	fKeyValueKey   = 1
	fKeyValueValue = 2

	fAnyString = 1
	fAnyBool   = 2
	fAnyInt    = 3
	fAnyDouble = 4
	fAnyArray  = 5
	fAnyKvlist = 6
	fAnyBytes  = 7

	fListValues = 1 // ArrayValue.values and KeyValueList.values

	// flagHasIsRemote and flagIsRemote are SpanFlags' bits 8 and 9.
	flagHasIsRemote = 0x100
	flagIsRemote    = 0x200
)

// spanView is what the encoder reads of a span: the SDK's read-only span
// has it (judge's own record of a span, spanRec, holds its spanData).
type spanView interface {
	Name() string
	SpanContext() trace.SpanContext
	Parent() trace.SpanContext
	SpanKind() trace.SpanKind
	StartTime() time.Time
	EndTime() time.Time
	Attributes() []attribute.KeyValue
	DroppedAttributes() int
	Events() []sdktrace.Event
	DroppedEvents() int
	Links() []sdktrace.Link
	DroppedLinks() int
	Status() sdktrace.Status
	Resource() *resource.Resource
	InstrumentationScope() instrumentation.Scope
}

// encode returns the ExportTraceServiceRequest of spans, in e's buffer:
// valid until the next call.
func (e *otlpEncoder) encode(spans []sdktrace.ReadOnlySpan) []byte { return encodeSpans(e, spans) }

// encodeSpans is encode of any spans the encoder can read; a nil one is
// skipped.
func encodeSpans[S spanView](e *otlpEncoder, spans []S) []byte {
	e.b, e.groups, e.of = e.b[:0], e.groups[:0], e.of[:0]
	last := -1
	for _, s := range spans {
		if any(s) == nil {
			e.of = append(e.of, -1)
			continue
		}
		res, scope := s.Resource(), s.InstrumentationScope()
		if last >= 0 && e.groups[last].res == res && e.groups[last].scope == scope {
			e.of = append(e.of, int32(last))
			continue
		}
		last = e.group(res, scope)
		e.of = append(e.of, int32(last))
	}
	for g := range e.groups {
		if e.groups[g].first != g {
			continue // written with its resource's first group
		}
		rs := e.open(fRequestResourceSpans)
		res := e.groups[g].res
		if res != nil {
			r := e.open(fResourceSpansResource)
			for it := res.Iter(); it.Next(); {
				e.keyValue(fResourceAttributes, it.Attribute())
			}
			e.close(r)
		}
		for h := g; h < len(e.groups); h++ {
			if e.groups[h].first == g {
				scopeSpans(e, h, spans)
			}
		}
		e.str(fResourceSpansSchemaURL, res.SchemaURL())
		e.close(rs)
	}
	return e.b
}

// encodeEncoded returns the ExportTraceServiceRequest of spans already
// encoded (judge's own, see provider), all of resource res: one
// ResourceSpans, a ScopeSpans per distinct scope in the order the scopes
// first appear, each span's bytes copied in, in order. It is what encode
// writes for the same spans.
func (e *otlpEncoder) encodeEncoded(res *resource.Resource, spans []encSpan) []byte {
	e.b, e.groups = e.b[:0], e.groups[:0]
	if len(spans) == 0 {
		return e.b
	}
	// The distinct scopes, in e.groups (only their scope is used). A
	// batch's spans come from a tracer or two, so a span of the tracer
	// of the span before it is not compared again (a scope comparison
	// is four strings and an attribute set).
	var last *tracer
	for _, s := range spans {
		if s.tr == last {
			continue
		}
		last = s.tr
		if !slices.ContainsFunc(e.groups, func(g spanGroup) bool { return g.scope == s.tr.scope }) {
			e.groups = append(e.groups, spanGroup{scope: s.tr.scope})
		}
	}
	rs := e.open(fRequestResourceSpans)
	r := e.open(fResourceSpansResource)
	for it := res.Iter(); it.Next(); {
		e.keyValue(fResourceAttributes, it.Attribute())
	}
	e.close(r)
	for _, g := range e.groups {
		ss := e.open(fResourceSpansScopeSpans)
		e.scope(g.scope)
		last, in := (*tracer)(nil), false // the last span's tracer, and whether its scope is g's
		for _, s := range spans {
			if s.tr != last {
				last, in = s.tr, s.tr.scope == g.scope
			}
			if in {
				e.b = append(e.b, s.b...)
			}
		}
		e.str(fScopeSpansSchemaURL, g.scope.SchemaURL)
		e.close(ss)
	}
	e.str(fResourceSpansSchemaURL, res.SchemaURL())
	e.close(rs)
	return e.b
}

// scope writes a ScopeSpans' scope, none for the zero scope.
func (e *otlpEncoder) scope(scope instrumentation.Scope) {
	if scope == (instrumentation.Scope{}) {
		return
	}
	sc := e.open(fScopeSpansScope)
	e.str(fScopeName, scope.Name)
	e.str(fScopeVersion, scope.Version)
	for it := scope.Attributes.Iter(); it.Next(); {
		e.keyValue(fScopeAttributes, it.Attribute())
	}
	e.close(sc)
}

// group returns the index of the group of (res, scope), added if new.
func (e *otlpEncoder) group(res *resource.Resource, scope instrumentation.Scope) int {
	rkey := res.Equivalent()
	first := -1
	for i, g := range e.groups {
		if g.res != res && g.rkey != rkey {
			continue
		}
		if first < 0 {
			first = i
		}
		if g.scope == scope {
			return i
		}
	}
	if first < 0 {
		first = len(e.groups)
	}
	e.groups = append(e.groups, spanGroup{res: res, rkey: rkey, scope: scope, first: first})
	return len(e.groups) - 1
}

// scopeSpans writes group g's ScopeSpans.
func scopeSpans[S spanView](e *otlpEncoder, g int, spans []S) {
	ss := e.open(fResourceSpansScopeSpans)
	scope := e.groups[g].scope
	e.scope(scope)
	for i, s := range spans {
		if e.of[i] == int32(g) {
			encodeSpan(e, s)
		}
	}
	e.str(fScopeSpansSchemaURL, scope.SchemaURL)
	e.close(ss)
}

// spanData is what a Span message holds of a span, as the SDK's
// read-only span reports it.
type spanData struct {
	sc, parent trace.SpanContext
	name       string
	kind       trace.SpanKind
	start, end time.Time
	status     sdktrace.Status

	attrs         []attribute.KeyValue // distinct keys, in the order first set
	droppedAttrs  int
	events        []sdktrace.Event
	droppedEvents int
	links         []sdktrace.Link
	droppedLinks  int
}

// encodeSpan writes one Span.
func encodeSpan[S spanView](e *otlpEncoder, s S) {
	e.encodeData(&spanData{
		sc: s.SpanContext(), parent: s.Parent(), name: s.Name(), kind: s.SpanKind(), start: s.StartTime(), end: s.EndTime(), status: s.Status(),
		attrs: s.Attributes(), droppedAttrs: s.DroppedAttributes(), events: s.Events(), droppedEvents: s.DroppedEvents(),
		links: s.Links(), droppedLinks: s.DroppedLinks(),
	}, nil)
}

// Wire types as bytes, for tags written directly (a field number up to
// 15 makes a one-byte tag: num<<3 | type).
const (
	wireBytes   = byte(protowire.BytesType)
	wireVarint  = byte(protowire.VarintType)
	wireFixed64 = byte(protowire.Fixed64Type)
	wireFixed32 = byte(protowire.Fixed32Type)
)

// encodeData writes one Span of s's data. Its fixed-size fields (ids,
// kind, times, a status without a message, flags) are written
// directly, their tags and lengths known: what bytes, uint, fixed64 and
// close would write.
//
// pre, when not nil, holds more of the span's attributes, after s.attrs,
// already encoded (KeyValue messages of field fSpanAttributes, keys not
// among s.attrs'): a request's or a verdict's, encoded once for many
// spans (see span.endWith, span.SetBlock).
func (e *otlpEncoder) encodeData(s *spanData, pre []byte) {
	// A span of pre-encoded attributes is 128 bytes or longer (judge
	// serve's two spans are): its length is given two bytes at once,
	// where open's one byte would be widened at close by moving the
	// whole message.
	var m int
	if minSpanLen+len(pre) >= 0x80 {
		m = e.openWide(fScopeSpansSpans)
	} else {
		m = e.open(fScopeSpansSpans)
	}
	tid, sid := s.sc.TraceID(), s.sc.SpanID()
	e.b = append(e.b, fSpanTraceID<<3|wireBytes, byte(len(tid)))
	e.b = append(e.b, tid[:]...)
	e.b = append(e.b, fSpanSpanID<<3|wireBytes, byte(len(sid)))
	e.b = append(e.b, sid[:]...)
	if ts := s.sc.TraceState(); ts.Len() > 0 {
		e.str(fSpanTraceState, ts.String())
	}
	if psid := s.parent.SpanID(); psid.IsValid() {
		e.b = append(e.b, fSpanParentSpanID<<3|wireBytes, byte(len(psid)))
		e.b = append(e.b, psid[:]...)
	}
	e.str(fSpanName, s.name)
	if k := spanKind(s.kind); k != 0 { // at most 5: one byte
		e.b = append(e.b, fSpanKind<<3|wireVarint, byte(k))
	}
	if v := unixNano(s.start.UnixNano()); v != 0 {
		e.b = binary.LittleEndian.AppendUint64(append(e.b, fSpanStart<<3|wireFixed64), v)
	}
	if v := unixNano(s.end.UnixNano()); v != 0 {
		e.b = binary.LittleEndian.AppendUint64(append(e.b, fSpanEnd<<3|wireFixed64), v)
	}
	for i := range s.attrs {
		e.keyValue(fSpanAttributes, s.attrs[i])
	}
	e.b = append(e.b, pre...)
	if s.droppedAttrs > 0 {
		e.uint(fSpanDroppedAttributes, clampCount(s.droppedAttrs))
	}
	for _, ev := range s.events {
		m := e.open(fSpanEvents)
		e.fixed64(fEventTime, unixNano(ev.Time.UnixNano()))
		e.str(fEventName, ev.Name)
		for _, kv := range ev.Attributes {
			e.keyValue(fEventAttributes, kv)
		}
		e.uint(fEventDroppedAttributes, clampCount(ev.DroppedAttributeCount))
		e.close(m)
	}
	if s.droppedEvents > 0 {
		e.uint(fSpanDroppedEvents, clampCount(s.droppedEvents))
	}
	for _, l := range s.links {
		m := e.open(fSpanLinks)
		ltid, lsid := l.SpanContext.TraceID(), l.SpanContext.SpanID()
		e.bytes(fLinkTraceID, ltid[:])
		e.bytes(fLinkSpanID, lsid[:])
		for _, kv := range l.Attributes {
			e.keyValue(fLinkAttributes, kv)
		}
		e.uint(fLinkDroppedAttributes, clampCount(l.DroppedAttributeCount))
		e.fixed32(fLinkFlags, spanFlags(l.SpanContext.TraceFlags(), l.SpanContext))
		e.close(m)
	}
	if s.droppedLinks > 0 {
		e.uint(fSpanDroppedLinks, clampCount(s.droppedLinks))
	}
	switch c := statusCode(s.status.Code); {
	case s.status.Description != "":
		st := e.open(fSpanStatus)
		e.str(fStatusMessage, s.status.Description)
		e.uint(fStatusCode, c)
		e.close(st)
	case c == 0: // an empty Status
		e.b = append(e.b, fSpanStatus<<3|wireBytes, 0)
	default: // its code alone (at most 2: one byte)
		e.b = append(e.b, fSpanStatus<<3|wireBytes, 2, fStatusCode<<3|wireVarint, byte(c))
	}
	// Field 16's tag is two bytes; the flags are never 0 (flagHasIsRemote).
	const flagsTag = fSpanFlags<<3 | uint64(protowire.Fixed32Type)
	e.b = append(e.b, byte(flagsTag&0x7f|0x80), byte(flagsTag>>7))
	e.b = binary.LittleEndian.AppendUint32(e.b, spanFlags(s.sc.TraceFlags(), s.parent))
	if minSpanLen+len(pre) >= 0x80 {
		e.closeWide(m)
	} else {
		e.close(m)
	}
}

// keyValue writes kv as a KeyValue message in field num.
func (e *otlpEncoder) keyValue(num protowire.Number, kv attribute.KeyValue) {
	if e.shortKeyValue(num, kv) {
		return
	}
	m := e.open(num)
	e.str(fKeyValueKey, string(kv.Key))
	e.value(fKeyValueValue, kv.Value)
	e.close(m)
}

// shortKeyValue writes kv as keyValue does, in one go with its lengths
// known before it is written, when kv is short (the message under 128
// bytes: every length one byte) with a UTF-8 key and a bool, int, double
// or UTF-8 string value: most attributes. It reports whether it did.
func (e *otlpEncoder) shortKeyValue(num protowire.Number, kv attribute.KeyValue) bool {
	k := string(kv.Key)
	if k == "" || len(k) > 100 || num > 15 {
		return false
	}
	var (
		n int    // the AnyValue's length
		u uint64 // an int's varint
		s string // a string's value
	)
	t := kv.Value.Type()
	switch t {
	case attribute.BOOL:
		n = 2
	case attribute.INT64:
		u = uint64(kv.Value.AsInt64())
		n = 1 + protowire.SizeVarint(u)
	case attribute.FLOAT64:
		n = 9
	case attribute.STRING:
		if s = kv.Value.AsString(); len(s) > 100 || !utf8.ValidString(s) {
			return false
		}
		n = 2 + len(s)
	default:
		return false
	}
	size := 2 + len(k) + 2 + n
	if size >= 0x80 || !utf8.ValidString(k) {
		return false
	}
	const bytesType, varintType, fixed64Type = byte(protowire.BytesType), byte(protowire.VarintType), byte(protowire.Fixed64Type)
	e.b = append(e.b, byte(num)<<3|bytesType, byte(size), fKeyValueKey<<3|bytesType, byte(len(k)))
	e.b = append(e.b, k...)
	e.b = append(e.b, fKeyValueValue<<3|bytesType, byte(n))
	switch t {
	case attribute.BOOL:
		e.b = append(e.b, fAnyBool<<3|varintType, byte(protowire.EncodeBool(kv.Value.AsBool())))
	case attribute.INT64:
		e.b = protowire.AppendVarint(append(e.b, fAnyInt<<3|varintType), u)
	case attribute.FLOAT64:
		e.b = protowire.AppendFixed64(append(e.b, fAnyDouble<<3|fixed64Type), math.Float64bits(kv.Value.AsFloat64()))
	case attribute.STRING:
		e.b = append(append(e.b, fAnyString<<3|bytesType, byte(len(s))), s...)
	}
	return true
}

// value writes v as an AnyValue message in field num. The oneof's field
// is written even when it holds its type's zero value.
func (e *otlpEncoder) value(num protowire.Number, v attribute.Value) {
	m := e.open(num)
	switch v.Type() {
	case attribute.EMPTY:
	case attribute.BOOL:
		e.b = protowire.AppendTag(e.b, fAnyBool, protowire.VarintType)
		e.b = protowire.AppendVarint(e.b, protowire.EncodeBool(v.AsBool()))
	case attribute.INT64:
		e.b = protowire.AppendTag(e.b, fAnyInt, protowire.VarintType)
		e.b = protowire.AppendVarint(e.b, uint64(v.AsInt64()))
	case attribute.FLOAT64:
		e.b = protowire.AppendTag(e.b, fAnyDouble, protowire.Fixed64Type)
		e.b = protowire.AppendFixed64(e.b, math.Float64bits(v.AsFloat64()))
	case attribute.STRING:
		e.strAlways(fAnyString, v.AsString())
	case attribute.BYTESLICE:
		e.b = protowire.AppendTag(e.b, fAnyBytes, protowire.BytesType)
		e.b = protowire.AppendBytes(e.b, v.AsByteSlice())
	case attribute.BOOLSLICE:
		appendArray(e, v.AsBoolSlice(), attribute.BoolValue)
	case attribute.INT64SLICE:
		appendArray(e, v.AsInt64Slice(), attribute.Int64Value)
	case attribute.FLOAT64SLICE:
		appendArray(e, v.AsFloat64Slice(), attribute.Float64Value)
	case attribute.STRINGSLICE:
		if e.memo == nil {
			e.memo = &sliceMemo{}
		}
		if enc, ok := e.memo.lookup(v); ok {
			e.b = append(e.b, enc...)
			break
		}
		from := len(e.b)
		appendArray(e, v.AsStringSlice(), attribute.StringValue)
		if enc := e.b[from:]; len(enc) <= maxMemo {
			e.memo.keep(v, enc)
		}
	case attribute.SLICE:
		appendArray(e, v.AsSlice(), func(x attribute.Value) attribute.Value { return x })
	case attribute.MAP:
		a := e.open(fAnyKvlist)
		for _, kv := range v.AsMap() {
			e.keyValue(fListValues, kv)
		}
		e.close(a)
	default:
		e.strAlways(fAnyString, "INVALID")
	}
	e.close(m)
}

// appendArray writes xs as an AnyValue's ArrayValue, each element as
// value makes it.
func appendArray[T any](e *otlpEncoder, xs []T, value func(T) attribute.Value) {
	a := e.open(fAnyArray)
	for _, x := range xs {
		e.value(fListValues, value(x))
	}
	e.close(a)
}

// open starts a length-delimited field num with a one-byte length and
// returns where its content starts, for close.
func (e *otlpEncoder) open(num protowire.Number) int {
	e.b = protowire.AppendTag(e.b, num, protowire.BytesType)
	e.b = append(e.b, 0)
	return len(e.b)
}

// close ends the field open returned start for: it writes the content's
// length, widening it (and moving the content) when one byte is not
// enough.
func (e *otlpEncoder) close(start int) {
	n := len(e.b) - start
	if n < 0x80 {
		e.b[start-1] = byte(n)
		return
	}
	e.widen(start, 1, n)
}

// widen writes the length n of the content at start, behind which has
// room bytes for it, moving the content by what a varint of n needs more.
func (e *otlpEncoder) widen(start, room, n int) {
	k := protowire.SizeVarint(uint64(n))
	e.b = append(e.b, make([]byte, k-room)...) // no allocation when it fits
	copy(e.b[start-room+k:], e.b[start:start+n])
	protowire.AppendVarint(e.b[:start-room], uint64(n))
}

// minSpanLen is the fewest bytes encodeData writes for a span before its
// attributes: its ids (18 and 10 bytes), its start and end times (9
// each), an empty status (2) and its flags (6).
const minSpanLen = 18 + 10 + 9 + 9 + 2 + 6

// openWide is open for a message known to be 128 bytes or longer, of
// a field number up to 15 (a one-byte tag): its length gets two bytes,
// for closeWide.
func (e *otlpEncoder) openWide(num protowire.Number) int {
	e.b = append(e.b, byte(num)<<3|wireBytes, 0, 0)
	return len(e.b)
}

// closeWide ends the field openWide returned start for: a length of 128
// to 16383 bytes is written in its two bytes; any other takes the bytes
// it needs, the content moved (a shorter one too: every length is the
// shortest varint, as close writes it).
func (e *otlpEncoder) closeWide(start int) {
	n := len(e.b) - start
	if n >= 0x80 && n < 0x4000 {
		e.b[start-2], e.b[start-1] = byte(n)|0x80, byte(n>>7)
		return
	}
	if n < 0x80 {
		copy(e.b[start-1:], e.b[start:])
		e.b = e.b[:len(e.b)-1]
		e.b[start-2] = byte(n)
		return
	}
	e.widen(start, 2, n)
}

// str writes a string field, left out when empty (proto3).
func (e *otlpEncoder) str(num protowire.Number, s string) {
	if s != "" {
		e.strAlways(num, s)
	}
}

// strAlways writes a string field even when empty (a oneof's). Bytes
// that are not UTF-8 become U+FFFD: a receiver refuses a whole request
// with one bad string.
func (e *otlpEncoder) strAlways(num protowire.Number, s string) {
	if !validUTF8(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if num <= 15 && len(s) < 0x80 { // a one-byte tag and a one-byte length
		e.b = append(append(e.b, byte(num)<<3|wireBytes, byte(len(s))), s...)
		return
	}
	e.b = protowire.AppendTag(e.b, num, protowire.BytesType)
	e.b = protowire.AppendString(e.b, s)
}

// validUTF8 is utf8.ValidString, for a string of eight bytes or more
// that is ASCII first tested eight bytes at a time, its last eight bytes
// last (what a span's name and most attributes are): utf8.ValidString
// takes the bytes after its last whole word one at a time, ~100
// instructions of a 14-byte span name.
func validUTF8(s string) bool {
	n := len(s)
	if n < 8 {
		return utf8.ValidString(s)
	}
	for i := 0; ; i += 8 {
		i = min(i, n-8)
		w := s[i : i+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		if x&0x8080808080808080 != 0 {
			return utf8.ValidString(s)
		}
		if i == n-8 {
			return true
		}
	}
}

// bytes writes a bytes field.
func (e *otlpEncoder) bytes(num protowire.Number, p []byte) {
	e.b = protowire.AppendTag(e.b, num, protowire.BytesType)
	e.b = protowire.AppendBytes(e.b, p)
}

// uint writes a varint field, left out when 0.
func (e *otlpEncoder) uint(num protowire.Number, v uint64) {
	if v != 0 {
		e.b = protowire.AppendTag(e.b, num, protowire.VarintType)
		e.b = protowire.AppendVarint(e.b, v)
	}
}

// fixed64 writes a fixed64 field, left out when 0.
func (e *otlpEncoder) fixed64(num protowire.Number, v uint64) {
	if v != 0 {
		e.b = protowire.AppendTag(e.b, num, protowire.Fixed64Type)
		e.b = protowire.AppendFixed64(e.b, v)
	}
}

// fixed32 writes a fixed32 field, left out when 0.
func (e *otlpEncoder) fixed32(num protowire.Number, v uint32) {
	if v != 0 {
		e.b = protowire.AppendTag(e.b, num, protowire.Fixed32Type)
		e.b = protowire.AppendFixed32(e.b, v)
	}
}

// unixNano is a time in nanoseconds since the epoch, 0 before it.
func unixNano(ns int64) uint64 { return uint64(max(0, ns)) }

// clampCount is a dropped count as the uint32 OTLP holds.
func clampCount(v int) uint64 {
	return uint64(min(max(v, 0), math.MaxUint32))
}

// spanKind is OTLP's Span.SpanKind of k.
func spanKind(k trace.SpanKind) uint64 {
	switch k {
	case trace.SpanKindInternal:
		return 1
	case trace.SpanKindServer:
		return 2
	case trace.SpanKindClient:
		return 3
	case trace.SpanKindProducer:
		return 4
	case trace.SpanKindConsumer:
		return 5
	}
	return 0
}

// statusCode is OTLP's Status.StatusCode of c (UNSET 0, OK 1, ERROR 2).
func statusCode(c codes.Code) uint64 {
	switch c {
	case codes.Ok:
		return 1
	case codes.Error:
		return 2
	}
	return 0
}

// spanFlags is OTLP's flags: the W3C trace flags, and whether the parent
// (of a span) or the linked context (of a link) is remote.
func spanFlags(tf trace.TraceFlags, parent trace.SpanContext) uint32 {
	f := uint32(tf) | flagHasIsRemote
	if parent.IsRemote() {
		f |= flagIsRemote
	}
	return f
}
