package sharedtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// SummEditsText returns the distinct documents of summedits-dev (news,
// podcast and dialogue), each once, joined by blank lines: about 210 KB
// of real text. It skips tb when the data is absent.
func SummEditsText(tb testing.TB) string {
	tb.Helper()
	dir := Dir(tb, "summedits-dev")
	var b strings.Builder
	seen := map[string]bool{}
	for _, name := range []string{"news", "podcast", "samsum"} {
		data, err := os.ReadFile(filepath.Join(dir, "summedits_"+name+".json"))
		if err != nil {
			tb.Fatal(err)
		}
		var rows []struct {
			Doc string `json:"doc"`
		}
		if err := json.Unmarshal(data, &rows); err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		for _, r := range rows {
			if !seen[r.Doc] {
				seen[r.Doc] = true
				b.WriteString(r.Doc)
				b.WriteString("\n\n")
			}
		}
	}
	return b.String()
}

// LiveHeap returns the bytes of live heap after a full garbage collection,
// for tests that measure what a structure keeps. They must not run in
// parallel with others.
func LiveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
