package server

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/agentjudge/judge/toolcall"
)

// TestEscalationRoute: the tools shown travel with the calls of a session
// (shown_tools), and the escalate verdict of POST /v1/calls/outcome names
// the next tier to show.
func TestEscalationRoute(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	tools := `[{"name": "search", "description": "Search the knowledge base for pages about a topic", "inputSchema": {"type": "object"}},
	  {"name": "search_tickets", "description": "Search the support tickets by text or customer", "tier": 1, "inputSchema": {"type": "object"}},
	  {"name": "run_sql", "description": "Run a read-only SQL query on the support database", "tier": 2, "inputSchema": {"type": "object"}}]`
	var last toolcall.Progress
	for i := range 4 {
		r := do(t, ts, http.MethodPost, "/v1/calls/outcome", `{"tool": "search", "arguments": {"q": "x"}, "result": {"pages": []},
		  "session_id": "esc-1", "shown_tools": ["search"], "tools": `+tools+`}`, nil)
		var o toolcall.Outcome
		if err := json.Unmarshal(r.body, &o); err != nil || o.Progress == nil {
			t.Fatalf("call %d: %d %v %s", i, r.status, err, r.body)
		}
		last = *o.Progress
	}
	if last.Verdict != toolcall.Escalate || !slices.Equal(last.Show, []string{"search", "search_tickets"}) {
		t.Errorf("progress %+v, want escalate showing tier 1", last)
	}
}
