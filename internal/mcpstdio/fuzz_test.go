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

// FuzzRequestMeta takes any SDK request params as the per-request _meta to
// copy and any params of a call around the SDK: it never panics, and when
// both are JSON objects (the call's without _meta), the params sent are
// one JSON object holding the call's members and the copied _meta.
func FuzzRequestMeta(f *testing.F) {
	f.Add([]byte(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":1},"cursor":"c"}`),
		[]byte(`{"name":"add","arguments":{"a":1}}`))
	f.Add([]byte(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"x"}}`), []byte(`{}`))
	f.Add([]byte(`{"_meta":[]}`), []byte(` { } `))
	f.Fuzz(func(t *testing.T, sdkParams, params []byte) {
		c := &conn{}
		c.keepRequestMeta(sdkParams)
		out := AppendWithMeta(nil, params, c.reqMeta.Load())
		var in map[string]json.RawMessage
		if json.Unmarshal(params, &in) != nil || in == nil || in["_meta"] != nil {
			return
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("params %q with meta from %q: %q is not JSON: %v", params, sdkParams, out, err)
		}
		for k := range in {
			if got[k] == nil {
				t.Fatalf("params %q: %q lost member %q", params, out, k)
			}
		}
		if c.reqMeta.Load() != nil && got["_meta"] == nil {
			t.Fatalf("params %q: %q has no _meta", params, out)
		}
	})
}
