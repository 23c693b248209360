package judge_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/jsonvalue"
)

// An unknown field is a typed error carrying its key and position, found
// with errors.As, not by reading the message; other errors stay
// *jsonvalue.SyntaxError, and every error is a *RequestError at "body".
func TestDecodeStrictUnknownField(t *testing.T) {
	t.Parallel()
	type small struct {
		A int `json:"a"`
	}
	for _, tc := range []struct {
		name, body string
		key        string // "" when the error is not an unknown field
		line, col  int
	}{
		{"top level", `{"a": 1, "b": 2}`, "b", 1, 17},
		{"second line", "{\"a\": 1,\n  \"zz\": 2}", "zz", 2, 11},
		{"quoted key", `{"a": 1, "q\"u\u00e9": 2}`, "q\"u\u00e9", 1, 26},
		{"not an object", `[1]`, "", 1, 3},
		{"trailing data", `{"a": 1} {}`, "", 1, 10},
	} {
		var v small
		err := judge.DecodeStrict([]byte(tc.body), 0, &v, "a")
		var re *judge.RequestError
		if !errors.As(err, &re) || re.Field != "body" {
			t.Fatalf("%s: error %v is not a *RequestError at body", tc.name, err)
		}
		var uf *judge.UnknownFieldError
		if got := errors.As(err, &uf); got != (tc.key != "") {
			t.Fatalf("%s: unknown-field error %v, want %v: %v", tc.name, got, tc.key != "", err)
		}
		var se *jsonvalue.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: %v carries no position", tc.name, err)
		}
		if uf == nil {
			continue
		}
		if uf.Key != tc.key || uf.Line != tc.line || uf.Col != tc.col || uf.Known != "a" {
			t.Errorf("%s: %+v, want key %q at %d:%d", tc.name, uf, tc.key, tc.line, tc.col)
		}
		if !strings.HasSuffix(re.Error(), "(known: a)") || se.Line != uf.Line || se.Col != uf.Col {
			t.Errorf("%s: message %q, position %d:%d", tc.name, re.Error(), se.Line, se.Col)
		}
	}
}

// FuzzDecodeStrict: any body decodes or fails with a *RequestError at
// "body"; an unknown field's key is one the body holds.
func FuzzDecodeStrict(f *testing.F) {
	for _, s := range []string{`{"output": 1}`, `{"output": 1, "x": 2}`, `{"options": {"mode": 1}}`, `{"output": 1} 2`, "\ufeff{\"output\": 1, \"\\u0041\": 1}", `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var req judge.Request
		err := judge.DecodeStrict(body, 32, &req, "output")
		if err == nil {
			return
		}
		var re *judge.RequestError
		if !errors.As(err, &re) || re.Field != "body" {
			t.Fatalf("error %T is not a *RequestError at body: %v", err, err)
		}
		var uf *judge.UnknownFieldError
		if errors.As(err, &uf) && (uf.Line < 1 || uf.Col < 1 || re.Msg != uf.Error()) {
			t.Fatalf("unknown field %+v in %q, message %q", uf, body, re.Msg)
		}
	})
}
