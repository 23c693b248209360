package judge_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/sharedtest"
)

// The corpus's own labels agree with the engine: every valid document is
// valid, every invalid one is not.
func TestBenchCorpusVerdicts(t *testing.T) {
	t.Parallel()
	c := sharedtest.LoadBenchCorpus(t)
	e := mustEngine(t)
	check := func(name string, schema json.RawMessage, doc string, want bool) {
		r := validate(t, e, &judge.Request{Output: json.RawMessage(doc), ExpectedSchema: schema})
		if r.Valid != want {
			t.Errorf("%s: valid = %v, want %v: %+v", name, r.Valid, want, r.Issues)
		}
	}
	for _, tc := range c.Cases {
		check(tc.Name+"/valid", tc.Schema, tc.Valid, true)
		check(tc.Name+"/invalid", tc.Schema, tc.Invalid, false)
	}
	check("large/valid", c.Large.Schema, c.Large.Valid, true)
	check("large/invalid", c.Large.Schema, c.Large.Invalid, false)
}

// BenchmarkSchemaLarge validates the ~110 KB tool-output document (an array
// of user records) through the engine: decoding, the cached compiled
// schema, and building the result.
func BenchmarkSchemaLarge(b *testing.B) {
	c := sharedtest.LoadBenchCorpus(b)
	e := mustEngine(b)
	for _, tc := range []struct {
		name string
		doc  string
	}{{"valid", c.Large.Valid}, {"invalid", c.Large.Invalid}} {
		b.Run(tc.name, func(b *testing.B) {
			req := &judge.Request{Output: json.RawMessage(tc.doc), ExpectedSchema: c.Large.Schema}
			b.SetBytes(int64(len(tc.doc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Validate(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSchemaToolArguments validates the 234 argument documents of the
// github-mcp-server tools, each against its own input schema.
func BenchmarkSchemaToolArguments(b *testing.B) {
	c := sharedtest.LoadBenchCorpus(b)
	e := mustEngine(b)
	var reqs []*judge.Request
	for _, tc := range c.Cases {
		reqs = append(reqs,
			&judge.Request{Output: json.RawMessage(tc.Valid), ExpectedSchema: tc.Schema},
			&judge.Request{Output: json.RawMessage(tc.Invalid), ExpectedSchema: tc.Schema})
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, req := range reqs {
			if _, err := e.Validate(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(reqs)), "ns/doc")
}
