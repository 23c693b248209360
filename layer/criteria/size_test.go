package criteria

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
)

// The size a compiled program reports is within a small factor of the
// heap it really takes, for short rules (those of examples/ticket.rules.json,
// each made distinct) and for long ones (a chain of 40 comparisons).
// Not parallel: it measures the process's heap.
func TestSizeEstimate(t *testing.T) {
	short := []string{
		"!has(output.tags) || output.tags.all(t, t.matches('^[a-z0-9-]+$'))",
		"output.category != 'outage' || (has(output.needs_human) && output.needs_human)",
	}
	var parts []string
	for i := range 40 {
		parts = append(parts, fmt.Sprintf("output.f%d != 'value %d'", i, i))
	}
	long := strings.Join(parts, " && ")
	e, err := env()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		texts []string
	}{{"short", short}, {"long", []string{long}}} {
		const n = 100
		before := sharedtest.LiveHeap()
		progs := make([]*program, 0, n*len(tt.texts))
		for i := range n {
			for _, text := range tt.texts {
				p, err := compileIn(e, ruleExpr, CostLimit, fmt.Sprintf("%s && size('%d') > 0", text, i))
				if err != nil {
					t.Fatal(err)
				}
				progs = append(progs, p)
			}
		}
		real := sharedtest.LiveHeap() - before
		var est int64
		for _, p := range progs {
			est += p.Size()
		}
		runtime.KeepAlive(progs)
		t.Logf("%s: %d programs take %d bytes of heap, estimate %d (%.2f)", tt.name, len(progs), real, est, float64(est)/float64(real))
		if est < real*8/10 || est > real*2 {
			t.Errorf("%s: estimate %d for a heap of %d bytes: not within [0.8, 2] times", tt.name, est, real)
		}
	}
}
