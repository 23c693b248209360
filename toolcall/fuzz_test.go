package toolcall_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// FuzzParseDefinitions: any document gives definitions that compile or a
// *DefinitionError, never a panic.
func FuzzParseDefinitions(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "spec-tools.json")); err == nil {
		f.Add(b)
	}
	for _, s := range []string{
		`{"name": "a", "inputSchema": {"type": "object"}}`,
		`{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}, "strict": true}}`,
		`{"tools": [{"name": "a", "inputSchema": {}, "rules": [{"id": "r", "expression": "has(args.x)", "message": "m"}]}]}`,
		`{"result": {"tools": []}}`,
		`[{"name": "a", "inputSchema": {}, "applies_when": {"x": {"y": ["z"]}}}]`,
		`{"name": "a", "inputSchema": {"$ref": "#"}}`,
		`{"name": "create_x", "description": "DEPRECATED: use b", "inputSchema": {}, "annotations": {"readOnlyHint": false, "destructiveHint": true}}`,
		`{"name": "a", "inputSchema": {}, "annotations": {"readOnlyHint": "yes", "destructiveHint": null}}`, `{"name": "a", "inputSchema": {}, "annotations": []}`,
		`[{"tool_id": "w", "tool_type": "api", "version": "1.0.0", "executor": "http_client", "description": "x", "config": {"method": "GET", "url_template": "https://e.x/{a}", "rules": [{"id": "r", "expression": "has(args.a)", "message": "m"}]}, "parameters": [{"name": "a", "type": "string"}]}]`,
		`[{"path": "t.yaml", "content": "tool_id: t\ntool_type: script\nexecutor: python_runtime\n"}]`,
		`[`, `null`, `{"tools": 1}`,
	} {
		f.Add([]byte(s))
	}
	c, err := toolcall.New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defs, err := toolcall.ParseDefinitions(data, "f.json")
		if err == nil {
			_, err = c.NewToolset(defs...)
		}
		var de *toolcall.DefinitionError
		if err != nil && !errors.As(err, &de) {
			t.Fatalf("error %v (%T) is not a *DefinitionError", err, err)
		}
	})
}

// FuzzCheck: any arguments give a result that matches the specification,
// or a *CallError.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		`{"action": "by_ids", "ids": ["e1"], "limit": 10}`, `{"action": "by_time_span", "limit": "20"}`,
		`{"action": "by_ids", "ids": "e1"}`, `{}`, `[]`, `"x"`, `{"limit": 1e400}`, `{"action": `, ``,
		`{"action": "by_ids", "action": "by_time_span"}`, "{\"ids\": [\"\xff\"]}", "\xef\xbb\xbf{}", `{"a": {"b": 1, "b": 2}, "a": 3}`,
	} {
		f.Add("get_events", s)
		f.Add("home_assistant", s)
	}
	ts := specToolset(f)
	f.Fuzz(func(t *testing.T, tool, args string) {
		res, err := ts.Check(context.Background(), toolcall.Call{Tool: tool, Arguments: json.RawMessage(args)})
		if err != nil {
			var ce *toolcall.CallError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T) is not a *CallError", err, err)
			}
			return
		}
		if err := result.Check(res.Result); err != nil {
			t.Fatalf("result breaks the specification: %v", err)
		}
		if (res.Repair == nil) != res.Result.Valid {
			t.Fatalf("repair %v with valid %v", res.Repair, res.Result.Valid)
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("answer does not encode: %v", err)
		}
	})
}

// FuzzOutcome: any result is classified into one of the four statuses, or
// is a *CallError.
func FuzzOutcome(f *testing.F) {
	for _, s := range []string{
		`{"content": [{"type": "text", "text": "{\"items\": []}"}]}`, `{"isError": true, "content": []}`,
		`{"error": {"message": "x"}}`, `{"need_user_input": {"question": "which?"}}`, `{"ambiguous": true, "candidates": [1, 2]}`,
		`{"structuredContent": {"temperature": "x"}, "content": []}`, `[]`, `"no results"`, `{"status": 404}`, `{"exit_code": -1}`, `nul`,
		// Results of several items, every one an error (or not).
		`{"content": [{"type": "text", "text": "/a: Error - ENOENT: no such file\n---\n/b: Error - EACCES"}]}`,
		`{"content": [], "structuredContent": {"content": "/a:\nhi\n---\n/b: Error - ENOENT"}}`,
		`[{"id": 1, "error": "gone"}, {"id": 2, "success": false}]`, `["x: failed - timeout", "y: error: denied"]`, `"---\n---"`,
	} {
		f.Add("get_weather", s)
		f.Add("search_issues", s)
	}
	ts := outcomeToolset(f)
	f.Fuzz(func(t *testing.T, tool, res string) {
		o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{Call: toolcall.Call{Tool: tool, SessionID: "f"}, Result: json.RawMessage(res)})
		if err != nil {
			var ce *toolcall.CallError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T) is not a *CallError", err, err)
			}
			return
		}
		switch o.Status {
		case toolcall.Satisfied, toolcall.NeedsMoreTools, toolcall.NeedUserInput, toolcall.Failed:
		default:
			t.Fatalf("status %q", o.Status)
		}
		if err := result.Check(o.Result); err != nil {
			t.Fatalf("result breaks the specification: %v", err)
		}
		if o.Status == toolcall.Failed && o.Compacted != nil {
			t.Fatal("a failure was compacted")
		}
	})
}
