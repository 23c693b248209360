package gateway

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fuzzBackend offers one tool with a typed schema and answers every call
// with the text it was given; it counts the calls that reached it.
type fuzzBackend struct {
	answer string
	calls  atomic.Int64
	args   json.RawMessage // the arguments of the last call
}

func (b *fuzzBackend) Tools(context.Context) ([]Tool, error) {
	return []Tool{{
		Name: "search_issues", Description: "Search the issues of a repository by a query string",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"repo":{"type":"string","minLength":1},"query":{"type":"string"},"limit":{"type":"integer","minimum":1,"maximum":100,"default":10}},"required":["repo"],"additionalProperties":false}`),
	}}, nil
}

func (b *fuzzBackend) Call(_ context.Context, _ string, args json.RawMessage) (*Result, error) {
	b.calls.Add(1)
	b.args = args
	return &Result{Text: b.answer}, nil
}

// FuzzHandle sends tools/call messages with any argument bytes and any
// upstream answer through the gateway's handler: it never panics, a call
// the pre-execution check rejects never reaches the backend, what reaches
// it is valid JSON (the normalized arguments), and every forwarded call
// comes back with judge's outcome in _meta.
func FuzzHandle(f *testing.F) {
	for _, seed := range []struct{ args, answer string }{
		{`{"repo":"judge","query":"panic"}`, `{"items":[{"id":1,"title":"a panic"}],"total_count":1}`},
		{`{"repo":"judge","limit":"5"}`, `Error: rate limit exceeded`},
		{`{"repo":""}`, ``},
		{`{"query":"x"}`, `[]`},
		{`[1,2]`, `{"message":"Not Found","documentation_url":"https://docs.example"}`},
		{`{"repo":"a","repo":"b"}`, "Traceback (most recent call last):\n  File \"x\"\nValueError: bad"},
		{`{"repo":"a","extra":{"deep":[[[[[]]]]]}}`, `not found`},
		{``, `{}`},
		{`{"repo":"a","limit":1e400}`, "\x00\xff"},
	} {
		f.Add([]byte(seed.args), seed.answer)
	}
	f.Fuzz(func(t *testing.T, args []byte, answer string) {
		ctx := context.Background()
		b := &fuzzBackend{answer: answer}
		g, err := New(ctx, b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "search_issues", Arguments: json.RawMessage(args)}}
		res, err := g.handle(ctx, req)
		if err != nil {
			t.Fatalf("handle(%q) = %v; a bad call is an isError result, not an error", args, err)
		}
		if res == nil {
			t.Fatal("no result")
		}
		calls := b.calls.Load()
		if calls > 1 {
			t.Fatalf("backend called %d times for one call", calls)
		}
		if calls == 0 {
			if !res.IsError {
				t.Fatalf("call %q was neither forwarded nor refused: %+v", args, res)
			}
			return
		}
		if !json.Valid(b.args) {
			t.Fatalf("call %q forwarded arguments that are not JSON: %q", args, b.args)
		}
		if _, ok := res.Meta[MetaKey]; !ok {
			t.Fatalf("forwarded call %q has no %s in _meta", args, MetaKey)
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("result cannot be sent: %v", err)
		}
	})
}
