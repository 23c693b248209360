package toolcall_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/sharedtest/tooltest"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// TestSilentInputChanges: arguments and results that encoding/json would
// change without a word are refused with their location (a number beyond
// the float64 range, invalid UTF-8); a repeated key is a duplicate_key
// warning at its location, and the last value is the one checked and
// normalized.
func TestSilentInputChanges(t *testing.T) {
	t.Parallel()
	ts := tooltest.Toolset(t, []byte(`{"name": "pay", "description": "Pay an amount to a payee",
	  "inputSchema": {"type": "object", "properties": {"amount": {"type": "integer", "maximum": 100}, "payee": {"type": "string", "maxLength": 2}}}}`), "tools.json")
	ctx := context.Background()
	for _, tc := range []struct {
		name, args, result string
		field              string
		sentinel           error
		msg                string
	}{
		{"1e400", `{"amount": 1e400}`, "", "arguments", jsonvalue.ErrOutOfRange, "number 1e400 at amount is outside the range of a 64-bit float"},
		{"invalid UTF-8", "{\"payee\": \"\xe9\"}", "", "arguments", jsonvalue.ErrInvalidUTF8, "invalid UTF-8 (byte 0xe9) at byte offset 11 at payee"},
		{"result 1e400", `{}`, `{"items": [1, 2e308]}`, "result", jsonvalue.ErrOutOfRange, "number 2e308 at items[1] is outside"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			call := toolcall.Call{Tool: "pay", Arguments: json.RawMessage(tc.args)}
			var err error
			if tc.result == "" {
				_, err = ts.Check(ctx, call)
			} else {
				_, err = ts.Outcome(ctx, toolcall.OutcomeRequest{Call: call, Result: json.RawMessage(tc.result)})
			}
			var ce *toolcall.CallError
			if !errors.As(err, &ce) || ce.Field != tc.field || ce.Line != 1 || !errors.Is(err, tc.sentinel) || !strings.Contains(ce.Msg, tc.msg) {
				t.Fatalf("err = %v, want a CallError on %s wrapping %v with %q", err, tc.field, tc.sentinel, tc.msg)
			}
		})
	}

	res, err := ts.Check(ctx, toolcall.Call{Tool: "pay", Arguments: json.RawMessage(`{"amount": 5, "payee": "ab", "amount": 500}`)})
	if err != nil {
		t.Fatal(err)
	}
	if err := result.Check(res.Result); err != nil {
		t.Fatal(err)
	}
	if norm, _ := json.Marshal(res.Arguments()); string(norm) != `{"amount":500,"payee":"ab"}` {
		t.Errorf("normalized %s, want the last amount", norm)
	}
	if !hasIssue(res.Result, result.DuplicateKey, "amount", "again at line 1, column 30 of the arguments") || !hasIssue(res.Result, result.ConstraintViolation, "amount", "") {
		t.Errorf("want a duplicate_key warning and the maximum broken by the last value: %+v", res.Result.Issues)
	}
	o, err := ts.Outcome(ctx, toolcall.OutcomeRequest{Call: toolcall.Call{Tool: "pay", Arguments: json.RawMessage(`{"payee": "a", "payee": "b"}`)},
		Result: json.RawMessage(`{"paid": true, "paid": false}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !hasIssue(o.Result, result.DuplicateKey, "arguments.payee", "of the arguments") || !hasIssue(o.Result, result.DuplicateKey, "paid", "of the result") {
		t.Errorf("want duplicate_key warnings on the arguments and the result: %+v", o.Result.Issues)
	}
}

func hasIssue(r *result.ValidationResult, typ result.Type, loc, text string) bool {
	for _, is := range r.Issues {
		if is.Type == typ && is.Location == loc && strings.Contains(is.Message, text) {
			return true
		}
	}
	return false
}
