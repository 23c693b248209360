package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/toolcall"
)

// TestCallOutcomeGoalCLI drives judge call outcome --goal: decided by the
// rules, printed as text, and put to the model of JUDGE_LLM_* or of the
// config file when the rules cannot decide (a fake OpenAI-compatible
// server on loopback).
func TestCallOutcomeGoalCLI(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"defs.json": `[{"name": "get_reservation", "description": "Read one reservation by its id, with flights and passengers", "inputSchema": {"type": "object"}}]`,
	})
	defs := filepath.Join(dir, "defs.json")
	callCase{name: "other id", args: []string{"call", "outcome", "--defs", defs, "--format", "text", "--goal", "What is the status of ZFA04Y?",
		"get_reservation", `{}`, `{"reservation_id": "ABC123", "status": "confirmed"}`},
		wantOut: []string{"NEEDS_MORE_TOOLS", "Goal: not_answered (deterministic): the result does not hold 'ZFA04Y'"}}.run(t)

	// The model of JUDGE_LLM_*, or of the config file's llm section.
	for _, byConfig := range []bool{false, true} {
		fake := llmtest.NewServer(t, llmtest.Reply{Fixture: "criteria_met"})
		env := map[string]string{"JUDGE_LLM_BASE_URL": fake.URL, "JUDGE_LLM_MODEL": llmtest.Model}
		params := newCallParams()
		params.defs, params.goal, params.getenv = defs, "will the trip be comfortable", func(k string) string { return env[k] }
		if byConfig {
			params.config, env = writeConfig(t, modelConfig(fake.URL, llmtest.Model, ""), 0o600), nil
		}
		params.format.value, params.budget = formatJSON, toolcall.DefaultCompactBudget
		var out bytes.Buffer
		if err := runCallOutcome(context.Background(), params, []string{"get_reservation", `{}`, `{"reservation_id": "ZFA04Y", "seat": "12A"}`}, &out); err != nil {
			t.Fatal(err)
		}
		var o toolcall.Outcome
		if err := json.Unmarshal(out.Bytes(), &o); err != nil {
			t.Fatal(err)
		}
		if o.Status != toolcall.Satisfied || o.Goal == nil || o.Goal.By != toolcall.ByModel || len(fake.Requests()) != 1 ||
			!strings.Contains(fake.Requests()[0].Messages[1].Content, "will the trip be comfortable") {
			t.Errorf("config file %v: outcome %s goal %+v after %d model requests, want SATISFIED by the model", byConfig, o.Status, o.Goal, len(fake.Requests()))
		}
	}
}
