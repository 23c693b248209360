package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/agentjudge/judge/toolcall"
)

const pagedDefs = `[{"name": "list_issues", "description": "List the issues of a repository, newest first, one page at a time",
  "inputSchema": {"type": "object", "required": ["repo"], "properties": {"repo": {"type": "string"},
    "limit": {"type": "integer", "maximum": 100}, "cursor": {"type": "string"}}}}]`

// TestCoverageCLI: judge call check --goal lifts the limit of a request for
// everything, and judge call outcome --goal names the next page's call.
func TestCoverageCLI(t *testing.T) {
	t.Parallel()
	defs := filepath.Join(writeFiles(t, map[string]string{"defs.json": pagedDefs}), "defs.json")
	out, _ := callCase{name: "check", args: []string{"call", "check", "--defs", defs, "--format", "json", "--goal", "list all open issues",
		"list_issues", `{"repo": "a/b", "limit": 5}`}, wantOut: []string{`"rule": "toolcall.coverage"`}}.run(t)
	var chk toolcall.CheckResult
	if err := json.Unmarshal(out, &chk); err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(chk.Arguments()); string(b) != `{"limit":100,"repo":"a/b"}` {
		t.Errorf("normalized %s, want the limit raised to 100", b)
	}
	out, _ = callCase{name: "outcome", args: []string{"call", "outcome", "--defs", defs, "--format", "json", "--goal", "list all open issues",
		"list_issues", `{"repo": "a/b", "limit": 100}`, `{"issues": [{"number": 1}], "has_more": true, "next_cursor": "c2"}`}}.run(t)
	var o toolcall.Outcome
	if err := json.Unmarshal(out, &o); err != nil {
		t.Fatal(err)
	}
	if o.Status != toolcall.NeedsMoreTools || len(o.SuggestedNextTools) == 0 || o.SuggestedNextTools[0].Arguments["cursor"] != "c2" {
		t.Errorf("outcome %s, next %+v; want NEEDS_MORE_TOOLS with the cursor filled", o.Status, o.SuggestedNextTools)
	}
}
