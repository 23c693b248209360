package mcpstdio

import (
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// sameDecode fails unless DecodeMessage and the SDK's jsonrpc.DecodeMessage
// give the same message, or both an error.
func sameDecode(t *testing.T, data []byte) {
	t.Helper()
	got, err := DecodeMessage(data)
	want, werr := jsonrpc.DecodeMessage(data)
	if (err == nil) != (werr == nil) {
		t.Fatalf("%q: error %v, the SDK's %v", data, err, werr)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: decoded %#v, the SDK %#v", data, got, want)
	}
}

// Every message decodes as the SDK decodes it: requests, notifications,
// results and errors, ids of each kind, escapes, duplicate members; what
// the SDK refuses is refused.
func TestDecodeMessageAsTheSDK(t *testing.T) {
	t.Parallel()
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`,
		`{"jsonrpc":"2.0","id":"abc","method":"tools/list"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":null}`,
		` {"id": 7, "jsonrpc": "2.0", "result": {"content": [{"type": "text", "text": "3"}]}} `,
		`{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"bad \"params\"","data":{"x":[1,2]}}}`,
		`{"jsonrpc":"2.0","id":9,"error":null,"result":{}}`,
		`{"jsonrpc":"2.0","id":1e3,"method":"m"}`,
		`{"jsonrpc":"2.0","id":-4,"method":"m\u00e9\n"}`,
		`{"jsonrpc":"2.0","id":"\u0041\ud83d\ude00","method":"m"}`,
		`{"jsonrpc":"2.0","id":1,"method":"a","method":"b","params":[1],"params":[2]}`,
		`{"jsonrpc":"2.0","id":1,"met\u0068od":"escaped key"}`,
		`{"jsonrpc":"2.0","id":null,"method":"m"}`,
		`{"jsonrpc":"2.0","id":1,"method":"m","extra":{"nested":["]","}"]}}`,
		`{"jsonrpc":"2.0","id":1,"Method":"case differs: a response"}`,
		`{"jsonrpc":"2.0","result":1}`,
		`{"jsonrpc":"1.0","id":1,"method":"m"}`,
		`{"id":1,"method":"m"}`,
		`{"jsonrpc":"2.0","id":true,"method":"m"}`,
		`{"jsonrpc":"2.0","id":{},"method":"m"}`,
		`{"jsonrpc":"2.0","id":1,"method":3}`,
		`{"jsonrpc":2,"id":1,"method":"m"}`,
		`{"jsonrpc":"2.0","id":1,"error":"text"}`,
		`[1]`, `"x"`, `12`, `null`, `{`, `{"jsonrpc":"2.0",}`, ``,
	} {
		sameDecode(t, []byte(msg))
	}
}
