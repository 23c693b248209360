package gateway_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/gateway"
)

// tickets is a Backend whose one tool answers 100 tickets, whatever it is
// asked.
type tickets struct{}

func (tickets) Tools(context.Context) ([]gateway.Tool, error) {
	return []gateway.Tool{{Name: "find_ticket", Description: "Find a support ticket by its id among the open ones",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"ticket_id":{"type":"string"}},"required":["ticket_id"]}`)}}, nil
}

func (tickets) Call(context.Context, string, json.RawMessage) (*gateway.Result, error) {
	var list []map[string]any
	for i := range 100 {
		list = append(list, map[string]any{"id": fmt.Sprintf("T-%03d", i), "body": strings.Repeat("printer jams on page two. ", 8)})
	}
	b, err := json.Marshal(map[string]any{"tickets": list})
	if err != nil {
		return nil, err
	}
	return &gateway.Result{MCP: &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}}, nil
}

// ExampleOptions_compactBudget answers a result over the budget
// compacted: the model reads the first tickets and the one it asked
// about, far down the list, and _meta.judge.compacted says what was cut.
func ExampleOptions_compactBudget() {
	ctx := context.Background()
	g, err := gateway.New(ctx, tickets{}, gateway.Options{CompactBudget: 1500})
	if err != nil {
		fmt.Println(err)
		return
	}
	cs, closeAll, err := connect(ctx, g)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer closeAll()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "find_ticket", Arguments: map[string]any{"ticket_id": "T-077"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	var read struct{ Tickets []any }
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &read); err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range read.Tickets {
		if m, ok := t.(map[string]any); ok {
			fmt.Println(m["id"])
		} else {
			fmt.Println(t)
		}
	}
	note, _ := json.Marshal(res.Meta[gateway.MetaKey].(map[string]any)["compacted"])
	fmt.Println(string(note))
	// Output:
	// T-000
	// T-001
	// T-002
	// T-077
	// … 96 more items cut (100 in all)
	// {"budget":1500,"parts":[{"at":"content[0]","chars":737,"cut":4,"focus":["tickets[77]"],"original_chars":23313}]}
}
