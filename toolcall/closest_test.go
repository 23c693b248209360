package toolcall_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/toolcall"
)

// TestClosestToolsLongName: an unknown tool's name is as long as the
// request lets it be (here 1 MiB of two-letter words), and the "did you
// mean" search reads it once: the bytes it allocates do not grow by a copy
// of the name for every tool of the set. It did, twice a tool (the name's
// runes for the edit distance, its words for the shared words): 31 MB a
// tool, 496 MB for tau-bench retail's 16.
func TestClosestToolsLongName(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(sharedtest.Dir(t, "agent-traces"), "tau-bench-retail-tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	defs, err := toolcall.ParseDefinitions(doc, "tau-bench-retail-tools.json")
	if err != nil {
		t.Fatal(err)
	}
	name := strings.Repeat("order_x_", 1<<17)
	allocated := func(ts *toolcall.Toolset) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if got := ts.ClosestTools(name, 3); len(got) != 0 {
			t.Errorf("ClosestTools of the long name = %q, want none", got)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	one, all := allocated(toolsetOf(t, defs[:1])), allocated(toolsetOf(t, defs))
	if len(defs) < 10 {
		t.Fatalf("%d tools, want tau-bench retail's 16", len(defs))
	}
	t.Logf("%d-byte name: one tool %d bytes allocated, %d tools %d", len(name), one, len(defs), all)
	if all > one+uint64(len(name)) {
		t.Errorf("%d tools allocate %d bytes for a %d-byte name, one tool %d: more than a copy of the name per set", len(defs), all, len(name), one)
	}
}
