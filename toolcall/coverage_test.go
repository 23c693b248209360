package toolcall_test

import (
	"context"
	"encoding/json"
	"github.com/agentjudge/judge/internal/sharedtest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// pagedTools are list tools paged three ways: by cursor, by page, by
// offset.
const pagedTools = `[
 {"name": "list_issues", "description": "List the issues of a repository, newest first, one page at a time",
  "inputSchema": {"type": "object", "required": ["repo"], "properties": {
   "repo": {"type": "string"}, "state": {"type": "string"},
   "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 30},
   "cursor": {"type": "string"}}}},
 {"name": "search_users", "description": "Search the users of the directory by name or team, twenty at a time",
  "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}, "per_page": {"type": "integer"}, "page": {"type": "integer"}}}},
 {"name": "list_events", "description": "List calendar events between two dates, with their titles and times",
  "inputSchema": {"type": "object", "properties": {"from": {"type": "string"}, "top_k": {"type": "integer", "maximum": 500}, "offset": {"type": "integer"}}}}
]`

func TestCoverageLiftsLimits(t *testing.T) {
	t.Parallel()
	ts := newToolset(t, []byte(pagedTools), "paged.json")
	tests := []struct {
		name, tool, args, goal string
		want                   string // normalized arguments
		lifted                 int    // coverage issues
	}{
		{"raised to the maximum", "list_issues", `{"repo": "a/b", "limit": 10}`, "List all open issues of a/b", `{"limit":100,"repo":"a/b"}`, 1},
		{"default raised too", "list_issues", `{"repo": "a/b"}`, "show me every issue", `{"limit":100,"repo":"a/b"}`, 1},
		{"no maximum: dropped", "search_users", `{"q": "team:infra", "per_page": 20}`, "Who is everyone on the infra team?", `{"q":"team:infra"}`, 1},
		{"at the maximum already", "list_events", `{"top_k": 500}`, "the entire calendar", `{"top_k":500}`, 0},
		{"no full-coverage goal", "list_issues", `{"repo": "a/b", "limit": 10}`, "the newest issue of a/b", `{"limit":10,"repo":"a/b"}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := ts.Check(context.Background(), toolcall.Call{Tool: tt.tool, Arguments: json.RawMessage(tt.args), Goal: tt.goal})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(res.Arguments())
			if string(got) != tt.want || !res.Result.Valid {
				t.Errorf("normalized %s (valid %v), want %s", got, res.Result.Valid, tt.want)
			}
			n := 0
			for _, is := range res.Result.Issues {
				if is.Rule == "toolcall.coverage" {
					n++
					if is.Severity != result.Info || is.Type != result.ArgumentNormalized {
						t.Errorf("coverage issue %+v is not an info argument_normalized", is)
					}
				}
			}
			if n != tt.lifted {
				t.Errorf("%d coverage issues, want %d: %+v", n, tt.lifted, res.Result.Issues)
			}
		})
	}
}

func TestCoverageNextPage(t *testing.T) {
	t.Parallel()
	ts := newToolset(t, []byte(pagedTools), "paged.json")
	tests := []struct {
		name, tool, args, result, goal string
		status                         toolcall.Status
		next                           string // the first suggested call's arguments; "" none
	}{
		{"cursor", "list_issues", `{"repo": "a/b", "limit": 100}`, `{"issues": [{"number": 1}, {"number": 2}], "has_more": true, "next_cursor": "c2"}`,
			"all open issues", toolcall.NeedsMoreTools, `{"cursor":"c2","limit":100,"repo":"a/b"}`},
		{"page from a total", "search_users", `{"q": "team:infra", "page": 2}`, `{"total_count": 57, "items": [{"login": "a"}, {"login": "b"}]}`,
			"everyone on the infra team", toolcall.NeedsMoreTools, `{"page":3,"q":"team:infra"}`},
		{"offset", "list_events", `{"from": "2024-05-01"}`, `{"data": [{"id": "e1"}, {"id": "e2"}, {"id": "e3"}], "pagination": {"total": 9}}`,
			"the entire calendar", toolcall.NeedsMoreTools, `{"from":"2024-05-01","offset":3}`},
		{"last page", "list_issues", `{"repo": "a/b"}`, `{"issues": [{"number": 1}], "has_more": false, "next_cursor": ""}`,
			"all open issues", toolcall.Satisfied, ""},
		{"no full-coverage goal", "list_issues", `{"repo": "a/b"}`, `{"issues": [{"number": 1}], "has_more": true, "next_cursor": "c2"}`,
			"the newest open issue", toolcall.Satisfied, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o, err := ts.Outcome(context.Background(), toolcall.OutcomeRequest{Call: toolcall.Call{Tool: tt.tool, Arguments: json.RawMessage(tt.args)},
				Result: json.RawMessage(tt.result), Goal: tt.goal})
			if err != nil {
				t.Fatal(err)
			}
			if o.Status != tt.status {
				t.Fatalf("status %s (%s), want %s", o.Status, o.Reason, tt.status)
			}
			if tt.next == "" {
				for _, n := range o.SuggestedNextTools {
					if n.Tool == tt.tool {
						t.Errorf("a next page was suggested: %+v", n)
					}
				}
				return
			}
			if len(o.SuggestedNextTools) == 0 || o.SuggestedNextTools[0].Tool != tt.tool || len(o.SuggestedNextTools[0].Needs) != 0 {
				t.Fatalf("next tools %+v, want the same tool first, fully filled", o.SuggestedNextTools)
			}
			got, _ := json.Marshal(o.SuggestedNextTools[0].Arguments)
			if string(got) != tt.next {
				t.Errorf("next call %s, want %s", got, tt.next)
			}
		})
	}
}

// TestCoverageRealDefinitions measures full-coverage lifting on the real
// MCP definitions: how many tools have a limit-like parameter, and how
// many of those a goal asking for everything raises to a maximum or
// drops. The figure is in docs/toolcall.md.
func TestCoverageRealDefinitions(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "mcp-tools")
	snaps, _ := filepath.Glob(filepath.Join(dir, "github-mcp-server", "*.snap"))
	lists, _ := filepath.Glob(filepath.Join(dir, "mcp-snapshots", "*.json"))
	c, err := toolcall.New()
	if err != nil {
		t.Fatal(err)
	}
	tools, limited, raised, dropped := 0, 0, 0, 0
	for _, f := range append(snaps, lists...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		defs, err := toolcall.ParseDefinitions(data, filepath.Base(f))
		if err != nil {
			continue // examples and a failed capture: not definitions
		}
		ts, err := c.NewToolset(defs...)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range ts.Names() {
			tools++
			ct, _ := ts.Contract(n)
			args := map[string]any{}
			for _, p := range ct.Params {
				if p.Type == "integer" || p.Type == "number" {
					args[p.Name] = 1
				}
			}
			raw, _ := json.Marshal(args)
			res, err := ts.Check(context.Background(), toolcall.Call{Tool: n, Arguments: raw, Goal: "list all of them"})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, is := range res.Result.Issues {
				if is.Rule != "toolcall.coverage" {
					continue
				}
				found = true
				if strings.Contains(is.Message, "raised") {
					raised++
				} else {
					dropped++
				}
				t.Logf("%s %s: %s", filepath.Base(f), n, is.Message)
			}
			if found {
				limited++
			}
		}
	}
	t.Logf("%d tools, %d with a limit-like parameter: %d raised to a maximum, %d dropped", tools, limited, raised, dropped)
	if tools < 200 || limited == 0 {
		t.Errorf("%d tools, %d limited: the corpus was not measured", tools, limited)
	}
}
