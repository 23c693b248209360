package toolcall_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// FuzzGoal sends any goal text and any result through the goal check and
// the full-coverage check of truncated pages: it
// never panics, and the outcome is a valid result with a goal verdict of
// the three.
func FuzzGoal(f *testing.F) {
	f.Add("What is the status of ZFA04Y?", `{"reservation_id": "ZFA04Y", "status": "ok"}`)
	f.Add("What's the latest on \"payments\"?", `{"items": [{"t": "payments down", "date": "2024-05-14"}, {"t": "payments up", "date": "2024-05-15T10:00:00Z"}]}`)
	f.Add("how much is the total? #12 a@b.io", `[1, "x", null, {"total_cost": 3}]`)
	f.Add("list all of them", `{"items": [{"id": 1}], "has_more": true, "next_cursor": "c", "pagination": {"total": 9, "next_page": 2}}`)
	ts, err := toolcall.New()
	if err != nil {
		f.Fatal(err)
	}
	set, err := ts.NewToolset()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, goal, res string) {
		if !json.Valid([]byte(res)) {
			return
		}
		o, err := set.Outcome(context.Background(), toolcall.OutcomeRequest{Call: toolcall.Call{Tool: "t"}, Result: json.RawMessage(res), Goal: goal})
		if err != nil {
			return // bad input is an error, never a panic
		}
		if err := result.Check(o.Result); err != nil {
			t.Fatalf("goal %q result %s: %v", goal, res, err)
		}
		if g := o.Goal; g != nil && g.Verdict != toolcall.GoalAnswered && g.Verdict != toolcall.GoalNotAnswered && g.Verdict != toolcall.GoalCannotTell {
			t.Fatalf("verdict %q", g.Verdict)
		}
	})
}
