package toolcall_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

const outcomeTools = `[
  {"name": "search_issues", "description": "Search issues.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}, "owner": {"type": "string"}, "repo": {"type": "string"}}}},
  {"name": "list_issues", "description": "List issues.", "inputSchema": {"type": "object", "properties": {"owner": {"type": "string"}, "repo": {"type": "string"}}}},
  {"name": "get_issue", "description": "Get one issue.", "inputSchema": {"type": "object", "properties": {"owner": {"type": "string"}, "repo": {"type": "string"}, "issue_number": {"type": "integer"}},
    "required": ["owner", "repo", "issue_number"]}},
  {"name": "get_weather", "description": "Weather.", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
    "outputSchema": {"type": "object", "properties": {"temperature": {"type": "number"}, "city": {"type": "string"}}, "required": ["temperature"]}},
  {"name": "run_script", "description": "Run a script.", "inputSchema": {"type": "object"}},
  {"name": "create_event", "description": "Create an event.", "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}}, "next_tools": ["get_issue"]}
]`

// outcomeToolset returns the toolset of outcomeTools on a new checker with
// opts.
func outcomeToolset(t testing.TB, opts ...toolcall.Option) *toolcall.Toolset {
	t.Helper()
	return newToolset(t, []byte(outcomeTools), "tools.json", opts...)
}

func TestOutcome(t *testing.T) {
	t.Parallel()
	ts := outcomeToolset(t)
	tests := []struct {
		name     string
		tool     string
		args     string
		res      string
		status   toolcall.Status
		want     []want
		next     []string // suggested next tools
		nextArgs string   // JSON of the first next tool's arguments, when checked
		facts    []string // paths of facts that must be extracted
	}{
		{name: "MCP isError", tool: "get_issue", args: `{"owner": "o", "repo": "r", "issue_number": 9}`,
			res: `{"content": [{"type": "text", "text": "Not Found"}], "isError": true}`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "isError", "Not Found"}}},
		{name: "error field", tool: "list_issues", res: `{"error": {"message": "bad credentials"}}`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "error", "bad credentials"}}},
		{name: "error field in JSON text", tool: "list_issues", res: `{"content": [{"type": "text", "text": "{\"error\": \"rate limited\"}"}]}`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "error", "rate limited"}}},
		{name: "success false", tool: "list_issues", res: `{"success": false, "message": "repository archived"}`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "success", "repository archived"}}},
		{name: "exit code", tool: "list_issues", res: `{"exit_code": 2, "stderr": "no such file"}`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "exit_code", "exit code is 2"}}},
		{name: "exit code zero", tool: "run_script", res: `{"exit_code": 0, "stdout": "ok"}`, status: toolcall.Satisfied},
		{name: "HTTP status", tool: "list_issues", res: `{"status": 503, "body": "unavailable"}`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "status", "HTTP status is 503"}}},
		{name: "validation payload", tool: "list_issues", res: `{"valid": false, "issues": [{"message": "x"}]}`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "valid", "valid false"}}},
		{name: "empty list", tool: "list_issues", res: `[]`, status: toolcall.NeedsMoreTools,
			want: []want{{result.Warning, result.EmptyResult, "root", "empty list"}}, next: []string{"search_issues"}},
		{name: "empty items with zero count", tool: "search_issues", res: `{"total_count": 0, "incomplete_results": false, "items": []}`, status: toolcall.NeedsMoreTools,
			want: []want{{result.Warning, result.EmptyResult, "items", "items is an empty list"}}, next: []string{"list_issues"}},
		{name: "no results text", tool: "search_issues", res: `{"content": [{"type": "text", "text": "No results found for 'zzz'"}]}`, status: toolcall.NeedsMoreTools,
			want: []want{{result.Warning, result.EmptyResult, "root", "No results found"}}, next: []string{"list_issues"}},
		{name: "empty text", tool: "search_issues", res: `{"content": [{"type": "text", "text": "  "}]}`, status: toolcall.NeedsMoreTools,
			want: []want{{result.Warning, result.EmptyResult, "root", "empty text"}}, next: []string{"list_issues"}},
		{name: "need_user_input envelope", tool: "search_issues", res: `{"need_user_input": true, "question": "Which repository do you mean?"}`, status: toolcall.NeedUserInput,
			want: []want{{result.Info, result.NotChecked, "need_user_input", "Which repository"}}},
		{name: "ambiguity list", tool: "search_issues", res: `{"ambiguous_contacts": [{"id": "1", "name": "Ann A"}, {"id": "2", "name": "Ann B"}], "message": "Several contacts match 'Ann'"}`,
			status: toolcall.NeedUserInput, want: []want{{result.Info, result.NotChecked, "ambiguous_contacts", "2 candidates"}}},
		{name: "discovery with candidates", tool: "search_issues", args: `{"q": "crash", "owner": "o", "repo": "r"}`,
			res: `{"total_count": 1, "items": [{"number": 42, "title": "Crash on start", "state": "open"}]}`, status: toolcall.NeedsMoreTools,
			next: []string{"get_issue"}, nextArgs: `{"issue_number":42,"owner":"o","repo":"r"}`, facts: []string{"items[0].number", "items[0].title", "items[0].state"}},
		{name: "declared follow-up", tool: "create_event", res: `{"id": "ev1", "title": "Standup"}`, status: toolcall.Satisfied,
			next: []string{"get_issue"}, facts: []string{"id", "title"}},
		{name: "output schema ok", tool: "get_weather", res: `{"content": [{"type": "text", "text": "20 C"}], "structuredContent": {"temperature": 20, "city": "Oslo"}}`,
			status: toolcall.Satisfied},
		{name: "output schema violated", tool: "get_weather", res: `{"content": [], "structuredContent": {"temperature": "warm"}}`, status: toolcall.Failed,
			want: []want{{result.Error, result.InvalidType, "structuredContent.temperature", "expected number"}}},
		{name: "output schema missing structuredContent", tool: "get_weather", res: `{"content": [{"type": "text", "text": "20 C"}]}`, status: toolcall.Failed,
			want: []want{{result.Error, result.MissingField, "structuredContent", "no structuredContent"}}},
		{name: "failure not checked against output schema", tool: "get_weather", res: `{"content": [{"type": "text", "text": "city unknown"}], "isError": true}`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "isError", "city unknown"}}},
		{name: "Error: text", tool: "list_issues", res: `"Error: payment amount does not add up, total price is 375, but paid 299"`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "root", `says "Error: payment amount does not add up`}}},
		{name: "ERROR text in MCP content", tool: "list_issues", res: `{"content": [{"type": "text", "text": "ERROR 403 rate limit exceeded"}]}`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "content", "ERROR 403 rate limit"}}},
		{name: "exception class", tool: "run_script", res: `"ValueError: invalid literal for int() with base 10: 'x'"`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "root", "ValueError: invalid literal"}}},
		{name: "traceback names its exception", tool: "run_script", res: `"Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nKeyError: 'id'"`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "root", `says "KeyError: 'id'"`}}},
		{name: "git fatal", tool: "run_script", res: `"fatal: not a git repository (or any of the parent directories): .git"`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "root", "fatal: not a git repository"}}},
		{name: "HTTP status line", tool: "list_issues", res: `"HTTP/1.1 404 Not Found\nContent-Type: text/plain"`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "root", "HTTP/1.1 404"}}},
		{name: "status and phrase", tool: "list_issues", res: `"503 Service Unavailable"`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "root", "503 Service Unavailable"}}},
		{name: "detail envelope", tool: "list_issues", res: `{"detail": "Not authenticated"}`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "detail", "Not authenticated"}}},
		{name: "message and code envelope", tool: "list_issues", res: `{"message": "Invalid repository", "code": 422}`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "message", "Invalid repository"}}},
		{name: "GitHub error envelope", tool: "list_issues", res: `{"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "message", "Not Found"}}},
		{name: "not found as the whole answer", tool: "get_issue", args: `{"owner": "o", "repo": "r", "issue_number": 9}`, res: `"Issue #9 not found"`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "root", "Issue #9 not found"}}},
		{name: "not available as the whole answer", tool: "list_issues", res: `"flight HAT030 not available on date 2024-05-13"`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "root", "not available"}}},
		{name: "permission denied", tool: "run_script", res: `{"content": [{"type": "text", "text": "Permission denied."}]}`, status: toolcall.Failed,
			want: []want{{result.Error, result.ToolError, "content", "Permission denied"}}},
		{name: "error mentioned among data", tool: "run_script", res: `"Ran 12 tests. 11 passed, 1 skipped; error count: 0\nlog: no error found in output"`, status: toolcall.Satisfied},
		{name: "not found inside a longer answer", tool: "run_script", res: `"Found 3 flights. Seat 12A not available, seats 12B and 12C free."`, status: toolcall.Satisfied},
		{name: "error field name in data", tool: "run_script", res: `{"message": "Deployed", "code": 200}`, status: toolcall.Satisfied},
		{name: "detail beside data", tool: "run_script", res: `{"detail": "full", "items": [{"id": 1}]}`, status: toolcall.Satisfied},
		{name: "data text starting with a word like error", tool: "run_script", res: `"Errors are listed below: none"`, status: toolcall.Satisfied},
		{name: "no results stays empty", tool: "search_issues", res: `"No issues found"`, status: toolcall.NeedsMoreTools,
			want: []want{{result.Warning, result.EmptyResult, "root", "No issues found"}}, next: []string{"list_issues"}},
		{name: "unknown tool", tool: "nope", res: `{"a": 1}`, status: toolcall.Satisfied,
			want: []want{{result.Info, result.NotChecked, "tool", "no contract"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := tt.args
			if args == "" {
				args = "{}"
			}
			o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{
				Call: toolcall.Call{Tool: tt.tool, Arguments: json.RawMessage(args)}, Result: json.RawMessage(tt.res)})
			if err != nil {
				t.Fatal(err)
			}
			if err := result.Check(o.Result); err != nil {
				t.Errorf("result breaks the specification: %v", err)
			}
			if o.Status != tt.status || o.Reason == "" {
				t.Errorf("status = %s (%s), want %s", o.Status, o.Reason, tt.status)
			}
			matchIssues(t, o.Result.Issues, tt.want)
			var next []string
			for _, n := range o.SuggestedNextTools {
				next = append(next, n.Tool)
			}
			if strings.Join(next, ",") != strings.Join(tt.next, ",") {
				t.Errorf("next tools = %v, want %v", next, tt.next)
			}
			if tt.nextArgs != "" {
				b, _ := json.Marshal(o.SuggestedNextTools[0].Arguments)
				if string(b) != tt.nextArgs {
					t.Errorf("next arguments = %s, want %s", b, tt.nextArgs)
				}
			}
			paths := map[string]bool{}
			for _, f := range o.ExtractedFacts {
				paths[f.Path] = true
			}
			for _, p := range tt.facts {
				if !paths[p] {
					t.Errorf("fact %s not extracted; facts: %+v", p, o.ExtractedFacts)
				}
			}
		})
	}
}

// A goal is reported as not checked and lowers confidence.
func TestOutcomeGoalNotChecked(t *testing.T) {
	t.Parallel()
	ts := outcomeToolset(t)
	o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{
		Call: toolcall.Call{Tool: "run_script"}, Result: json.RawMessage(`{"stdout": "done"}`), Goal: "find the crash bug"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != toolcall.Satisfied || o.Result.Confidence >= 1 || o.Result.Issues[0].Rule != "toolcall.goal" {
		t.Errorf("goal: %s confidence %v issues %+v", o.Status, o.Result.Confidence, o.Result.Issues)
	}
}

func TestOutcomeBadInput(t *testing.T) {
	t.Parallel()
	ts := outcomeToolset(t)
	_, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{Call: toolcall.Call{Tool: "list_issues"}, Result: json.RawMessage("{\"a\": tru}")})
	var ce *toolcall.CallError
	if !errors.As(err, &ce) || ce.Field != "result" || ce.Line != 1 || ce.Col != 10 {
		t.Fatalf("err = %v, want *CallError at result:1:10", err)
	}
}

// The example outputs captured from real servers are classified: none of
// them is a failure, and the cloudflare JSON-in-text outputs give facts.
func TestOutcomeRealExamples(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "mcp-tools", "mcp-snapshots")
	c, err := toolcall.New()
	if err != nil {
		t.Fatal(err)
	}
	ts, err := c.NewToolset()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*-examples.json"))
	n := 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ex struct {
			Tools map[string]struct {
				ExampleOutput json.RawMessage `json:"example_output"`
			} `json:"tools"`
			Examples []struct {
				Tool   string          `json:"tool"`
				Output json.RawMessage `json:"output"`
			} `json:"examples"`
		}
		if err := json.Unmarshal(raw, &ex); err != nil {
			t.Fatal(err)
		}
		for name, tl := range ex.Tools {
			if len(tl.ExampleOutput) == 0 {
				continue
			}
			o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{Call: toolcall.Call{Tool: name}, Result: tl.ExampleOutput})
			if err != nil {
				t.Fatalf("%s %s: %v", filepath.Base(f), name, err)
			}
			n++
			if o.Status == toolcall.Failed {
				t.Errorf("%s %s: a captured success classified FAILED: %s", filepath.Base(f), name, o.Reason)
			}
		}
	}
	if n < 30 {
		t.Errorf("classified %d example outputs, want those of every captured server", n)
	}
}

// A follow-up takes an identifier only from a fact of the same entity:
// repo_id from the repository's id, issue_number from the issue's number;
// what no fact gives is left out and named.
func TestOutcomeFollowUpSameEntity(t *testing.T) {
	t.Parallel()
	const tools = `[
  {"name": "list_issues", "description": "List issues.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
  {"name": "get_issue", "description": "Get one issue.", "inputSchema": {"type": "object", "properties": {"repo_id": {"type": "integer"}, "issue_number": {"type": "integer"}},
    "required": ["repo_id", "issue_number"]}},
  {"name": "update_issue", "description": "Update an issue.", "inputSchema": {"type": "object", "properties": {"repo_id": {"type": "integer"}, "issue_id": {"type": "integer"}},
    "required": ["repo_id", "issue_id"]}}
]`
	ts := newToolset(t, []byte(tools), "tools.json")
	tests := []struct {
		name, res string
		args      map[string]string // tool → JSON of its arguments
		needs     map[string]string // tool → what it still needs
	}{
		{name: "repository present", res: `[{"id": 5001, "number": 42, "title": "Crash", "repository": {"id": 77, "name": "judge"}}]`,
			args:  map[string]string{"get_issue": `{"issue_number":42,"repo_id":77}`, "update_issue": `{"issue_id":5001,"repo_id":77}`},
			needs: map[string]string{}},
		{name: "no repository: repo_id is not the issue's id", res: `[{"id": 5001, "number": 42, "title": "Crash"}]`,
			args:  map[string]string{"get_issue": `{"issue_number":42}`, "update_issue": `{"issue_id":5001}`},
			needs: map[string]string{"get_issue": "repo_id (the repo's id)", "update_issue": "repo_id (the repo's id)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{Call: toolcall.Call{Tool: "list_issues", Arguments: json.RawMessage(`{}`)}, Result: json.RawMessage(tt.res)})
			if err != nil {
				t.Fatal(err)
			}
			if len(o.SuggestedNextTools) != 2 {
				t.Fatalf("next tools = %+v, want get_issue and update_issue", o.SuggestedNextTools)
			}
			for _, n := range o.SuggestedNextTools {
				b, _ := json.Marshal(n.Arguments)
				if string(b) != tt.args[n.Tool] {
					t.Errorf("%s arguments = %s, want %s", n.Tool, b, tt.args[n.Tool])
				}
				if got := strings.Join(n.Needs, "; "); got != tt.needs[n.Tool] {
					t.Errorf("%s needs = %q, want %q", n.Tool, got, tt.needs[n.Tool])
				}
				if tt.needs[n.Tool] != "" && !strings.Contains(n.Reason, tt.needs[n.Tool]) {
					t.Errorf("%s reason %q does not say what is needed", n.Tool, n.Reason)
				}
			}
		})
	}
}
