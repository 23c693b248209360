package toolcall

import (
	"encoding/json"
	"testing"
)

// A contract its closed schema decides (see closable) answers as the
// usual path does on keys written with escapes, repeated through an
// escape, differing by case or Unicode normalization, lone surrogates,
// the empty key, trailing data, coercible values and nulls.
func TestClosedSameAnswer(t *testing.T) {
	t.Parallel()
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defs, err := ParseDefinitions([]byte(`[{"name": "c", "inputSchema": {"type": "object", "required": ["q"], "properties": {
		"q": {"type": "string"}, "n": {"type": ["integer", "null"], "minimum": 1}, "r": {"type": "number"}, "o": {"type": "object"},
		"é": {"type": "string"}, "\ufffd": {"type": "integer"}, "": {"type": "boolean"}, "b": {"type": "boolean"},
		"l": {"type": "array", "items": {"type": "integer"}}, "m": {"type": ["array", "number"]}, "s": {"type": "string", "format": "date"}}}}]`), "")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := c.NewToolset(defs...)
	if err != nil {
		t.Fatal(err)
	}
	if ts.contracts["c"].closed == nil {
		t.Fatal("not closable")
	}
	for _, s := range []string{
		`{"q":"x","\u0071":"y"}`,
		`{"\u0071":"x","q":"y"}`,
		`{"q":"x","o":{"k":1,"\u006b":2}}`,
		`{"q":"x","e\u0301":"y"}`,
		"{\"q\":\"x\",\"e\u0301\":\"y\"}",
		`{"q":"x","\u00e9":"y"}`,
		`{"q":"x","\ud800":1}`,
		`{"q":"x","\udc00\ud800":1}`,
		`{"q":"x","\ufffd":1}`,
		`{"q":"x","":true}`,
		`{"q":"x","Q":"y"}`,
		`{"q":"x"}{}`,
		`{"q":"x"} {}`,
		`{"q":"x",}`,
		`{"q":"x","b":"true"}`,
		`{"q":"x","n":"5"}`,
		`{"q":"x","m":"5"}`,
		`{"q":"x","l":5}`,
		`{"q":"x","n":5.0}`,
		`{"q":"x","n":1e0}`,
		`{"q":"x","r":1e400}`,
		`{"q":"x","r":-0}`,
		`{"q":"x","s":"2020-02-30"}`,
		`{"q":"x","s":"x"}`,
		`{"q":"x\u0000"}`,
		`{"q":"\ud800"}`,
		"{\"q\":\"x\xff\"}",
		"{\"q\xff\":\"x\"}",
		`{"q":"x","o":{"\ud800":1,"\udbff":2}}`,
		`{"q":"x","o":{"\ud800":1,"\ufffd":2}}`,
		`{"q":"x","o":{"a":1,"a\u0000":2}}`,
		`{"q":"x","\u0071\u0000":1}`,
		`{"q":"x","q\u0000":1}`,
		`{"q":"x","q\\":1}`,
		`{"q":"x","\"":1}`,
		`{"q":"x","n":null}`,
		`{"q":"x","l":null}`,
		`{"q":"x","m":null}`,
		`{}`, `{"q":1}`, `{"q":"x","n":0}`, ` {"q":"x"}`, "\ufeff{\"q\":\"x\"}",
	} {
		sameAnswer(t, ts, Call{Tool: "c", Arguments: json.RawMessage(s)})
	}
}
