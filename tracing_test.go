package judge_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer"
)

// TestValidateSpans checks the spans of one validation under a caller's
// span: judge.validate its child with the verdict, and one child of it per
// layer run, the failed one with its error as an event.
func TestValidateSpans(t *testing.T) {
	t.Parallel()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())
	e, err := judge.New(judge.WithTracerProvider(tp), judge.WithSelfCheck(nil), judge.WithLayers(
		testLayer("first", nil),
		testLayer("broken", func(context.Context, *layer.Pass) error { return errors.New("the broken layer broke") }),
	))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	ctx, parent := tp.Tracer("test").Start(context.Background(), "caller")
	res, err := e.Validate(ctx, &judge.Request{Output: json.RawMessage(`{"a":1}`), ValidationTypes: []string{"first", "broken"}})
	parent.End()
	if err != nil {
		t.Fatal(err)
	}
	spans := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range rec.Ended() {
		spans[s.Name()] = s
	}
	v, ok := spans["judge.validate"]
	if !ok {
		t.Fatalf("no judge.validate span among %d", len(spans))
	}
	if v.Parent().SpanID() != parent.SpanContext().SpanID() || v.SpanContext().TraceID() != parent.SpanContext().TraceID() {
		t.Errorf("judge.validate's parent is %v, want the caller's span %v", v.Parent().SpanID(), parent.SpanContext().SpanID())
	}
	attrs := attrMap(v.Attributes())
	if attrs["judge.valid"] != attribute.BoolValue(res.Valid) || attrs["judge.issue_count"] != attribute.IntValue(len(res.Issues)) ||
		attrs["judge.confidence"] != attribute.Float64Value(res.Confidence) {
		t.Errorf("judge.validate attributes %v do not match the result (valid %v, %d issues, confidence %v)", attrs, res.Valid, len(res.Issues), res.Confidence)
	}
	if got := attrs["judge.issue_types"].AsStringSlice(); len(got) != 2 {
		t.Errorf("judge.issue_types = %v, want style_issue and layer_failed", got)
	}
	for _, name := range []string{"first", "broken"} {
		s, ok := spans["judge.layer "+name]
		if !ok {
			t.Fatalf("no span of layer %s", name)
		}
		if s.Parent().SpanID() != v.SpanContext().SpanID() {
			t.Errorf("layer %s's span is not a child of judge.validate", name)
		}
		if !s.EndTime().After(s.StartTime()) && !s.EndTime().Equal(s.StartTime()) {
			t.Errorf("layer %s's span ends before it starts", name)
		}
		la := map[attribute.Key]attribute.Value{}
		for _, kv := range s.Attributes() {
			la[kv.Key] = kv.Value
		}
		// judge.layer is set at the end, with the outcome, in one call.
		if la["judge.layer"].AsString() != name {
			t.Errorf("layer %s's span: judge.layer = %q", name, la["judge.layer"].AsString())
		}
		if _, ok := la["judge.issue_count"]; ok == (name == "broken") {
			t.Errorf("layer %s's span: attributes %v; want judge.issue_count only when the layer ran", name, s.Attributes())
		}
		if la["judge.layer.failed"].AsBool() != (name == "broken") {
			t.Errorf("layer %s's span: judge.layer.failed = %v", name, la["judge.layer.failed"].AsBool())
		}
	}
	broken := spans["judge.layer broken"]
	if broken.Status().Code.String() != "Error" || len(broken.Events()) != 1 || broken.Events()[0].Name != "exception" {
		t.Errorf("the broken layer's span: status %v, events %v; want Error and one exception event", broken.Status(), broken.Events())
	}
}

// TestValidateNoTracer checks that an engine without a provider starts no
// span: the caller's span stays the active one in the layers.
func TestValidateNoTracer(t *testing.T) {
	t.Parallel()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	var seen trace.SpanContext
	e, err := judge.New(judge.WithSelfCheck(nil), judge.WithLayers(testLayer("first", func(ctx context.Context, _ *layer.Pass) error {
		seen = trace.SpanContextFromContext(ctx)
		return nil
	})))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	ctx, parent := tp.Tracer("test").Start(context.Background(), "caller")
	if _, err := e.Validate(ctx, &judge.Request{Output: json.RawMessage(`1`), ValidationTypes: []string{"first"}}); err != nil {
		t.Fatal(err)
	}
	parent.End()
	if n := len(rec.Ended()); n != 1 {
		t.Errorf("%d spans ended, want only the caller's", n)
	}
	if seen.SpanID() != parent.SpanContext().SpanID() {
		t.Errorf("the layer saw span %v, want the caller's %v", seen.SpanID(), parent.SpanContext().SpanID())
	}
}

func attrMap(kv []attribute.KeyValue) map[string]attribute.Value {
	m := map[string]attribute.Value{}
	for _, a := range kv {
		m[string(a.Key)] = a.Value
	}
	return m
}
