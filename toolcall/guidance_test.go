package toolcall_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/agentjudge/judge/toolcall"
)

// guidedDefs holds the same tool three ways: an MCP tool with the judge
// extensions, an OpenAI function with the guidance at the schema's root,
// and a manifest with when_to_use and a parameter's intent.
var guidedDefs = map[string]string{
	"mcp": `{"name": "get_events", "description": "Read calendar events by id.",
  "when_to_use": "The user asks about meetings", "when_not_to_use": "The user asks about tasks",
  "inputSchema": {"type": "object", "required": ["ids"], "properties": {
    "ids": {"type": "array", "items": {"type": "string"}, "x-intent": "Ids a search returned", "x-anti-patterns": ["event titles", "*"]},
    "limit": {"type": "integer"}}}}`,
	"openai": `{"type": "function", "function": {"name": "get_events", "description": "Read calendar events by id.",
  "parameters": {"type": "object", "x-when-to-use": "The user asks about meetings", "x-when-not-to-use": "The user asks about tasks",
    "required": ["ids"], "properties": {
    "ids": {"type": "array", "items": {"type": "string"}, "x-intent": "Ids a search returned", "x-anti-patterns": ["event titles", "*"]},
    "limit": {"type": "integer"}}}}}`,
	"manifest": `[{"path": "get_events.yaml", "content": "tool_id: get_events\ntool_type: script\nversion: \"1.0.0\"\ndescription: Read calendar events by id.\nwhen_to_use: The user asks about meetings\nwhen_not_to_use: The user asks about tasks\nexecutor: python_runtime\nconfig: {entrypoint: main.py}\nparameters:\n  - {name: ids, type: array, items: {type: string}, required: true, description: Event ids, intent: Ids a search returned, anti_patterns: [event titles, '*']}\n  - {name: limit, type: integer, description: At most this many}\n"}]`,
}

// TestRepairGuidance checks that the guidance of a tool and of the
// parameter at fault reaches the repair feedback, whatever the
// definition's kind.
func TestRepairGuidance(t *testing.T) {
	t.Parallel()
	for kind, doc := range guidedDefs {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			ts := newToolset(t, []byte(doc), kind+".json")
			res, err := ts.Check(context.Background(), toolcall.Call{Tool: "get_events", Arguments: json.RawMessage(`{"ids": [7], "limit": "x"}`)})
			if err != nil {
				t.Fatal(err)
			}
			r := res.Repair
			if r == nil {
				t.Fatalf("no repair for an invalid call: %+v", res.Result)
			}
			if r.WhenToUse != "The user asks about meetings" || r.WhenNotToUse != "The user asks about tasks" {
				t.Errorf("repair guidance %q / %q", r.WhenToUse, r.WhenNotToUse)
			}
			var ids, limit *toolcall.Fix
			for i, f := range r.Fixes {
				switch f.Location {
				case "ids[0]":
					ids = &r.Fixes[i]
				case "limit":
					limit = &r.Fixes[i]
				}
			}
			if ids == nil || ids.Intent != "Ids a search returned" || !slices.Equal(ids.AntiPatterns, []string{"event titles", "*"}) {
				t.Errorf("fix of ids[0] = %+v, want the parameter's intent and anti-patterns", ids)
			}
			if limit == nil || limit.Intent != "" || limit.AntiPatterns != nil {
				t.Errorf("fix of limit = %+v, want no guidance (limit has none)", limit)
			}
			i := slices.IndexFunc(r.Parameters, func(p toolcall.Param) bool { return p.Name == "ids" })
			if i < 0 || r.Parameters[i].Intent == "" {
				t.Errorf("parameters %+v: ids lacks its intent", r.Parameters)
			}
		})
	}
}

func TestGuidanceBadExtension(t *testing.T) {
	t.Parallel()
	_, err := toolcall.ParseDefinitions([]byte(`[{"name": "a", "inputSchema": {"type": "object"}, "when_to_use": 3}]`), "defs.json")
	var de *toolcall.DefinitionError
	if !errors.As(err, &de) || de.Path != "[0].when_to_use" {
		t.Errorf("error %v, want a *DefinitionError at [0].when_to_use", err)
	}
}
