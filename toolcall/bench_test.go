package toolcall_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/toolcall"
)

// BenchmarkCheck is the pre-execution check of a typical call: a few
// parameters, a rule, an action scope (get_events), and the valid
// argument documents of the 117 github-mcp-server tools of the shared
// benchmark corpus, one call per op.
func BenchmarkCheck(b *testing.B) {
	ctx := context.Background()
	b.Run("get_events", func(b *testing.B) {
		ts := specToolset(b)
		call := toolcall.Call{Tool: "get_events", Arguments: json.RawMessage(`{"action": "by_time_span", "start": "2026-01-01", "end": "2026-01-31", "limit": 20}`)}
		b.ReportAllocs()
		for b.Loop() {
			res, err := ts.Check(ctx, call)
			if err != nil || !res.Result.Valid {
				b.Fatal(err, res)
			}
		}
	})
	b.Run("github_corpus", func(b *testing.B) {
		corpus := sharedtest.LoadBenchCorpus(b)
		c, err := toolcall.New()
		if err != nil {
			b.Fatal(err)
		}
		var defs []toolcall.Definition
		var calls []toolcall.Call
		for _, cs := range corpus.Cases {
			defs = append(defs, toolcall.Definition{Name: cs.Name, Kind: toolcall.KindMCP, InputSchema: decode(b, string(cs.Schema))})
			calls = append(calls, toolcall.Call{Tool: cs.Name, Arguments: json.RawMessage(cs.Valid)})
		}
		ts, err := c.NewToolset(defs...)
		if err != nil {
			b.Fatal(err)
		}
		// One call of each tool first: the first call of a tool may
		// compile what its later calls use (its closed schema), once.
		for _, call := range calls {
			if _, err := ts.Check(ctx, call); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportAllocs()
		i := 0
		cpu0 := cpuTime(b)
		for b.Loop() {
			call := calls[i%len(calls)]
			i++
			if _, err := ts.Check(ctx, call); err != nil {
				b.Fatal(err)
			}
		}
		// The process's CPU time beside the wall time: on a shared
		// machine, waiting for a processor counts in the one only.
		b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(i), "cpu-ns/op")
	})
}

// bigResult is an MCP result of about size bytes: a JSON-in-text list of
// issues, as a search tool returns.
func bigResult(size int) []byte {
	var items []string
	n := 0
	for i := 0; n < size-200; i++ {
		it := fmt.Sprintf(`{"id": %d, "number": %d, "title": "Crash when opening file %d", "state": "open", "user": {"login": "dev%d"}, "body": %q}`,
			1000+i, i, i, i%7, strings.Repeat("Steps to reproduce and logs. ", 12))
		items = append(items, it)
		n += len(it) + 1
	}
	text := `{"total_count": ` + fmt.Sprint(len(items)) + `, "items": [` + strings.Join(items, ",") + `]}`
	b, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
	return b
}

// BenchmarkOutcome100KB classifies a 100 KB result: decoding, failure and
// empty detection, facts, and compaction to the default budget.
func BenchmarkOutcome100KB(b *testing.B) {
	benchOutcome(b, 100<<10, func(o *toolcall.Outcome) bool { return o.Status == toolcall.NeedsMoreTools && o.Compacted != nil })
}

// BenchmarkOutcome1KB classifies a 1 KB result, the common size of a
// tool's answer (tau-bench's airline results are 700 bytes at the median):
// within half the default budget, so the payload is not encoded to be
// measured.
func BenchmarkOutcome1KB(b *testing.B) {
	benchOutcome(b, 1<<10, func(o *toolcall.Outcome) bool { return o.Compacted == nil })
}

// benchOutcome classifies a search result of about size bytes, checking
// each outcome with ok.
func benchOutcome(b *testing.B, size int, ok func(*toolcall.Outcome) bool) {
	ts := outcomeToolset(b)
	res := bigResult(size)
	req := toolcall.OutcomeRequest{Call: toolcall.Call{Tool: "search_issues", Arguments: json.RawMessage(`{"q": "crash"}`)}, Result: res}
	ctx := context.Background()
	b.SetBytes(int64(len(res)))
	b.ReportAllocs()
	for b.Loop() {
		o, err := ts.Outcome(ctx, req)
		if err != nil || !ok(o) {
			b.Fatal(err, o)
		}
	}
}

// cpuTime is the process's CPU time, user and system, all threads.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
