package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/server/api"
)

func readExample(t *testing.T, elem ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(elem...))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTraceCheckRoute(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "agent-traces")
	_, ts := newTestServer(t, Options{})
	tools := readExample(t, dir, "tau-bench-airline-tools.json")
	rules := readExample(t, "..", "examples", "traces", "airline.rules.json")
	conv := readExample(t, "..", "examples", "traces", "airline-cancel.json")
	r := do(t, ts, http.MethodPost, "/v1/traces/check", `{"conversations": `+conv+`, "tools": `+tools+`, "rules": `+rules+`}`, nil)
	if r.status != http.StatusOK {
		t.Fatalf("status %d:\n%s", r.status, r.body)
	}
	var ans api.TraceCheckResponse
	if err := json.Unmarshal(r.body, &ans); err != nil {
		t.Fatal(err)
	}
	if len(ans.Conversations) != 1 || ans.Summary.Calls != 4 || ans.Summary.FailedResults != 1 || ans.Summary.RuleViolations != 6 ||
		ans.Summary.RulesBroken != 5 || ans.Summary.RuleWeight != 6 || ans.Summary.RuleWarnings != 1 || ans.Summary.Flagged != 1 || ans.Conversations[0].Risk != 6 {
		t.Errorf("summary %+v", ans.Summary)
	}
	if err := result.Check(ans.Conversations[0].Result); err != nil {
		t.Errorf("result breaks the specification: %v", err)
	}
	if got := ans.Conversations[0].Calls[1].Violations; strings.Join(got, ",") != "confirm_before_change,one_call_at_a_time,reservation_named,cancel_reason_asked,cancel_allowed" {
		t.Errorf("violations of the cancellation = %v", got)
	}

	// Records of another domain's shape (written for judge's tests) with
	// the real retail tools: the crashed run counted apart, per-rule
	// counts, think's empty answers SATISFIED.
	retailTools := readExample(t, dir, "tau-bench-retail-tools.json")
	retail := readExample(t, "..", "trace", "testdata", "retail-shaped.json")
	retailRules := readExample(t, "..", "trace", "testdata", "retail-shaped.rules.json")
	r = do(t, ts, http.MethodPost, "/v1/traces/check", `{"conversations": `+retail+`, "tools": `+retailTools+`, "rules": `+retailRules+`}`, nil)
	if r.status != http.StatusOK {
		t.Fatalf("status %d:\n%s", r.status, r.body)
	}
	var ra api.TraceCheckResponse
	if err := json.Unmarshal(r.body, &ra); err != nil {
		t.Fatal(err)
	}
	if s := ra.Summary; s.Conversations != 4 || s.Crashed != 1 || s.Flagged != 2 || s.AUROC == nil || *s.AUROC != 1 || len(s.Rules) != 5 ||
		s.Rules[0].Rule != "confirm_before_change" || s.Rules[0].Violations != 1 {
		t.Errorf("retail-shaped summary %+v", s)
	}
	if c := ra.Conversations[0]; c.RunError == nil || c.Result.Confidence != 0 || len(c.Result.Issues) != 1 || c.Result.Issues[0].Type != result.NotChecked {
		t.Errorf("crashed run %+v", c)
	}
	for _, c := range ra.Conversations {
		for _, cr := range c.Calls {
			if cr.Tool == "think" && cr.Status != "SATISFIED" {
				t.Errorf("%s: think %s", c.ID, cr.Status)
			}
		}
	}

	bad := []struct{ name, body, field, detail string }{
		{"rule naming an unknown tool", `{"conversations": ` + conv + `, "tools": ` + tools + `, "rules": {"rules": [{"name": "a", "description": "d", "tools": ["cancel_reservations"], "expr": "true"}]}}`,
			"rules", "rule a: tools: 'cancel_reservations' is not a tool of the toolset, so the rule would never apply; did you mean 'cancel_reservation'?"},
		{"no conversations", `{"tools": ` + tools + `}`, "conversations", `no "conversations"`},
		{"malformed conversation", `{"conversations": [{"role": "user"}, {"content": "x"}], "tools": ` + tools + `}`, "conversations", "no role"},
		{"rule does not compile", `{"conversations": ` + conv + `, "tools": ` + tools + `, "rules": {"rules": [{"name": "a", "description": "d", "expr": "1 +"}]}}`, "rules", "rule a: expr:1:"},
		{"unknown field", `{"conversation": []}`, "body", "unknown field"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := do(t, ts, http.MethodPost, "/v1/traces/check", tt.body, nil)
			p := mustProblem(t, r, http.StatusBadRequest, "/v1/traces/check")
			if len(p.Errors) != 1 || p.Errors[0].Field != tt.field || !strings.Contains(p.Detail, tt.detail) {
				t.Errorf("problem = %+v, want field %q and detail containing %q", p, tt.field, tt.detail)
			}
		})
	}
}
