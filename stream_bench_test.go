package judge_test

import (
	"context"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/sharedtest"
)

// BenchmarkStreamToolArguments streams the valid argument documents of the
// github-mcp-server tools through Engine.Stream in 64-byte writes, then
// Close (the final result), against Validate of the whole document: the
// pair bench/stream times, in process. Compare cpu-ns/doc of the two.
func BenchmarkStreamToolArguments(b *testing.B) {
	c := sharedtest.LoadBenchCorpus(b)
	e := mustEngine(b)
	ctx := context.Background()
	var reqs []*judge.Request
	for _, tc := range c.Cases {
		reqs = append(reqs, &judge.Request{Output: []byte(tc.Valid), ExpectedSchema: tc.Schema})
	}
	for _, req := range reqs { // compile every schema before the loop
		if _, err := e.Validate(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("validate", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cpuTime(b)
		for b.Loop() {
			for _, req := range reqs {
				if _, err := e.Validate(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		}
		reportCPU(b, cpu, len(reqs))
	})
	b.Run("stream", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cpuTime(b)
		for b.Loop() {
			for _, req := range reqs {
				st := e.Stream(req)
				for p := req.Output; len(p) > 0; {
					n := min(64, len(p))
					if _, err := st.Write(p[:n]); err != nil {
						b.Fatal(err)
					}
					p = p[n:]
				}
				evs, err := st.Close(ctx)
				if err != nil || len(evs) == 0 || !evs[len(evs)-1].Result.Valid {
					b.Fatal("not valid", err)
				}
			}
		}
		reportCPU(b, cpu, len(reqs))
	})
}
