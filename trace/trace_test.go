package trace_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/internal/sharedtest/tooltest"
	"github.com/agentjudge/judge/internal/sharedtest/tracetest"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
	"github.com/agentjudge/judge/trace"
)

const tools = `[
  {"type": "function", "function": {"name": "get_order", "description": "Read an order by its id.", "parameters": {"type": "object",
    "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}},
  {"type": "function", "function": {"name": "cancel_order", "description": "Cancel an order.", "parameters": {"type": "object",
    "properties": {"order_id": {"type": "string"}, "reason": {"type": "string", "enum": ["no longer needed", "ordered by mistake"]}}, "required": ["order_id", "reason"]}}},
  {"type": "function", "function": {"name": "transfer_to_human", "description": "Hand the user over to a human agent.", "parameters": {"type": "object",
    "properties": {"summary": {"type": "string"}}, "required": ["summary"]}}}
]`

const rules = `{"rules": [
  {"name": "confirm_first", "description": "A cancellation comes only after the user said yes in the previous turn",
   "tools": ["cancel_order"], "expr": "last_user.matches('(?i)\\\\byes\\\\b')"},
  {"name": "no_call_after_transfer", "description": "No tool call after a transfer to a human",
   "expr": "size(calls_of.transfer_to_human) == 0"},
  {"name": "read_before_cancel", "description": "The order is read before it is cancelled", "tools": ["cancel_order"],
   "expr": "calls_of.get_order.exists(c, c.arguments.order_id == call.arguments.order_id && c.status == 'SATISFIED')"}
]}`

func checker(t testing.TB, rs string) *trace.Checker {
	t.Helper()
	ts := tooltest.Toolset(t, []byte(tools), "tools.json")
	var r *trace.Rules
	if rs != "" {
		var err error
		if r, err = trace.ParseRules([]byte(rs)); err != nil {
			t.Fatal(err)
		}
	}
	ch, err := trace.New(ts, r)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// call writes an assistant message making one call.
func call(id, name, args string) string {
	a, _ := json.Marshal(args)
	return `{"role": "assistant", "content": null, "tool_calls": [{"id": "` + id + `", "type": "function", "function": {"name": "` + name + `", "arguments": ` + string(a) + `}}]}`
}

func toolMsg(id, content string) string {
	c, _ := json.Marshal(content)
	return `{"role": "tool", "tool_call_id": "` + id + `", "content": ` + string(c) + `}`
}

func user(text string) string { return `{"role": "user", "content": "` + text + `"}` }

func conv(msgs ...string) string { return "[" + strings.Join(msgs, ",") + "]" }

func TestCheck(t *testing.T) {
	t.Parallel()
	ch := checker(t, rules)
	tests := []struct {
		name   string
		conv   string
		counts trace.Counts
		want   []string // "location type rule" of issues that must be there
	}{
		{name: "clean", conv: conv(user("cancel order A1 please"), call("c1", "get_order", `{"order_id": "A1"}`), toolMsg("c1", `{"order_id": "A1", "status": "pending"}`),
			user("yes, cancel it"), call("c2", "cancel_order", `{"order_id": "A1", "reason": "no longer needed"}`), toolMsg("c2", `{"order_id": "A1", "status": "cancelled"}`)),
			counts: trace.Counts{Conversations: 1, Calls: 2}},
		{name: "invalid call", conv: conv(user("cancel A1"), call("c1", "cancel_order", `{"order_id": "A1", "reason": "because"}`), toolMsg("c1", "Error: unknown reason")),
			counts: trace.Counts{Conversations: 1, Calls: 1, InvalidCalls: 1, FailedResults: 1, RuleViolations: 2, RulesBroken: 2, RuleWeight: 2, Flagged: 1},
			want: []string{"messages[1].tool_calls[0].arguments.reason constraint_violation", "messages[2] tool_error toolcall.error_text",
				"messages[1].tool_calls[0] criteria_not_met trace.rule.confirm_first"}},
		{name: "call after transfer", conv: conv(user("I want a human"), call("c1", "transfer_to_human", `{"summary": "wants a human"}`), toolMsg("c1", "Transfer successful"),
			call("c2", "get_order", `{"order_id": "A1"}`), toolMsg("c2", "Order A1 not found")),
			counts: trace.Counts{Conversations: 1, Calls: 2, FailedResults: 1, RuleViolations: 1, RulesBroken: 1, RuleWeight: 1, Flagged: 1},
			want:   []string{"messages[3].tool_calls[0] criteria_not_met trace.rule.no_call_after_transfer", "messages[4] tool_error toolcall.failure_text"}},
		{name: "unknown tool and no result", conv: conv(user("hi"), call("c1", "delete_everything", `{}`)),
			counts: trace.Counts{Conversations: 1, Calls: 1, InvalidCalls: 1, Flagged: 1},
			want:   []string{"messages[1].tool_calls[0] not_checked trace.no_result"}},
		{name: "loop", conv: conv(user("order A1?"),
			call("c1", "get_order", `{"order_id": "A1"}`), toolMsg("c1", "Error: timeout"),
			call("c2", "get_order", `{"order_id": "A1"}`), toolMsg("c2", "Error: timeout"),
			call("c3", "get_order", `{"order_id": "A1"}`), toolMsg("c3", "Error: timeout")),
			counts: trace.Counts{Conversations: 1, Calls: 3, FailedResults: 3, Loops: 1, Flagged: 1},
			want:   []string{"messages[6] performance_issue trace.loop"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := checkOne(t, ch, tt.conv)
			if rep.Counts != tt.counts {
				t.Errorf("counts = %+v, want %+v\n%+v", rep.Counts, tt.counts, rep.Result.Issues)
			}
			var got []string
			for _, is := range rep.Result.Issues {
				got = append(got, is.Location+" "+string(is.Type)+" "+is.Rule)
			}
			for _, w := range tt.want {
				found := false
				for _, g := range got {
					if strings.HasPrefix(g, w) {
						found = true
					}
				}
				if !found {
					t.Errorf("no issue %q in\n%s", w, strings.Join(got, "\n"))
				}
			}
			if rep.Result.Valid != (tt.counts.Flagged == 0 && tt.counts.FailedResults == 0) {
				t.Errorf("valid = %v with counts %+v", rep.Result.Valid, rep.Counts)
			}
		})
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	one := conv(user("hi"), call("c1", "get_order", `{"order_id": "A1"}`), toolMsg("c1", "ok"))
	tests := []struct {
		name, in string
		n        int    // conversations
		id       string // of the first
		err      string // part of the error
	}{
		{name: "one conversation", in: one, n: 1, id: "conversation 0"},
		{name: "array of conversations", in: "[" + one + "," + one + "]", n: 2, id: "conversation 0"},
		{name: "objects with messages", in: `[{"id": "a", "messages": ` + one + `}, {"id": 7, "messages": []}]`, n: 2, id: "a"},
		{name: "tau-bench records", in: `[{"task_id": 3, "trial": 1, "reward": 0.0, "traj": ` + one + `}]`, n: 1, id: "task 3 trial 1"},
		{name: "JSONL conversations", in: one + "\n" + one + "\n", n: 2, id: "conversation 0 (line 1)"},
		{name: "JSONL messages", in: user("hi") + "\n" + user("again") + "\n", n: 1},
		{name: "content parts", in: `[{"role": "user", "content": [{"type": "text", "text": "hi"}]}]`, n: 1},
		{name: "syntax error", in: "[\n" + user("hi") + ",,]", err: "2:"},
		{name: "empty", in: " ", err: "empty"},
		{name: "no role", in: `[{"role": "user", "content": "x"}, {"content": "y"}]`, err: "conversation 0: messages[1]: the message has no role"},
		{name: "call without name", in: `[{"role": "assistant", "tool_calls": [{"id": "x", "function": {"arguments": "{}"}}]}]`, err: "messages[0].tool_calls[0]"},
		{name: "object without messages", in: `{"id": "x"}`, err: "no messages"},
		{name: "content of wrong type", in: `[{"role": "user", "content": 5}]`, err: "messages[0].content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			convs, err := trace.Decode([]byte(tt.in))
			if tt.err != "" {
				var de *trace.DecodeError
				if !errors.As(err, &de) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want a *DecodeError containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(convs) != tt.n || (tt.id != "" && convs[0].ID != tt.id) {
				t.Errorf("got %d conversations, first %q; want %d, %q", len(convs), convs[0].ID, tt.n, tt.id)
			}
		})
	}
}

func TestRulesErrors(t *testing.T) {
	t.Parallel()
	c, _ := toolcall.New()
	ts, err := c.NewToolset()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, rules, err string }{
		{"unknown field", `{"rules": [{"name": "a", "exp": "true"}]}`, `unknown field "exp"`},
		{"no rules", `{"rules": []}`, "no rules"},
		{"bad name", `{"rules": [{"name": "a b", "description": "d", "expr": "true"}]}`, "rules[0]: name"},
		{"does not compile", `{"rules": [{"name": "a", "description": "d", "expr": "call.name =="}]}`, "rule a: expr:1:"},
		{"not a bool", `{"rules": [{"name": "a", "description": "d", "expr": "'x'"}]}`, "rule a: expr"},
		{"unknown variable", `{"rules": [{"name": "a", "description": "d", "expr": "output.x == 1"}]}`, "rule a: expr"},
		{"no description", `{"rules": [{"name": "a", "expr": "true"}]}`, "neither a description"},
		{"bad at", `{"rules": [{"name": "a", "description": "d", "at": "start", "expr": "true"}]}`, `rule a: at: "start" is not when`},
		{"end rule with tools", `{"rules": [{"name": "a", "description": "d", "at": "end", "tools": ["get_order"], "expr": "true"}]}`, "rule a: tools"},
		{"bad severity", `{"rules": [{"name": "a", "description": "d", "severity": "fatal", "expr": "true"}]}`, "rule a: severity"},
		{"negative weight", `{"rules": [{"name": "a", "description": "d", "weight": -1, "expr": "true"}]}`, "rule a: weight: -1 is not a rule weight"},
		{"weight too large", `{"rules": [{"name": "a", "description": "d", "weight": 1000, "expr": "true"}]}`, "rule a: weight: 1000 is not a rule weight"},
		{"weight of a warning", `{"rules": [{"name": "a", "description": "d", "severity": "warning", "weight": 2, "expr": "true"}]}`, "rule a: weight: a warning rule"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rs, err := trace.ParseRules([]byte(tt.rules))
			if err == nil {
				_, err = trace.New(ts, rs)
			}
			var re *trace.RuleError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("err = %v, want a *RuleError containing %q", err, tt.err)
			}
		})
	}
}

// A rule's weight is what it adds to the risk, once however often it is
// broken; a rule without one weighs 1.
func TestRuleWeight(t *testing.T) {
	t.Parallel()
	ch := checker(t, `{"rules": [
  {"name": "read_first", "description": "The order is read before it is cancelled", "tools": ["cancel_order"], "weight": 2.5,
   "expr": "size(calls_of.get_order) > 0"},
  {"name": "confirm_first", "description": "A cancellation comes after a yes", "tools": ["cancel_order"], "expr": "last_user == 'yes'"},
  {"name": "plain_call", "description": "No text beside a call", "severity": "warning", "expr": "messages[index].content == ''"}
]}`)
	cancel := func(id string) string {
		return call(id, "cancel_order", `{"order_id": "B7", "reason": "no longer needed"}`)
	}
	rep := checkOne(t, ch, conv(user("cancel B7"), cancel("c1"), toolMsg("c1", `{"status": "pending"}`), cancel("c2"), toolMsg("c2", `{"status": "cancelled"}`)))
	want := trace.Counts{Conversations: 1, Calls: 2, RuleViolations: 4, RulesBroken: 2, RuleWeight: 3.5, Flagged: 1}
	if rep.Counts != want || rep.Risk != 3.5 {
		t.Errorf("counts %+v risk %v, want %+v 3.5", rep.Counts, rep.Risk, want)
	}
	if s := trace.Summarize([]*trace.Report{rep, rep}); s.RuleWeight != 7 || s.RulesBroken != 4 {
		t.Errorf("summary %+v, want rule_weight 7 of 4 rules broken", s.Counts)
	}
}

// End rules see the whole conversation once; warning rules are counted
// but neither flag the conversation nor add to its risk; the text
// variables hold what the user, the agent and the tools said before the
// call, and last_agent what the user answered.
func TestEndWarningAndTextRules(t *testing.T) {
	t.Parallel()
	ch := checker(t, `{"rules": [
  {"name": "looked_up", "description": "An order the user cannot name is looked up", "at": "end",
   "expr": "!user_text.contains('lost') || size(calls_of.get_order) > 0"},
  {"name": "plain_call", "description": "No text beside a call", "severity": "warning", "expr": "messages[index].content == ''"},
  {"name": "order_named", "description": "The order is named in the message the user confirmed", "tools": ["cancel_order"],
   "expr": "last_agent.contains(call.arguments.order_id)"},
  {"name": "order_from_tool", "description": "The order id was given by a tool or the user", "tools": ["cancel_order"],
   "expr": "tool_text.contains(call.arguments.order_id) || user_text.contains(call.arguments.order_id)"},
  {"name": "told", "description": "The agent spoke before acting", "tools": ["cancel_order"], "expr": "agent_text != ''"}
]}`)
	agent := func(text string) string { return `{"role": "assistant", "content": "` + text + `"}` }
	withText := `{"role": "assistant", "content": "checking", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_order", "arguments": "{\"order_id\": \"B7\"}"}}]}`
	tests := []struct {
		name     string
		conv     string
		broken   []string // rules broken at calls, in order
		end      []string // end rules broken
		counts   trace.Counts
		flaggedR float64 // risk
	}{
		{name: "end rule broken", conv: conv(user("I lost my order number"), agent("Sorry, I need it")),
			end: []string{"looked_up"}, counts: trace.Counts{Conversations: 1, RuleViolations: 1, RulesBroken: 1, RuleWeight: 1, Flagged: 1}, flaggedR: 1},
		{name: "warning only", conv: conv(user("I lost my order number"), withText, toolMsg("c1", `{"order_id": "B7"}`)),
			broken: []string{"plain_call"}, counts: trace.Counts{Conversations: 1, Calls: 1, RuleViolations: 1, RuleWarnings: 1}},
		{name: "details named and grounded", conv: conv(user("cancel my order"), call("c1", "get_order", `{"order_id": "B7"}`), toolMsg("c1", `{"order_id": "B7"}`),
			agent("Cancel order B7, no longer needed?"), user("yes"), call("c2", "cancel_order", `{"order_id": "B7", "reason": "no longer needed"}`), toolMsg("c2", `{"status": "cancelled"}`)),
			counts: trace.Counts{Conversations: 1, Calls: 2}},
		{name: "details not named nor grounded", conv: conv(user("cancel my order"), agent("Cancel your order?"), user("yes"),
			call("c2", "cancel_order", `{"order_id": "Z9", "reason": "no longer needed"}`), toolMsg("c2", `{"status": "cancelled"}`)),
			broken: []string{"order_named", "order_from_tool"}, counts: trace.Counts{Conversations: 1, Calls: 1, RuleViolations: 2, RulesBroken: 2, RuleWeight: 2, Flagged: 1}, flaggedR: 2},
		{name: "nothing said", conv: conv(user("cancel B7"), call("c2", "cancel_order", `{"order_id": "B7", "reason": "no longer needed"}`), toolMsg("c2", `{"status": "cancelled"}`)),
			broken: []string{"order_named", "told"}, counts: trace.Counts{Conversations: 1, Calls: 1, RuleViolations: 2, RulesBroken: 2, RuleWeight: 2, Flagged: 1}, flaggedR: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := checkOne(t, ch, tt.conv)
			var broken []string
			for _, cr := range rep.Calls {
				broken = append(broken, cr.Violations...)
			}
			if strings.Join(broken, ",") != strings.Join(tt.broken, ",") || strings.Join(rep.Violations, ",") != strings.Join(tt.end, ",") {
				t.Errorf("broken %v, end %v; want %v, %v", broken, rep.Violations, tt.broken, tt.end)
			}
			if rep.Counts != tt.counts || rep.Risk != tt.flaggedR {
				t.Errorf("counts %+v risk %v, want %+v %v", rep.Counts, rep.Risk, tt.counts, tt.flaggedR)
			}
			for _, is := range rep.Result.Issues {
				if strings.HasPrefix(is.Rule, trace.RuleID) && strings.Contains(is.Message, "'looked_up'") && (is.Location != "messages" || !strings.Contains(is.Message, "broken by the conversation")) {
					t.Errorf("end rule issue %+v", is)
				}
				if strings.HasPrefix(is.Rule, trace.RuleID) && strings.Contains(is.Message, "'plain_call'") && is.Severity != result.Warning {
					t.Errorf("warning rule issue %+v", is)
				}
			}
		})
	}
}

// A rule that fails on the values is not checked, never passed.
func TestRuleUndecided(t *testing.T) {
	t.Parallel()
	ch := checker(t, `{"rules": [{"name": "reads_missing", "description": "d", "expr": "call.arguments.nope == 1"}]}`)
	convs, _ := trace.Decode([]byte(conv(call("c1", "get_order", `{"order_id": "A1"}`), toolMsg("c1", `{"id": 1}`))))
	rep, err := ch.Check(context.Background(), convs[0])
	if err != nil {
		t.Fatal(err)
	}
	if rep.Counts.RuleViolations != 0 || rep.Result.Confidence >= 1 || rep.Result.Issues[0].Rule != trace.UndecidedRuleID+"reads_missing" {
		t.Errorf("counts %+v confidence %v issues %+v", rep.Counts, rep.Result.Confidence, rep.Result.Issues)
	}
}

// checkOne checks the first conversation of a JSON text and fails the
// test when its result breaks the specification.
func checkOne(t *testing.T, ch *trace.Checker, text string) *trace.Report {
	t.Helper()
	convs, err := trace.Decode([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ch.Check(context.Background(), convs[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := result.Check(rep.Result); err != nil {
		t.Errorf("result breaks the specification: %v", err)
	}
	return rep
}

// tauBench checks the recorded tau-bench airline conversations with the
// example rules.
func tauBench(t testing.TB) ([]trace.Conversation, []*trace.Report) {
	dir := sharedtest.Dir(t, "agent-traces")
	ch := tauChecker(t)
	data, err := os.ReadFile(filepath.Join(dir, "tau-bench-airline-gpt-4o.dev.json"))
	if err != nil {
		t.Fatal(err)
	}
	convs, err := trace.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if ch, err = ch.ForInput(context.Background(), convs); err != nil {
		t.Fatal(err)
	}
	reports := make([]*trace.Report, len(convs))
	for i, cv := range convs {
		if reports[i], err = ch.Check(context.Background(), cv); err != nil {
			t.Fatal(err)
		}
	}
	return convs, reports
}

// tauChecker is the checker of the airline tools and example rules.
func tauChecker(t testing.TB) *trace.Checker {
	ch, _ := tracetest.AirlineChecker(t)
	return ch
}

// On tau-bench's recorded conversations: no recorded call is rejected
// (each was executed by the real environment), every tool error is
// classified FAILED and no other result is. A tool error is decided by
// tau-bench's own convention, not by judge's patterns: its Env.step
// catches the tool's exception and answers "Error: " + the exception.
func TestTauBench(t *testing.T) {
	t.Parallel()
	convs, reports := tauBench(t)
	if len(reports) != 100 {
		t.Fatalf("%d conversations, want 100", len(reports))
	}
	errorsSeen, errorsFailed, normal, normalFailed := 0, 0, 0, 0
	for i, rep := range reports {
		if err := result.Check(rep.Result); err != nil {
			t.Errorf("%s: result breaks the specification: %v", rep.ID, err)
		}
		for _, cr := range rep.Calls {
			if !cr.Valid {
				t.Errorf("%s: recorded call %s of %s rejected", rep.ID, cr.Location, cr.Tool)
			}
			if cr.ResultAt == "" {
				continue
			}
			var k int
			if _, err := fmtSscanf(cr.ResultAt, &k); err != nil {
				t.Fatal(err)
			}
			isError := strings.HasPrefix(convs[i].Messages[k].Content, "Error: ")
			failed := cr.Status == toolcall.Failed
			if isError {
				errorsSeen++
				if failed {
					errorsFailed++
				} else {
					t.Errorf("%s %s: tool error %q classified %s", rep.ID, cr.ResultAt, convs[i].Messages[k].Content, cr.Status)
				}
			} else {
				normal++
				if failed {
					normalFailed++
					t.Errorf("%s %s: normal result %q classified FAILED: %s", rep.ID, cr.ResultAt, result.Clip(convs[i].Messages[k].Content, 100), cr.Reason)
				}
			}
		}
	}
	if errorsSeen < 30 {
		t.Errorf("%d tool errors seen, want the 33 of the file", errorsSeen)
	}
	s := trace.Summarize(reports)
	if s.RuleViolations == 0 || s.AUROC == nil {
		t.Fatalf("summary %+v: the example rules found nothing", s)
	}
	// The risk score must beat the simple counts that already separate
	// failed from solved tasks: the conversation's length and the number
	// of calls that change a booking; on the whole file and on the
	// held-out half (tasks 25-49, whose conversations no choice of the
	// score was made on: docs/trace.md).
	type scores struct{ risk, length, changes []float64 }
	var failed, solved, heldFailed, heldSolved scores
	for i, rep := range reports {
		changes := 0
		for _, cr := range rep.Calls {
			if strings.HasPrefix(cr.Tool, "update_reservation_") || cr.Tool == "book_reservation" || cr.Tool == "cancel_reservation" {
				changes++
			}
		}
		var task, trial int
		if _, err := fmt.Sscanf(rep.ID, "task %d trial %d", &task, &trial); err != nil {
			t.Fatalf("%s: %v", rep.ID, err)
		}
		add := func(s *scores) {
			s.risk = append(s.risk, rep.Risk)
			s.length = append(s.length, float64(len(convs[i].Messages)))
			s.changes = append(s.changes, float64(changes))
		}
		if *rep.Reward >= trace.Solved {
			add(&solved)
			if task >= 25 {
				add(&heldSolved)
			}
		} else {
			add(&failed)
			if task >= 25 {
				add(&heldFailed)
			}
		}
		for _, is := range rep.Result.Issues {
			if strings.HasPrefix(is.Rule, trace.UndecidedRuleID) {
				t.Errorf("%s: %s", rep.ID, is.Message)
			}
		}
	}
	auroc := func(f, s []float64) float64 {
		a, ok := trace.AUROC(f, s)
		if !ok {
			t.Fatal("a group is empty")
		}
		return a
	}
	byLen, byChanges := auroc(failed.length, solved.length), auroc(failed.changes, solved.changes)
	t.Logf("tool errors FAILED %d/%d, normal results FAILED %d/%d; %+v; AUROC %.3f (length %.3f, changes %.3f)",
		errorsFailed, errorsSeen, normalFailed, normal, s.Counts, *s.AUROC, byLen, byChanges)
	if *s.AUROC < byLen+0.08 || *s.AUROC < byChanges+0.08 {
		t.Errorf("risk score AUROC %.3f does not beat the baselines (length %.3f, changes %.3f) by 0.08", *s.AUROC, byLen, byChanges)
	}
	held := auroc(heldFailed.risk, heldSolved.risk)
	heldLen, heldChanges := auroc(heldFailed.length, heldSolved.length), auroc(heldFailed.changes, heldSolved.changes)
	t.Logf("held out (tasks 25-49): AUROC %.3f (length %.3f, changes %.3f)", held, heldLen, heldChanges)
	if held < heldLen+0.05 || held < heldChanges+0.05 {
		t.Errorf("held-out risk score AUROC %.3f does not beat the baselines (length %.3f, changes %.3f) by 0.05", held, heldLen, heldChanges)
	}
}

// fmtSscanf reads k of "messages[k]".
func fmtSscanf(at string, k *int) (int, error) { return fmt.Sscanf(at, "messages[%d]", k) }
