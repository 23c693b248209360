package judge

import (
	"encoding/json"
	"testing"
)

// FuzzFastPathString compares the engine with and without the fast path
// on string outputs, in auto mode (where a string may hold JSON to parse)
// and value mode: plainString lets the fast path answer a string it finds
// no JSON in, so it must never take one the usual path would read
// differently (an object or array, whole or fenced, a brace or bracket
// behind spaces or escapes). The fuzzer writes the string's content; the
// output is that content as a JSON string, or the raw bytes when they are
// not a string at all.
func FuzzFastPathString(f *testing.F) {
	for _, s := range []string{
		"plain text", "see [1]", " [1, 2]", "\u00a0{\"a\": 1}", "text\n```json\n{\"a\": 1}\n```", "```\n[]\n```",
		"{\"a\":", "\t{}", "back\\slash", "`tick`", "", "\x00\u2028", "\xff",
	} {
		f.Add(s, uint8(0), false)
	}
	f.Add(`"plain" x`, uint8(1), true)
	schemas := []string{
		`{"type": "object", "required": ["a"]}`,
		`{"type": "string", "maxLength": 5}`,
		`{"type": "array"}`,
		`{"enum": ["plain text", {"a": 1}]}`,
		`{"properties": {"a": {"type": "string"}}}`,
	}
	fast, slow := twoEngines(f)
	f.Fuzz(func(t *testing.T, s string, which uint8, raw bool) {
		out := []byte(s)
		if !raw {
			var err error
			if out, err = json.Marshal(s); err != nil {
				return
			}
		}
		for _, mode := range []string{"", OutputValue} {
			req := &Request{Output: out, ExpectedSchema: json.RawMessage(schemas[int(which)%len(schemas)]), Options: Options{OutputMode: mode}}
			sameResult(t, string(out)+"/"+mode, fast, slow, req)
		}
	})
}
