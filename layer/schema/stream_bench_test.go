package schema_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/layer/schema"
)

// BenchmarkStreamCorpus streams the valid document of each of the
// corpus's 117 schemas whole (the early checks alone), against Validate.
func BenchmarkStreamCorpus(b *testing.B) {
	c := sharedtest.LoadBenchCorpus(b)
	var vs []*schema.Validator
	var docs [][]byte
	for _, cs := range c.Cases {
		v, err := schema.Compile(cs.Schema, schema.Options{})
		if err != nil {
			b.Fatal(err)
		}
		vs = append(vs, v)
		docs = append(docs, []byte(cs.Valid))
	}
	b.Run("validate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i, v := range vs {
				if _, err := v.Validate(docs[i]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("stream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i, v := range vs {
				s := v.Stream(schema.StreamOptions{})
				if _, err := s.Write(docs[i]); err != nil {
					b.Fatal(err)
				}
				if _, err := s.Close(); err != nil {
					b.Fatal(err)
				}
				s.Release()
			}
		}
	})
}

// BenchmarkStreamLarge streams the corpus's large document in 64-byte
// writes, against Validate.
func BenchmarkStreamLarge(b *testing.B) {
	c := sharedtest.LoadBenchCorpus(b)
	v, err := schema.Compile(c.Large.Schema, schema.Options{})
	if err != nil {
		b.Fatal(err)
	}
	doc := []byte(c.Large.Valid)
	b.Run("validate", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			if _, err := v.Validate(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("stream", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			s := v.Stream(schema.StreamOptions{})
			for p := doc; len(p) > 0; {
				n := min(64, len(p))
				if _, err := s.Write(p[:n]); err != nil {
					b.Fatal(err)
				}
				p = p[n:]
			}
			if _, err := s.Close(); err != nil {
				b.Fatal(err)
			}
			if !s.Valid() {
				b.Fatal("not valid")
			}
			s.Release()
		}
	})
}
