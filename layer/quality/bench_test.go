package quality

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/agentjudge/judge/internal/code"
	"github.com/agentjudge/judge/layer"
)

// benchFile returns the large real Python file the benchmarks read: the
// file named by JUDGE_BENCH_PY, else the standard library's _pydecimal.py
// (about 6,400 lines), the largest module of the Debian python3.
func benchFile(b *testing.B) []byte {
	b.Helper()
	path := os.Getenv("JUDGE_BENCH_PY")
	if path == "" {
		libs, _ := filepath.Glob("/usr/lib/python3.*/_pydecimal.py")
		if len(libs) == 0 {
			b.Skip("no large Python file: set JUDGE_BENCH_PY or install python3")
		}
		sort.Strings(libs)
		path = libs[len(libs)-1]
	}
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return src
}

// BenchmarkMetricsLarge measures what radon cc measures: parse the file
// and count the complexity of every function.
func BenchmarkMetricsLarge(b *testing.B) {
	src := benchFile(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		f, err := code.Parse(context.Background(), code.Python, src)
		if err != nil {
			b.Fatal(err)
		}
		if len(f.Functions()) == 0 {
			b.Fatal("no functions")
		}
	}
}

// BenchmarkLayerLarge runs the whole quality layer on the file as one
// output: every code check, not only complexity.
func BenchmarkLayerLarge(b *testing.B) {
	src := benchFile(b)
	in := &layer.Input{Output: string(src), Text: string(src)}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		p := layer.NewPass(Layer, in, layer.NewCache(0))
		if err := Layer.Run(context.Background(), p); err != nil {
			b.Fatal(err)
		}
	}
}
