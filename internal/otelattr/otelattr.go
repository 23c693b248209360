// Package otelattr holds the span attributes judge's verdicts are
// recorded with, shared by the engine, the server and the gateway (see
// docs/observability.md). It imports only OpenTelemetry's API, so that
// the library pulls in no SDK or exporter.
package otelattr

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentjudge/judge/result"
)

// Attribute keys of judge's verdicts.
const (
	Valid        = attribute.Key("judge.valid")
	Confidence   = attribute.Key("judge.confidence")
	QualityScore = attribute.Key("judge.quality_score")
	Status       = attribute.Key("judge.status")
	IssueCount   = attribute.Key("judge.issue_count")
	ErrorCount   = attribute.Key("judge.error_count")
	WarningCount = attribute.Key("judge.warning_count")
	InfoCount    = attribute.Key("judge.info_count")
	IssueTypes   = attribute.Key("judge.issue_types")
	Layers       = attribute.Key("judge.validation_types")
	Layer        = attribute.Key("judge.layer")
	Failed       = attribute.Key("judge.layer.failed")
	FastPath     = attribute.Key("judge.fast_path")
	Model        = attribute.Key("judge.model")
)

// Verdict returns the attributes of a ValidationResult: valid, confidence,
// quality score, the counts of issues by severity and the distinct issue
// types, sorted. Nil r gives none.
func Verdict(r *result.ValidationResult) []attribute.KeyValue {
	if r == nil {
		return nil
	}
	// The exact count, so that the slice is made once: the SDK copies it.
	return AppendVerdict(make([]attribute.KeyValue, 0, verdictLen(r)), r)
}

// verdictLen is how many attributes Verdict gives for r.
func verdictLen(r *result.ValidationResult) int {
	n := 7
	if len(r.Issues) > 0 {
		n++
	}
	if len(r.Metadata.ValidationTypesRun) > 0 {
		n++
	}
	if r.Metadata.Model != "" {
		n++
	}
	return n
}

// AppendVerdict appends the attributes of Verdict to kv.
func AppendVerdict(kv []attribute.KeyValue, r *result.ValidationResult) []attribute.KeyValue {
	if r == nil {
		return kv
	}
	return appendVerdict(kv, r)
}

// appendScalars appends the attributes of Verdict that are one value
// each (validity, confidence, score, counts) to kv.
func appendScalars(kv []attribute.KeyValue, r *result.ValidationResult) []attribute.KeyValue {
	return append(kv,
		Valid.Bool(r.Valid),
		Confidence.Float64(r.Confidence),
		QualityScore.Float64(r.QualityScore),
		IssueCount.Int(len(r.Issues)),
		ErrorCount.Int(r.Metadata.ErrorCount),
		WarningCount.Int(r.Metadata.WarningCount),
		InfoCount.Int(r.Metadata.InfoCount),
	)
}

// appendVerdict appends the attributes of Verdict to kv.
func appendVerdict(kv []attribute.KeyValue, r *result.ValidationResult) []attribute.KeyValue {
	kv = appendScalars(kv, r)
	if len(r.Issues) > 0 {
		types := make([]string, 0, len(r.Issues))
		for _, is := range r.Issues {
			types = append(types, string(is.Type))
		}
		slices.Sort(types)
		kv = append(kv, IssueTypes.StringSlice(slices.Compact(types)))
	}
	if len(r.Metadata.ValidationTypesRun) > 0 {
		kv = append(kv, Layers.StringSlice(r.Metadata.ValidationTypesRun))
	}
	if r.Metadata.Model != "" {
		kv = append(kv, Model.String(r.Metadata.Model))
	}
	return kv
}

// Setter sets attributes on spans from slices it lends and takes back:
// the SDK copies the attributes it is given, so the slice is free again
// when SetAttributes returns, and the caller's arguments need not escape
// to the heap. The zero value is ready; it must not be copied after
// first use.
type Setter struct {
	pool sync.Pool
	// layers are the judge.validation_types values made so far and
	// types the judge.issue_types ones: a verdict's list of layers is one
	// of a few, its list of issue types too, and a string slice attribute
	// is a copy made by reflection, an allocation each time.
	layers, types listValues
	// verdicts are the blocks of the verdicts set last (see Verdict).
	verdicts verdictBlocks
}

// listValues keeps the string slice values of one attribute made so
// far, at most maxLayerValues (copied on write: read without a lock).
type listValues struct {
	known atomic.Pointer[[]listValue]
}

// listValue is a list of names and its attribute value.
type listValue struct {
	names []string
	value attribute.Value
}

// maxLayerValues bounds the lists of names a Setter keeps for each
// attribute.
const maxLayerValues = 16

// attr is key's attribute of names, its value made once per list, and
// the list as kept (never changed), nil when it is not kept (its value
// made for this call). names does not escape: a list not seen before is
// copied.
func (l *listValues) attr(key attribute.Key, names []string) (attribute.KeyValue, []string) {
	known := l.known.Load()
	if known != nil {
		for _, v := range *known {
			if slices.Equal(v.names, names) {
				return attribute.KeyValue{Key: key, Value: v.value}, v.names
			}
		}
	}
	own := slices.Clone(names)
	kv := key.StringSlice(own)
	if known == nil || len(*known) < maxLayerValues {
		var next []listValue
		if known != nil {
			next = slices.Clip(*known)
		}
		next = append(next, listValue{names: own, value: kv.Value})
		if l.known.CompareAndSwap(known, &next) { // lost to another: made again next time
			return kv, own
		}
	}
	return kv, nil
}

// maxTypesOnStack is how many issues' types Verdict sorts without an
// allocation.
const maxTypesOnStack = 16

// Verdict sets r's verdict (the attributes of [Verdict]) and extra on
// span, in one call; nothing when span is not recording. A span that
// takes blocks ([BlockSetter]: judge's own recorder) is given the
// verdict's [Block], made once for every verdict of the same values.
func (v *Setter) Verdict(span trace.Span, r *result.ValidationResult, extra ...attribute.KeyValue) {
	if !span.IsRecording() {
		return
	}
	if r == nil {
		kv := v.get()
		*kv = append(*kv, extra...)
		v.set(span, kv)
		return
	}
	var buf [maxTypesOnStack]string
	var names []string // the distinct issue types, sorted
	if len(r.Issues) > 0 {
		names = buf[:0]
		for _, is := range r.Issues {
			names = append(names, string(is.Type))
		}
		slices.Sort(names)
		names = slices.Compact(names)
	}
	bs, blocks := span.(BlockSetter)
	if blocks {
		if b := v.verdicts.find(r, names, extra); b != nil {
			bs.SetBlock(b)
			return
		}
	}
	var (
		types, layers         attribute.KeyValue
		typesKept, layersKept []string
	)
	if len(r.Issues) > 0 {
		types, typesKept = v.types.attr(IssueTypes, names)
	}
	if len(r.Metadata.ValidationTypesRun) > 0 {
		layers, layersKept = v.layers.attr(Layers, r.Metadata.ValidationTypesRun)
	}
	if blocks {
		if b := v.verdicts.block(r, types, typesKept, layers, layersKept, extra); b != nil {
			bs.SetBlock(b)
			return
		}
	}
	kv := v.get()
	*kv = appendVerdictOf(*kv, r, types, layers)
	*kv = append(*kv, extra...)
	v.set(span, kv)
}

// appendVerdictOf appends r's verdict to kv, its issue types and layers
// attributes given (made by the caller; unused when r has none).
func appendVerdictOf(kv []attribute.KeyValue, r *result.ValidationResult, types, layers attribute.KeyValue) []attribute.KeyValue {
	kv = appendScalars(kv, r)
	if len(r.Issues) > 0 {
		kv = append(kv, types)
	}
	if len(r.Metadata.ValidationTypesRun) > 0 {
		kv = append(kv, layers)
	}
	if r.Metadata.Model != "" {
		kv = append(kv, Model.String(r.Metadata.Model))
	}
	return kv
}

// Block is attributes set on spans together again and again, made once:
// a verdict's (see [Setter.Verdict]). Its attributes are valid, of
// distinct keys and of no generic slice or map value, and never change.
// A span implementation may keep what it makes of them in it (judge's
// own recorder: their OTLP encoding).
type Block struct {
	kv   []attribute.KeyValue
	kept atomic.Pointer[[]byte]
}

// Attributes returns the block's attributes, in order; not to be
// changed.
func (b *Block) Attributes() []attribute.KeyValue { return b.kv }

// Kept returns what Keep was given, nil before.
func (b *Block) Kept() []byte {
	if p := b.kept.Load(); p != nil {
		return *p
	}
	return nil
}

// Keep keeps p, which a span implementation made of the block's
// attributes (the same bytes for the same attributes: callers at once
// may each keep theirs), and must not change afterwards.
func (b *Block) Keep(p []byte) { b.kept.Store(&p) }

// BlockSetter is a span that takes a [Block] as SetAttributes takes its
// attributes (the same attributes, in the same order, set the same way),
// keeping the block rather than copying them: judge's own recorder
// (telemetry), which writes a block's encoding, made once, into every
// span that has it.
type BlockSetter interface {
	SetBlock(b *Block)
}

// verdictKey is what a verdict's attributes are made of but its lists
// of names (issue types, layers), which its entry holds: two verdicts of
// the same key and lists have the same attributes. Floats are kept as
// their bits (0 and -0 are written differently); the extra attribute (at
// most one, a scalar) as its key, type and value. Plain fields, those
// that differ most often first: comparing two keys is a comparison of
// memory and three strings.
type verdictKey struct {
	quality, confidence         uint64
	issues, errors, warns, info int
	valid                       bool
	extraType                   attribute.Type
	extraBits                   uint64 // a bool's, int's or float's
	model, extraKey, extraStr   string
}

// verdictBlocks keeps the blocks of the verdicts set last, at most
// maxVerdicts, replaced in turn (read without a lock). A workload's
// verdicts are mostly a few (a valid document's, the commonest faults');
// once the slots have filled, a verdict not kept is made a block only
// one time in remakeEvery, so that verdicts that never repeat (a score
// of the layers' path) cost what they did without blocks.
type verdictBlocks struct {
	slots  [maxVerdicts]atomic.Pointer[verdictEntry]
	made   atomic.Uint32
	misses atomic.Uint32
}

// verdictEntry is a verdict's block, its key and its lists of names
// (as a listValues keeps them: never changed).
type verdictEntry struct {
	key           verdictKey
	types, layers []string
	block         *Block
}

const (
	maxVerdicts = 16
	remakeEvery = 64
)

// keyOf sets *k (zero) to the key of r's verdict and extra, and reports
// false when it is not to be made a block: a NaN, more than one extra
// attribute or one that is not a scalar. (A pointer: the key is ~130
// bytes, copied on a return.)
func keyOf(k *verdictKey, r *result.ValidationResult, extra []attribute.KeyValue) bool {
	if len(extra) > 1 || math.IsNaN(r.Confidence) || math.IsNaN(r.QualityScore) {
		return false
	}
	k.valid, k.confidence, k.quality = r.Valid, math.Float64bits(r.Confidence), math.Float64bits(r.QualityScore)
	k.issues, k.errors, k.warns, k.info = len(r.Issues), r.Metadata.ErrorCount, r.Metadata.WarningCount, r.Metadata.InfoCount
	k.model = r.Metadata.Model
	if len(extra) == 1 {
		switch v := extra[0].Value; v.Type() {
		case attribute.BOOL:
			if v.AsBool() {
				k.extraBits = 1
			}
		case attribute.INT64:
			k.extraBits = uint64(v.AsInt64())
		case attribute.FLOAT64:
			if math.IsNaN(v.AsFloat64()) {
				return false
			}
			k.extraBits = math.Float64bits(v.AsFloat64())
		case attribute.STRING:
			k.extraStr = v.AsString()
		default:
			return false
		}
		k.extraKey, k.extraType = string(extra[0].Key), extra[0].Value.Type()
	}
	return true
}

// find returns the block kept of r's verdict and extra, types the
// distinct issue types sorted, or nil: the key and the lists compared,
// no attribute made.
func (m *verdictBlocks) find(r *result.ValidationResult, types []string, extra []attribute.KeyValue) *Block {
	var k verdictKey
	if !keyOf(&k, r, extra) {
		return nil
	}
	for i := range m.slots {
		if e := m.slots[i].Load(); e != nil && e.key == k && slices.Equal(e.types, types) && slices.Equal(e.layers, r.Metadata.ValidationTypesRun) {
			return e.block
		}
	}
	return nil
}

// block makes and keeps the block of r's verdict and extra (which find
// did not find), its issue types and layers attributes given with their
// lists as kept, or returns nil when it is not to be made one: a list
// of names not kept, a key keyOf refuses, an extra attribute that
// repeats a verdict's key, or, once the slots have filled, all but one
// time in remakeEvery.
func (m *verdictBlocks) block(r *result.ValidationResult, types attribute.KeyValue, typesKept []string, layers attribute.KeyValue, layersKept []string, extra []attribute.KeyValue) *Block {
	var k verdictKey
	if !keyOf(&k, r, extra) || (len(r.Issues) > 0 && typesKept == nil) || (len(r.Metadata.ValidationTypesRun) > 0 && layersKept == nil) {
		return nil
	}
	if m.made.Load() >= maxVerdicts && m.misses.Add(1)%remakeEvery != 0 {
		return nil
	}
	kv := appendVerdictOf(make([]attribute.KeyValue, 0, verdictLen(r)+len(extra)), r, types, layers)
	for _, a := range kv {
		if len(extra) == 1 && extra[0].Key == a.Key {
			return nil // the extra attribute would replace one of the verdict's
		}
	}
	if len(extra) == 1 {
		if !extra[0].Valid() {
			return nil
		}
		kv = append(kv, extra[0])
	}
	b := &Block{kv: kv}
	m.slots[(m.made.Add(1)-1)%maxVerdicts].Store(&verdictEntry{key: k, types: typesKept, layers: layersKept, block: b})
	return b
}

// Set sets kv on span in one call; nothing when span is not recording.
func (v *Setter) Set(span trace.Span, kv ...attribute.KeyValue) {
	if !span.IsRecording() {
		return
	}
	buf := v.get()
	*buf = append(*buf, kv...)
	v.set(span, buf)
}

func (v *Setter) get() *[]attribute.KeyValue {
	if kv, ok := v.pool.Get().(*[]attribute.KeyValue); ok {
		return kv
	}
	s := make([]attribute.KeyValue, 0, 16)
	return &s
}

// set sets *kv on span and takes the slice back.
func (v *Setter) set(span trace.Span, kv *[]attribute.KeyValue) {
	span.SetAttributes(*kv...)
	clear(*kv) // drop the strings the attributes held
	*kv = (*kv)[:0]
	v.pool.Put(kv)
}
