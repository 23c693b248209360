package main

import (
	"encoding/json"
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
