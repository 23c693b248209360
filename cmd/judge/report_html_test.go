package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
)

// TestTraceHTML: judge trace --html writes the report of the 100 recorded
// tau-bench conversations as one HTML page, whose summary says the numbers
// of the JSON answer written to stdout as before; a page that cannot be
// written fails the command and leaves no file.
func TestTraceHTML(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "agent-traces")
	out := filepath.Join(t.TempDir(), "report.html")
	args := []string{"trace", "--format", "json", "--defs", filepath.Join(dir, "tau-bench-airline-tools.json"),
		"--rules", filepath.Join(repoRoot(t), "examples", "traces", "airline.rules.json"),
		"--html", out, filepath.Join(dir, "tau-bench-airline-gpt-4o.dev.json")}
	stdout, _ := callCase{name: "html", args: args, code: 1}.run(t)
	var ans struct {
		Summary map[string]any `json:"summary"`
	}
	if err := json.Unmarshal(stdout, &ans); err != nil {
		t.Fatalf("stdout is not the JSON answer: %v", err)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(page), "<!DOCTYPE html>") || len(page) >= 8<<20 {
		t.Fatalf("%s: %d bytes, not an HTML page under 8 MB", out, len(page))
	}
	for label, key := range map[string]string{"Conversations": "conversations", "Calls": "calls", "Failed results": "failed_results",
		"Rule violations": "rule_violations", "Flagged conversations": "flagged", "Loops": "loops", "Invalid calls": "invalid_calls"} {
		want := fmt.Sprintf(`<th scope="row">%s</th><td class="num">%v</td>`, label, ans.Summary[key])
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %s (the JSON answer's %s)", want, key)
		}
	}

	bad := filepath.Join(t.TempDir(), "no", "such", "dir", "report.html")
	args[len(args)-2] = bad
	var stderr strings.Builder
	if code := Execute(t.Context(), args, nil, new(strings.Builder), &stderr); code == 0 || !strings.Contains(stderr.String(), "HTML report") {
		t.Errorf("an unwritable --html: exit %d, stderr %q", code, stderr.String())
	}
	if _, err := os.Stat(bad); err == nil {
		t.Errorf("%s was written", bad)
	}
}

// TestToolsLintHTML: judge tools lint --format html writes one HTML page
// with each tool of the registry and its issues at their file and line.
func TestToolsLintHTML(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"weather.yaml": `tool_id: weather_forecast
tool_type: api
version: "1.0"
executor: http_client
description: weather
config:
  method: GET
  url_template: "https://api.example.com/forecast?lat={lat}"
parameters:
  - name: lat
    type: numbr
    required: true
`})
	stdout, _ := callCase{name: "lint html", args: []string{"tools", "lint", "--format", "html", dir}, code: 1}.run(t)
	page := string(stdout)
	if !strings.HasPrefix(page, "<!DOCTYPE html>") {
		t.Fatalf("not an HTML page: %.200s", page)
	}
	for _, want := range []string{"weather_forecast</h3>", "✗ Invalid:", "weather.yaml:11:", `<th scope="row">Invalid tools</th><td class="num">1</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
