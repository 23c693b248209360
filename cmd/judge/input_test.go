package main

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/jsonvalue"
)

func TestReadOutput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"object", `{"a": 1}`, `{"a": 1}`},
		{"surrounding space is dropped", "\n  [1, 2]\n", `[1, 2]`},
		{"scalar JSON", `42`, `42`},
		{"JSON string", `"hi"`, `"hi"`},
		{"byte order mark", "\xEF\xBB\xBF{\"a\": 1}", `{"a": 1}`},
		{"text", "hello\n", `"hello\n"`},
		{"empty", "", `""`},
		{"broken JSON is text", `{"a": }`, `"{\"a\": }"`},
		{"fence stays text", "```json\n{}\n```", "\"```json\\n{}\\n```\""},
		{"invalid UTF-8 is replaced", "a\xffb", `"a\ufffdb"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := string(readOutput([]byte(tc.in))); got != tc.want {
				t.Errorf("readOutput(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzReadOutput checks that reading any bytes as an output never panics,
// always yields JSON, keeps JSON as it is and keeps UTF-8 text exactly.
func FuzzReadOutput(f *testing.F) {
	for _, s := range []string{
		`{"a": [1, 2, {"b": null}]}`, "plain text", "```json\n{\"a\": 1}\n```", "", " ", "\xEF\xBB\xBF[]",
		"\xff\xfe", `"\ud800"`, "[[[[[[[[[[", `{"a": 1} {"b": 2}`, "1e999", "\x00",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out := readOutput(data)
		if !json.Valid(out) {
			t.Fatalf("readOutput(%q) = %q is not JSON", data, out)
		}
		body := bytes.TrimPrefix(data, utf8BOM)
		if trimmed := bytes.TrimSpace(body); len(trimmed) > 0 && json.Valid(trimmed) {
			if !bytes.Equal(out, trimmed) {
				t.Fatalf("JSON input %q came out as %q", data, out)
			}
			return
		}
		var s string
		if err := json.Unmarshal(out, &s); err != nil {
			t.Fatalf("text input %q came out as %q, not a JSON string: %v", data, out, err)
		}
		if utf8.Valid(body) && s != string(body) {
			t.Fatalf("text input %q came out as %q", body, s)
		}
	})
}

func TestLooksLikeYAML(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		"type: object\n":     true,
		"# comment\na: 1":    true,
		"- a\n- b":           true,
		"---\na: 1":          true,
		"-1":                 false,
		`{"a": 1,}`:          false,
		"hello world":        false,
		"":                   false,
		"required:\n  - a\n": true,
	} {
		if got := looksLikeYAML([]byte(in)); got != want {
			t.Errorf("looksLikeYAML(%q) = %v, want %v", in, got, want)
		}
	}
}

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
		off, ok := locate(doc, pointerTokens(tc.ptr))
		if ok != tc.ok {
			t.Errorf("locate(%q): ok = %v, want %v", tc.ptr, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if line, col := jsonvalue.Position(doc, off); line != tc.line || col != tc.col {
			t.Errorf("locate(%q) = %d:%d, want %d:%d", tc.ptr, line, col, tc.line, tc.col)
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
		if got := stringPos(data, 2, tc.line, tc.col); data[got] != tc.want {
			t.Errorf("stringPos(%d:%d) = %d (%q), want %q", tc.line, tc.col, got, data[got], tc.want)
		}
	}
	if got := stringPos(data, 0, 1, 1); got != 0 {
		t.Errorf("stringPos off a string = %d, want 0", got)
	}
}
