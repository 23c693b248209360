package judge_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// What a layer needs is declared on it, and the engine reads the
// declarations, never the layer's name: layers of one cache group share a
// cache, a layer that declares it uses a model gets the engine's through
// its pass (and no other layer does), and a layer that declares it checks
// sources silences the note that nothing checked them.
func TestLayerDeclarations(t *testing.T) {
	t.Parallel()
	_, cfg := fakeModel(t)
	var models [2]layer.Model
	builds := 0
	load := func(p *layer.Pass) {
		if _, err := p.Cache.Load("shared:key", func() (any, error) { builds++; return "built", nil }); err != nil {
			t.Error(err)
		}
	}
	first := &layer.Layer{Name: "first", Doc: "first: a test layer", CacheGroup: "shared", UsesModel: true, ChecksSources: true,
		Run: func(_ context.Context, p *layer.Pass) error { models[0] = p.Model; load(p); p.Decided(1); return nil }}
	second := &layer.Layer{Name: "second", Doc: "second: a test layer", CacheGroup: "shared",
		Run: func(_ context.Context, p *layer.Pass) error { models[1] = p.Model; load(p); p.Decided(1); return nil }}
	// One request at a time, so that the builds count is exact.
	e := mustEngine(t, judge.WithLayers(first, second), judge.WithLLM(cfg), judge.WithMaxConcurrentRuns(1))
	r := validate(t, e, &judge.Request{Output: json.RawMessage(`"The CVSS score is 9.8"`),
		Sources: []layer.Source{{ID: "nvd", Content: "CVSS 7.5"}}})
	if hasIssue(r, result.NotChecked, "fact checking") {
		t.Errorf("a layer declares it checks sources, yet the engine notes nothing did: %+v", r.Issues)
	}
	if models[0] == nil || models[0].Model() != llmtest.Model {
		t.Errorf("the layer that declares UsesModel got model %v, want %q", models[0], llmtest.Model)
	}
	if models[1] != nil {
		t.Errorf("a layer that does not declare UsesModel got model %v", models[1])
	}
	if builds != 1 {
		t.Errorf("the two layers of one cache group built their shared entry %d times, want once", builds)
	}
	caches, _ := e.CacheStats()
	names := []string{}
	for _, c := range caches {
		names = append(names, c.Name)
	}
	if !slices.Contains(names, "shared") || slices.Contains(names, "first") || slices.Contains(names, "second") {
		t.Errorf("caches %v, want one named after the group, none after the layers", names)
	}

	// Without the declaration, the same request is noted as not checked.
	plain := mustEngine(t, judge.WithLayers(&layer.Layer{Name: "plain", Doc: "plain: a test layer",
		Run: func(_ context.Context, p *layer.Pass) error { p.Decided(1); return nil }}))
	r = validate(t, plain, &judge.Request{Output: json.RawMessage(`"The CVSS score is 9.8"`),
		Sources: []layer.Source{{ID: "nvd", Content: "CVSS 7.5"}}})
	if !hasIssue(r, result.NotChecked, `fact checking (validation type "facts")`) {
		t.Errorf("no layer checks sources, yet no note says so: %+v", r.Issues)
	}
}
