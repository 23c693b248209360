package jsontoken_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/jsontoken"
	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/sharedtest"
)

// BenchmarkTokenizer tokenizes the benchmark corpus's large document (110
// KB) in 64-byte writes, against jsonvalue.Decode of the whole.
func BenchmarkTokenizer(b *testing.B) {
	doc := []byte(sharedtest.LoadBenchCorpus(b).Large.Valid)
	emit := func(*jsontoken.Token) error { return nil }
	b.Run("tokenize", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		t := jsontoken.New(0)
		for b.Loop() {
			t.Reset(0)
			for p := doc; len(p) > 0; {
				n := min(64, len(p))
				if err := t.Write(p[:n], emit); err != nil {
					b.Fatal(err)
				}
				p = p[n:]
			}
			if err := t.Close(emit); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			if _, err := jsonvalue.Decode(doc, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}
