package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// toolsFile is examples/call-tools.json, the tools of the specification's examples.
func toolsFile(t *testing.T) string {
	t.Helper()
	return filepath.Join(repoRoot(t), "examples", "call-tools.json")
}

// callCase is a run of judge call in this process: its arguments and stdin,
// and what it should give.
type callCase struct {
	name    string
	args    []string
	stdin   string
	code    int      // exit status
	wantOut []string // substrings of stdout
	wantErr string   // substring of stderr; "" checks nothing
}

// run runs the case with Execute, reports an exit status, stdout or
// stderr other than the case wants, and returns stdout and the exit status.
func (tt callCase) run(t *testing.T) (stdout []byte, code int) {
	t.Helper()
	var out, stderr bytes.Buffer
	code = Execute(context.Background(), tt.args, strings.NewReader(tt.stdin), &out, &stderr)
	if code != tt.code {
		t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out.String(), stderr.String())
	}
	for _, w := range tt.wantOut {
		if !strings.Contains(out.String(), w) {
			t.Errorf("stdout lacks %q:\n%s", w, out.String())
		}
	}
	if tt.wantErr != "" && !strings.Contains(stderr.String(), tt.wantErr) {
		t.Errorf("stderr = %q, want it to contain %q", stderr.String(), tt.wantErr)
	}
	return out.Bytes(), code
}

func TestCallCheck(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"args.json":   `{"action": "by_ids", "ids": ["e1"], "limit": 5}`,
		"broken.json": `{"name": "a", "inputSchema": {}, "rules": [{"id": "r", "message": "m", "expression": "args.x =="}]}`,
		"bad.json":    "[\n  {\"name\": 1,}\n]",
	})
	tools := toolsFile(t)
	tests := []callCase{
		{name: "valid, limit dropped", args: []string{"call", "check", "--defs", tools, "get_events", "@" + filepath.Join(dir, "args.json")},
			code: 0, wantOut: []string{`"valid": true`, `"normalized_arguments": {`, `"rule": "toolcall.dropped"`}},
		{name: "invalid with repair", args: []string{"call", "check", "--defs", tools, "home_assistant", `{"action": "call_tool"}`},
			code: 1, wantOut: []string{`"valid": false`, `"repair": {`, `"location": "tool_name"`, `"intent": "Control smart-home devices through Home Assistant."`}},
		{name: "arguments from stdin", args: []string{"call", "check", "--defs", tools, "lookup_contact_places", "-"}, stdin: `{"contact_id": "c1"}`,
			code: 0, wantOut: []string{`"valid": true`}},
		{name: "unknown tool", args: []string{"call", "check", "--defs", tools, "get_event", `{}`},
			code: 1, wantOut: []string{`"closest_tools": [`, `"get_events"`}},
		{name: "text", args: []string{"call", "check", "--format", "text", "--defs", tools, "home_assistant", `{"action": "call_tool"}`},
			code: 1, wantOut: []string{"FAIL", "Repair home_assistant", "tool_name: Add tool_name"}},
		{name: "arguments not JSON", args: []string{"call", "check", "--defs", tools, "get_events", `{"action": }`},
			code: 2, wantErr: "arguments:1:12: invalid character"},
		{name: "broken rule", args: []string{"call", "check", "--defs", filepath.Join(dir, "broken.json"), "a", `{}`},
			code: 2, wantErr: "broken.json: rules[0].expression:1:10: Syntax error"},
		{name: "definitions not JSON", args: []string{"call", "check", "--defs", filepath.Join(dir, "bad.json"), "a", `{}`},
			code: 2, wantErr: "bad.json:2:14: the definitions file is not valid JSON"},
		{name: "no defs", args: []string{"call", "check", "a", `{}`}, code: 2, wantErr: "give --tools DIR or --defs FILE"},
		{name: "missing argument", args: []string{"call", "check", "--defs", tools, "a"}, code: 2, wantErr: "accepts 2 arg(s)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			stdout, code := tt.run(t)
			if code != 2 && !strings.Contains(strings.Join(tt.args, " "), "text") {
				var res toolcall.CheckResult
				if err := json.Unmarshal(stdout, &res); err != nil || res.Result == nil {
					t.Errorf("stdout is not a check result: %v", err)
				}
			}
		})
	}
}

func TestCallOutcome(t *testing.T) {
	t.Parallel()
	tools := toolsFile(t)
	tests := []callCase{
		{name: "failure", args: []string{"call", "outcome", "--defs", tools, "get_events", `{"action": "by_ids", "ids": ["e1"]}`,
			`{"content": [{"type": "text", "text": "calendar offline"}], "isError": true}`},
			code: 0, wantOut: []string{`"status": "FAILED"`, `"type": "tool_error"`, "calendar offline"}},
		{name: "result from stdin, follow-up", args: []string{"call", "outcome", "--defs", tools, "get_events", `{"action": "by_ids", "ids": ["e1"]}`, "-"},
			stdin: `[{"event_id": "e1", "title": "Standup"}]`,
			code:  0, wantOut: []string{`"status": "SATISFIED"`, `"tool": "update_event"`, `"event_id": "e1"`}},
		{name: "session progress", args: []string{"call", "outcome", "--session", "s", "--defs", tools, "get_events", `{}`, `[]`},
			code: 0, wantOut: []string{`"status": "NEEDS_MORE_TOOLS"`, `"verdict": "continue"`}},
		{name: "text", args: []string{"call", "outcome", "--format", "text", "--defs", tools, "get_events", `{}`, `{"need_user_input": true, "question": "Which calendar?"}`},
			code: 0, wantOut: []string{"NEED_USER_INPUT: the tool asks the user: Which calendar?"}},
		{name: "compacted", args: []string{"call", "outcome", "--budget", "100", "--defs", tools, "get_events", `{}`, `{"items": [` + strings.Repeat(`{"id": "x", "body": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},`, 20) + `{"id": "y"}]}`},
			code: 0, wantOut: []string{`"compacted": {`, `more items cut (21 in all)`}},
		{name: "plain-text error", args: []string{"call", "outcome", "--defs", tools, "get_events", `{}`, `"Error: calendar cal_9 not found"`},
			code: 0, wantOut: []string{`"status": "FAILED"`, `"type": "tool_error"`, `"rule": "toolcall.error_text"`, `the text says \"Error: calendar cal_9 not found\"`}},
		{name: "result not JSON", args: []string{"call", "outcome", "--defs", tools, "get_events", `{}`, `{x}`}, code: 2, wantErr: "result:1:2"},
		{name: "two stdins", args: []string{"call", "outcome", "--defs", tools, "get_events", "-", "-"}, code: 2, wantErr: "only one of"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.run(t)
		})
	}
}

// The built binary checks a call and exits with the verdict.
func TestBinaryCallCheck(t *testing.T) {
	t.Parallel()
	r := runJudge(t, nil, "call", "check", "--defs", "examples/call-tools.json", "lookup_contact_places", `{}`)
	if r.code != 1 || !strings.Contains(r.stdout, "requires one of contact_id, contact_query or group_query") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runJudge(t, []byte(`{"group_query": "family"}`), "call", "check", "--defs", "examples/call-tools.json", "lookup_contact_places", "-")
	if r.code != 0 || !strings.Contains(r.stdout, `"valid": true`) {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// --tools DIR takes the contracts from tool manifests, their rules from
// the manifest's config.
func TestCallCheckManifests(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"tools/weather_api.yaml": `tool_id: weather_forecast
tool_type: api
version: "1.0.0"
executor: http_client
description: Get the weather forecast for coordinates. Daily values.
config:
  method: GET
  url_template: "https://api.example.com/forecast?lat={lat}&lon={lon}"
  rules:
    - id: not_null_island
      expression: "!(args.lat == 0 && args.lon == 0)"
      message: "lat 0, lon 0 is almost surely a missing location"
parameters:
  - name: lat
    type: number
    required: true
    minimum: -90
    maximum: 90
  - name: lon
    type: number
    required: true
    minimum: -180
    maximum: 180
`})
	tools := filepath.Join(dir, "tools")
	tests := []struct {
		args    string
		code    int
		wantOut string
	}{
		{`{"lat": 59.9, "lon": 10.7}`, 0, `"valid": true`},
		{`{"lat": 95, "lon": 10.7}`, 1, `"location": "lat"`},
		{`{"lat": 0, "lon": 0}`, 1, "almost surely a missing location"},
		{`{"lat": 1}`, 1, `"location": "lon"`},
	}
	for _, tt := range tests {
		// The directory with --tools, and the one manifest with --defs.
		for _, flags := range [][]string{{"--tools", tools}, {"--defs", filepath.Join(tools, "weather_api.yaml")}} {
			var stdout, stderr bytes.Buffer
			args := append(append([]string{"call", "check"}, flags...), "weather_forecast", tt.args)
			code := Execute(context.Background(), args, nil, &stdout, &stderr)
			if code != tt.code || !strings.Contains(stdout.String(), tt.wantOut) {
				t.Errorf("%v %s: exit %d, want %d with %s\n%s%s", flags, tt.args, code, tt.code, tt.wantOut, stdout.String(), stderr.String())
			}
		}
	}
}

// judge serve --defs answers /v1/calls/check for requests without tools.
func TestServeCalls(t *testing.T) {
	t.Parallel()
	base := startServe(t, func(string) string { return "" })
	resp, err := http.Post(base+"/v1/calls/check", "application/json",
		strings.NewReader(`{"tool": "home_assistant", "arguments": {"action": "call_tool"}}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"location": "tool_name"`) {
		t.Errorf("POST /v1/calls/check: %d\n%s", resp.StatusCode, body)
	}

	// Broken definitions stop serve before it listens.
	params := newServeParams()
	params.addr = "127.0.0.1:0"
	params.getenv = func(string) string { return "" }
	params.defs = filepath.Join(writeFiles(t, map[string]string{"d.json": `{"name": 1}`}), "d.json")
	if err := runServe(context.Background(), params, nil, io.Discard); exitCode(err) != exitBadInput {
		t.Errorf("serve with broken definitions: %v", err)
	}
}

// A rule whose suggestion is white space gives a result that keeps to the
// specification, with the self-check on (as scripts/test runs every test):
// the CLI reports, never crashes.
func TestCallCheckBlankSuggestion(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"defs.json": `{"name": "f", "inputSchema": {"type": "object"}, "rules": [{"id": "r", "expression": "args.n > 1", "message": "n must exceed one", "suggestion": "   "}]}`,
	})
	stdout, _ := callCase{args: []string{"call", "check", "--defs", filepath.Join(dir, "defs.json"), "f", `{"n": 1}`}, code: 1,
		wantOut: []string{`"valid": false`, `"rule": "toolcall.rule.r"`}}.run(t)
	var res struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(stdout, &res); err != nil {
		t.Fatal(err)
	}
	if err := result.CheckJSON(res.Result); err != nil {
		t.Errorf("result breaks the specification: %v\n%s", err, stdout)
	}
}
