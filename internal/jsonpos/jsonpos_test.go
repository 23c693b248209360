package jsonpos

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/jsonvalue"
)

func TestLocate(t *testing.T) {
	t.Parallel()
	doc := []byte("{\n  \"a\": {\"b\": [10, {\"c/d\": true}]},\n  \"e~f\": \"x\",\n  \"\": 1\n}")
	tests := []struct {
		ptr       string
		line, col int
		ok        bool
	}{
		{"", 1, 1, true},
		{"/a", 2, 8, true},
		{"/a/b", 2, 14, true},
		{"/a/b/0", 2, 15, true},
		{"/a/b/1", 2, 19, true},
		{"/a/b/1/c~1d", 2, 27, true},
		{"/e~0f", 3, 10, true},
		{"/", 4, 7, true},
		{"/a/x", 0, 0, false},
		{"/a/b/2", 0, 0, false},
		{"/a/b/-1", 0, 0, false},
		{"/e~0f/x", 0, 0, false},
	}
	for _, tc := range tests {
		off, ok := Offset(doc, PointerTokens(tc.ptr))
		if ok != tc.ok {
			t.Errorf("Offset(%q): ok = %v, want %v", tc.ptr, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if line, col := jsonvalue.Position(doc, off); line != tc.line || col != tc.col {
			t.Errorf("Offset(%q) = %d:%d, want %d:%d", tc.ptr, line, col, tc.line, tc.col)
		}
	}
}

func TestStringPos(t *testing.T) {
	t.Parallel()
	data := []byte(`x "ab\"c\nde\u00e9f" y`)
	tests := []struct {
		line, col int
		want      byte
	}{
		{1, 1, 'a'},
		{1, 3, '\\'}, // the escaped quote starts at its backslash
		{1, 4, 'c'},
		{2, 1, 'd'},
		{2, 3, '\\'},
		{2, 4, 'f'},
		{3, 1, '"'}, // past the end: the closing quote
	}
	for _, tc := range tests {
		if got := StringOffset(data, 2, tc.line, tc.col); data[got] != tc.want {
			t.Errorf("StringOffset(%d:%d) = %d (%q), want %q", tc.line, tc.col, got, data[got], tc.want)
		}
	}
	if got := StringOffset(data, 0, 1, 1); got != 0 {
		t.Errorf("stringPos off a string = %d, want 0", got)
	}
}

// FuzzOffset checks the locator that points errors at a line and
// column: for any JSON document and any JSON Pointer into it, when the
// pointer leads to a value, Offset finds it, at an offset where that
// value's own text starts.
func FuzzOffset(f *testing.F) {
	for _, s := range []struct{ doc, ptr string }{
		{`{"properties": {"a": {"type": "string"}}}`, "/properties/a"},
		{`{"a": [1, {"b": 2}]}`, "/a/1/b"},
		{`{"a~b": {"c/d": 1}}`, "/a~0b/c~1d"},
		{`[0, 1, 2]`, "/2"},
		{`{"a": 1, "a": 2}`, "/a"},
		{`{"": {"": 3}}`, "//"},
		{`{"a": 1}`, "/b"},
		{`[1]`, "/-1"},
	} {
		f.Add(s.doc, s.ptr)
	}
	f.Fuzz(func(t *testing.T, doc, ptr string) {
		var v any
		if !strings.HasPrefix(ptr, "/") || json.Unmarshal([]byte(doc), &v) != nil {
			return
		}
		tokens := PointerTokens(ptr)
		want, ok := resolve(v, tokens)
		off, found := Offset([]byte(doc), tokens)
		if found {
			if off < 0 || off >= int64(len(doc)) {
				t.Fatalf("Offset(%q, %q) = %d, outside the document", doc, ptr, off)
			}
			var at any
			if err := json.NewDecoder(strings.NewReader(doc[off:])).Decode(&at); err != nil {
				t.Fatalf("Offset(%q, %q) = %d, where no value starts: %v", doc, ptr, off, err)
			}
		}
		if ok && !found {
			t.Fatalf("Offset(%q, %q) did not find %v", doc, ptr, want)
		}
	})
}

// resolve follows tokens into v, a decoded JSON value.
func resolve(v any, tokens []string) (any, bool) {
	for _, tok := range tokens {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := indexToken(tok)
			if err != nil || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// indexToken reads an array index token as the pointer syntax writes it.
func indexToken(tok string) (int, error) {
	var i int
	if tok == "" || len(tok) > 1 && tok[0] == '0' {
		return 0, strconv.ErrSyntax
	}
	for _, c := range tok {
		if c < '0' || c > '9' || i > 1<<20 {
			return 0, strconv.ErrSyntax
		}
		i = i*10 + int(c-'0')
	}
	return i, nil
}
