package server

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/agentjudge/judge/toolcall"
)

// TestCoverageRoutes: POST /v1/calls/check lifts the limit of a request for
// everything; POST /v1/calls/outcome answers a truncated page with the next
// page's call.
func TestCoverageRoutes(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	tools := `[{"name": "search_users", "description": "Search the users of the directory by name or team, twenty at a time",
	  "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}, "per_page": {"type": "integer"}, "page": {"type": "integer"}}}}]`
	m := checkAnswer(t, do(t, ts, http.MethodPost, "/v1/calls/check",
		`{"tool": "search_users", "arguments": {"q": "team:infra", "per_page": 20}, "goal": "everyone on the infra team", "tools": `+tools+`}`, nil))
	var norm map[string]any
	if err := json.Unmarshal(m["normalized_arguments"], &norm); err != nil || len(norm) != 1 || norm["q"] != "team:infra" {
		t.Errorf("normalized %s, want per_page dropped", m["normalized_arguments"])
	}
	r := do(t, ts, http.MethodPost, "/v1/calls/outcome", `{"tool": "search_users", "arguments": {"q": "team:infra"}, "goal": "everyone on the infra team",
	  "result": {"total_count": 57, "items": [{"login": "a"}, {"login": "b"}]}, "tools": `+tools+`}`, nil)
	var o toolcall.Outcome
	if err := json.Unmarshal(r.body, &o); err != nil || r.status != http.StatusOK {
		t.Fatalf("%d %v: %s", r.status, err, r.body)
	}
	if o.Status != toolcall.NeedsMoreTools || len(o.SuggestedNextTools) == 0 || o.SuggestedNextTools[0].Arguments["page"] != float64(2) {
		t.Errorf("outcome %s next %+v, want the call of page 2", o.Status, o.SuggestedNextTools)
	}
}
