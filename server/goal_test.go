package server

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/toolcall"
)

// TestCallOutcomeGoal checks goals through POST /v1/calls/outcome: the
// rules decide a result without the id the goal names, and a goal they
// cannot decide goes to the server's model (a fake OpenAI-compatible
// server on loopback).
func TestCallOutcomeGoal(t *testing.T) {
	t.Parallel()
	fake := llmtest.NewServer(t, llmtest.Reply{Fixture: "criteria_not_met"})
	opt, err := toolcall.WithLLM(llm.Config{BaseURL: fake.URL, Model: llmtest.Model})
	if err != nil {
		t.Fatal(err)
	}
	calls, err := toolcall.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	_, ts := newTestServer(t, Options{Calls: calls})
	tools := `[{"name": "get_reservation", "description": "Read one reservation by its id, with flights and passengers", "inputSchema": {"type": "object"}}]`
	tests := []struct {
		name, result, goal string
		status             toolcall.Status
		by                 string
	}{
		{"another reservation", `{"reservation_id": "ABC123", "status": "confirmed"}`, "What is the status of ZFA04Y?", toolcall.NeedsMoreTools, toolcall.ByRules},
		{"the one asked", `{"reservation_id": "ZFA04Y", "status": "confirmed"}`, "What is the status of ZFA04Y?", toolcall.Satisfied, toolcall.ByRules},
		{"the model decides", `{"reservation_id": "ZFA04Y"}`, "will the trip be comfortable", toolcall.NeedsMoreTools, toolcall.ByModel},
	}
	for _, tt := range tests {
		body := `{"tool": "get_reservation", "arguments": {}, "result": ` + tt.result + `, "goal": "` + tt.goal + `", "tools": ` + tools + `}`
		r := do(t, ts, http.MethodPost, "/v1/calls/outcome", body, nil)
		if r.status != http.StatusOK {
			t.Fatalf("%s: status %d: %s", tt.name, r.status, r.body)
		}
		var o toolcall.Outcome
		if err := json.Unmarshal(r.body, &o); err != nil {
			t.Fatal(err)
		}
		if o.Status != tt.status || o.Goal == nil || o.Goal.By != tt.by {
			t.Errorf("%s: status %s goal %+v, want %s by %s", tt.name, o.Status, o.Goal, tt.status, tt.by)
		}
	}
	if n := len(fake.Requests()); n != 1 {
		t.Errorf("the model was asked %d times, want once", n)
	}
}
