package gateway_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/gateway"
)

// memBackend is a Backend answering from memory: each tool's answer is a
// function of its arguments, and every call is recorded.
type memBackend struct {
	tools  []gateway.Tool
	answer map[string]func(args map[string]any) string

	mu    sync.Mutex
	calls []string // "tool args"
}

func (b *memBackend) Tools(context.Context) ([]gateway.Tool, error) { return b.tools, nil }

func (b *memBackend) Call(_ context.Context, name string, args json.RawMessage) (*gateway.Result, error) {
	b.mu.Lock()
	b.calls = append(b.calls, name+" "+string(args))
	b.mu.Unlock()
	var m map[string]any
	_ = json.Unmarshal(args, &m)
	return &gateway.Result{MCP: &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.answer[name](m)}}}}, nil
}

func (b *memBackend) received() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.calls...)
}

// connectMem serves g over in-memory transports and returns a connected
// go-sdk client session.
func connectMem(t *testing.T, g *gateway.Gateway) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := g.Server().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestGatewayUsageGuidance: the guidance in a tool's schema is folded into
// the descriptions tools/list offers, and an invalid call's repair text
// names the guidance of the parameter at fault.
func TestGatewayUsageGuidance(t *testing.T) {
	t.Parallel()
	b := &memBackend{
		tools: []gateway.Tool{{Name: "get_events", Description: "Read calendar events by id.",
			InputSchema: json.RawMessage(`{"type": "object", "x-when-to-use": "The user asks about meetings", "required": ["ids"],
			  "properties": {"ids": {"type": "array", "items": {"type": "string"}, "description": "Event ids",
			    "x-intent": "Ids a search returned", "x-anti-patterns": ["event titles"]}}}`)}},
		answer: map[string]func(map[string]any) string{"get_events": func(map[string]any) string { return `{"events": []}` }},
	}
	g, err := gateway.New(context.Background(), b, gateway.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := connectMem(t, g)
	tools := toolNames(t, cs)
	ev := tools["get_events"]
	if ev == nil {
		t.Fatal("tools/list lacks get_events")
	}
	schema, _ := json.Marshal(ev.InputSchema)
	if ev.Description != "Read calendar events by id.\nUse when: The user asks about meetings" ||
		!strings.Contains(string(schema), `Event ids Intent: Ids a search returned. Avoid: event titles.`) || strings.Contains(string(schema), "x-intent") {
		t.Errorf("tools/list offers %q with schema %s, want the guidance folded into the descriptions", ev.Description, schema)
	}
	res, meta := call(t, cs, "get_events", map[string]any{"ids": []any{1}})
	if !res.IsError || !strings.Contains(text(res), "Intent: Ids a search returned. Avoid: event titles.") || !strings.Contains(text(res), "Use when: The user asks about meetings") {
		t.Errorf("invalid call: text %q, want the guidance", text(res))
	}
	if meta.Check == nil || meta.Check.Repair == nil || meta.Check.Repair.Fixes[0].Intent != "Ids a search returned" {
		t.Errorf("_meta check %+v, want the fix's intent", meta.Check)
	}
	if got := b.received(); len(got) != 0 {
		t.Errorf("the invalid call reached the backend: %v", got)
	}
}

// callMeta calls a tool with _meta on the request and returns the result
// and its judge block.
func callMeta(t *testing.T, cs *mcp.ClientSession, name string, args any, meta map[string]any) (*mcp.CallToolResult, gateway.Meta) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args, Meta: meta})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	var m gateway.Meta
	b, _ := json.Marshal(res.Meta[gateway.MetaKey])
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: _meta.judge %s: %v", name, b, err)
	}
	return res, m
}

// TestGatewayGoal: a client gives the user's goal as _meta.judge.goal of
// tools/call, and the outcome in _meta says whether the result answers it.
func TestGatewayGoal(t *testing.T) {
	t.Parallel()
	b := &memBackend{
		tools: []gateway.Tool{{Name: "get_reservation", Description: "Read one reservation by its id, with flights and passengers",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"reservation_id": {"type": "string"}}, "required": ["reservation_id"]}`)}},
		answer: map[string]func(map[string]any) string{"get_reservation": func(a map[string]any) string {
			return `{"reservation_id": "` + a["reservation_id"].(string) + `", "status": "confirmed"}`
		}},
	}
	g, err := gateway.New(context.Background(), b, gateway.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := connectMem(t, g)
	goal := map[string]any{gateway.MetaKey: map[string]any{"goal": "What is the status of ZFA04Y?"}}
	_, meta := callMeta(t, cs, "get_reservation", map[string]any{"reservation_id": "ABC123"}, goal)
	if meta.Status != "NEEDS_MORE_TOOLS" || meta.Goal == nil || meta.Goal.Verdict != "not_answered" {
		t.Errorf("other reservation: status %s goal %+v, want NEEDS_MORE_TOOLS, not answered", meta.Status, meta.Goal)
	}
	_, meta = callMeta(t, cs, "get_reservation", map[string]any{"reservation_id": "ZFA04Y"}, goal)
	if meta.Status != "SATISFIED" || meta.Goal == nil || meta.Goal.Verdict != "answered" {
		t.Errorf("the reservation asked: status %s goal %+v, want SATISFIED, answered", meta.Status, meta.Goal)
	}
	_, meta = callMeta(t, cs, "get_reservation", map[string]any{"reservation_id": "ZFA04Y"}, nil)
	if meta.Goal != nil {
		t.Errorf("no goal given, yet a goal verdict %+v", meta.Goal)
	}
}

// TestGatewayCoverage: with a goal asking for everything, the gateway runs
// the call with its limit lifted, and answers a truncated page with the
// next page's call in _meta.
func TestGatewayCoverage(t *testing.T) {
	t.Parallel()
	b := &memBackend{
		tools: []gateway.Tool{{Name: "list_issues", Description: "List the issues of a repository, newest first, one page at a time",
			InputSchema: json.RawMessage(`{"type": "object", "required": ["repo"], "properties": {"repo": {"type": "string"},
			  "limit": {"type": "integer", "maximum": 100}, "cursor": {"type": "string"}}}`)}},
		answer: map[string]func(map[string]any) string{"list_issues": func(map[string]any) string {
			return `{"issues": [{"number": 1}, {"number": 2}], "has_more": true, "next_cursor": "c2"}`
		}},
	}
	g, err := gateway.New(context.Background(), b, gateway.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := connectMem(t, g)
	_, meta := callMeta(t, cs, "list_issues", map[string]any{"repo": "a/b", "limit": 5},
		map[string]any{gateway.MetaKey: map[string]any{"goal": "list all open issues of a/b"}})
	if got := b.received(); len(got) != 1 || got[0] != `list_issues {"limit":100,"repo":"a/b"}` {
		t.Errorf("the backend received %v, want the limit raised to 100", got)
	}
	if meta.Status != "NEEDS_MORE_TOOLS" || len(meta.SuggestedNextTools) == 0 || meta.SuggestedNextTools[0].Arguments["cursor"] != "c2" {
		t.Errorf("_meta status %s next %+v, want NEEDS_MORE_TOOLS with the next cursor", meta.Status, meta.SuggestedNextTools)
	}
}

// TestGatewayEscalation: a client says which tools its model was shown
// (_meta.judge.shown_tools); when the session makes no progress, the
// escalate verdict in _meta names the wider set to show, once.
func TestGatewayEscalation(t *testing.T) {
	t.Parallel()
	empty := func(map[string]any) string { return `{"pages": []}` }
	b := &memBackend{
		tools: []gateway.Tool{
			{Name: "search", Description: "Search the knowledge base for pages about a topic", InputSchema: json.RawMessage(`{"type": "object", "properties": {"q": {"type": "string"}}}`)},
			{Name: "search_tickets", Description: "Search the support tickets by text or customer", InputSchema: json.RawMessage(`{"type": "object", "properties": {"q": {"type": "string"}}}`)},
		},
		answer: map[string]func(map[string]any) string{"search": empty, "search_tickets": empty},
	}
	g, err := gateway.New(context.Background(), b, gateway.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := connectMem(t, g)
	shown := map[string]any{gateway.MetaKey: map[string]any{"shown_tools": []any{"search"}}}
	var got []string
	var show [][]string
	for range 5 {
		_, meta := callMeta(t, cs, "search", map[string]any{"q": "refund"}, shown)
		if meta.Progress == nil {
			t.Fatalf("no progress in _meta: %+v", meta)
		}
		got = append(got, meta.Progress.Verdict)
		show = append(show, meta.Progress.Show)
	}
	if strings.Join(got, ",") != "continue,continue,continue,escalate,stop" {
		t.Fatalf("verdicts %v", got)
	}
	if strings.Join(show[3], ",") != "search,search_tickets" || show[4] != nil {
		t.Errorf("shown after escalation %v, then %v; want search and search_tickets once", show[3], show[4])
	}
}
