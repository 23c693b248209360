package source

import (
	"runtime"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
)

// The size an index reports is within a small factor of the heap it
// really takes, on real documents (SummEdits news, podcast and dialogue
// documents, as text and as Markdown), so that a cache's byte budget
// bounds memory. Not parallel: it measures the process's heap.
func TestSizeEstimate(t *testing.T) {
	content := sharedtest.SummEditsText(t)
	if len(content) < 200<<10 {
		t.Fatalf("only %d bytes of documents", len(content))
	}
	for _, format := range []Format{Text, Markdown} {
		d := Doc{ID: "news", Content: strings.Clone(content), Format: format}
		before := sharedtest.LiveHeap()
		x, err := Build(d)
		if err != nil {
			t.Fatal(err)
		}
		d.Content = ""
		real := sharedtest.LiveHeap() - before
		est := x.Size()
		runtime.KeepAlive(x)
		t.Logf("%s: %d bytes of text: index takes %d bytes of heap, estimate %d (%.2f)", format, len(content), real, est, float64(est)/float64(real))
		if est < real*8/10 || est > real*2 {
			t.Errorf("%s: estimate %d for a heap of %d bytes: not within [0.8, 2] times", format, est, real)
		}
	}
}
