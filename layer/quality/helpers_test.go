package quality

import (
	"context"
	"testing"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// check runs the layer over in and returns its findings.
func check(t *testing.T, in *layer.Input) layer.Findings {
	t.Helper()
	p := layer.NewPass(Layer, in, layer.NewCache(0))
	if err := Layer.Run(context.Background(), p); err != nil {
		t.Fatalf("run: %v", err)
	}
	return p.Findings()
}

// text is an input whose output is the text s.
func text(s string) *layer.Input { return &layer.Input{Output: s, Text: s} }

func rules(issues []result.Issue) map[string]int {
	m := map[string]int{}
	for _, is := range issues {
		m[is.Rule]++
	}
	return m
}
