package gateway

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzListedTool feeds listedTool an upstream's tool definition as it may
// come (any bytes the stdio path takes for an object): it never panics,
// and what it offers is a JSON object with the gateway's name,
// description and input schema and every other member of the upstream's
// (its first occurrence) as it was.
func FuzzListedTool(f *testing.F) {
	for _, s := range []string{
		`{"name":"echo","title":"Echo","description":"d","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true},"execution":{"taskSupport":"forbidden"}}`,
		`{"name":"x","name":"y","_meta":{"a":1},"icons":[{"src":"data:,"}],"outputSchema":{"type":"object"}}`,
		`{}`, `{"inputSchema":null}`, `{"a":"\u00e9\ud800","b":[1,2,{"c":null}]}`, `{"x":1`, `[]`, `{"":""}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		mt := &mcp.Tool{Name: "offered", Description: "what the gateway offers", InputSchema: map[string]any{"type": "object"}}
		out, err := listedTool(Tool{Name: "offered", Raw: raw}, mt)
		if err != nil {
			return
		}
		var got map[string]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("not a JSON object: %v\n%s", err, out)
		}
		if got["name"] != "offered" || got["description"] != "what the gateway offers" || !reflect.DeepEqual(got["inputSchema"], map[string]any{"type": "object"}) {
			t.Fatalf("the gateway's members are not offered: %s", out)
		}
		var up map[string]json.RawMessage
		if json.Unmarshal(raw, &up) != nil {
			return
		}
		// encoding/json keeps a repeated key's last value; listedTool its
		// first: compare only keys that occur once.
		for k := range up {
			if k == "name" || k == "description" || k == "inputSchema" {
				continue
			}
			if _, ok := got[k]; !ok {
				t.Fatalf("member %q of the upstream's tool is not offered: %s", k, out)
			}
		}
	})
}

// FuzzDecodeCursor feeds the gateway's list cursor decoder any string: it
// never panics, and a cursor it accepts names an upstream that exists
// and encodes back to itself once normalized.
func FuzzDecodeCursor(f *testing.F) {
	f.Add(encodeCursor(cursor{S: 1, C: "abc"}), 3)
	f.Add("", 1)
	f.Add("eyJzIjotMX0", 2)
	f.Add("!!", 1)
	f.Fuzz(func(t *testing.T, s string, servers int) {
		c, err := decodeCursor(s, servers)
		if err != nil || s == "" {
			return
		}
		if c.S < 0 || c.S >= servers {
			t.Fatalf("cursor %q names upstream %d of %d", s, c.S, servers)
		}
		again, err := decodeCursor(encodeCursor(c), servers)
		if err != nil || again != c {
			t.Fatalf("cursor %+v does not round-trip: %+v, %v", c, again, err)
		}
	})
}
