package jsonvalue

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in      string
		want          string // JSON re-encoding of the value, or "" for an error
		line, col     int
		errContaining string
	}{
		{name: "object", in: `{"a": [1, 2.5, "x"], "b": null}`, want: `{"a":[1,2.5,"x"],"b":null}`},
		{name: "big number kept exact", in: `12345678901234567890`, want: `12345678901234567890`},
		{name: "string", in: `"hi"`, want: `"hi"`},
		{name: "syntax error position", in: "{\n  \"a\": 1,\n  \"b\": }", line: 3, col: 8, errContaining: "invalid character"},
		{name: "trailing data", in: `{"a":1} {"b":2}`, line: 1, col: 9, errContaining: "after the JSON value"},
		{name: "truncated", in: `{"a": [1, 2`, line: 1, col: 12, errContaining: "unexpected end"},
		{name: "too deep", in: strings.Repeat("[", 300) + strings.Repeat("]", 300), line: 1, col: 257, errContaining: "nested more than 256"},
		{name: "brackets in strings do not count", in: `"` + strings.Repeat("[", 300) + `"`, want: `"` + strings.Repeat("[", 300) + `"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, err := Decode([]byte(tt.in), 0)
			if tt.want != "" {
				if err != nil {
					t.Fatalf("Decode: %v", err)
				}
				got, _ := json.Marshal(v)
				if string(got) != tt.want {
					t.Fatalf("got %s, want %s", got, tt.want)
				}
				return
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			if se.Line != tt.line || se.Col != tt.col || !strings.Contains(se.Msg, tt.errContaining) {
				t.Fatalf("got %d:%d %q, want %d:%d containing %q", se.Line, se.Col, se.Msg, tt.line, tt.col, tt.errContaining)
			}
		})
	}
}

func TestTooDeepIsErrTooDeep(t *testing.T) {
	t.Parallel()
	_, err := Decode([]byte(strings.Repeat(`{"a":`, 20)+"1"+strings.Repeat("}", 20)), 10)
	if !errors.Is(err, ErrTooDeep) {
		t.Fatalf("got %v, want ErrTooDeep", err)
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{}`, `[1,"a",{"b":null}]`, `{"a":`, `"\"[["`, "\xff", `1e999`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data, 32)
		if err != nil {
			var se *SyntaxError
			if errors.As(err, &se) && (se.Line < 1 || se.Col < 1) {
				t.Fatalf("bad position %d:%d", se.Line, se.Col)
			}
			return
		}
		if json.Valid(data) == false {
			t.Fatalf("Decode accepted invalid JSON %q as %v", data, v)
		}
	})
}

func TestNumberLimits(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{`1e1000`, `-1E-1000`, `[1.5e+308, 123456789012345678901234567890]`, `"1e999999"`} {
		if _, err := Decode([]byte(ok), 0); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{`1e1001`, `[1, 2e999999]`, `{"a": -1E-00000000000000000000000001001}`, strings.Repeat("9", 1001)} {
		_, err := Decode([]byte(bad), 0)
		if !errors.Is(err, ErrNumberTooLarge) {
			t.Errorf("%.40s: err = %v, want ErrNumberTooLarge", bad, err)
		}
	}
	// A syntax error is reported before a number over the limits.
	if _, err := Decode([]byte(`[1e5000, }`), 0); errors.Is(err, ErrNumberTooLarge) {
		t.Errorf("syntax error hidden: %v", err)
	}
}
