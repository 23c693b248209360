package otelattr

import (
	"context"
	"slices"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

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
	var v Setter
	for _, c := range []struct {
		r     *result.ValidationResult
		extra []attribute.KeyValue
	}{{first, nil}, {second, []attribute.KeyValue{FastPath.Bool(true)}}, {first, nil}} {
		_, span := tr.Start(context.Background(), "v")
		v.Verdict(span, c.r, c.extra...)
		span.End()
	}
	spans := rec.Ended()
	for i, want := range [][]attribute.KeyValue{Verdict(first), append(Verdict(second), FastPath.Bool(true)), Verdict(first)} {
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
	if n := len(rec.Ended()[3].Attributes()); n != 0 {
		t.Errorf("an ended span got %d attributes", n)
	}
}
