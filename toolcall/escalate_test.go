package toolcall_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/toolcall"
)

// tieredTools are five tools in three visibility tiers.
const tieredTools = `[
 {"name": "search", "description": "Search the knowledge base for pages about a topic", "inputSchema": {"type": "object"}},
 {"name": "read_page", "description": "Read one page of the knowledge base by its id", "inputSchema": {"type": "object"}},
 {"name": "search_tickets", "description": "Search the support tickets by text or customer", "tier": 1, "inputSchema": {"type": "object"}},
 {"name": "read_ticket", "description": "Read one support ticket with its whole thread", "tier": 1, "inputSchema": {"type": "object"}},
 {"name": "run_sql", "description": "Run a read-only SQL query on the support database", "tier": 2, "inputSchema": {"type": "object"}}
]`

// escalate repeats one empty call in a session until the verdict is not
// continue, and returns that progress.
func escalate(t *testing.T, ts *toolcall.Toolset, session string, shown []string) *toolcall.Progress {
	t.Helper()
	for range 10 {
		o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{
			Call:   toolcall.Call{Tool: "search", Arguments: json.RawMessage(`{"q": "refund"}`), SessionID: session, ShownTools: shown},
			Result: json.RawMessage(`{"pages": []}`)})
		if err != nil {
			t.Fatal(err)
		}
		if o.Progress.Verdict != toolcall.Continue {
			return o.Progress
		}
	}
	t.Fatal("no escalation after 10 calls")
	return nil
}

func TestEscalationWidensShownTools(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		shown  []string
		want   []string
		reason string
	}{
		{"next tier", []string{"read_page", "search"}, []string{"read_page", "read_ticket", "search", "search_tickets"}, "next tier (tier 1)"},
		{"from tier 1 to tier 2", []string{"read_page", "read_ticket", "search", "search_tickets"}, []string{"read_page", "read_ticket", "run_sql", "search", "search_tickets"}, "tier 2"},
		{"unknown: all", nil, []string{"read_page", "read_ticket", "run_sql", "search", "search_tickets"}, "show all 5"},
		{"already all", []string{"read_page", "read_ticket", "run_sql", "search", "search_tickets"}, nil, "already sees every tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ts := newToolset(t, []byte(tieredTools), "tiers.json")
			p := escalate(t, ts, "s-"+tt.name, tt.shown)
			if p.Verdict != toolcall.Escalate || !slices.Equal(p.Show, tt.want) || !strings.Contains(p.Reason, tt.reason) {
				t.Errorf("progress %+v, want escalate showing %v (%q)", p, tt.want, tt.reason)
			}
			// Once: the next limit crossed stops, and shows nothing more.
			p = escalate(t, ts, "s-"+tt.name, nil)
			if p.Verdict != toolcall.Stop || p.Show != nil {
				t.Errorf("after the escalation: %+v, want stop without a tool set", p)
			}
		})
	}
}

func TestTierExtension(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{`{"name": "a", "inputSchema": {"type": "object"}, "tier": -1}`, `{"name": "a", "inputSchema": {"type": "object"}, "tier": "high"}`} {
		if _, err := toolcall.ParseDefinitions([]byte(doc), "d.json"); err == nil || !strings.Contains(err.Error(), "tier") {
			t.Errorf("%s: error %v, want one about tier", doc, err)
		}
	}
}
