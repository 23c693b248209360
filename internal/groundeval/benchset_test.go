package groundeval

import (
	"path/filepath"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
)

// TestBenchSet reads the real SummEdits files as the benchmarks do: about
// 100 claims, distinct documents, and sources of the size asked for.
func TestBenchSet(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(sharedtest.Dir(t, "summedits-dev"), "summedits_*.json"))
	docs, output, claims, err := BenchSet(files)
	if err != nil {
		t.Fatal(err)
	}
	if claims < 100 || claims > 130 || output == "" || len(docs) < 10 {
		t.Errorf("%d claims, %d documents, output of %d bytes", claims, len(docs), len(output))
	}
	for _, n := range []int{10 << 10, 1 << 20} {
		size := 0
		for _, s := range Sources(docs, n) {
			size += len(s.Content)
		}
		if size != n {
			t.Errorf("Sources(docs, %d) holds %d bytes", n, size)
		}
	}
	if _, _, _, err := BenchSet(nil); err == nil {
		t.Error("no file: no error")
	}
}
