package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
)

func TestToolsRun(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(repoRoot(t), "executor", "testdata", "tools")
	tests := []struct {
		callCase
		executed bool
		status   string // the outcome's status
	}{
		{callCase: callCase{name: "valid call, ran", args: []string{"tools", "run", "stats", `{"numbers": [1, 2, 3]}`, "--tools", dir},
			code: 0, wantOut: []string{`"sum": 6`, `"exit_code": 0`}}, executed: true, status: "SATISFIED"},
		{callCase: callCase{name: "invalid call, never run", args: []string{"tools", "run", "stats", `{"numbers": "1,2"}`, "--tools", dir},
			code: 1, wantOut: []string{`"valid": false`, `"repair"`}}},
		{callCase: callCase{name: "tool failed", args: []string{"tools", "run", "stats", `{"numbers": []}`, "--tools", dir},
			code: 1, wantOut: []string{`"exit_code": 3`, "no numbers given"}}, executed: true, status: "FAILED"},
		{callCase: callCase{name: "arguments from stdin, bash", args: []string{"tools", "run", "greet", "-", "--tools", dir},
			stdin: `{"name": "Grace"}`, code: 0, wantOut: []string{`hello, Grace`}}, executed: true, status: "SATISFIED"},
		{callCase: callCase{name: "timeout", args: []string{"tools", "run", "hang", `{"pidfile": "/dev/null"}`, "--tools", dir},
			code: 1, wantOut: []string{`timed out after 1s`}}, executed: true, status: "FAILED"},
		{callCase: callCase{name: "text", args: []string{"tools", "run", "greet", `{"name": "Ada"}`, "--tools", dir, "--format", "text"},
			code: 0, wantOut: []string{"Check\n", "Execution\n  ok in", "hello, Ada", "Outcome\nSATISFIED"}}},
		{callCase: callCase{name: "arguments not JSON", args: []string{"tools", "run", "greet", `{"name": `, "--tools", dir},
			code: 2, wantErr: "arguments"}},
		{callCase: callCase{name: "a knowledge entry cannot run", args: []string{"tools", "run", "review_code", `{}`, "--tools", filepath.Join(repoRoot(t), "examples", "tools")},
			code: 1, wantOut: []string{"cannot run"}}, executed: true, status: "FAILED"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, code := tc.run(t)
			if code == 2 || tc.args[len(tc.args)-1] == "text" {
				return
			}
			var got struct {
				Check     json.RawMessage `json:"check"`
				Execution *struct {
					Error string `json:"error"`
				} `json:"execution"`
				Outcome *struct {
					Status string `json:"status"`
				} `json:"outcome"`
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if (got.Execution != nil) != tc.executed {
				t.Errorf("executed = %v, want %v", got.Execution != nil, tc.executed)
			}
			if tc.status != "" && (got.Outcome == nil || got.Outcome.Status != tc.status) {
				t.Errorf("outcome %+v, want %s", got.Outcome, tc.status)
			}
		})
	}
}

// TestToolsRunAPI runs an api tool against a server on loopback: refused
// by default, answered with --allow-loopback.
func TestToolsRunAPI(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"item": {"id": "`+r.URL.Query().Get("id")+`", "tags": ["x", "y"]}}`)
	}))
	defer srv.Close()
	dir := writeFiles(t, map[string]string{"lookup.yaml": `tool_id: lookup
tool_type: api
version: "1.0.0"
executor: http_client
description: Looks an item up
config:
  method: GET
  url_template: "` + srv.URL + `/items?id={id}"
  response_transform: "$.item.tags[-1]"
parameters:
  - {name: id, type: string, required: true, description: The item's id}
`})
	cases := []callCase{
		{name: "refused", args: []string{"tools", "run", "lookup", `{"id": "a b"}`, "--tools", dir},
			code: 1, wantOut: []string{"loopback address 127.0.0.1 refused", `"status": "FAILED"`}},
		{name: "allowed", args: []string{"tools", "run", "lookup", `{"id": "a b"}`, "--tools", dir, "--allow-loopback"},
			code: 0, wantOut: []string{`"value": "y"`, `"status": 200`, `"status": "SATISFIED"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.run(t) })
	}
}

// TestToolsRunFilterTransform runs an api tool whose response_transform
// filters the answer (RFC 9535), and one whose filter is ill-typed, which
// cannot run and says why.
func TestToolsRunFilterTransform(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"events": [{"id": 1, "state": "open", "priority": 3}, {"id": 2, "state": "closed", "priority": 5}, {"id": 3, "state": "open", "priority": 1}]}`)
	}))
	t.Cleanup(srv.Close)
	tool := func(id, transform string) string {
		return `tool_id: ` + id + `
tool_type: api
version: "1.0.0"
executor: http_client
description: Lists the open events of a project
config:
  method: GET
  url_template: "` + srv.URL + `/events?project={project}"
  response_transform: "` + transform + `"
parameters:
  - {name: project, type: string, required: true, description: The project's key}
`
	}
	dir := writeFiles(t, map[string]string{
		"open_events.yaml": tool("open_events", "$.events[?@.state == 'open' && @.priority > 2].id"),
		"bad_filter.yaml":  tool("bad_filter", "$.events[?length(@)].id"),
	})
	cases := []callCase{
		{name: "filtered", args: []string{"tools", "run", "open_events", `{"project": "p"}`, "--tools", dir, "--allow-loopback"},
			code: 0, wantOut: []string{`"value": [`, `"status": "SATISFIED"`}},
		{name: "ill-typed", args: []string{"tools", "run", "bad_filter", `{"project": "p"}`, "--tools", dir, "--allow-loopback"},
			code: 1, wantOut: []string{"length() gives a value"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, _ := tc.run(t)
			if tc.code == 0 {
				var got struct {
					Execution struct {
						Value []int `json:"value"`
					} `json:"execution"`
				}
				if err := json.Unmarshal(out, &got); err != nil || len(got.Execution.Value) != 1 || got.Execution.Value[0] != 1 {
					t.Errorf("value %v (%v), want [1]\n%s", got.Execution.Value, err, out)
				}
			}
		})
	}
}
