package trace_test

import (
	"context"
	"testing"
)

// BenchmarkTauBench checks the 100 recorded tau-bench conversations with
// the example airline rules, once per iteration; it reports conversations
// per second.
func BenchmarkTauBench(b *testing.B) {
	convs, _ := tauBench(b)
	ch := tauChecker(b)
	b.ResetTimer()
	for b.Loop() {
		for _, c := range convs {
			if _, err := ch.Check(context.Background(), c); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(convs))/b.Elapsed().Seconds(), "conversations/s")
}
