package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkCompact is the gateway's handler on a 100 KB search result
// (400 issues with their bodies) and on a 1 KB one, with compaction off
// and at the recommended budget of 8000 characters: what compacting costs
// when it cuts, and that it costs nothing when the result is within the
// budget.
func BenchmarkCompact(b *testing.B) {
	for _, size := range []int{1 << 10, 100 << 10} {
		var items []string
		for i := 0; len(strings.Join(items, ",")) < size-100; i++ {
			items = append(items, fmt.Sprintf(`{"id": %d, "title": "Crash when opening file %d", "state": "open", "body": %q}`, 1000+i, i, strings.Repeat("Steps to reproduce and logs. ", 8)))
		}
		answer := `{"total_count": ` + fmt.Sprint(len(items)) + `, "items": [` + strings.Join(items, ",") + `]}`
		for _, budget := range []int{0, 8000} {
			b.Run(fmt.Sprintf("%dKB/budget=%d", size>>10, budget), func(b *testing.B) {
				ctx := context.Background()
				g, err := New(ctx, &fuzzBackend{answer: answer}, Options{CompactBudget: budget})
				if err != nil {
					b.Fatal(err)
				}
				req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "search_issues", Arguments: json.RawMessage(`{"repo": "judge", "query": "crash"}`)}}
				b.SetBytes(int64(len(answer)))
				b.ReportAllocs()
				for b.Loop() {
					res, err := g.handle(ctx, req)
					if err != nil || res.IsError {
						b.Fatal(err, res)
					}
					if cut := res.Meta[MetaKey].(Meta).Compacted != nil; cut != (budget > 0 && size > budget) {
						b.Fatalf("compacted %v at budget %d for %d bytes", cut, budget, size)
					}
				}
			})
		}
	}
}
