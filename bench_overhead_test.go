package judge_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentjudge/judge"
)

// BenchmarkEngineOverhead validates, through the engine, documents whose
// scan costs next to nothing (an empty object, and the number 1, against
// {"type": "object"}), so that what it measures is what a call costs
// beside the schema layer: the request's checks, finding the compiled
// schema by its bytes, the clock, and building the result, valid (one
// allocation) or with one issue (the result, the issue and its texts).
func BenchmarkEngineOverhead(b *testing.B) {
	e := mustEngine(b)
	sch := json.RawMessage(`{"type": "object"}`)
	for _, tc := range []struct {
		name  string
		doc   string
		valid bool
	}{{"valid", `{}`, true}, {"invalid", `1`, false}} {
		b.Run(tc.name, func(b *testing.B) {
			req := &judge.Request{Output: json.RawMessage(tc.doc), ExpectedSchema: sch}
			if r, err := e.Validate(context.Background(), req); err != nil || r.Valid != tc.valid {
				b.Fatal(err, r)
			}
			b.ReportAllocs()
			cpu := cpuTime(b)
			for b.Loop() {
				if _, err := e.Validate(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu, 1)
		})
	}
}
