package trace_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
	"github.com/agentjudge/judge/trace"
)

// FuzzDecode feeds Decode arbitrary input: it returns conversations or a
// *DecodeError, never panics; what it returns can be checked.
func FuzzDecode(f *testing.F) {
	one := conv(user("hi"), call("c1", "get_order", `{"order_id": "A1"}`), toolMsg("c1", "Error: no"))
	for _, s := range []string{one, "[" + one + "]", one + "\n" + one, `{"task_id": 1, "reward": 1, "traj": ` + one + `}`,
		`[{"role": "user", "content": [{"type": "text", "text": "x"}]}]`, `{"messages": [{"role": "tool", "content": null}]}`, "", "[", `"x"`,
		// Runs that crashed: tau-bench's record, without traj, cut short,
		// and info of other shapes.
		`{"task_id": 4, "reward": 0.0, "info": {"error": "RateLimitError: 429", "traceback": "Traceback (most recent call last):\n  File \"run.py\"\nRateLimitError: 429"}, "traj": [], "trial": 0}`,
		`[{"task_id": 1, "info": {"error": {"code": 500}}}, {"task_id": 2, "reward": 1, "info": {"error": null}, "traj": ` + one + `}]`,
		`{"task_id": 3, "info": {"error": "cut", "traceback": 7}, "traj": ` + one + `}`, `{"task_id": 5, "info": ["error"], "traj": []}`, `{"info": {"error": ""}}`} {
		f.Add([]byte(s))
	}
	ch := checker(f, rules)
	f.Fuzz(func(t *testing.T, data []byte) {
		convs, err := trace.Decode(data)
		if err != nil {
			if err.Error() == "" {
				t.Error("empty error message")
			}
			return
		}
		for _, c := range convs {
			rep, err := ch.Check(context.Background(), c)
			if err != nil {
				t.Errorf("Check of a decoded conversation: %v", err)
				continue
			}
			// A run that crashed is counted apart, never passed with
			// full confidence.
			if c.RunError != nil && (rep.Counts.Crashed != 1 || rep.Result.Confidence >= 1 || (len(c.Messages) == 0 && rep.Result.Confidence != 0)) {
				t.Errorf("crashed run %q: counts %+v confidence %v", c.RunError.Error, rep.Counts, rep.Result.Confidence)
			}
			if c.RunError == nil && rep.Counts.Crashed != 0 {
				t.Errorf("a conversation without a run error counted crashed")
			}
		}
	})
}

// FuzzParseRules feeds ParseRules and New arbitrary rules files: a file is
// compiled or refused with a *RuleError, never a panic.
func FuzzParseRules(f *testing.F) {
	for _, s := range []string{rules, `{"rules": [{"name": "a", "description": "d", "at": "end", "expr": "size(calls) < 3"}]}`,
		`{"rules": [{"name": "a", "description": "d", "severity": "warning", "when": "call.name == 'x'", "expr": "true"}]}`,
		`{"rules": [{"name": "a", "description": "d", "weight": 2.5, "at": "end", "expr": "size(calls) < 3"}]}`,
		`{"rules": [{"name": "a", "description": "d", "at": "end", "tools": ["x"], "expr": "true"}]}`, `{"rules": []}`, `{`, ``} {
		f.Add([]byte(s))
	}
	c, err := toolcall.New()
	if err != nil {
		f.Fatal(err)
	}
	ts, err := c.NewToolset()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := trace.ParseRules(data)
		if err == nil {
			_, err = trace.New(ts, rs)
		}
		var re *trace.RuleError
		if err != nil && !errors.As(err, &re) {
			t.Errorf("error %v (%T) is not a *RuleError", err, err)
		}
	})
}

// FuzzAirline checks arbitrary conversations with the example airline
// rules: every check ends with a result that keeps to the specification,
// whatever the messages, arguments and results hold.
func FuzzAirline(f *testing.F) {
	ex, err := os.ReadFile(filepath.Join("..", "examples", "traces", "airline-cancel.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(ex)
	f.Add([]byte(start(reservation("basic_economy", "yes", "2024-05-14T16:00:00", "2024-05-10")).user("yes, cancel, I am sick").
		call("cancel_reservation", `{"reservation_id": "RES001"}`, `{"reservation_id": "RES001"}`).
		call("update_reservation_baggages", `{"reservation_id": "RES001", "total_baggages": "x"}`, `Error: no`).
		call("book_reservation", `{"flights": [], "passengers": [{}]}`, `[]`).agent("That is $12.50 or $1,000.").json()))
	ch := tauChecker(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		convs, err := trace.Decode(data)
		if err != nil {
			return
		}
		for _, c := range convs {
			rep, err := ch.Check(context.Background(), c)
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			if err := result.Check(rep.Result); err != nil {
				t.Errorf("result breaks the specification: %v", err)
			}
		}
	})
}
