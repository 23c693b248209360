package source

import (
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"testing"
)

// heapAfterGC is the live heap after a full collection.
func heapAfterGC() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// The size an index reports is within a small factor of the heap it
// really takes, on real documents (SummEdits news, podcast and dialogue documents, as text and as Markdown), so that a
// cache's byte budget bounds memory.
func TestSizeEstimate(t *testing.T) {
	var b strings.Builder
	seen := map[string]bool{}
	for _, name := range []string{"news", "podcast", "samsum"} {
		data, err := os.ReadFile("../../../shared/testdata/summedits-dev/summedits_" + name + ".json")
		if err != nil {
			t.Skipf("../shared/testdata is absent: %v", err)
		}
		var rows []struct {
			Doc string `json:"doc"`
		}
		if err := json.Unmarshal(data, &rows); err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if !seen[r.Doc] {
				seen[r.Doc] = true
				b.WriteString(r.Doc)
				b.WriteString("\n\n")
			}
		}
	}
	content := b.String()
	if len(content) < 200<<10 {
		t.Fatalf("only %d bytes of documents", len(content))
	}
	for _, format := range []Format{Text, Markdown} {
		d := Doc{ID: "news", Content: strings.Clone(content), Format: format}
		before := heapAfterGC()
		x, err := Build(d)
		if err != nil {
			t.Fatal(err)
		}
		d.Content = ""
		real := heapAfterGC() - before
		est := x.Size()
		runtime.KeepAlive(x)
		t.Logf("%s: %d bytes of text: index takes %d bytes of heap, estimate %d (%.2f)", format, len(content), real, est, float64(est)/float64(real))
		if est < real*8/10 || est > real*2 {
			t.Errorf("%s: estimate %d for a heap of %d bytes: not within [0.8, 2] times", format, est, real)
		}
	}
}
