package gateway_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/gateway"
)

// weather is a Backend with one tool, answering from memory.
type weather struct{ calls int }

func (w *weather) Tools(context.Context) ([]gateway.Tool, error) {
	return []gateway.Tool{{
		Name: "get_weather", Description: "Get the weather of a city",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"units":{"type":"string","enum":["metric","imperial"],"default":"metric"}},"required":["city"]}`),
	}}, nil
}

func (w *weather) Call(_ context.Context, _ string, args json.RawMessage) (*gateway.Result, error) {
	w.calls++
	return &gateway.Result{MCP: &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"temp": 21, "args": ` + string(args) + `}`}}}}, nil
}

// connect serves g over in-memory transports and connects a go-sdk
// client; closeAll ends both sessions.
func connect(ctx context.Context, g *gateway.Gateway) (cs *mcp.ClientSession, closeAll func(), err error) {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := g.Server().Connect(ctx, st, nil)
	if err != nil {
		return nil, nil, err
	}
	cs, err = mcp.NewClient(&mcp.Implementation{Name: "example"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		ss.Close()
		return nil, nil, err
	}
	return cs, func() { cs.Close(); ss.Close() }, nil
}

// ExampleNew serves a backend through the gateway and calls it with the
// go-sdk client: a valid call runs with the normalized arguments, an
// invalid one is answered with repair feedback and never runs.
func ExampleNew() {
	ctx := context.Background()
	backend := &weather{}
	g, err := gateway.New(ctx, backend, gateway.Options{})
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

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"city": "Paris"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	judge := res.Meta[gateway.MetaKey].(map[string]any)
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	fmt.Println(judge["status"])

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"town": "Paris"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.IsError, backend.calls)
	// Output:
	// {"temp": 21, "args": {"city":"Paris","units":"metric"}}
	// SATISFIED
	// true 1
}
