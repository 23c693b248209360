package toolcall_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// An empty result of a tool whose description says it returns nothing is
// what the tool returns: SATISFIED, with no empty_result warning and no
// empty result counted by the session. A description that returns
// nothing only under a condition, or that says nothing of it, keeps
// NEEDS_MORE_TOOLS. The descriptions are written for this test in the
// wordings tool authors use; the tau-bench think tools are checked from
// their real definitions below.
func TestOutcomeSilentByDescription(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc   string
		silent bool
	}{
		{"Record a note for later. Returns nothing.", true},
		{"Writes the message to the audit trail. This function has no return value.", true},
		{"Deletes the draft. It does not return anything.", true},
		{"Ping the worker; returns no value.", true},
		{"Reflect on the plan. It will not obtain new information or change anything.", true},
		{"Scratchpad for the agent: it only appends the text to the log.", true},
		{"Keep a thought; simply writes it into the agent's scratchpad.", true},
		{"Search orders by customer. Returns nothing if no order matches.", false},
		{"Look up a user. Returns no results when the email is unknown.", false},
		{"Create a ticket. Returns nothing but the ticket id.", false},
		{"Search the catalogue and return the matching products.", false},
		{"Get the details of a user, including their orders.", false},
		{"Run a query; never returns an error, only rows.", false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			def, _ := json.Marshal([]any{map[string]any{"name": "tool_under_test", "description": tt.desc,
				"inputSchema": map[string]any{"type": "object"}}})
			ts := newToolset(t, def, "tools.json")
			for _, res := range []string{`""`, `null`, `[]`, `{}`} {
				o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{
					Call: toolcall.Call{Tool: "tool_under_test", Arguments: json.RawMessage(`{}`)}, Result: json.RawMessage(res)})
				if err != nil {
					t.Fatal(err)
				}
				empty := hasType(o.Result, result.EmptyResult)
				switch {
				case tt.silent && (o.Status != toolcall.Satisfied || empty || !strings.Contains(o.Reason, "by design")):
					t.Errorf("result %s: %s (%s), empty_result %v; want SATISFIED by design", res, o.Status, o.Reason, empty)
				case !tt.silent && (o.Status != toolcall.NeedsMoreTools || !empty):
					t.Errorf("result %s: %s (%s), empty_result %v; want NEEDS_MORE_TOOLS with empty_result", res, o.Status, o.Reason, empty)
				}
			}
		})
	}
}

// The think tools of tau-bench's airline and retail domains, from their
// real definitions: their empty answers are SATISFIED; an empty search of
// the same toolset stays NEEDS_MORE_TOOLS. The request's NothingExpected
// makes any tool's empty result SATISFIED, and a session counts none of
// these as empty results in a row.
func TestOutcomeSilentTauBench(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "agent-traces")
	for _, file := range []string{"tau-bench-airline-tools.json", "tau-bench-retail-tools.json"} {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		ts := newToolset(t, data, file, toolcall.WithLimits(toolcall.Limits{Empty: 1}))
		outcome := func(tool, args, res string, expected bool, session string) *toolcall.Outcome {
			o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{Call: toolcall.Call{Tool: tool, Arguments: json.RawMessage(args), SessionID: session},
				Result: json.RawMessage(res), NothingExpected: expected})
			if err != nil {
				t.Fatal(err)
			}
			return o
		}
		for i := range 3 {
			o := outcome("think", `{"thought": "step `+string(rune('a'+i))+`"}`, `""`, false, file)
			if o.Status != toolcall.Satisfied || hasType(o.Result, result.EmptyResult) {
				t.Errorf("%s: think → %s (%s)", file, o.Status, o.Reason)
			}
			if o.Progress == nil || o.Progress.Verdict != toolcall.Continue {
				t.Errorf("%s: think %d: progress %+v, want continue", file, i, o.Progress)
			}
		}
		if o := outcome("calculate", `{"expression": "1"}`, `""`, false, ""); o.Status != toolcall.NeedsMoreTools {
			t.Errorf("%s: an empty calculate → %s, want NEEDS_MORE_TOOLS", file, o.Status)
		}
		if o := outcome("calculate", `{"expression": "1"}`, `""`, true, ""); o.Status != toolcall.Satisfied || !strings.Contains(o.Reason, "every call") {
			t.Errorf("%s: an empty calculate, nothing expected → %s (%s), want SATISFIED", file, o.Status, o.Reason)
		}
	}
}

func hasType(r *result.ValidationResult, ty result.Type) bool {
	for _, is := range r.Issues {
		if is.Type == ty {
			return true
		}
	}
	return false
}
