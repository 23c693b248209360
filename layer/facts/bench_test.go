package facts_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/agentjudge/judge/internal/groundeval"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/internal/source"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/facts"
)

// benchData is real text from SummEdits: the distinct documents, and an
// output of about 100 claims made of summaries.
func benchData(b *testing.B) (docs []string, output string, claims int) {
	b.Helper()
	files, _ := filepath.Glob(filepath.Join(sharedtest.Dir(b, "summedits-dev"), "summedits_*.json"))
	docs, output, claims, err := groundeval.BenchSet(files)
	if err != nil {
		b.Fatal(err)
	}
	return docs, output, claims
}

// BenchmarkFacts checks an output of about 100 claims against 100 KB to
// 10 MB of sources whose index is cached (the state of a server after the
// first request); BenchmarkIndex measures building that index.
func BenchmarkFacts(b *testing.B) {
	docs, output, n := benchData(b)
	for _, size := range []int{100 << 10, 1 << 20, 10 << 20} {
		b.Run(fmt.Sprintf("claims=%d/sources=%s", n, sizeName(size)), func(b *testing.B) {
			in := &layer.Input{Output: output, Sources: groundeval.Sources(docs, size)}
			cache := layer.NewCache(0)
			p := layer.NewPass(facts.Layer, in, cache)
			if err := facts.Layer.Run(context.Background(), p); err != nil { // warm the index
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if err := facts.Layer.Run(context.Background(), layer.NewPass(facts.Layer, in, cache)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkIndex(b *testing.B) {
	docs, _, _ := benchData(b)
	for _, size := range []int{100 << 10, 1 << 20, 10 << 20} {
		b.Run("sources="+sizeName(size), func(b *testing.B) {
			srcs := groundeval.Sources(docs, size)
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, s := range srcs {
					if _, err := source.Build(source.Doc{ID: s.ID, Content: s.Content}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

func sizeName(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%dMB", n>>20)
	}
	return fmt.Sprintf("%dKB", n>>10)
}
