package toolcall_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentjudge/judge/toolcall"
)

func Example() {
	defs, err := toolcall.ParseDefinitions([]byte(`{
	  "name": "get_events",
	  "description": "Get calendar events by their ids or within a time span.",
	  "inputSchema": {
	    "type": "object",
	    "properties": {
	      "action": {"type": "string", "enum": ["by_ids", "by_time_span"]},
	      "ids": {"type": "array", "items": {"type": "string"}},
	      "limit": {"type": "integer", "default": 50}
	    },
	    "required": ["action"]
	  },
	  "applies_when": {"limit": {"action": ["by_time_span"]}},
	  "rules": [{"id": "ids", "when": "args.action == 'by_ids'", "expression": "has(args.ids)",
	             "message": "action 'by_ids' requires ids", "fieldPath": "ids"}]
	}`), "tools.json")
	if err != nil {
		panic(err)
	}
	c, err := toolcall.New()
	if err != nil {
		panic(err)
	}
	ts, err := c.NewToolset(defs...)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	res, _ := ts.Check(ctx, toolcall.Call{Tool: "get_events", Arguments: json.RawMessage(`{"action": "by_ids", "ids": "e1", "limit": 5}`)})
	norm, _ := json.Marshal(res.NormalizedArguments)
	fmt.Println(res.Result.Valid, string(norm))
	for _, is := range res.Result.Issues {
		fmt.Println(is.Severity, is.Location, is.Message)
	}

	res, _ = ts.Check(ctx, toolcall.Call{Tool: "get_events", Arguments: json.RawMessage(`{"action": "by_ids"}`)})
	fmt.Println(res.Result.Valid, res.Repair.Intent)
	for _, f := range res.Repair.Fixes {
		fmt.Println(f.Location, f.Problem)
	}

	o, _ := ts.Outcome(ctx, toolcall.OutcomeRequest{
		Call:   toolcall.Call{Tool: "get_events", Arguments: json.RawMessage(`{"action": "by_ids", "ids": ["e1"]}`)},
		Result: json.RawMessage(`{"content": [{"type": "text", "text": "calendar unavailable"}], "isError": true}`),
	})
	fmt.Println(o.Status, o.Reason)
	// Output:
	// true {"action":"by_ids","ids":["e1"]}
	// info ids Parameter 'ids' was a single string, wrapped in a list
	// info limit Parameter 'limit' was dropped: it applies only when action is 'by_time_span', not 'by_ids'
	// false Get calendar events by their ids or within a time span.
	// ids action 'by_ids' requires ids
	// FAILED the tool reported a failure: the result has isError true
}
