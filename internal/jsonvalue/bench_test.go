package jsonvalue

import (
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
)

// BenchmarkDecode decodes the bench corpus's ~110 KB array of user records
// and a small tool-argument document; it skips when the corpus is absent.
func BenchmarkDecode(b *testing.B) {
	benchmarkDecode(b, Decode)
}

func benchmarkDecode(b *testing.B, decode func([]byte, int) (any, error)) {
	c := sharedtest.LoadBenchCorpus(b)
	for _, bc := range []struct{ name, doc string }{
		{"large", c.Large.Valid},
		{"small", c.Cases[0].Valid},
	} {
		data := []byte(bc.doc)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decode(data, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
