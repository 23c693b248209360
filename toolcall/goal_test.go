package toolcall_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// TestGoalDeterministic checks the goal against results: the ids and
// fields the goal asks about, and for a question about the current state,
// the newest relevant item rather than the first or best-scored one.
func TestGoalDeterministic(t *testing.T) {
	t.Parallel()
	ts := outcomeToolset(t)
	news := `{"results": [
	  {"title": "Kubernetes 1.31 release notes", "score": 0.97, "published": "2024-06-01T10:00:00Z"},
	  {"title": "Payments outage: investigating elevated errors", "score": 0.61, "published": "2024-05-14T08:00:00Z"},
	  {"title": "Payments outage: resolved, all transactions processed", "score": 0.42, "published": "2024-05-14T11:30:00Z"},
	  {"title": "Search latency incident", "score": 0.40, "published": "2024-05-13T09:00:00Z"}]}`
	tests := []struct {
		name, tool, args, result, goal string
		status                         toolcall.Status
		verdict, evidence              string
		issue                          string // rule of the goal issue; "" none
		missing                        []string
	}{
		{name: "id in the result", tool: "run_script", result: `{"reservation_id": "ZFA04Y", "status": "confirmed"}`,
			goal: "What is the status of reservation ZFA04Y?", status: toolcall.Satisfied, verdict: toolcall.GoalAnswered},
		{name: "id in the arguments", tool: "run_script", args: `{"user_id": "mia_li_3668"}`, result: `{"name": "Mia Li", "email": "mia@example.com"}`,
			goal: "My user id is mia_li_3668, what email do you have?", status: toolcall.Satisfied, verdict: toolcall.GoalAnswered},
		{name: "another id", tool: "run_script", result: `{"reservation_id": "ABC123", "status": "confirmed"}`,
			goal: "What is the status of reservation ZFA04Y?", status: toolcall.NeedsMoreTools, verdict: toolcall.GoalNotAnswered,
			issue: "toolcall.goal.deterministic", missing: []string{"ZFA04Y"}},
		{name: "field asked is absent", tool: "run_script", result: `{"reservation_id": "ZFA04Y", "passengers": 2}`,
			goal: "How much baggage is on ZFA04Y?", status: toolcall.NeedsMoreTools, verdict: toolcall.GoalNotAnswered,
			issue: "toolcall.goal.deterministic", missing: []string{"baggage"}},
		{name: "newest relevant event", tool: "run_script", result: news, goal: "What's the current status of the payments outage?",
			status: toolcall.Satisfied, verdict: toolcall.GoalAnswered, evidence: "results[2]"},
		{name: "nothing relevant", tool: "run_script", result: news, goal: "What's the latest on the database migration?",
			status: toolcall.NeedsMoreTools, verdict: toolcall.GoalNotAnswered, issue: "toolcall.goal.deterministic"},
		{name: "nothing to look for", tool: "run_script", result: `{"stdout": "done"}`, goal: "find the crash bug",
			status: toolcall.Satisfied, verdict: toolcall.GoalCannotTell, issue: "toolcall.goal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{Call: toolcall.Call{Tool: tt.tool, Arguments: json.RawMessage(tt.args)},
				Result: json.RawMessage(tt.result), Goal: tt.goal})
			if err != nil {
				t.Fatal(err)
			}
			if err := result.Check(o.Result); err != nil {
				t.Error(err)
			}
			if o.Goal == nil || o.Status != tt.status || o.Goal.Verdict != tt.verdict || o.Goal.Evidence != tt.evidence {
				t.Fatalf("status %s, goal %+v; want %s, %s, evidence %q", o.Status, o.Goal, tt.status, tt.verdict, tt.evidence)
			}
			if fmt.Sprint(o.Goal.Missing) != fmt.Sprint(tt.missing) && tt.missing != nil {
				t.Errorf("missing %v, want %v", o.Goal.Missing, tt.missing)
			}
			rules := []string{}
			for _, is := range o.Result.Issues {
				rules = append(rules, is.Rule)
			}
			if (tt.issue == "") != (len(rules) == 0) || (tt.issue != "" && rules[0] != tt.issue) {
				t.Errorf("issues %v, want %q", rules, tt.issue)
			}
			if (tt.verdict == toolcall.GoalCannotTell) != (o.Result.Confidence < 1) {
				t.Errorf("confidence %v with verdict %s", o.Result.Confidence, tt.verdict)
			}
		})
	}
}

// TestGoalModel decides a goal the rules cannot with a model behind a
// fake OpenAI-compatible server on loopback: met is answered, not_met
// needs more tools, cannot_tell stays not checked with lower confidence.
func TestGoalModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fixture string
		status  toolcall.Status
		verdict string
		by      string
	}{
		{"criteria_met", toolcall.Satisfied, toolcall.GoalAnswered, toolcall.ByModel},
		{"criteria_not_met", toolcall.NeedsMoreTools, toolcall.GoalNotAnswered, toolcall.ByModel},
		{"criteria_cannot_tell", toolcall.Satisfied, toolcall.GoalCannotTell, ""},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t, llmtest.Reply{Fixture: tt.fixture})
			opt, err := toolcall.WithLLM(llm.Config{BaseURL: srv.URL, Model: llmtest.Model})
			if err != nil {
				t.Fatal(err)
			}
			ts := outcomeToolset(t, opt)
			o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{Call: toolcall.Call{Tool: "run_script"},
				Result: json.RawMessage(`{"stdout": "3 tests failed in parser_test.go"}`), Goal: "find the crash bug"})
			if err != nil {
				t.Fatal(err)
			}
			if o.Status != tt.status || o.Goal == nil || o.Goal.Verdict != tt.verdict || o.Goal.By != tt.by {
				t.Errorf("status %s goal %+v, want %s %s by %q", o.Status, o.Goal, tt.status, tt.verdict, tt.by)
			}
			if (tt.verdict == toolcall.GoalCannotTell) != (o.Result.Confidence < 1) {
				t.Errorf("confidence %v with verdict %s", o.Result.Confidence, tt.verdict)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || !strings.Contains(reqs[0].Messages[1].Content, "find the crash bug") || !strings.Contains(reqs[0].Messages[1].Content, "3 tests failed") {
				t.Errorf("the model was asked %d times, or without the goal and result: %+v", len(reqs), reqs)
			}
		})
	}
	// A goal the rules decide never reaches the model.
	srv := llmtest.NewServer(t)
	opt, err := toolcall.WithLLM(llm.Config{BaseURL: srv.URL, Model: llmtest.Model})
	if err != nil {
		t.Fatal(err)
	}
	o, err := outcomeToolset(t, opt).Outcome(context.Background(), toolcall.OutcomeRequest{Call: toolcall.Call{Tool: "run_script"},
		Result: json.RawMessage(`{"id": "ZFA04Y"}`), Goal: "Show me ZFA04Y"})
	if err != nil || o.Goal == nil || o.Goal.By != toolcall.ByRules || len(srv.Requests()) != 0 {
		t.Errorf("goal %+v err %v, %d model requests; want decided by the rules, none", o.Goal, err, len(srv.Requests()))
	}
}

// tauCall is a recorded call of tau-bench with the user's last message
// before it and the tool's answer.
type tauCall struct {
	conv           int
	goal, tool     string
	args, response string
}

// tauCalls reads the recorded airline conversations.
func tauCalls(t *testing.T) (defs []byte, calls []tauCall) {
	t.Helper()
	defs, convs := sharedtest.AirlineTraces(t)
	for ci, c := range convs {
		user := ""
		pending := map[string]tauCall{}
		for _, m := range c {
			switch m.Role {
			case "user":
				user = m.Content
			case "assistant":
				for _, tc := range m.ToolCalls {
					pending[tc.ID] = tauCall{conv: ci, goal: user, tool: tc.Function.Name, args: tc.Function.Arguments}
				}
			case "tool":
				if call, ok := pending[m.ToolCallID]; ok {
					call.response = m.Content
					calls = append(calls, call)
				}
			}
		}
	}
	return defs, calls
}

// TestGoalTauBench measures the deterministic goal check on the recorded
// airline conversations: each call's goal is the user's last message
// before it. It logs how often the check decides and a sample to read by
// hand; the figures are in docs/toolcall.md.
func TestGoalTauBench(t *testing.T) {
	t.Parallel()
	defs, calls := tauCalls(t)
	ts := newToolset(t, defs, "tau-bench-airline-tools.json")
	counts := map[string]int{}
	checked := 0
	var sample []string
	for i, c := range calls {
		// The recorded answer is text: JSON when it parses, else a
		// string.
		res := json.RawMessage(c.response)
		if !json.Valid(res) {
			res, _ = json.Marshal(c.response)
		}
		o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{Call: toolcall.Call{Tool: c.tool, Arguments: json.RawMessage(c.args)},
			Result: res, Goal: c.goal})
		if err != nil {
			t.Fatalf("call %d (%s): %v", i, c.tool, err)
		}
		if o.Goal == nil {
			continue
		}
		checked++
		counts[o.Goal.Verdict]++
		if o.Goal.Verdict != toolcall.GoalCannotTell && len(sample) < 40 && i%7 == 0 {
			sample = append(sample, fmt.Sprintf("conv %d %s(%s) goal %q -> %s: %s", c.conv, c.tool, c.args, result.Clip(c.goal, 160), o.Goal.Verdict, o.Goal.Reason))
		}
	}
	for _, s := range sample {
		t.Log(s)
	}
	t.Logf("%d calls, %d checked against a goal: %d answered, %d not answered, %d undecided", len(calls), checked,
		counts[toolcall.GoalAnswered], counts[toolcall.GoalNotAnswered], counts[toolcall.GoalCannotTell])
	if len(calls) < 500 || checked == 0 || counts[toolcall.GoalAnswered]+counts[toolcall.GoalNotAnswered] == 0 {
		t.Errorf("%d calls, %d checked, %v: the corpus was not measured", len(calls), checked, counts)
	}
}
