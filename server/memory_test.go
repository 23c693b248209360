package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/result"
)

// Sixteen /validate requests, each with a different set of sources (real
// documents, SummEdits), leave a live heap within the engine's cache
// budget plus a margin, and /metrics shows each cache within it. Scaled
// down to stay fast: 48 KB of sources a request (an index takes about ten
// times its text) against a 1 MiB budget; before the budget, the indexes
// of all sixteen stayed (about 14 MB here). Not parallel: it measures the
// process's heap.
func TestCacheMemoryBounded(t *testing.T) {
	text := sharedtest.SummEditsText(t)
	const (
		requests = 16
		setBytes = 48 << 10
		budget   = 1 << 20
		margin   = 2 << 20
	)
	if len(text) < setBytes+requests*4096 {
		t.Fatalf("only %d bytes of documents", len(text))
	}
	s := New(newEngine(t, judge.WithCacheBytes(budget)), Options{})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	// One request first, so that what every request allocates once (the
	// server's and the layers' lazily made state) is in the baseline.
	warm := `{"output": "The protest took place on February 23, 2023.", "sources": [{"id": "warm", "content": "The protest took place on February 23, 2023."}]}`
	if r := do(t, ts, http.MethodPost, "/validate", warm, nil); r.status != http.StatusOK {
		t.Fatalf("warm-up: %d %s", r.status, r.body)
	}
	before := sharedtest.LiveHeap()
	for i := range requests {
		content, err := json.Marshal(text[i*4096 : i*4096+setBytes])
		if err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf(`{"output": "The protest took place on February 23, 2023, and 170 litres of paint were used.", "sources": [{"id": "set-%d", "content": %s}]}`, i, content)
		r := mustResult(t, do(t, ts, http.MethodPost, "/validate", body, nil))
		if !slices.Contains(r.Metadata.ValidationTypesRun, "facts") || !slices.Contains(r.Metadata.ValidationTypesRun, "hallucination") || hasLayerFailed(r) {
			t.Fatalf("request %d: facts and hallucination did not both run: %+v", i, r)
		}
	}
	grew := sharedtest.LiveHeap() - before
	t.Logf("live heap grew by %d bytes after %d requests of %d bytes of sources, budget %d", grew, requests, setBytes, budget)
	if grew > budget+margin {
		t.Errorf("live heap grew by %d bytes, over the budget of %d plus %d", grew, budget, margin)
	}

	m := do(t, ts, http.MethodGet, "/metrics", "", nil).body
	if v := metricValue(t, m, MetricCacheBudget); v != budget {
		t.Errorf("%s = %v, want %d", MetricCacheBudget, v, budget)
	}
	var sum float64
	for _, c := range []string{"criteria", "quality", "schema", "schema_docs", "sources"} {
		b := metricValue(t, m, MetricCacheBytes+`{cache="`+c+`"}`)
		if b < 0 || metricValue(t, m, MetricCacheEntries+`{cache="`+c+`"}`) < 0 {
			t.Errorf("cache %q not exported:\n%s", c, m)
		}
		sum += b
	}
	if sum > budget || sum == 0 {
		t.Errorf("the caches hold %v bytes together, want some and at most %d", sum, budget)
	}
	if ev := metricValue(t, m, MetricCacheEvictions+`{cache="sources"}`); ev <= 0 {
		t.Errorf("sources evictions = %v, want some", ev)
	}
}

func hasLayerFailed(r *result.ValidationResult) bool {
	for _, is := range r.Issues {
		if is.Type == result.LayerFailed {
			return true
		}
	}
	return false
}
