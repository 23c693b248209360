package gateway

import (
	"context"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzCompact sends any tool answer through a gateway with any budget:
// it never panics; a result it did not cut reaches the model byte for
// byte; a cut part is JSON within the budget (or marked over_budget) and
// shorter than the answer's; an error result is never cut.
func FuzzCompact(f *testing.F) {
	for _, seed := range []struct {
		args, answer string
		budget       uint16
	}{
		{`{"repo":"judge","query":"panic"}`, `{"items":[{"id":1,"title":"a panic in the handler"},{"id":2,"title":"a panic in the decoder"},{"id":3,"title":"panic"}],"total_count":3}`, 60},
		{`{"repo":"judge"}`, `[{"id":"a","body":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},{"id":"b"}]`, 20},
		{`{"repo":"judge"}`, `{"error":"not found","suggestions":["x","y","z","w"]}`, 10},
		{`{"repo":"judge","query":"x"}`, "plain text that goes on and on and on and on", 5},
		{`{"repo":"judge"}`, ` [1,2,3,4,5,6,7,8,9,10,11,12,13] `, 8},
		{`{"repo":"judge"}`, `{"a":"\u2028\u2028\u2028\u2028\u2028\u2028\u2028\u2028"}`, 4},
		{`{"repo":"judge"}`, `{"a":[[[[[[[[[[[]]]]]]]]]]]}`, 3},
	} {
		f.Add([]byte(seed.args), seed.answer, seed.budget)
	}
	f.Fuzz(func(t *testing.T, args []byte, answer string, budget uint16) {
		ctx := context.Background()
		b := &fuzzBackend{answer: answer}
		n := int(budget%4096) + 1
		g, err := New(ctx, b, Options{CompactBudget: n})
		if err != nil {
			t.Fatal(err)
		}
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "search_issues", Arguments: json.RawMessage(args)}}
		res, err := g.handle(ctx, req)
		if err != nil || res == nil {
			t.Fatalf("handle(%q) = %v, %v", args, res, err)
		}
		if b.calls.Load() == 0 {
			return // refused before running
		}
		meta, _ := res.Meta[MetaKey].(Meta)
		c := meta.Compacted
		if res.IsError && c != nil {
			t.Fatalf("an error result has a compaction note %+v", c)
		}
		if c == nil || len(c.Parts) == 0 {
			// What the model reads is the JSON on the wire, where invalid
			// UTF-8 is U+FFFD (encoding/json), on every path.
			var wire string
			enc, _ := json.Marshal(answer)
			_ = json.Unmarshal(enc, &wire)
			if answer != "" && (len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != wire) {
				t.Fatalf("a result left whole changed: %q became %+v", answer, res.Content)
			}
			return
		}
		if c.Budget != n || c.Skipped != "" {
			t.Fatalf("note %+v for budget %d", c, n)
		}
		for _, p := range c.Parts {
			if p.At != "content[0]" || p.Chars >= p.OriginalChars || (!p.OverBudget && p.Chars > n) {
				t.Fatalf("part %+v for budget %d", p, n)
			}
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if !json.Valid([]byte(text)) || (!c.Parts[0].OverBudget && utf8.RuneCountInString(text) > n) {
			t.Fatalf("the model reads %q (%d characters) for a budget of %d", text, utf8.RuneCountInString(text), n)
		}
	})
}
