package mcpstdio

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
)

// BenchmarkDecodeMessage decodes JSON-RPC messages built from the bench
// corpus: a tools/call request per tool (its valid arguments), a result
// whose text content is that document as an escaped string, and one
// tools/list result holding the 117 input schemas.
func BenchmarkDecodeMessage(b *testing.B) {
	c := sharedtest.LoadBenchCorpus(b)
	var calls, texts [][]byte
	var tools []json.RawMessage
	for i, tc := range c.Cases {
		calls = append(calls, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, i, tc.Name, tc.Valid))
		text, err := json.Marshal(tc.Valid)
		if err != nil {
			b.Fatal(err)
		}
		texts = append(texts, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":%s}],"isError":false}}`, i, text))
		tools = append(tools, fmt.Appendf(nil, `{"name":%q,"inputSchema":%s}`, tc.Name, tc.Schema))
	}
	list, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "list", "result": map[string]any{"tools": tools}})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		msgs [][]byte
	}{{"call", calls}, {"text", texts}, {"list", [][]byte{list}}} {
		n := 0
		for _, m := range bc.msgs {
			n += len(m)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				for _, m := range bc.msgs {
					if _, err := DecodeMessage(m); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
