package gateway_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/gateway"
)

// shapeBackend answers every call of its one tool with the result its
// function makes, a fresh value each time.
type shapeBackend struct {
	tool   gateway.Tool
	answer func() *mcp.CallToolResult
}

func (b *shapeBackend) Tools(context.Context) ([]gateway.Tool, error) {
	return []gateway.Tool{b.tool}, nil
}

func (b *shapeBackend) Call(context.Context, string, json.RawMessage) (*gateway.Result, error) {
	return &gateway.Result{MCP: b.answer()}, nil
}

// orders is a list of n orders, each with a long description; the order
// o-0171 is far down the list.
func orders(n int) map[string]any {
	var list []any
	for i := range n {
		list = append(list, map[string]any{
			"id":          fmt.Sprintf("o-%04d", i),
			"status":      "shipped",
			"description": fmt.Sprintf("Order %d: ", i) + strings.Repeat("a parcel of assorted goods, ", 20),
		})
	}
	return map[string]any{"orders": list, "total": n}
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var (
	ordersSchema = json.RawMessage(`{"type": "object", "properties": {"order_id": {"type": "string"}}}`)
	ordersOutput = json.RawMessage(`{"type": "object", "properties": {"orders": {"type": "array", "items": {"type": "object"}}, "total": {"type": "integer"}}}`)
)

// TestGatewayCompact: with a budget, a result over it reaches the model
// compacted (the order the call asked about whole, far down as it is;
// the rest cut), and _meta.judge.compacted says what was cut; a result
// within the budget, an error result and text that is not JSON reach it
// byte for byte as the tool gave them.
func TestGatewayCompact(t *testing.T) {
	t.Parallel()
	big := jsonText(t, orders(200))
	image := &mcp.ImageContent{Data: []byte("\x89PNG fake image bytes"), MIMEType: "image/png"}
	tests := []struct {
		name   string
		output json.RawMessage // the tool's output schema
		budget int
		goal   string
		answer func() *mcp.CallToolResult
		// want: the parts compacted ("" for none), whether the result
		// is the tool's own, and the skip reason's start.
		parts    string
		verbatim bool
		skipped  string
	}{
		{name: "one JSON text over budget", budget: 2000, parts: "content[0]",
			answer: func() *mcp.CallToolResult {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: big}}}
			}},
		{name: "structured and its text", budget: 2000, parts: "structuredContent,content[0]",
			answer: func() *mcp.CallToolResult {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: big}}, StructuredContent: orders(200)}
			}},
		{name: "structured under an output schema stays whole", output: ordersOutput, budget: 2000, parts: "content[0]",
			answer: func() *mcp.CallToolResult {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: big}}, StructuredContent: orders(200)}
			}},
		{name: "an image beside the JSON is kept", budget: 2000, parts: "content[1]",
			answer: func() *mcp.CallToolResult {
				return &mcp.CallToolResult{Content: []mcp.Content{image, &mcp.TextContent{Text: big}}}
			}},
		{name: "within budget", budget: 2000, verbatim: true,
			answer: func() *mcp.CallToolResult {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: jsonText(t, orders(2))}}}
			}},
		{name: "an error result is never cut", budget: 2000, verbatim: true,
			answer: func() *mcp.CallToolResult {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: big}}}
			}},
		{name: "text that is not JSON is never cut", budget: 2000, verbatim: true, skipped: "the result's content is not JSON",
			answer: func() *mcp.CallToolResult {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("a line of a long log\n", 500)}}}
			}},
		{name: "JSON with no list or long text to cut", budget: 500, verbatim: true, skipped: "the result's JSON holds no list or text long enough to cut",
			answer: func() *mcp.CallToolResult {
				fields := map[string]any{}
				for i := range 60 {
					fields[fmt.Sprintf("field_%02d", i)] = "a short value"
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: jsonText(t, fields)}}}
			}},
		{name: "a structured result under an output schema beside plain text", output: ordersOutput, budget: 2000, verbatim: true,
			skipped: "the structured result must match the tool's output schema",
			answer: func() *mcp.CallToolResult {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "200 orders"}}, StructuredContent: orders(200)}
			}},
		{name: "a goal asking for every item", budget: 2000, verbatim: true, goal: "list all the orders", skipped: "the goal asks for every item",
			answer: func() *mcp.CallToolResult {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: big}}}
			}},
		{name: "compaction off", budget: 0, verbatim: true,
			answer: func() *mcp.CallToolResult {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: big}}}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := &shapeBackend{tool: gateway.Tool{Name: "list_orders", Description: "List the customer's orders with their details",
				InputSchema: ordersSchema, OutputSchema: tt.output}, answer: tt.answer}
			g, err := gateway.New(context.Background(), b, gateway.Options{CompactBudget: tt.budget})
			if err != nil {
				t.Fatal(err)
			}
			var meta map[string]any
			if tt.goal != "" {
				meta = map[string]any{gateway.MetaKey: map[string]any{"goal": tt.goal}}
			}
			res, m := callMeta(t, connectMem(t, g), "list_orders", map[string]any{"order_id": "o-0171"}, meta)
			want := tt.answer()
			if tt.verbatim {
				if got, w := jsonText(t, res.Content), jsonText(t, want.Content); got != w {
					t.Errorf("content changed:\n got %.300s\nwant %.300s", got, w)
				}
				if tt.skipped == "" && m.Compacted != nil {
					t.Errorf("_meta.judge.compacted %+v, want none", m.Compacted)
				}
				if tt.skipped != "" && (m.Compacted == nil || !strings.HasPrefix(m.Compacted.Skipped, tt.skipped) || len(m.Compacted.Parts) != 0) {
					t.Errorf("_meta.judge.compacted %+v, want skipped %q", m.Compacted, tt.skipped)
				}
				return
			}
			if m.Compacted == nil {
				t.Fatalf("no _meta.judge.compacted; status %s, content %.200s", m.Status, text(res))
			}
			var at []string
			for _, p := range m.Compacted.Parts {
				at = append(at, p.At)
				if p.Chars >= p.OriginalChars || p.Chars > tt.budget || p.Cut == 0 || len(p.Focus) != 1 || p.Focus[0] != "orders[171]" {
					t.Errorf("part %+v: want shorter than the original, within %d, cut, the order in focus at orders[171]", p, tt.budget)
				}
			}
			if strings.Join(at, ",") != tt.parts || m.Compacted.Budget != tt.budget || m.Compacted.Skipped != "" {
				t.Fatalf("_meta.judge.compacted %+v, want parts %s", m.Compacted, tt.parts)
			}
			// What the model reads: the asked-about order whole, most of
			// the others cut, the cut said.
			for i, c := range res.Content {
				tc, ok := c.(*mcp.TextContent)
				if !ok {
					if jsonText(t, c) != jsonText(t, want.Content[i]) {
						t.Errorf("content[%d] changed: %s", i, jsonText(t, c))
					}
					continue
				}
				checkOrders(t, fmt.Sprintf("content[%d]", i), []byte(tc.Text), tt.budget)
			}
			sc := jsonText(t, res.StructuredContent)
			switch {
			case want.StructuredContent == nil && res.StructuredContent != nil:
				t.Errorf("a structuredContent appeared: %.200s", sc)
			case want.StructuredContent != nil && tt.output != nil && sc != jsonText(t, want.StructuredContent):
				t.Errorf("the structuredContent under an output schema was changed: %.200s", sc)
			case want.StructuredContent != nil && tt.output == nil:
				checkOrders(t, "structuredContent", []byte(sc), tt.budget)
			}
		})
	}
}

// checkOrders checks a compacted list of orders: within the budget, the
// order o-0171 there with its description whole, and a note of the items
// cut.
func checkOrders(t *testing.T, at string, data []byte, budget int) {
	t.Helper()
	if n := utf8.RuneCount(data); n > budget {
		t.Errorf("%s: %d characters, over the budget of %d", at, n, budget)
	}
	var v struct {
		Orders []any
		Total  int
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s is not JSON: %v: %.200s", at, err, data)
	}
	full := orders(200)["orders"].([]any)[171].(map[string]any)
	var found bool
	for _, o := range v.Orders {
		if m, ok := o.(map[string]any); ok && m["id"] == "o-0171" {
			found = m["description"] == full["description"]
		}
	}
	last, _ := v.Orders[len(v.Orders)-1].(string)
	if !found || v.Total != 200 || len(v.Orders) > 20 || !strings.Contains(last, "more items cut (200 in all)") {
		t.Errorf("%s: %d items (last %q), total %d, o-0171 whole: %v; want the asked-about order whole and the rest cut", at, len(v.Orders), last, v.Total, found)
	}
}
