package toolcall_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// specToolset loads testdata/spec-tools.json: the tools of the
// specification's examples.
func specToolset(t testing.TB, opts ...toolcall.Option) *toolcall.Toolset {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "spec-tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	return newToolset(t, data, "spec-tools.json", opts...)
}

// newToolset parses the definitions doc, read from file, and returns their
// toolset on a new checker with opts.
func newToolset(t testing.TB, doc []byte, file string, opts ...toolcall.Option) *toolcall.Toolset {
	t.Helper()
	defs, err := toolcall.ParseDefinitions(doc, file)
	if err != nil {
		t.Fatal(err)
	}
	return toolsetOf(t, defs, opts...)
}

// toolsetOf returns the toolset of defs on a new checker with opts.
func toolsetOf(t testing.TB, defs []toolcall.Definition, opts ...toolcall.Option) *toolcall.Toolset {
	t.Helper()
	c, err := toolcall.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := c.NewToolset(defs...)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// want is an expected issue: severity, type, location and a substring of
// the message.
type want struct {
	sev  result.Severity
	typ  result.Type
	loc  string
	text string
}

func matchIssues(t *testing.T, got []result.Issue, wants []want) {
	t.Helper()
	used := make([]bool, len(got))
	for _, w := range wants {
		found := false
		for i, is := range got {
			if !used[i] && is.Severity == w.sev && is.Type == w.typ && is.Location == w.loc && strings.Contains(is.Message, w.text) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("missing issue %s %s at %s containing %q", w.sev, w.typ, w.loc, w.text)
		}
	}
	for i, is := range got {
		if !used[i] {
			t.Errorf("unexpected issue %s %s at %s: %s", is.Severity, is.Type, is.Location, is.Message)
		}
	}
}

// The specification's own examples, and the kinds of schema violation.
func TestCheckSpecExamples(t *testing.T) {
	t.Parallel()
	ts := specToolset(t)
	tests := []struct {
		name  string
		tool  string
		args  string
		valid bool
		norm  string // normalized arguments, when checked
		want  []want
	}{
		{name: "home_assistant call_tool needs tool_name", tool: "home_assistant", args: `{"action": "call_tool"}`,
			want: []want{{result.Error, result.ConstraintViolation, "tool_name", "requires tool_name"}}},
		{name: "home_assistant call_tool with tool_name", tool: "home_assistant", args: `{"action": "call_tool", "tool_name": "light.turn_on"}`, valid: true},
		{name: "home_assistant list_tools needs nothing", tool: "home_assistant", args: `{"action": "list_tools"}`, valid: true},
		{name: "lookup_contact get needs contact_id", tool: "lookup_contact", args: `{"action": "get"}`,
			want: []want{{result.Error, result.ConstraintViolation, "contact_id", "requires contact_id"}}},
		{name: "lookup_contact get forbids query", tool: "lookup_contact", args: `{"action": "get", "contact_id": "c1", "query": "ann"}`,
			want: []want{{result.Error, result.ConstraintViolation, "query", "does not take query"}}},
		{name: "lookup_contact search needs query", tool: "lookup_contact", args: `{"action": "search"}`,
			want: []want{{result.Error, result.ConstraintViolation, "query", "requires query"}}},
		{name: "lookup_contact_places needs one of three", tool: "lookup_contact_places", args: `{}`,
			want: []want{{result.Error, result.ConstraintViolation, "root", "one of contact_id, contact_query or group_query"}}},
		{name: "lookup_contact_places group_query", tool: "lookup_contact_places", args: `{"group_query": "family"}`, valid: true},
		{name: "lookup_place_contacts needs place", tool: "lookup_place_contacts", args: `{}`,
			want: []want{{result.Error, result.ConstraintViolation, "root", "place_id or place_query"}}},
		{name: "get_events by_ids drops limit", tool: "get_events", args: `{"action": "by_ids", "ids": ["e1"], "limit": 10}`, valid: true,
			norm: `{"action": "by_ids", "ids": ["e1"]}`,
			want: []want{{result.Info, result.ArgumentNormalized, "limit", "dropped"}}},
		{name: "get_events by_time_span keeps limit", tool: "get_events", args: `{"action": "by_time_span", "start": "a", "end": "b", "limit": 10}`, valid: true,
			norm: `{"action": "by_time_span", "start": "a", "end": "b", "limit": 10}`},
		{name: "default filled only in scope", tool: "get_events", args: `{"action": "by_time_span"}`, valid: true,
			norm: `{"action": "by_time_span", "limit": 50}`,
			want: []want{{result.Info, result.ArgumentNormalized, "limit", "default 50"}}},
		{name: "numeric string coerced", tool: "get_events", args: `{"action": "by_time_span", "limit": "20"}`, valid: true,
			norm: `{"action": "by_time_span", "limit": 20}`,
			want: []want{{result.Info, result.ArgumentNormalized, "limit", "read as the integer 20"}}},
		{name: "single value wrapped", tool: "get_events", args: `{"action": "by_ids", "ids": "e1"}`, valid: true,
			norm: `{"action": "by_ids", "ids": ["e1"]}`,
			want: []want{{result.Info, result.ArgumentNormalized, "ids", "wrapped in a list"}}},
		{name: "no unsafe coercion", tool: "get_events", args: `{"action": "by_time_span", "limit": "twenty"}`,
			want: []want{{result.Error, result.InvalidType, "limit", "string"}}},
		{name: "range", tool: "get_events", args: `{"action": "by_time_span", "limit": 0}`,
			want: []want{{result.Error, result.ConstraintViolation, "limit", "minimum"}}},
		{name: "enum", tool: "get_events", args: `{"action": "by_name"}`,
			want: []want{{result.Error, result.ConstraintViolation, "action", "by_ids"}}},
		{name: "missing required", tool: "get_events", args: `{}`,
			want: []want{{result.Error, result.MissingField, "action", "action"}}},
		{name: "unknown parameter", tool: "get_events", args: `{"action": "by_ids", "ids": ["e1"], "limt": 3}`,
			want: []want{{result.Error, result.SchemaViolation, "limt", "did you mean 'limit'"}}},
		{name: "every violation its own issue", tool: "update_event", args: `{"event_id": 7, "titel": "x"}`,
			want: []want{
				{result.Error, result.InvalidType, "event_id", "expected string"},
				{result.Error, result.MissingField, "title", "'title'"},
				{result.Error, result.ConstraintViolation, "titel", "not allowed"},
			}},
		{name: "arguments not an object", tool: "update_event", args: `[1]`,
			want: []want{{result.Error, result.InvalidType, "root", "must be an object"}}},
		{name: "unknown tool", tool: "get_event", args: `{}`,
			want: []want{{result.Error, result.SchemaViolation, "tool", "did you mean 'get_events'"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := ts.Check(context.Background(), toolcall.Call{Tool: tt.tool, Arguments: json.RawMessage(tt.args)})
			if err != nil {
				t.Fatal(err)
			}
			if err := result.Check(res.Result); err != nil {
				t.Errorf("result breaks the specification: %v", err)
			}
			if res.Result.Valid != tt.valid {
				t.Errorf("valid = %v, want %v; issues: %+v", res.Result.Valid, tt.valid, res.Result.Issues)
			}
			if (res.Repair != nil) == tt.valid {
				t.Errorf("repair = %+v with valid %v", res.Repair, tt.valid)
			}
			matchIssues(t, res.Result.Issues, tt.want)
			if tt.norm != "" {
				got, _ := json.Marshal(res.Arguments())
				var g, w any
				_ = json.Unmarshal(got, &g)
				_ = json.Unmarshal([]byte(tt.norm), &w)
				gb, _ := json.Marshal(g)
				wb, _ := json.Marshal(w)
				if string(gb) != string(wb) {
					t.Errorf("normalized = %s, want %s", gb, wb)
				}
			}
		})
	}
}

// The repair block names the tool's intent, its parameters, one fix per
// error with its suggestion, and the attempts of a session.
func TestRepair(t *testing.T) {
	t.Parallel()
	ts := specToolset(t, toolcall.WithLimits(toolcall.Limits{RepairAttempts: 2}))
	ctx := context.Background()
	call := toolcall.Call{Tool: "home_assistant", Arguments: json.RawMessage(`{"action": "call_tool"}`), SessionID: "s1"}
	res, err := ts.Check(ctx, call)
	if err != nil {
		t.Fatal(err)
	}
	r := res.Repair
	if r == nil {
		t.Fatal("no repair for an invalid call")
	}
	if r.Intent != "Control smart-home devices through Home Assistant." {
		t.Errorf("intent = %q", r.Intent)
	}
	if len(r.Parameters) != 3 || r.Parameters[0].Name != "action" || !r.Parameters[0].Required || r.Parameters[0].Type != "string" ||
		!slices.Equal(r.Parameters[0].Enum, []string{"list_tools", "call_tool"}) || r.Parameters[2].Required {
		t.Errorf("parameters = %+v", r.Parameters)
	}
	if len(r.Fixes) != 1 || r.Fixes[0].Location != "tool_name" || !strings.HasPrefix(r.Fixes[0].Suggestion, "Add tool_name") {
		t.Errorf("fixes = %+v", r.Fixes)
	}
	if r.Attempt != 1 || r.MaxAttempts != 2 || r.RemainingAttempts == nil || *r.RemainingAttempts != 1 {
		t.Errorf("attempts = %d/%d remaining %v", r.Attempt, r.MaxAttempts, r.RemainingAttempts)
	}
	_, _ = ts.Check(ctx, call)
	res, _ = ts.Check(ctx, call)
	// The count stops at its maximum: never "attempt 3 of 2".
	if r := res.Repair; r.Attempt != 2 || *r.RemainingAttempts != 0 {
		t.Errorf("third attempt: %d of %d, remaining %d; want 2 of 2, 0", r.Attempt, r.MaxAttempts, *r.RemainingAttempts)
	}
	// Attempts are counted per mistake: another mistake of the same tool
	// starts at 1, and the first, no longer made, is forgotten.
	other := toolcall.Call{Tool: "home_assistant", Arguments: json.RawMessage(`{"action": "switch_on"}`), SessionID: "s1"}
	if res, _ := ts.Check(ctx, other); res.Repair == nil || res.Repair.Attempt != 1 || *res.Repair.RemainingAttempts != 1 {
		t.Errorf("another mistake: repair %+v, want attempt 1", res.Repair)
	}
	if res, _ := ts.Check(ctx, call); res.Repair.Attempt != 1 {
		t.Errorf("the first mistake again after another: attempt %d, want 1", res.Repair.Attempt)
	}
	// A valid call ends the attempts.
	if res, _ := ts.Check(ctx, toolcall.Call{Tool: "home_assistant", Arguments: json.RawMessage(`{"action": "list_tools"}`), SessionID: "s1"}); !res.Result.Valid {
		t.Fatal("valid call reported invalid")
	}
	res, _ = ts.Check(ctx, call)
	if res.Repair.Attempt != 1 {
		t.Errorf("after a valid call, attempt = %d, want 1", res.Repair.Attempt)
	}
	// Without a session, no counts.
	res, _ = ts.Check(ctx, toolcall.Call{Tool: "home_assistant", Arguments: json.RawMessage(`{"action": "call_tool"}`)})
	if res.Repair.Attempt != 0 || res.Repair.RemainingAttempts != nil {
		t.Errorf("attempts without a session: %+v", res.Repair)
	}
	// An unknown tool lists the closest and the available tools.
	res, _ = ts.Check(ctx, toolcall.Call{Tool: "lookup_contacts", Arguments: json.RawMessage(`{}`)})
	if r := res.Repair; len(r.ClosestTools) == 0 || r.ClosestTools[0] != "lookup_contact" || len(r.AvailableTools) != 6 {
		t.Errorf("unknown tool repair = %+v", r)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"repair":{"tool":"lookup_contacts"`) || strings.Contains(string(b), `"result":{"repair"`) {
		t.Errorf("repair is not beside the result: %s", b)
	}
}

// Arguments that are not JSON are a *CallError with the position.
func TestCheckBadArguments(t *testing.T) {
	t.Parallel()
	ts := specToolset(t)
	_, err := ts.Check(context.Background(), toolcall.Call{Tool: "get_events", Arguments: json.RawMessage("{\"action\":\n  x}")})
	var ce *toolcall.CallError
	if !errors.As(err, &ce) || ce.Field != "arguments" || ce.Line != 2 || ce.Col != 3 {
		t.Fatalf("err = %#v, want *CallError at arguments:2:3", err)
	}
	// No arguments at all are an empty object.
	res, err := ts.Check(context.Background(), toolcall.Call{Tool: "lookup_contact_places"})
	if err != nil || res.Result.Valid {
		t.Fatalf("empty arguments: %v, %+v", err, res)
	}
}

// Every real MCP tool definition in the shared test data loads as a
// contract.
func TestLoadRealDefinitions(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "mcp-tools")
	c, err := toolcall.New()
	if err != nil {
		t.Fatal(err)
	}
	snaps, _ := filepath.Glob(filepath.Join(dir, "github-mcp-server", "*.snap"))
	lists, _ := filepath.Glob(filepath.Join(dir, "mcp-snapshots", "*.json"))
	if len(snaps) < 100 {
		t.Fatalf("found %d .snap files, want the 117 of github-mcp-server", len(snaps))
	}
	var tools int
	for _, f := range append(snaps, lists...) {
		if strings.HasSuffix(f, "-examples.json") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(string(data), "Error:") {
			// A failed capture (server-sqlite.json holds "Error: No
			// initialize response"), not a definition.
			t.Logf("%s: not a definition: %q", filepath.Base(f), strings.TrimSpace(string(data)))
			continue
		}
		defs, err := toolcall.ParseDefinitions(data, filepath.Base(f))
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		ts, err := c.NewToolset(defs...)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		for _, n := range ts.Names() {
			ct, _ := ts.Contract(n)
			if ct.Kind != toolcall.KindMCP {
				t.Errorf("%s: %s loaded as %s", filepath.Base(f), n, ct.Kind)
			}
		}
		tools += len(defs)
	}
	if tools < 150 {
		t.Errorf("loaded %d tools, want every definition (over 150)", tools)
	}
	t.Logf("loaded %d real MCP tool definitions as contracts", tools)
}

// The example calls captured from real servers pass pre-execution.
func TestRealExamplesPass(t *testing.T) {
	t.Parallel()
	dir := sharedtest.Dir(t, "mcp-tools", "mcp-snapshots")
	c, err := toolcall.New()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*-examples.json"))
	checked := 0
	for _, f := range files {
		base := filepath.Base(f)
		defsFile := strings.TrimSuffix(f, "-examples.json") + ".json"
		data, err := os.ReadFile(defsFile)
		if err != nil {
			t.Logf("%s: no captured definitions (%s), so its examples cannot be checked", base, filepath.Base(defsFile))
			continue
		}
		defs, err := toolcall.ParseDefinitions(data, filepath.Base(defsFile))
		if err != nil {
			t.Fatal(err)
		}
		ts, err := c.NewToolset(defs...)
		if err != nil {
			t.Fatal(err)
		}
		var ex struct {
			Tools map[string]struct {
				ExampleInput json.RawMessage `json:"example_input"`
			} `json:"tools"`
			Examples []struct {
				Tool      string          `json:"tool"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"examples"`
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &ex); err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		var calls []toolcall.Call
		for name, tl := range ex.Tools {
			calls = append(calls, toolcall.Call{Tool: name, Arguments: tl.ExampleInput})
		}
		for _, e := range ex.Examples {
			calls = append(calls, toolcall.Call{Tool: e.Tool, Arguments: e.Arguments})
		}
		for _, call := range calls {
			res, err := ts.Check(context.Background(), call)
			if err != nil {
				t.Errorf("%s: %s: %v", base, call.Tool, err)
				continue
			}
			checked++
			if !res.Result.Valid {
				t.Errorf("%s: %s %s: invalid: %+v", base, call.Tool, call.Arguments, res.Result.Errors())
			}
		}
	}
	if checked < 30 {
		t.Errorf("checked %d example calls, want the examples of every captured server", checked)
	}
	t.Logf("%d example calls pass", checked)
}

// TestClosestToolsSharedWords: on tau-bench's retail tools, a name that
// leaves out or reorders words of a real tool's name is told the tool
// (cancel_order → cancel_pending_order), and one word in common is not
// enough.
func TestClosestToolsSharedWords(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join(sharedtest.Dir(t, "agent-traces"), "tau-bench-retail-tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	ts := newToolset(t, doc, "tau-bench-retail-tools.json")
	for _, c := range []struct {
		name string
		want []string
	}{
		{"cancel_order", []string{"cancel_pending_order"}},
		{"order_cancel", []string{"cancel_pending_order"}},
		{"return_order_items", []string{"return_delivered_order_items"}},
		{"cancelPendingOrder", []string{"cancel_pending_order"}}, // the same letters: a typo
		{"cancel_user", nil}, // one shared word
		{"get_order_details", []string{"get_order_details"}},
	} {
		got := ts.ClosestTools(c.name, 3)
		if len(got) == 0 && len(c.want) == 0 {
			continue
		}
		if len(got) == 0 || len(c.want) == 0 || got[0] != c.want[0] {
			t.Errorf("ClosestTools(%q) = %q, want first %q", c.name, got, c.want)
		}
	}
}
