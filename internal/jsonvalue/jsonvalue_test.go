package jsonvalue

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
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
	for _, s := range []string{`{}`, `[1,"a",{"b":null}]`, `{"a":`, `"\"[["`, "\xff", `1e999`, `{"a":1,"a":{"b":[{"c":1,"c":2}]}}`,
		BOM + `{"\u0061":1,"a":2}`, `[1e400]`, "{\"k\":\"\xc3\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data, 32)
		v2, dups, err2 := DecodeDuplicates(data, 32)
		if (err == nil) != (err2 == nil) || !reflect.DeepEqual(v, v2) {
			t.Fatalf("DecodeDuplicates = %v, %v; Decode = %v, %v", v2, err2, v, err)
		}
		body := TrimBOM(data)
		for _, d := range dups {
			if d.Offset < 0 || d.Offset >= int64(len(body)) || body[d.Offset] != '"' || d.Path == "" {
				t.Fatalf("duplicate %+v does not point at a key", d)
			}
		}
		if err != nil {
			var se *SyntaxError
			if errors.As(err, &se) && (se.Line < 1 || se.Col < 1) {
				t.Fatalf("bad position %d:%d", se.Line, se.Col)
			}
			return
		}
		if !json.Valid(body) {
			t.Fatalf("Decode accepted invalid JSON %q as %v", data, v)
		}
	})
}

func TestNumberLimits(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{`1e308`, `-1E-1000`, `[1.5e+308, 123456789012345678901234567890]`, `"1e999999"`, `1.7976931348623157e308`, `0.0000e999`} {
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

// TestSilentChanges: what encoding/json would change without a word (a
// number beyond the float64 range, invalid UTF-8) is an error naming the
// value's location, and a byte-order mark is skipped.
func TestSilentChanges(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in  string
		sentinel  error
		line, col int
		path      string
		msg       string
	}{
		{name: "1e400", in: `{"n": 1e400}`, sentinel: ErrOutOfRange, line: 1, col: 7, path: "n", msg: "number 1e400 at n is outside the range of a 64-bit float"},
		{name: "negative", in: `[1, -2e308]`, sentinel: ErrOutOfRange, line: 1, col: 5, path: "[1]", msg: "number -2e308 at [1] is outside"},
		{name: "just over", in: `{"a":[{"b": 1.7976931348623159e308}]}`, sentinel: ErrOutOfRange, line: 1, col: 13, path: "a[0].b", msg: "at a[0].b"},
		{name: "long integer", in: `{"x y": ` + strings.Repeat("9", 400) + `}`, sentinel: ErrOutOfRange, path: `["x y"]`, line: 1, col: 9, msg: "… (400 digits) at [\"x y\"]"},
		{name: "fraction digits", in: `0.` + strings.Repeat("0", 10) + `1e320`, sentinel: ErrOutOfRange, path: "root", line: 1, col: 1, msg: "number 0.00000000001e320 is outside"},
		{name: "invalid UTF-8", in: "{\"s\": \"a\xffb\"}", sentinel: ErrInvalidUTF8, line: 1, col: 9, path: "s", msg: "invalid UTF-8 (byte 0xff) at byte offset 8 at s"},
		{name: "invalid UTF-8 after escape", in: "[\"\\n\xc3(\"]", sentinel: ErrInvalidUTF8, line: 1, col: 5, path: "[0]", msg: "byte offset 4"},
		{name: "invalid UTF-8 in a key", in: "{\"a\":{\"k\xfe\": 1}}", sentinel: ErrInvalidUTF8, line: 1, col: 9, path: "a[\"k\ufffd\"]", msg: "byte 0xfe"},
		{name: "first in document order", in: "[\"\xff\", 1e400]", sentinel: ErrInvalidUTF8, line: 1, col: 3, path: "[0]", msg: "byte offset 2"},
		{name: "syntax error first", in: "[\"\xff\", 1e400,]", line: 1, col: 13, msg: "invalid character ']'"},
		{name: "huge number quoted with ellipsis", in: strings.Repeat("1", 1200), sentinel: ErrNumberTooLarge, line: 1, col: 1, path: "root", msg: "number 1111111111111111111111111111111111111111… (1200 digits) is beyond what judge accepts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Decode([]byte(tt.in), 0)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			if tt.sentinel != nil && !errors.Is(err, tt.sentinel) {
				t.Errorf("error %v does not wrap %v", err, tt.sentinel)
			}
			if se.Line != tt.line || se.Col != tt.col || se.Path != tt.path || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("got %d:%d path %q %q, want %d:%d path %q containing %q", se.Line, se.Col, se.Path, se.Msg, tt.line, tt.col, tt.path, tt.msg)
			}
		})
	}
	// Numbers too small for a float64 round to zero, as 0.1 rounds: not an error.
	if _, err := Decode([]byte(`[1e-400, -1e-999]`), 0); err != nil {
		t.Errorf("underflow: %v", err)
	}
}

func TestBOM(t *testing.T) {
	t.Parallel()
	v, err := Decode([]byte(BOM+`{"a": 1}`), 0)
	if err != nil {
		t.Fatalf("Decode with a BOM: %v", err)
	}
	if got, _ := json.Marshal(v); string(got) != `{"a":1}` {
		t.Fatalf("got %s", got)
	}
	// Positions count from after the mark, as an editor shows them.
	_, err = Decode([]byte(BOM+`{"a" 1}`), 0)
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 1 || se.Col != 6 {
		t.Fatalf("got %v, want an error at 1:6", err)
	}
	// A mark anywhere else is not white space.
	if _, err := Decode([]byte(`[`+BOM+`1]`), 0); err == nil {
		t.Fatal("a BOM inside the document was accepted")
	}
}

func TestDecodeDuplicates(t *testing.T) {
	t.Parallel()
	in := "{\"a\": 1, \"b\": [{\"x\": 1, \"x\": 2}], \"a\": \"two\",\n \"q r\": {}, \"q r\": {\"z\":{\"\\u0041\":1,\"A\":2}}}"
	v, dups, err := DecodeDuplicates([]byte(in), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(v); string(got) != `{"a":"two","b":[{"x":2}],"q r":{"z":{"A":2}}}` {
		t.Errorf("value %s: the last of duplicate keys must win", got)
	}
	var got []string
	for _, d := range dups {
		got = append(got, fmt.Sprintf("%s %s %d:%d %d", d.Key, d.Path, d.Line, d.Col, d.Offset))
	}
	want := []string{`x b[0].x 1:25 24`, `a a 1:35 34`, `q r ["q r"] 2:13 58`, `A ["q r"].z.A 2:37 82`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("duplicates\n got %q\nwant %q", got, want)
	}
	// None: nil, and a malformed document reports its error, not duplicates.
	if _, dups, err := DecodeDuplicates([]byte(`{"a":1,"b":{"a":2}}`), 0); err != nil || dups != nil {
		t.Errorf("no duplicates: got %v, %v", dups, err)
	}
	if _, dups, err := DecodeDuplicates([]byte(`{"a":1,"a":2,}`), 0); err == nil || dups != nil {
		t.Errorf("malformed: got %v, %v", dups, err)
	}
	// The count is capped.
	var sb strings.Builder
	sb.WriteString(`{"k":0`)
	for i := range 2 * MaxDuplicates {
		fmt.Fprintf(&sb, `,"k":%d`, i)
	}
	sb.WriteString("}")
	if _, dups, _ := DecodeDuplicates([]byte(sb.String()), 0); len(dups) != MaxDuplicates {
		t.Errorf("%d duplicates reported, want the cap %d", len(dups), MaxDuplicates)
	}
}

// FuzzCheckEnvelope: CheckEnvelope refuses exactly the well-formed objects
// that repeat a top-level field (ignoring case) or hold invalid UTF-8, and
// every error it returns is located.
func FuzzCheckEnvelope(f *testing.F) {
	for _, s := range []string{`{"output": 1, "output": 2}`, `{"a": {"a": 1, "a": 2}}`, `{"Tool": 1, "tool": 2}`, `{"\u0061": 1, "a": 2}`,
		"{\"a\": \"\xff\"}", `[{"a":1},{"a":2}]`, `{"a": "\"", "b": [1, {"a": 2}], "c": "x"}`, `{"a":1,}`, `{"a`, BOM + `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := CheckEnvelope(data, 32)
		var se *SyntaxError
		if err != nil && (!errors.As(err, &se) || se.Line < 1 || se.Col < 1) {
			t.Fatalf("error %v is not a located *SyntaxError", err)
		}
		var top map[string]json.RawMessage
		if CheckDepth(data, 32) != nil || !json.Valid(data) || json.Unmarshal(data, &top) != nil {
			return
		}
		// Count the top-level keys as written, with a token decoder.
		dec := json.NewDecoder(strings.NewReader(string(data)))
		_, _ = dec.Token()
		seen, dup := map[string]bool{}, false
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return
			}
			key := strings.ToLower(k.(string))
			dup = dup || seen[key]
			seen[key] = true
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return
			}
		}
		bad := FirstInvalidUTF8(data) >= 0
		if got := err != nil; got != (dup || bad) {
			t.Fatalf("CheckEnvelope(%q) = %v; duplicate field %v, invalid UTF-8 %v", data, err, dup, bad)
		}
	})
}
