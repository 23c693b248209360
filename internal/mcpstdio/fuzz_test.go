package mcpstdio

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzDecodeMessage compares DecodeMessage with the SDK's decoder on any
// bytes: it never panics, and where both decode a message, it is the same
// message; a JSON object the SDK decodes, DecodeMessage decodes too.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`,
		`{"jsonrpc":"2.0","id":"x","result":{"content":[{"type":"text","text":"3"}]}}`,
		`{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"m","data":null}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":0.5}}`,
		`{"jsonrpc":"2.0","id":1,"met\u0068od":"m"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := DecodeMessage(data)
		want, werr := jsonrpc.DecodeMessage(data)
		if err == nil && werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: decoded %#v, the SDK %#v", data, got, want)
		}
		trimmed := bytes.TrimSpace(data)
		if werr == nil && err != nil && json.Valid(data) && len(trimmed) > 0 && trimmed[0] == '{' {
			t.Fatalf("%q: the SDK decodes it, DecodeMessage fails: %v", data, err)
		}
	})
}
