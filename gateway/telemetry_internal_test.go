package gateway

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestJSONRPCID: an id as the wire gives it and as the SDK's jsonrpc.ID
// holds it render the same: a string as it is, a number as its digits.
func TestJSONRPCID(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		raw  string
		want string
	}{{`7`, "7"}, {`"abc"`, "abc"}, {`"a\"b"`, `a"b`}, {`"\u00e9"`, "é"}, {`-3`, "-3"}, {`"unterminated`, ""}} {
		if got := rawJSONRPCID([]byte(c.raw)); got != c.want {
			t.Errorf("rawJSONRPCID(%s) = %q, want %q", c.raw, got, c.want)
		}
		var v any
		if json.Unmarshal([]byte(c.raw), &v) != nil {
			continue
		}
		if id, err := jsonrpc.MakeID(v); err == nil {
			if got := jsonrpcID(id.Raw()); got != c.want {
				t.Errorf("jsonrpcID(%v) = %q, want %q as on the wire", id.Raw(), got, c.want)
			}
		}
	}
}

// FuzzRawJSONRPCID: any bytes give a string without panic; an id that
// is a JSON string renders as that string.
func FuzzRawJSONRPCID(f *testing.F) {
	for _, s := range []string{`7`, `"abc"`, `"a\"b"`, `"`, ``, `[1]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got := rawJSONRPCID(b)
		var s string
		if len(b) > 0 && b[0] == '"' && json.Unmarshal(b, &s) == nil && got != s {
			t.Fatalf("rawJSONRPCID(%q) = %q, want %q", b, got, s)
		}
	})
}
