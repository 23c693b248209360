package otelattr

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/agentjudge/judge/result"
)

// Setter.Verdict gives each span its own verdict, extra attributes after
// it, though the slices it sets them from are reused; a span that does
// not record gets nothing.
func TestSetterVerdict(t *testing.T) {
	t.Parallel()
	rec := tracetest.NewSpanRecorder()
	tr := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("test")
	first := &result.ValidationResult{Valid: false, Confidence: 0.5, Issues: []result.Issue{{Type: "type_mismatch"}, {Type: "missing_field"}, {Type: "type_mismatch"}}}
	first.Metadata.Model = "m"
	first.Metadata.ValidationTypesRun = []string{"schema"}
	second := &result.ValidationResult{Valid: true, Confidence: 1}
	many := &result.ValidationResult{} // more issues than Verdict sorts on its stack
	for i := range maxTypesOnStack + 5 {
		many.Issues = append(many.Issues, result.Issue{Type: result.Type(fmt.Sprint("type", i%7))})
	}
	var v Setter
	for _, c := range []struct {
		r     *result.ValidationResult
		extra []attribute.KeyValue
	}{{first, nil}, {second, []attribute.KeyValue{FastPath.Bool(true)}}, {first, nil}, {many, nil}, {many, nil}} {
		_, span := tr.Start(context.Background(), "v")
		v.Verdict(span, c.r, c.extra...)
		span.End()
	}
	spans := rec.Ended()
	for i, want := range [][]attribute.KeyValue{Verdict(first), append(Verdict(second), FastPath.Bool(true)), Verdict(first), Verdict(many), Verdict(many)} {
		if got := spans[i].Attributes(); !slices.EqualFunc(got, want, func(a, b attribute.KeyValue) bool { return a.Key == b.Key && a.Value.String() == b.Value.String() }) {
			t.Errorf("span %d: %v, want %v", i, got, want)
		}
	}
	if got := Verdict(first)[7]; got.Key != IssueTypes || got.Value.String() != `["missing_field","type_mismatch"]` {
		t.Errorf("issue types %v, want the distinct types sorted", got)
	}
	_, ended := tr.Start(context.Background(), "ended")
	ended.End()
	v.Verdict(ended, first) // not recording any more: must not panic nor change it
	if n := len(rec.Ended()[5].Attributes()); n != 0 {
		t.Errorf("an ended span got %d attributes", n)
	}
}

// Setter.Verdict's judge.validation_types, kept once per list of layers,
// are each verdict's own: lists in turn, more lists than it keeps, a
// list changed after its verdict was set, from goroutines at once.
func TestSetterLayers(t *testing.T) {
	t.Parallel()
	rec := tracetest.NewSpanRecorder()
	tr := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("test")
	var lists [][]string
	for i := range maxLayerValues + 4 {
		lists = append(lists, []string{"schema", fmt.Sprint("layer", i)})
	}
	lists = append(lists, []string{"schema"}, nil, []string{"schema"})
	var v Setter
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range lists {
				names := lists[(i+g)%len(lists)]
				r := &result.ValidationResult{Valid: true, Confidence: 1}
				r.Metadata.ValidationTypesRun = slices.Clone(names)
				r.Metadata.Model = "m"
				_, span := tr.Start(context.Background(), "v")
				v.Verdict(span, r, FastPath.Bool(true))
				if len(names) > 0 {
					r.Metadata.ValidationTypesRun[0] = "changed after" // the attribute holds its own copy
				}
				span.End()
			}
		})
	}
	wg.Wait()
	spans := rec.Ended()
	if len(spans) != 4*len(lists) {
		t.Fatalf("%d spans, want %d", len(spans), 4*len(lists))
	}
	seen := map[string]int{}
	for _, s := range spans {
		r := &result.ValidationResult{Valid: true, Confidence: 1}
		r.Metadata.Model = "m"
		for _, a := range s.Attributes() {
			if a.Key == Layers {
				r.Metadata.ValidationTypesRun = a.Value.AsStringSlice()
			}
		}
		want := append(Verdict(r), FastPath.Bool(true))
		if got := s.Attributes(); !slices.EqualFunc(got, want, func(a, b attribute.KeyValue) bool { return a.Key == b.Key && a.Value.String() == b.Value.String() }) {
			t.Errorf("attributes %v, want %v", got, want)
		}
		seen[fmt.Sprint(r.Metadata.ValidationTypesRun)]++
	}
	for _, names := range lists {
		want := 4
		if len(names) == 1 {
			want = 8 // listed twice
		}
		if got := seen[fmt.Sprint(names)]; got != want {
			t.Errorf("layers %v on %d spans, want %d (seen: %v)", names, got, want, seen)
		}
	}
	if n := len(*v.layers.known.Load()); n != maxLayerValues {
		t.Errorf("%d lists kept, want at most %d", n, maxLayerValues)
	}
}

// blockSpan is a recording span that takes blocks, as judge's recorder
// does: it keeps the attributes set, a block's as SetAttributes would.
type blockSpan struct {
	noop.Span
	kv     []attribute.KeyValue
	blocks int
}

func (s *blockSpan) IsRecording() bool                      { return true }
func (s *blockSpan) SetAttributes(kv ...attribute.KeyValue) { s.kv = append(s.kv, kv...) }
func (s *blockSpan) SetBlock(b *Block)                      { s.blocks++; s.kv = append(s.kv, b.Attributes()...) }

// TestVerdictBlocksFound: a verdict's block is found by its values and
// its lists of names, so that verdicts that differ only in their issue
// types, in their layers (in order or count), or in a list changed
// after its verdict was set, each get their own attributes; verdicts
// seen again are given blocks.
func TestVerdictBlocksFound(t *testing.T) {
	t.Parallel()
	mk := func(types []result.Type, layers ...string) *result.ValidationResult {
		r := &result.ValidationResult{Confidence: 1, QualityScore: 0.8, Metadata: result.Metadata{ErrorCount: len(types), ValidationTypesRun: layers}}
		for _, ty := range types {
			r.Issues = append(r.Issues, result.Issue{Type: ty})
		}
		return r
	}
	changed := mk([]result.Type{"missing_field"}, "schema")
	rs := []*result.ValidationResult{
		mk([]result.Type{"missing_field"}, "schema"), mk([]result.Type{"invalid_type"}, "schema"),
		mk([]result.Type{"missing_field"}, "schema", "criteria"), mk([]result.Type{"missing_field"}, "criteria", "schema"),
		mk([]result.Type{"missing_field"}), mk([]result.Type{"invalid_type", "missing_field"}[:1], "schema"), changed,
	}
	var v Setter
	for round := range 3 {
		if round == 1 {
			changed.Metadata.ValidationTypesRun[0] = "facts"
		}
		for i, r := range rs {
			s := &blockSpan{}
			v.Verdict(s, r, FastPath.Bool(true))
			want := append(Verdict(r), FastPath.Bool(true))
			if !slices.EqualFunc(s.kv, want, func(a, b attribute.KeyValue) bool { return a.Key == b.Key && a.Value.String() == b.Value.String() }) {
				t.Fatalf("round %d, verdict %d: %v, want %v", round, i, s.kv, want)
			}
			if round == 2 && s.blocks != 1 {
				t.Errorf("verdict %d, seen again: no block", i)
			}
		}
	}
}
