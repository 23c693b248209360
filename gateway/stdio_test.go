package gateway_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/gateway"
	"github.com/agentjudge/judge/internal/mcpstdio"
)

// rawBackend answers every call with the same raw CallToolResult, as an
// upstream sent it: with its own _meta and resultType.
type rawBackend struct{ raw string }

func (b rawBackend) Tools(context.Context) ([]gateway.Tool, error) {
	return []gateway.Tool{{Name: "get_order", Description: "Read an order by its id.",
		InputSchema: json.RawMessage(`{"type":"object","required":["id"],"properties":{"id":{"type":"string","pattern":"^o[0-9]+$"},"n":{"type":"integer"}}}`)}}, nil
}

func (b rawBackend) Call(context.Context, string, json.RawMessage) (*gateway.Result, error) {
	return &gateway.Result{Raw: json.RawMessage(b.raw)}, nil
}

const upstreamRaw = `{"content":[{"type":"text","text":"{\"id\":\"o1\",\"status\":\"shipped\"}"}],` +
	`"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"upstream","version":"9"},"trace":"t-1"},"resultType":"complete","x-extra":1}`

// serveFast serves g on its stdio transport over pipes, counting the
// requests its fast path takes, and returns a connected go-sdk client.
func serveFast(t *testing.T, g *gateway.Gateway, taken *atomic.Int32) *mcp.ClientSession {
	t.Helper()
	toGW, fromClient := io.Pipe()
	toClient, fromGW := io.Pipe()
	st := countFast(g.StdioTransport(toGW, fromGW), taken)
	ctx := context.Background()
	ss, err := g.Server().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, &mcp.IOTransport{Reader: toClient, Writer: fromClient}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func countFast(tr mcp.Transport, taken *atomic.Int32) mcp.Transport {
	st := tr.(*mcpstdio.Transport)
	answer := st.Answer
	st.Answer = func(method string, params json.RawMessage, initialized bool) mcpstdio.Answerer {
		fn := answer(method, params, initialized)
		if fn != nil {
			taken.Add(1)
		}
		return fn
	}
	return st
}

// comparable is a result without what differs between two runs: the
// session id and the durations.
func comparable(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var strip func(v any) any
	strip = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			delete(v, "session")
			delete(v, "duration_ms")
			for k, e := range v {
				v[k] = strip(e)
			}
		case []any:
			for i, e := range v {
				v[i] = strip(e)
			}
		}
		return v
	}
	return strip(m).(map[string]any)
}

// The stdio transport's fast path answers tools/call as the SDK's path
// does: the same content, isError, structuredContent and judge block for a
// valid call, an invalid one and a call with a goal, with the upstream's
// own _meta kept and what described its hop (serverInfo, resultType)
// replaced by the gateway's. Requests it does not know (a tool not
// offered) take the SDK's path.
func TestStdioFastPathAsTheSDK(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	newGW := func() *gateway.Gateway {
		g, err := gateway.New(ctx, rawBackend{raw: upstreamRaw}, gateway.Options{Name: "gw", Version: "2"})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	var taken atomic.Int32
	fast := serveFast(t, newGW(), &taken)
	sdk := connectMem(t, newGW())
	calls := []struct {
		args map[string]any
		meta map[string]any
	}{
		{map[string]any{"id": "o1"}, nil},
		{map[string]any{"id": "o1", "n": "7"}, nil},
		{map[string]any{"id": "order one"}, nil},
		{map[string]any{"id": "o1"}, map[string]any{gateway.MetaKey: map[string]any{"goal": "What is the status of order o1?"}}},
	}
	for i, c := range calls {
		f, err := fast.CallTool(ctx, &mcp.CallToolParams{Name: "get_order", Arguments: c.args, Meta: c.meta})
		if err != nil {
			t.Fatal(err)
		}
		s, err := sdk.CallTool(ctx, &mcp.CallToolParams{Name: "get_order", Arguments: c.args, Meta: c.meta})
		if err != nil {
			t.Fatal(err)
		}
		if fm, sm := comparable(t, f), comparable(t, s); !reflect.DeepEqual(fm, sm) {
			fb, _ := json.Marshal(fm)
			sb, _ := json.Marshal(sm)
			t.Errorf("call %d: fast path\n%s\nSDK's path\n%s", i, fb, sb)
		}
		if int(taken.Load()) != i+1 {
			t.Fatalf("call %d: the fast path took %d calls, want %d", i, taken.Load(), i+1)
		}
	}
	f, err := fast.CallTool(ctx, &mcp.CallToolParams{Name: "get_order", Arguments: map[string]any{"id": "o1"}})
	if err != nil {
		t.Fatal(err)
	}
	if f.Meta["trace"] != "t-1" || f.Meta[mcp.MetaKeyServerInfo] == nil {
		t.Errorf("_meta %v: want the upstream's trace kept and the gateway's serverInfo", f.Meta)
	}
	if info, _ := f.Meta[mcp.MetaKeyServerInfo].(map[string]any); info["name"] != "gw" {
		t.Errorf("serverInfo %v, want the gateway's", f.Meta[mcp.MetaKeyServerInfo])
	}
	before := taken.Load()
	if _, err := fast.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool"}); err == nil {
		t.Error("a call of a tool not offered: no error")
	}
	if taken.Load() != before {
		t.Error("the fast path took a call of a tool not offered")
	}
}

// A client of the protocol before 2026-07-28 (initialize, then calls
// without per-request _meta) gets its calls answered on the fast path once
// initialized, without the sessionless protocol's resultType and
// serverInfo, and never before initialize.
func TestStdioFastPathInitialized(t *testing.T) {
	t.Parallel()
	g, err := gateway.New(context.Background(), rawBackend{raw: upstreamRaw}, gateway.Options{})
	if err != nil {
		t.Fatal(err)
	}
	toGW, w := io.Pipe()
	r, fromGW := io.Pipe()
	var taken atomic.Int32
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- g.Server().Run(ctx, countFast(g.StdioTransport(toGW, fromGW), &taken)) }()
	t.Cleanup(func() { cancel(); w.Close(); r.Close(); <-done })
	br := bufio.NewReader(r)
	exchange := func(msgs ...string) map[string]any {
		t.Helper()
		for _, m := range msgs {
			if _, err := io.WriteString(w, m+"\n"); err != nil {
				t.Fatal(err)
			}
		}
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_order","arguments":{"id":"o1"}}}`
	if m := exchange(call); m["error"] == nil || taken.Load() != 0 {
		t.Fatalf("a call before initialize: %v, taken %d", m, taken.Load())
	}
	exchange(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	m := exchange(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, call)
	res, _ := m["result"].(map[string]any)
	meta, _ := res["_meta"].(map[string]any)
	judge, _ := meta[gateway.MetaKey].(map[string]any)
	if taken.Load() != 1 || judge["status"] != "SATISFIED" || meta["trace"] != "t-1" || res["x-extra"] != 1.0 {
		t.Fatalf("answer %v (taken %d)", m, taken.Load())
	}
	if _, ok := res["resultType"]; ok || meta[mcp.MetaKeyServerInfo] != nil {
		t.Errorf("answer %v: the sessionless protocol's members in an answer to an initialized session", m)
	}
	if !strings.Contains(judge["session"].(string), "mcp:") {
		t.Errorf("session %v", judge["session"])
	}
}
