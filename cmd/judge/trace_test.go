package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/agentjudge/judge/internal/sharedtest"
)

func TestTrace(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "agent-traces")
	defs := filepath.Join(dir, "tau-bench-airline-tools.json")
	rules := filepath.Join(repoRoot(t), "examples", "traces", "airline.rules.json")
	example := filepath.Join(repoRoot(t), "examples", "traces", "airline-cancel.json")
	retail := filepath.Join(repoRoot(t), "trace", "testdata", "retail-shaped.json")
	retailRules := filepath.Join(repoRoot(t), "trace", "testdata", "retail-shaped.rules.json")
	files := writeFiles(t, map[string]string{
		"bad.json":   "[\n  {\"role\": \"user\",, }\n]",
		"rules.json": `{"rules": [{"name": "r", "description": "d", "expr": "call.name =="}]}`,
		// A rule written for another domain's tool name.
		"unknown-tool.rules.json": `{"rules": [{"name": "confirm_cancel", "description": "d", "tools": ["cancel_reservations"], "expr": "true"}]}`,
		// Only runs that crashed: nothing flagged, nothing passed.
		"crashed.json": `[{"task_id": 9, "reward": 0.0, "info": {"error": "openai.InternalServerError: 500", "traceback": "Traceback (most recent call last):\nopenai.InternalServerError: 500"}, "traj": [], "trial": 0}]`,
		"tools/weather_api.yaml": `tool_id: weather_forecast
tool_type: api
version: "1.0.0"
executor: http_client
description: Get the weather forecast for coordinates. Daily values.
config:
  method: GET
  url_template: "https://api.example.com/forecast?lat={lat}&lon={lon}"
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
`,
		// JSONL: one conversation a line, the second call out of range.
		"weather.jsonl": `[{"role": "user", "content": "weather in Oslo?"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "a", "type": "function", "function": {"name": "weather_forecast", "arguments": "{\"lat\": 59.9, \"lon\": 10.7}"}}]}, {"role": "tool", "tool_call_id": "a", "content": "{\"temp\": 3}"}]
[{"role": "user", "content": "weather at the pole?"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "b", "type": "function", "function": {"name": "weather_forecast", "arguments": "{\"lat\": 95, \"lon\": 0}"}}]}, {"role": "tool", "tool_call_id": "b", "content": "Error: latitude out of range"}]
`,
	})
	tests := []callCase{
		{name: "tau-bench file", args: []string{"trace", "--defs", defs, "--rules", rules, filepath.Join(dir, "tau-bench-airline-gpt-4o.dev.json")},
			code: 1, wantOut: []string{`"conversations": 100`, `"invalid_calls": 0`, `"failed_results": 33`, `"auroc":`, `"crashed": 0`, `"rules_undecided": 0`, `"rule": "cancel_allowed"`}},
		{name: "example from stdin", args: []string{"trace", "--defs", defs, "--rules", rules, "-"}, stdin: mustRead(t, example),
			code: 1, wantOut: []string{`"location": "messages[4].tool_calls[0]"`, `"violations": [`, `"cancel_allowed"`, `"status": "FAILED"`}},
		{name: "no rules", args: []string{"trace", "--defs", defs, example}, code: 0, wantOut: []string{`"flagged": 0`, `"failed_results": 1`}},
		{name: "malformed conversations", args: []string{"trace", "--defs", defs, filepath.Join(files, "bad.json")}, code: 2, wantErr: "bad.json: 2:"},
		{name: "rule does not compile", args: []string{"trace", "--defs", defs, "--rules", filepath.Join(files, "rules.json"), example}, code: 2, wantErr: "rule r: expr:1:"},
		{name: "no tools", args: []string{"trace", example}, code: 2, wantErr: "no tool definitions"},
		{name: "rule naming an unknown tool", args: []string{"trace", "--defs", defs, "--rules", filepath.Join(files, "unknown-tool.rules.json"), example}, code: 2,
			wantErr: "rule confirm_cancel: tools: 'cancel_reservations' is not a tool of the toolset, so the rule would never apply; did you mean 'cancel_reservation'?"},
		{name: "crashed runs only", args: []string{"trace", "--defs", defs, filepath.Join(files, "crashed.json")}, code: 1,
			wantOut: []string{`"flagged": 0`, `"crashed": 1`, `"confidence": 0,`, `"rule": "trace.run_error"`, `openai.InternalServerError: 500`}},
		{name: "retail-shaped records", args: []string{"trace", "--defs", filepath.Join(dir, "tau-bench-retail-tools.json"), "--rules", retailRules, retail}, code: 1,
			wantOut: []string{`"conversations": 4`, `"crashed": 1`, `"flagged": 2`, `"auroc": 1`, `"rules_undecided": 0`,
				`"rule": "trace.rule.confirm_before_change"`, `"reason": "the result is empty, as the tool returns nothing by design: its description says \"will not obtain new information\""`,
				`{
        "rule": "refund_named",
        "violations": 0,
        "conversations": 0,
        "undecided": 0
      }`}},
		{name: "retail-shaped records as text", args: []string{"trace", "--format", "text", "--defs", filepath.Join(dir, "tau-bench-retail-tools.json"), "--rules", retailRules, retail}, code: 1,
			wantOut: []string{"1 crashed (not checked)", "task 0 trial 0 (reward 0): 0 calls", "the run crashed (not checked)", "rule item_ids_read: 1 violation in 1 conversation, 0 undecided",
				"risk score AUROC for failed tasks (reward below 1): 1.000"}},
		{name: "JSONL with a tool directory", args: []string{"trace", "--tools", filepath.Join(files, "tools"), filepath.Join(files, "weather.jsonl")},
			code: 1, wantOut: []string{`"conversations": 2`, `"invalid_calls": 1`, `"failed_results": 1`, `"location": "messages[1].tool_calls[0].arguments.lat"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, _ := tt.run(t)
			if tt.code == 2 || slices.Contains(tt.args, "text") {
				return
			}
			var ans struct {
				Conversations []struct {
					Result json.RawMessage `json:"result"`
				} `json:"conversations"`
			}
			if err := json.Unmarshal(out, &ans); err != nil || len(ans.Conversations) == 0 {
				t.Fatalf("answer is not a trace answer: %v\n%s", err, out)
			}
		})
	}
}

// TestTraceTextGolden compares judge trace --format text on the example
// conversation with testdata/trace.txtar; -update rewrites it.
func TestTraceTextGolden(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "agent-traces")
	const file = "testdata/trace.txtar"
	args := []string{"trace", "--format", "text", "--defs", filepath.Join(dir, "tau-bench-airline-tools.json"),
		"--rules", filepath.Join(repoRoot(t), "examples", "traces", "airline.rules.json"),
		filepath.Join(repoRoot(t), "examples", "traces", "airline-cancel.json")}
	var stdout, stderr bytes.Buffer
	if code := Execute(context.Background(), args, nil, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr.String())
	}
	if *update {
		ar := &txtar.Archive{Files: []txtar.File{{Name: "airline-cancel.txt", Data: stdout.Bytes()}}}
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(ar.Files) != 1 || !bytes.Equal(ar.Files[0].Data, stdout.Bytes()) {
		t.Errorf("text differs from %s (run with -update to accept):\n%s", file, stdout.String())
	}
	if strings.Contains(stderr.String(), "conversations") {
		t.Errorf("a progress bar was drawn on a stderr that is no terminal: %q", stderr.String())
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The progress bar is drawn only on a terminal and for enough
// conversations; drawn, it counts up to the total and ends its line.
func TestProgressBar(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	silent := newProgressBar(&buf, 100) // a buffer is no terminal
	silent.step()
	silent.done()
	if buf.Len() != 0 {
		t.Errorf("drawn on a buffer: %q", buf.String())
	}
	bar := &progressBar{w: &buf, total: 3}
	for range 3 {
		bar.step()
	}
	bar.done()
	bar.done()
	want := "\r[##########....................] 1/3 conversations\r[####################..........] 2/3 conversations\r[##############################] 3/3 conversations\n"
	if buf.String() != want {
		t.Errorf("bar = %q, want %q", buf.String(), want)
	}
}
