package toolcall

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/jsonvalue"
)

// FuzzPayloadBound checks the bound surelyFits relies on: the payload of
// any result the outcome reads (the JSON inside a text content, the
// structuredContent, the texts of several contents, the result itself)
// is at most twice as long, in characters of its compact JSON, as the
// result is in bytes.
func FuzzPayloadBound(f *testing.F) {
	for _, s := range []string{
		`{"content": [{"type": "text", "text": "{\"items\": [1, 2, 3]}"}]}`,
		`{"content": [{"type": "text", "text": "[\"\u2028\u2029\"]"}]}`,
		"{\"content\": [{\"type\": \"text\", \"text\": \"[\\\"\u2028\u2029\\\"]\"}]}",
		"[\"\u2028\u2028\u2028\"]",
		`{"content": [{"type": "text", "text": "{\"a\": \"\\ud800\\u00e9\\n\\u0001<&>\"}"}, {"type": "image", "data": "AAAA"}]}`,
		`{"structuredContent": {"a": 1e300, "b": -0.0}, "content": [{"type": "text", "text": "x"}]}`,
		`{"a": 1, "a": "a long value repeated", "b": "\/\/"}`,
		`"plain text \b\f"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		res, _, err := jsonvalue.DecodeDuplicates(raw, 0)
		if err != nil {
			return
		}
		payload, _ := inspect(res)
		if n := jsonLen(payload); n > 2*len(raw) {
			t.Fatalf("the payload's JSON has %d characters, more than twice the result's %d bytes: %q", n, len(raw), raw)
		}
	})
}

// TestSurelyFits: a result within half the budget is not measured, and one
// whose payload is over the budget is still compacted, U+2028 included.
func TestSurelyFits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		raw    string
		budget int
		want   bool
	}{
		{"small", `{"a": 1}`, 16, true},
		{"over half", `{"a": 12}`, 16, false},
		{"line separators: 34 bytes, 64 characters", `["` + strings.Repeat("\u2028", 10) + `"]`, 68, true},
	} {
		if got := surelyFits(len(tc.raw), tc.budget); got != tc.want {
			t.Errorf("%s: surelyFits(%d, %d) = %v", tc.name, len(tc.raw), tc.budget, got)
		}
		res, err := jsonvalue.Decode([]byte(tc.raw), 0)
		if err != nil {
			t.Fatal(err)
		}
		if p, _ := inspect(res); tc.want && jsonLen(p) > tc.budget {
			t.Errorf("%s: surely fits, yet %d characters for %d", tc.name, jsonLen(p), tc.budget)
		}
	}
}
