package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// specTools is the tools of the specification's examples, as a request's
// "tools".
func specTools(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "examples", "call-tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkAnswer decodes a 200 answer of /v1/calls/check and checks its
// result against the specification.
func checkAnswer(t *testing.T, r response) map[string]json.RawMessage {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, want 200; body:\n%s", r.status, r.body)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatal(err)
	}
	if err := result.CheckJSON(m["result"]); err != nil {
		t.Fatalf("result breaks the ValidationResult schema: %v\n%s", err, r.body)
	}
	return m
}

func TestCallCheckRoute(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	tools := specTools(t)
	tests := []struct {
		name  string
		body  string
		valid bool
		want  []string // substrings of the answer
	}{
		{name: "call_tool needs tool_name", body: `{"tool": "home_assistant", "arguments": {"action": "call_tool"}, "tools": ` + tools + `}`,
			want: []string{`"valid": false`, `"repair": {`, `"location": "tool_name"`, `"rule": "toolcall.rule.call_tool_needs_tool_name"`}},
		{name: "by_ids drops limit", body: `{"tool": "get_events", "arguments": {"action": "by_ids", "ids": ["e1"], "limit": 3}, "tools": ` + tools + `}`,
			valid: true, want: []string{`"normalized_arguments": {`, `"rule": "toolcall.dropped"`}},
		{name: "OpenAI function list", body: `{"tool": "f", "arguments": {"n": "7"}, "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}}}]}`,
			valid: true, want: []string{`"n": 7`, `read as the integer 7`}},
		{name: "manifest as JSON", body: `{"tool": "weather", "arguments": {"lat": 95}, "tools": [{"tool_id": "weather", "tool_type": "api", "version": "1.0.0",
			"executor": "http_client", "description": "Weather.", "config": {"method": "GET", "url_template": "https://example.com/{lat}"},
			"parameters": [{"name": "lat", "type": "number", "required": true, "maximum": 90}]}]}`,
			want: []string{`"location": "lat"`, `"rule": "schema.maximum"`}},
		{name: "unknown tool", body: `{"tool": "get_event", "tools": ` + tools + `}`,
			want: []string{`"closest_tools": [`, `"available_tools": [`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := do(t, ts, http.MethodPost, "/v1/calls/check", tt.body, nil)
			m := checkAnswer(t, r)
			var res result.ValidationResult
			_ = json.Unmarshal(m["result"], &res)
			if res.Valid != tt.valid {
				t.Errorf("valid = %v, want %v\n%s", res.Valid, tt.valid, r.body)
			}
			if _, hasRepair := m["repair"]; hasRepair == tt.valid {
				t.Errorf("repair present = %v with valid %v", hasRepair, tt.valid)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(r.body), w) {
					t.Errorf("answer lacks %s:\n%s", w, r.body)
				}
			}
		})
	}
}

// Repair attempts are counted across requests of one session.
func TestCallCheckSession(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	body := `{"tool": "home_assistant", "arguments": {"action": "call_tool"}, "session_id": "s1", "tools": ` + specTools(t) + `}`
	var rep struct {
		Repair toolcall.Repair `json:"repair"`
	}
	for i := 1; i <= 2; i++ {
		r := do(t, ts, http.MethodPost, "/v1/calls/check", body, nil)
		checkAnswer(t, r)
		if err := json.Unmarshal(r.body, &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Repair.Attempt != i || rep.Repair.RemainingAttempts == nil || *rep.Repair.RemainingAttempts != 3-i {
			t.Errorf("request %d: attempt %d remaining %v", i, rep.Repair.Attempt, rep.Repair.RemainingAttempts)
		}
	}
}

// The server's own tools answer requests without "tools".
func TestCallCheckServerTools(t *testing.T) {
	t.Parallel()
	c, err := toolcall.New()
	if err != nil {
		t.Fatal(err)
	}
	defs, err := toolcall.ParseDefinitions([]byte(specTools(t)), "tools.json")
	if err != nil {
		t.Fatal(err)
	}
	tools, err := c.NewToolset(defs...)
	if err != nil {
		t.Fatal(err)
	}
	_, ts := newTestServer(t, Options{Tools: tools, Calls: c})
	r := do(t, ts, http.MethodPost, "/v1/calls/check", `{"tool": "lookup_place_contacts", "arguments": {"place_query": "office"}}`, nil)
	if m := checkAnswer(t, r); !strings.Contains(string(m["result"]), `"valid": true`) {
		t.Errorf("answer: %s", r.body)
	}
}

func TestCallRoutesBadRequests(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	tests := []struct {
		name, path, body string
		field            string // the problem's field
		detail           string // substring of the detail
	}{
		{"no tools", "/v1/calls/check", `{"tool": "a"}`, "tools", `has no "tools"`},
		{"no tool", "/v1/calls/check", `{"arguments": {}}`, "tool", `has no "tool"`},
		{"unknown field", "/v1/calls/check", `{"tool": "a", "args": {}}`, "body", `unknown field "args" (known: tool, arguments, session_id, goal, shown_tools, tools)`},
		{"arguments not JSON object", "/v1/calls/check", `{"tool": "a", "arguments": "{x}", "tools": {"name": "a", "inputSchema": {}}}`, "", ""},
		{"broken rule", "/v1/calls/check", `{"tool": "a", "tools": [{"name": "a", "inputSchema": {}, "rules": [{"id": "r", "message": "m", "expression": "args.x ==="}]}]}`,
			"tools[0].rules[0].expression:1:10", "Syntax error"},
		{"invalid schema", "/v1/calls/check", `{"tool": "a", "tools": {"name": "a", "inputSchema": {"type": 5}}}`, "tools.inputSchema/type", "invalid JSON Schema"},
		{"not a definition", "/v1/calls/check", `{"tool": "a", "tools": [{"x": 1}]}`, "tools[0]", "not a tool definition"},
		{"malformed body", "/v1/calls/check", `{"tool": "a",`, "body", "line 1"},
		{"outcome without result", "/v1/calls/outcome", `{"tool": "a", "tools": {"name": "a", "inputSchema": {}}}`, "result", `has no "result"`},
		{"session id too long", "/v1/calls/check", `{"tool": "a", "session_id": "` + strings.Repeat("s", 300) + `", "tools": {"name": "a", "inputSchema": {}}}`,
			"session_id", "a session id is 1 to 256 bytes, not 300"},
		{"session id too long for outcome", "/v1/calls/outcome", `{"tool": "a", "result": {}, "session_id": "` + strings.Repeat("s", 300) + `", "tools": {"name": "a", "inputSchema": {}}}`,
			"session_id", "a session id is 1 to 256 bytes"},
		{"bad session id", "/v1/calls/check", `{"tool": "a", "session_id": "", "tools": {"name": "a", "inputSchema": {}}}`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := do(t, ts, http.MethodPost, tt.path, tt.body, nil)
			if tt.field == "" {
				// A string of arguments is an invalid call, not a bad
				// request; an empty session id means no session.
				checkAnswer(t, r)
				return
			}
			p := mustProblem(t, r, http.StatusBadRequest, tt.path)
			if len(p.Errors) != 1 || p.Errors[0].Field != tt.field || !strings.Contains(p.Detail, tt.detail) {
				t.Errorf("problem = %+v, want field %q and detail containing %q", p, tt.field, tt.detail)
			}
		})
	}
}

func TestCallOutcomeRoute(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	tools := specTools(t)
	tests := []struct {
		name, body string
		status     toolcall.Status
		want       []string
	}{
		{"failure", `{"tool": "get_events", "arguments": {"action": "by_ids", "ids": ["e1"]}, "result": {"content": [{"type": "text", "text": "calendar offline"}], "isError": true}, "tools": ` + tools + `}`,
			toolcall.Failed, []string{`"type": "tool_error"`}},
		{"follow-up with id", `{"tool": "get_events", "arguments": {"action": "by_ids", "ids": ["e1"]}, "result": [{"event_id": "e1", "title": "Standup"}], "tools": ` + tools + `}`,
			toolcall.Satisfied, []string{`"tool": "update_event"`, `"event_id": "e1"`, `"path": "[0].event_id"`}},
		{"plain-text error", `{"tool": "get_events", "arguments": {"action": "by_ids", "ids": ["e1"]}, "result": {"content": [{"type": "text", "text": "Traceback (most recent call last):\n  File \"cal.py\", line 3\nKeyError: 'e1'"}]}, "tools": ` + tools + `}`,
			toolcall.Failed, []string{`"rule": "toolcall.traceback_text"`, `KeyError: 'e1'`}},
		{"need user input", `{"tool": "lookup_contact", "arguments": {"action": "search", "query": "Ann"}, "result": {"ambiguous_contacts": [{"id": "1"}, {"id": "2"}]}, "tools": ` + tools + `}`,
			toolcall.NeedUserInput, nil},
		{"empty with goal and session", `{"tool": "lookup_contact", "arguments": {"action": "search", "query": "Zed"}, "result": [], "goal": "find Zed", "session_id": "o1", "tools": ` + tools + `}`,
			toolcall.NeedsMoreTools, []string{`"verdict": "continue"`, `"type": "empty_result"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := do(t, ts, http.MethodPost, "/v1/calls/outcome", tt.body, nil)
			m := checkAnswer(t, r)
			var st toolcall.Status
			_ = json.Unmarshal(m["status"], &st)
			if st != tt.status {
				t.Errorf("status = %s, want %s\n%s", st, tt.status, r.body)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(r.body), w) {
					t.Errorf("answer lacks %s:\n%s", w, r.body)
				}
			}
		})
	}
}

// A rule whose suggestion is white space gives a result that keeps to the
// specification, with the self-check on (as scripts/test runs every test):
// a 200, never a 500.
func TestCallCheckBlankSuggestion(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	body := `{"tool": "f", "arguments": {"n": 1}, "tools": [{"name": "f", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}},
		"rules": [{"id": "r", "expression": "args.n > 1", "message": "n must exceed one", "suggestion": "   "}]}]}`
	m := checkAnswer(t, do(t, ts, http.MethodPost, "/v1/calls/check", body, nil))
	var res result.ValidationResult
	if err := json.Unmarshal(m["result"], &res); err != nil {
		t.Fatal(err)
	}
	if res.Valid || len(res.Issues) != 1 || res.Issues[0].Suggestion == "   " {
		t.Errorf("result = %s", m["result"])
	}
	if err := result.CheckJSON(m["result"]); err != nil {
		t.Errorf("result breaks the specification: %v\n%s", err, m["result"])
	}
}
