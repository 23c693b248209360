package trace_test

import (
	"context"
	"fmt"

	"github.com/agentjudge/judge/toolcall"
	"github.com/agentjudge/judge/trace"
)

// Check a recorded conversation against its tools and a policy rule.
func Example() {
	defs, _ := toolcall.ParseDefinitions([]byte(`{"type": "function", "function": {"name": "cancel_order",
	  "description": "Cancel an order.", "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}}`), "")
	c, _ := toolcall.New()
	ts, _ := c.NewToolset(defs...)
	rules, _ := trace.ParseRules([]byte(`{"rules": [{"name": "confirm_first", "tools": ["cancel_order"],
	  "description": "A cancellation comes only after the user said yes", "expr": "last_user.matches('(?i)\\\\byes\\\\b')"}]}`))
	ch, err := trace.New(ts, rules)
	if err != nil {
		fmt.Println(err)
		return
	}
	convs, err := trace.Decode([]byte(`[
	  {"role": "user", "content": "Cancel order A1"},
	  {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
	    "function": {"name": "cancel_order", "arguments": "{\"order_id\": \"A1\"}"}}]},
	  {"role": "tool", "tool_call_id": "c1", "content": "Error: order A1 already shipped"}]`))
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, _ := ch.Check(context.Background(), convs[0])
	for _, cr := range rep.Calls {
		fmt.Println(cr.Location, cr.Tool, cr.Status, cr.Violations)
	}
	fmt.Printf("%+v\n", rep.Counts)
	// Output:
	// messages[1].tool_calls[0] cancel_order FAILED [confirm_first]
	// {Conversations:1 Calls:1 InvalidCalls:0 FailedResults:1 Loops:0 RuleViolations:1 RulesBroken:1 RuleWeight:1 RuleWarnings:0 RulesUndecided:0 Flagged:1 Crashed:0}
}
