package judge_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentjudge/judge"
)

// benchCorpus is ../shared/testdata/mcp-tools/bench-corpus.json: the 117
// github-mcp-server input schemas with a valid and an invalid argument
// document each, and a ~110 KB array document with its schema.
type benchCorpus struct {
	Cases []struct {
		Name    string          `json:"name"`
		Schema  json.RawMessage `json:"schema"`
		Valid   string          `json:"valid"`
		Invalid string          `json:"invalid"`
	} `json:"cases"`
	Large struct {
		Schema  json.RawMessage `json:"schema"`
		Valid   string          `json:"valid"`
		Invalid string          `json:"invalid"`
	} `json:"large"`
}

func loadBenchCorpus(tb testing.TB) *benchCorpus {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "shared", "testdata", "mcp-tools", "bench-corpus.json"))
	if os.IsNotExist(err) {
		tb.Skip("../shared/testdata/mcp-tools/bench-corpus.json is absent: run beside the shared/ folder")
	}
	if err != nil {
		tb.Fatal(err)
	}
	var c benchCorpus
	if err := json.Unmarshal(data, &c); err != nil {
		tb.Fatal(err)
	}
	return &c
}

// The corpus's own labels agree with the engine: every valid document is
// valid, every invalid one is not.
func TestBenchCorpusVerdicts(t *testing.T) {
	t.Parallel()
	c := loadBenchCorpus(t)
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
	c := loadBenchCorpus(b)
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
	c := loadBenchCorpus(b)
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
