package toolcall_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/toolcall"
	"github.com/agentjudge/judge/toolcall/storetest"
)

// Each limit, crossed, escalates once, then stops.
func TestProgress(t *testing.T) {
	t.Parallel()
	type step struct {
		tool, args, res string
		verdict         string
		limit           string
	}
	tests := []struct {
		name   string
		limits toolcall.Limits
		steps  []step
	}{
		{name: "same call repeated without progress", limits: toolcall.Limits{SameCall: 2, SameResult: 10, Empty: 10}, steps: []step{
			{"list_issues", `{"owner": "o"}`, `[]`, toolcall.Continue, ""},
			{"list_issues", `{"owner": "o"}`, `[]`, toolcall.Continue, ""},
			{"list_issues", `{"owner": "o"}`, `[]`, toolcall.Escalate, "same_call"},
			{"list_issues", `{"owner": "o"}`, `[]`, toolcall.Stop, "same_call"},
		}},
		// Polling: the same call answered every time is never a loop;
		// only the unchanged result earns advice.
		{name: "same call polled", limits: toolcall.Limits{SameCall: 1, SameResult: 10}, steps: []step{
			{"get_issue", `{"issue_number": 1}`, `{"state": "open"}`, toolcall.Continue, ""},
			{"get_issue", `{"issue_number": 1}`, `{"state": "open"}`, toolcall.Continue, ""},
			{"get_issue", `{"issue_number": 1}`, `{"state": "open"}`, toolcall.Continue, ""},
			{"get_issue", `{"issue_number": 1}`, `{"state": "closed"}`, toolcall.Continue, ""},
		}},
		{name: "same error repeated", limits: toolcall.Limits{SameError: 1}, steps: []step{
			{"get_issue", `{"issue_number": 1}`, `{"error": "Not Found"}`, toolcall.Continue, ""},
			{"get_issue", `{"issue_number": 2}`, `{"error": "Not Found"}`, toolcall.Escalate, "same_error"},
			{"get_issue", `{"issue_number": 3}`, `{"number": 3}`, toolcall.Continue, ""},
			{"get_issue", `{"issue_number": 4}`, `{"error": "Forbidden"}`, toolcall.Continue, ""},
			{"get_issue", `{"issue_number": 5}`, `{"error": "Forbidden"}`, toolcall.Stop, "same_error"},
		}},
		{name: "empty results in a row", limits: toolcall.Limits{Empty: 2}, steps: []step{
			{"search_issues", `{"q": "a"}`, `[]`, toolcall.Continue, ""},
			{"search_issues", `{"q": "b"}`, `{"items": []}`, toolcall.Continue, ""},
			{"search_issues", `{"q": "c"}`, `"no results"`, toolcall.Escalate, "empty"},
		}},
		{name: "unchanged result", limits: toolcall.Limits{SameResult: 2}, steps: []step{
			{"run_script", `{"a": 1}`, `{"stdout": "same"}`, toolcall.Continue, ""},
			{"run_script", `{"a": 2}`, `{"stdout": "same"}`, toolcall.Continue, ""},
			{"run_script", `{"a": 3}`, `{"stdout": "same"}`, toolcall.Escalate, "same_result"},
			{"run_script", `{"a": 4}`, `{"stdout": "new"}`, toolcall.Continue, ""},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ts := outcomeToolset(t, toolcall.WithLimits(tt.limits))
			for i, st := range tt.steps {
				o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{
					Call:   toolcall.Call{Tool: st.tool, Arguments: json.RawMessage(st.args), SessionID: "s"},
					Result: json.RawMessage(st.res)})
				if err != nil {
					t.Fatal(err)
				}
				p := o.Progress
				if p == nil || p.Verdict != st.verdict || p.Limit != st.limit || p.Calls != i+1 {
					t.Fatalf("step %d: progress = %+v, want %s (%s)", i, p, st.verdict, st.limit)
				}
				if st.verdict != toolcall.Continue && !strings.HasPrefix(p.Reason, "no progress: ") {
					t.Errorf("step %d: reason %q", i, p.Reason)
				}
			}
		})
	}
}

// A stop verdict on a call repeated without progress refuses that call,
// and only that call: Check reports it for the same tool and arguments,
// not for other arguments, another tool, or another session; a polled
// call that keeps answering is never refused.
func TestProgressRefusesTheLoopingCall(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tt := range []struct {
		name, store string
		res         string
		refused     bool
	}{
		{"failing call", "fail", `{"error": "database unavailable"}`, true},
		{"empty call", "empty", `[]`, true},
		{"polled call", "poll", `{"number": 1, "state": "open"}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ts := outcomeToolset(t)
			call := toolcall.Call{Tool: "get_issue", Arguments: json.RawMessage(`{"owner": "o", "repo": "r", "issue_number": 1}`), SessionID: tt.store}
			var last *toolcall.Progress
			for i := range 8 {
				chk, err := ts.Check(ctx, call)
				if err != nil {
					t.Fatal(err)
				}
				if chk.Refused != "" {
					if !tt.refused {
						t.Fatalf("call %d refused: %s", i+1, chk.Refused)
					}
					if !last.Refused || last.Verdict != toolcall.Stop || !strings.Contains(chk.Refused, "same call of 'get_issue'") {
						t.Errorf("refused after progress %+v: %q", last, chk.Refused)
					}
					// Other arguments, another tool: not refused.
					other := call
					other.Arguments = json.RawMessage(`{"owner": "o", "repo": "r", "issue_number": 2}`)
					if c, _ := ts.Check(ctx, other); c.Refused != "" {
						t.Errorf("other arguments refused: %s", c.Refused)
					}
					other = toolcall.Call{Tool: "list_issues", Arguments: json.RawMessage(`{"owner": "o", "repo": "r"}`), SessionID: tt.store}
					if c, _ := ts.Check(ctx, other); c.Refused != "" {
						t.Errorf("another tool refused: %s", c.Refused)
					}
					other = call
					other.SessionID = tt.store + "-other"
					if c, _ := ts.Check(ctx, other); c.Refused != "" {
						t.Errorf("another session refused: %s", c.Refused)
					}
					return
				}
				o, err := ts.Outcome(ctx, toolcall.OutcomeRequest{Call: call, Result: json.RawMessage(tt.res), Checked: chk})
				if err != nil {
					t.Fatal(err)
				}
				last = o.Progress
			}
			if tt.refused {
				t.Errorf("never refused; last progress %+v", last)
			}
		})
	}
}

// Repair attempts past the limit show in the next outcome's progress.
func TestProgressRepairAttempts(t *testing.T) {
	t.Parallel()
	ts := outcomeToolset(t, toolcall.WithLimits(toolcall.Limits{RepairAttempts: 1}))
	ctx := context.Background()
	for range 2 {
		if _, err := ts.Check(ctx, toolcall.Call{Tool: "get_issue", Arguments: json.RawMessage(`{}`), SessionID: "r"}); err != nil {
			t.Fatal(err)
		}
	}
	o, err := ts.Outcome(ctx, toolcall.OutcomeRequest{Call: toolcall.Call{Tool: "get_issue", SessionID: "r"}, Result: json.RawMessage(`{"number": 1}`)})
	if err != nil {
		t.Fatal(err)
	}
	if o.Progress.Verdict != toolcall.Escalate || o.Progress.Limit != "repair_attempts" {
		t.Errorf("progress = %+v", o.Progress)
	}
}

// The memory store passes the store behaviour suite (shared with the Redis
// store: toolcall/storetest), and holds no more than its bound.
func TestMemoryStore(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(_ *testing.T, ttl time.Duration, maxSessions int) toolcall.Store {
		return toolcall.NewMemoryStore(ttl, maxSessions)
	})

	ms := toolcall.NewMemoryStore(time.Hour, 3)
	for i := range 5 {
		if err := ms.Update(context.Background(), fmt.Sprint(i), func(s *toolcall.Session) error { s.Calls = i; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if ms.Len() != 3 {
		t.Errorf("store holds %d sessions, want its bound 3", ms.Len())
	}
}
