// Package otelattr holds the span attributes judge's verdicts are
// recorded with, shared by the engine, the server and the gateway (see
// docs/observability.md). It imports only OpenTelemetry's API, so that
// the library pulls in no SDK or exporter.
package otelattr

import (
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

// attr is key's attribute of names, its value made once per list. names
// does not escape: a list not seen before is copied.
func (l *listValues) attr(key attribute.Key, names []string) attribute.KeyValue {
	known := l.known.Load()
	if known != nil {
		for _, v := range *known {
			if slices.Equal(v.names, names) {
				return attribute.KeyValue{Key: key, Value: v.value}
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
		l.known.CompareAndSwap(known, &next) // lost to another: made again next time
	}
	return kv
}

// maxTypesOnStack is how many issues' types Verdict sorts without an
// allocation.
const maxTypesOnStack = 16

// Verdict sets r's verdict (the attributes of [Verdict]) and extra on
// span, in one call; nothing when span is not recording.
func (v *Setter) Verdict(span trace.Span, r *result.ValidationResult, extra ...attribute.KeyValue) {
	if !span.IsRecording() {
		return
	}
	kv := v.get()
	if r != nil {
		*kv = appendScalars(*kv, r)
		if len(r.Issues) > 0 {
			var buf [maxTypesOnStack]string
			types := buf[:0]
			for _, is := range r.Issues {
				types = append(types, string(is.Type))
			}
			slices.Sort(types)
			*kv = append(*kv, v.types.attr(IssueTypes, slices.Compact(types)))
		}
		if len(r.Metadata.ValidationTypesRun) > 0 {
			*kv = append(*kv, v.layers.attr(Layers, r.Metadata.ValidationTypesRun))
		}
		if r.Metadata.Model != "" {
			*kv = append(*kv, Model.String(r.Metadata.Model))
		}
	}
	*kv = append(*kv, extra...)
	v.set(span, kv)
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
