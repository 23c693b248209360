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

// FuzzMembers compares Members, which the gateway's fast paths read a
// request's params and _meta with (keys unescaped by package lex), with
// encoding/json on any bytes: it never panics; it accepts exactly the
// valid JSON objects; and it gives each member's name as encoding/json
// decodes it (invalid UTF-8 and lone surrogates as U+FFFD) and its value's
// bytes as they are, in order.
func FuzzMembers(f *testing.F) {
	for _, s := range []string{
		`{"name":"add","arguments":{"a":[1,{"b":"}"}]},"_meta":null}`,
		` { "n\u0061me" : "x" , "\ud800" : -0.5e+3 , "\"" : true } `,
		"{\"k\xff\":1,\"\xc3\":[]}", `{}`, `[]`, `{"a":1,}`, `{"a" 1}`, `"x"`, `{"a":{"b":2}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		type member struct{ key, val string }
		var got []member
		err := Members(data, func(key, val []byte) error {
			got = append(got, member{string(key), string(val)})
			return nil
		})
		trimmed := bytes.TrimSpace(data)
		object := json.Valid(data) && len(trimmed) > 0 && trimmed[0] == '{'
		if !object {
			if err == nil && json.Valid(data) {
				t.Fatalf("%q: Members accepted a JSON value that is not an object", data)
			}
			if err == nil && !json.Valid(data) {
				t.Fatalf("%q: Members accepted invalid JSON", data)
			}
			return
		}
		if err != nil {
			t.Fatalf("%q: Members refused a JSON object: %v", data, err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		if _, err := dec.Token(); err != nil {
			t.Fatal(err)
		}
		var want []member
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			var val json.RawMessage
			if err := dec.Decode(&val); err != nil {
				t.Fatal(err)
			}
			want = append(want, member{tok.(string), string(val)})
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: Members gives %q, encoding/json %q", data, got, want)
		}
	})
}
