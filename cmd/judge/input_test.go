package main

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
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
