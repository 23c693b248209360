package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// guidedTools is a registry of one script whose manifest carries usage
// guidance, and one whose description only restates its name.
var guidedTools = map[string]string{
	"tools/get_events/tool.yaml": `tool_id: get_events
tool_type: script
version: "1.0.0"
description: Read calendar events by their ids, with their titles and times
when_to_use: The user asks about meetings or appointments
when_not_to_use: The user asks about tasks or reminders
executor: python_runtime
config:
  entrypoint: main.py
parameters:
  - name: ids
    type: array
    items: {type: string}
    required: true
    description: Event ids
    intent: The ids a previous search returned
    anti_patterns: [event titles]
`,
	"tools/get_events/main.py": "print('[]')\n",
	"tools/get_tasks/tool.yaml": `tool_id: get_tasks
tool_type: script
version: "1.0.0"
description: Gets the tasks
executor: python_runtime
config:
  entrypoint: main.py
`,
	"tools/get_tasks/main.py":   "print('[]')\n",
	"tools/python_runtime.yaml": "tool_id: python_runtime\ntool_type: runtime\nversion: \"1.0.0\"\ndescription: Runs Python scripts that have their own main\nexecutor: subprocess\nconfig:\n  command: python3\n",
	"mcp.json":                  `{"tools": [{"name": "get_issue", "description": "Get an issue", "inputSchema": {"type": "object"}}]}`,
}

// TestUsageGuidanceCLI drives usage guidance through judge tools lint,
// judge tools export and judge call check.
func TestUsageGuidanceCLI(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, guidedTools)
	tools := filepath.Join(dir, "tools")

	out, _ := callCase{name: "lint", args: []string{"tools", "lint", tools, "--format", "json"}, code: 0}.run(t)
	var rep struct {
		Results map[string]struct {
			Issues []struct{ Rule, Location, Message string }
		}
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("lint output: %v\n%s", err, out)
	}
	flagged := func(id string) bool {
		for _, is := range rep.Results[id].Issues {
			if is.Rule == "guidance.description" {
				return true
			}
		}
		return false
	}
	if !flagged("get_tasks") || flagged("get_events") {
		t.Errorf("weak descriptions flagged: get_tasks %v (want true), get_events %v (want false)\n%s", flagged("get_tasks"), flagged("get_events"), out)
	}
	callCase{name: "lint --mcp", args: []string{"tools", "lint", "--mcp", filepath.Join(dir, "mcp.json"), "--format", "text"},
		wantOut: []string{"readability_issue", "gives a model nothing to choose it by"}}.run(t)

	callCase{name: "export", args: []string{"tools", "export", tools, "--format", "openai"},
		wantOut: []string{
			`"description": "Read calendar events by their ids, with their titles and times\nUse when: The user asks about meetings or appointments\nDo not use when: The user asks about tasks or reminders"`,
			`"description": "Event ids Intent: The ids a previous search returned. Avoid: event titles."`,
		}}.run(t)

	callCase{name: "check", args: []string{"call", "check", "--tools", tools, "--format", "text", "get_events", `{"ids": [7]}`}, code: 1,
		wantOut: []string{"Use when: The user asks about meetings", "Intent: The ids a previous search returned. Avoid: event titles."}}.run(t)
	out, _ = callCase{name: "check json", args: []string{"call", "check", "--tools", tools, "--format", "json", "get_events", `{"ids": 7}`}, code: 1}.run(t)
	if !strings.Contains(string(out), `"intent": "The ids a previous search returned"`) || !strings.Contains(string(out), `"when_to_use"`) {
		t.Errorf("check JSON lacks the guidance:\n%s", out)
	}
}
