package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentjudge/judge/internal/redistest"
	"github.com/agentjudge/judge/toolcall"
)

// TestEscalationCLI: runs of judge call outcome sharing a session in Redis,
// each with --shown, escalate once with the next tier to show.
func TestEscalationCLI(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	defs := filepath.Join(writeFiles(t, map[string]string{"defs.json": `[
	  {"name": "search", "description": "Search the knowledge base for pages about a topic", "inputSchema": {"type": "object"}},
	  {"name": "search_tickets", "description": "Search the support tickets by text or customer", "tier": 1, "inputSchema": {"type": "object"}},
	  {"name": "run_sql", "description": "Run a read-only SQL query on the support database", "tier": 2, "inputSchema": {"type": "object"}}]`}), "defs.json")
	var verdicts []string
	var show [][]string
	for range 5 {
		params := newCallParams()
		params.defs, params.session, params.shown = defs, "cli-escalation", []string{"search"}
		params.getenv = func(k string) string {
			if k == RedisURLEnv {
				return srv.URL(3)
			}
			return ""
		}
		params.format.value, params.budget = formatJSON, toolcall.DefaultCompactBudget
		var out bytes.Buffer
		if err := runCallOutcome(context.Background(), params, []string{"search", `{"q": "refund"}`, `{"pages": []}`}, &out); err != nil {
			t.Fatal(err)
		}
		var o toolcall.Outcome
		if err := json.Unmarshal(out.Bytes(), &o); err != nil || o.Progress == nil {
			t.Fatalf("%v: %s", err, out.Bytes())
		}
		verdicts = append(verdicts, o.Progress.Verdict)
		show = append(show, o.Progress.Show)
	}
	if !slices.Equal(verdicts, []string{"continue", "continue", "continue", "escalate", "stop"}) ||
		!slices.Equal(show[3], []string{"search", "search_tickets"}) || show[4] != nil {
		t.Errorf("verdicts %v, shown %v; want one escalation to tier 1", verdicts, show)
	}
}
