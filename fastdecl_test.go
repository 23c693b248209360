package judge

import (
	"context"
	"testing"

	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/criteria"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/result"
)

// The fast path is chosen from the layers' declarations: the layer that
// declares Prepare, when every other layer declares that a request of an
// output and schemas alone does not make it apply.
func TestFastLayerByDeclaration(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	undeclared := &layer.Layer{Name: "undeclared", Doc: "undeclared: a test layer",
		Run: func(context.Context, *layer.Pass) error { return nil }}
	onCriteria := &layer.Layer{Name: "on_criteria", Doc: "on_criteria: a test layer", AppliesOn: layer.PartCriteria,
		Applies: func(in *layer.Input) bool { return len(in.Criteria) > 0 },
		Run:     func(context.Context, *layer.Pass) error { return nil }}
	onSchema := &layer.Layer{Name: "on_schema", Doc: "on_schema: a test layer", AppliesOn: layer.PartSchema | layer.PartCriteria,
		Run: func(context.Context, *layer.Pass) error { return nil }}
	for _, tc := range []struct {
		name string
		opts []Option
		want *layer.Layer
	}{
		{"default", nil, schema.Layer},
		{"with a model", []Option{WithLLM(LLMConfig{BaseURL: srv.URL, Model: llmtest.Model})}, schema.Layer},
		{"declared elsewhere", []Option{WithLayers(schema.Layer, criteria.Layer, onCriteria)}, schema.Layer},
		{"undeclared layer", []Option{WithLayers(schema.Layer, undeclared)}, nil},
		{"layer applying on schemas", []Option{WithLayers(schema.Layer, onSchema)}, nil},
		{"no prepare", []Option{WithLayers(criteria.Layer, onCriteria)}, nil},
	} {
		e, err := New(tc.opts...)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if e.fast != tc.want {
			t.Errorf("%s: fast layer %v, want %v", tc.name, e.fast, tc.want)
		}
	}
}

// The engine's self-check is the process's unless WithSelfCheck sets
// another, nil included; TestFastPathAllocations shows, with the test
// script's JUDGE_SELFCHECK=1, that WithSelfCheck(nil) reaches the fast path.
func TestWithSelfCheck(t *testing.T) {
	t.Parallel()
	sc := &result.SelfCheck{Report: "r.jsonl"}
	for _, tc := range []struct {
		name string
		opts []Option
		want *result.SelfCheck
	}{
		{"default", nil, result.ProcessSelfCheck()},
		{"set", []Option{WithSelfCheck(sc)}, sc},
		{"off", []Option{WithSelfCheck(nil)}, nil},
	} {
		e, err := New(tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if (e.selfCheck == nil) != (tc.want == nil) || e.selfCheck != nil && *e.selfCheck != *tc.want {
			t.Errorf("%s: self-check %+v, want %+v", tc.name, e.selfCheck, tc.want)
		}
	}
}
