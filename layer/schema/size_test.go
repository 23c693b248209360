package schema

import (
	"encoding/json"
	"os"
	"runtime"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
)

// The size a compiled schema reports is within a small factor of the heap
// it really takes, on real schemas: the 117 github-mcp-server input schemas
// compiled together, and the benchmark corpus's large schema.
// Not parallel: it measures the process's heap.
func TestSizeEstimate(t *testing.T) {
	data, err := os.ReadFile("../../../shared/testdata/mcp-tools/bench-corpus.json")
	if err != nil {
		t.Skipf("../shared/testdata is absent: %v", err)
	}
	var corpus struct {
		Cases []struct {
			Schema json.RawMessage `json:"schema"`
		} `json:"cases"`
		Large struct {
			Schema json.RawMessage `json:"schema"`
		} `json:"large"`
	}
	if err := json.Unmarshal(data, &corpus); err != nil {
		t.Fatal(err)
	}
	decode := func(raw json.RawMessage) any {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	sets := map[string][]json.RawMessage{"github": nil, "large": {corpus.Large.Schema}}
	for _, c := range corpus.Cases {
		sets["github"] = append(sets["github"], c.Schema)
	}
	for name, raws := range sets {
		// The documents are decoded before the measure: the engine holds
		// them decoded apart from the cache (and they count in
		// docBytes, which errs on the safe side).
		docs := make([]any, len(raws))
		for i, r := range raws {
			docs[i] = decode(r)
		}
		before := sharedtest.LiveHeap()
		cs := make([]*compiled, len(docs))
		for i, d := range docs {
			if cs[i], err = compile(d, nil, false); err != nil {
				t.Fatal(err)
			}
		}
		real := sharedtest.LiveHeap() - before
		var est int64
		for _, c := range cs {
			est += c.Size()
		}
		runtime.KeepAlive(cs)
		t.Logf("%s: %d schemas compiled take %d bytes of heap, estimate %d (%.2f)", name, len(cs), real, est, float64(est)/float64(real))
		if est < real*8/10 || est > real*2 {
			t.Errorf("%s: estimate %d for a heap of %d bytes: not within [0.8, 2] times", name, est, real)
		}
	}
}
