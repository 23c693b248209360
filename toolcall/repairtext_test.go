package toolcall_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// RepairText: the words a model reads of a refused call — each error with
// its location, the repair block, the attempts at the same mistake (the
// last one says so), a refused loop's reason, and nothing for a call
// that runs.
func TestRepairText(t *testing.T) {
	t.Parallel()
	ts := specToolset(t, toolcall.WithLimits(toolcall.Limits{RepairAttempts: 2}))
	ctx := context.Background()
	call := toolcall.Call{Tool: "home_assistant", Arguments: json.RawMessage(`{"action": "call_tool"}`), SessionID: "text"}
	for i, want := range []string{"Attempt 1 of 2 at this mistake. Fix the arguments", "This was attempt 2 of 2 at the same mistake.", "This was attempt 2 of 2 at the same mistake."} {
		chk, err := ts.Check(ctx, call)
		if err != nil {
			t.Fatal(err)
		}
		text := toolcall.RepairText("home_assistant", chk)
		for _, w := range []string{"judge did not run 'home_assistant': the arguments are invalid.", "(at tool_name)", "Repair: {", want} {
			if !strings.Contains(text, w) {
				t.Errorf("call %d: text lacks %q:\n%s", i+1, w, text)
			}
		}
	}
	valid, err := ts.Check(ctx, toolcall.Call{Tool: "home_assistant", Arguments: json.RawMessage(`{"action": "list_tools"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if text := toolcall.RepairText("home_assistant", valid); text != "" {
		t.Errorf("a valid call's text: %q", text)
	}
	valid.Refused = "the same call of 'home_assistant' (the same arguments) made no progress 4 times in a row"
	if text := toolcall.RepairText("home_assistant", valid); !strings.Contains(text, valid.Refused) || !strings.Contains(text, "This call alone is refused") {
		t.Errorf("a refused call's text: %q", text)
	}
	ce := &toolcall.CallError{Field: "arguments", Line: 1, Col: 3, Msg: "invalid character"}
	un := toolcall.UnreadableCheck("home_assistant", ce)
	if un.Result.Valid || len(un.Result.Issues) != 1 || un.Result.Issues[0].Location != "arguments:1:3" || un.Repair == nil {
		t.Errorf("unreadable check: %+v", un)
	}
	if err := result.Check(un.Result); err != nil {
		t.Errorf("unreadable check's result breaks the specification: %v", err)
	}
	if text := toolcall.RepairText("home_assistant", un); !strings.Contains(text, "could not be read: invalid character") {
		t.Errorf("unreadable text: %q", text)
	}
}
