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
		{name: "same call repeated", limits: toolcall.Limits{SameCall: 2, SameResult: 10}, steps: []step{
			{"list_issues", `{"owner": "o"}`, `[{"number": 1}]`, toolcall.Continue, ""},
			{"list_issues", `{"owner": "o"}`, `[{"number": 2}]`, toolcall.Continue, ""},
			{"list_issues", `{"owner": "o"}`, `[{"number": 3}]`, toolcall.Escalate, "same_call"},
			{"list_issues", `{"owner": "o"}`, `[{"number": 4}]`, toolcall.Stop, "same_call"},
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
