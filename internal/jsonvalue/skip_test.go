package jsonvalue_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/jsonvalue"
)

// skipWhole reports whether SkipValue reads data, after its leading
// white space, as one value followed by white space only.
func skipWhole(data []byte, maxDepth int) bool {
	i := jsonvalue.SkipSpace(data, 0)
	end := jsonvalue.SkipValue(data, i, 0, maxDepth)
	return end >= 0 && jsonvalue.SkipSpace(data, end) == len(data)
}

// SkipValue accepts a document exactly when encoding/json finds it valid
// and it is UTF-8, within the depth given.
func TestSkipValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		doc   string
		depth int
		want  bool
	}{
		{`{"a": [1, -2.5e+10, "x\u00e9\n", true, false, null, {}]}`, 3, true},
		{`{"a": [1, -2.5e+10, "x\u00e9\n", true, false, null, {}]}`, 2, false},
		{` "é☃𝄞" `, 0, true},
		{`[]`, 1, true},
		{`[]`, 0, false},
		{`01`, 1, false},
		{`1.`, 1, false},
		{`"\q"`, 1, false},
		{"\"\xff\"", 1, false},
		{`{"a":1,}`, 1, false},
		{`[1 2]`, 1, false},
		{`nulll`, 1, false},
		{strings.Repeat("[", 10001) + strings.Repeat("]", 10001), 20000, false}, // encoding/json's own limit
		{strings.Repeat("[", 10000) + strings.Repeat("]", 10000), 20000, true},
	} {
		if got := skipWhole([]byte(tc.doc), tc.depth); got != tc.want {
			t.Errorf("%.40q at depth %d: %v, want %v", tc.doc, tc.depth, got, tc.want)
		}
	}
}

// FuzzSkipValue: SkipValue agrees with encoding/json's json.Valid and
// utf8.Valid on every input, nesting within its limit.
func FuzzSkipValue(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.5e-3, "x\u00e9", true, null]}`, `"\ud800"`, `-0`, `[1,]`, "\"\xe2\x82\"", `{"a" 1}`, ` 1 `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want := json.Valid(data) && utf8.Valid(data)
		if got := skipWhole(data, 10000); got != want {
			t.Fatalf("SkipValue on %q: %v, json.Valid and utf8.Valid: %v", data, got, want)
		}
	})
}
