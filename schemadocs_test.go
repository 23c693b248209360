package judge

import (
	"bytes"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
)

// Two slices holding the same schema bytes (tools that share a schema:
// the bench corpus's 117 tools have 112 schemas) both find its document in
// the address table, without the hash table: a look-up from one does not
// make the next from the other miss. A slice changed in place is still
// never mistaken for the document, even at the same length.
func TestSchemaDocsSameBytes(t *testing.T) {
	t.Parallel()
	docs := newSchemaDocs(1 << 20)
	a := bytes.Clone([]byte(`{"type": "object"}`))
	b := bytes.Clone(a)
	d := docs.get(a)
	if got := docs.get(b); got != d {
		t.Fatalf("the same bytes in another slice: document %d, want %d", got.id, d.id)
	}
	// The hash table forgets the document: from now on only the address
	// table finds it, and a look-up that misses it makes a new one.
	docs.mu.Lock()
	clear(docs.m)
	docs.mu.Unlock()
	for i := range 3 {
		for name, raw := range map[string][]byte{"a": a, "b": b} {
			if got := docs.get(raw); got != d {
				t.Fatalf("look-up %d from %s: document %d, want %d (the address table missed)", i, name, got.id, d.id)
			}
		}
	}
	copy(a, `{"type": "string"}`)
	if got := docs.get(a); got == d || string(got.raw) != `{"type": "string"}` {
		t.Fatalf("a slice changed in place: document %d of %s, want a new one", got.id, got.raw)
	}
	if got := docs.get(b); got != d {
		t.Fatalf("the unchanged slice: document %d, want %d", got.id, d.id)
	}
}

// BenchmarkSchemaDocsGet looks up the schemas of the bench corpus's 234
// requests (each tool's schema twice, in its own slice, as
// BenchmarkSchemaToolArguments sends them) in the engine's table of schema
// documents.
func BenchmarkSchemaDocsGet(b *testing.B) {
	c := sharedtest.LoadBenchCorpus(b)
	docs := newSchemaDocs(64 << 20)
	var raws [][]byte
	for _, tc := range c.Cases {
		raws = append(raws, tc.Schema, tc.Schema)
	}
	for _, raw := range raws {
		docs.get(raw)
	}
	for b.Loop() {
		for _, raw := range raws {
			docs.get(raw)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(raws)), "ns/lookup")
}
