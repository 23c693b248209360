package toolcall_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

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
	norm, _ := json.Marshal(res.Arguments())
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

// ExampleCompactFor compacts a long list of candidates for a call that
// asked about one of them: that one is kept, though it is far down.
func ExampleCompactFor() {
	var items []any
	for i := range 100 {
		items = append(items, map[string]any{"id": fmt.Sprintf("doc-%d", i), "text": strings.Repeat("words ", 40)})
	}
	c := toolcall.CompactFor(map[string]any{"results": items}, 1500, map[string]any{"id": "doc-77"})
	fmt.Println(c.Focus, c.Chars <= 1500)
	// Output: [results[77]] true
}

// ExampleToolset_Outcome_goal checks a result against the user's goal:
// the reservation asked about is not the one returned.
func ExampleToolset_Outcome_goal() {
	c, _ := toolcall.New()
	defs, _ := toolcall.ParseDefinitions([]byte(`{"name": "get_reservation", "description": "Read one reservation by its id", "inputSchema": {"type": "object"}}`), "")
	ts, _ := c.NewToolset(defs...)
	o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{
		Call:   toolcall.Call{Tool: "get_reservation", Arguments: json.RawMessage(`{}`)},
		Result: json.RawMessage(`{"reservation_id": "ABC123", "status": "confirmed"}`),
		Goal:   "What is the status of ZFA04Y?",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(o.Status, o.Goal.Verdict, o.Goal.Missing)
	// Output: NEEDS_MORE_TOOLS not_answered [ZFA04Y]
}
