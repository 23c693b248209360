package gateway

import (
	"context"
	"encoding/json"
	"testing"
)

// rawFuzzBackend answers every call with the raw result it holds.
type rawFuzzBackend struct {
	fuzzBackend
	raw json.RawMessage
}

func (b *rawFuzzBackend) Call(context.Context, string, json.RawMessage) (*Result, error) {
	return &Result{Raw: b.raw}, nil
}

// FuzzStdioFastPath reads any tools/call params as the stdio fast path
// does, and answers with any upstream result bytes: it never panics; the
// params it takes name an offered tool; and every answer it encodes is one
// JSON object with a content list and the judge block in _meta, whatever
// the upstream sent (bytes that are not a JSON object are an error).
func FuzzStdioFastPath(f *testing.F) {
	for _, seed := range []struct{ params, raw string }{
		{`{"name":"search_issues","arguments":{"repo":"judge"}}`, `{"content":[{"type":"text","text":"ok"}]}`},
		{`{"name":"search_issues","arguments":{"repo":"judge"},"_meta":{"judge":{"goal":"find panics"},"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`,
			`{"content":null,"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"u"},"k":[1,2]},"resultType":"complete"}`},
		{`{"name":"search_issues","arguments":null,"task":{}}`, "{\n\"isError\": true,\n\"content\": []\n}"},
		{`{"name":"other"}`, `[1]`},
		{`{"name":"search_issues","_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01"}}`, `{}`},
	} {
		f.Add([]byte(seed.params), []byte(seed.raw))
	}
	ctx := context.Background()
	b := &rawFuzzBackend{}
	g, err := New(ctx, b, Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, params, raw []byte) {
		p, ok := g.fastParams(params)
		if !ok {
			return
		}
		if p.name != "search_issues" {
			t.Fatalf("the fast path took a call of %q, not offered", p.name)
		}
		b.raw = raw
		ans, err := g.call(ctx, "mcp:fuzz", p.name, p.args, p.meta)
		if err != nil {
			return
		}
		out, err := g.encode(ans, p.sessionless)
		if err != nil {
			if ans.own != nil || json.Valid(raw) && len(raw) > 0 && raw[0] == '{' {
				t.Fatalf("encode of %q failed: %v", raw, err)
			}
			return
		}
		var res struct {
			Content []any                      `json:"content"`
			Meta    map[string]json.RawMessage `json:"_meta"`
		}
		if err := json.Unmarshal(out, &res); err != nil || res.Content == nil || res.Meta[MetaKey] == nil {
			t.Fatalf("answer %s for upstream %q: %v", out, raw, err)
		}
	})
}
