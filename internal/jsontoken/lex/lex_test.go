package lex

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"testing"
	"unicode/utf8"
)

// checkAgainstJSON holds the primitives to encoding/json on data, read as
// one token at its start: a string, a number or a literal.
func checkAgainstJSON(t *testing.T, data []byte) {
	t.Helper()
	if len(data) == 0 {
		return
	}
	switch c := data[0]; {
	case c == '"':
		checkString(t, data)
	case c == '-' || IsDigit(c):
		checkNumber(t, data)
	case Literal(c) != "":
		lit := Literal(c)
		end, code := ScanLiteral(data, 0, lit)
		want := bytes.HasPrefix(data, []byte(lit))
		if (code == OK) != want || want && end != len(lit) {
			t.Fatalf("ScanLiteral(%q, %s) = %d, %v; prefix %v", data, lit, end, code, want)
		}
		if code == EOF && !bytes.HasPrefix([]byte(lit), data) {
			t.Fatalf("ScanLiteral(%q): EOF, but the input is no prefix of %s", data, lit)
		}
		if code == BadLiteral && (end >= len(data) || data[end] == lit[end]) {
			t.Fatalf("ScanLiteral(%q): BadLiteral at %d", data, end)
		}
	}
}

func checkString(t *testing.T, data []byte) {
	end, f, code := SkipString(data, 0)
	var buf []byte
	text, end2, f2, code2 := ReadString(data, 0, &buf)
	if end != end2 || code != code2 || f&BadUTF8 != f2&BadUTF8 || f&Escaped != f2&Escaped {
		t.Fatalf("%q: SkipString = %d %b %v, ReadString = %d %b %v", data, end, f, code, end2, f2, code2)
	}
	var s string
	if code != OK {
		if err := json.Unmarshal(data, &s); err == nil {
			t.Fatalf("%q: code %v at %d, but encoding/json reads %q", data, code, end, s)
		}
		if code != EOF && (end >= len(data) || end < 1) {
			t.Fatalf("%q: code %v at %d, out of the input", data, code, end)
		}
		if code == EOF && end != len(data) {
			t.Fatalf("%q: EOF at %d", data, end)
		}
		return
	}
	if err := json.Unmarshal(data[:end], &s); err != nil {
		t.Fatalf("%q: read to %d, but encoding/json: %v", data, end, err)
	}
	if string(text) != s {
		t.Fatalf("%q: text %q, encoding/json %q", data, text, s)
	}
	raw := data[1 : end-1]
	if (f&BadUTF8 != 0) != !utf8.Valid(raw) || (FirstInvalidUTF8(raw) >= 0) != !utf8.Valid(raw) {
		t.Fatalf("%q: BadUTF8 %v, FirstInvalidUTF8 %d", data, f&BadUTF8 != 0, FirstInvalidUTF8(raw))
	}
	if (f&Escaped != 0) != (bytes.IndexByte(raw, '\\') >= 0) {
		t.Fatalf("%q: Escaped %v", data, f&Escaped != 0)
	}
}

func checkNumber(t *testing.T, data []byte) {
	end, exp, code := ScanNumber(data, 0)
	var v json.Number
	if code != OK {
		if json.Valid(data[:min(end+1, len(data))]) {
			t.Fatalf("%q: code %v at %d, but encoding/json accepts %q", data, code, end, data[:end+1])
		}
		return
	}
	if !json.Valid(data[:end]) {
		t.Fatalf("%q: number to %d, which encoding/json refuses", data, end)
	}
	if end < len(data) && json.Valid(data[:end+1]) && !IsSpace(data[end]) {
		t.Fatalf("%q: number stops at %d, but %q is one", data, end, data[:end+1])
	}
	if err := json.Unmarshal(data[:end], &v); err != nil {
		t.Fatalf("%q: %v", data, err)
	}
	// The same number read in two pieces, split anywhere.
	for k := 0; k <= end; k++ {
		var s NumberScan
		j := s.Scan(data[:k], 0)
		if j != k {
			t.Fatalf("%q: first piece %d stopped at %d", data, k, j)
		}
		if j = s.Scan(data, k); j != end || s.Exp != exp || s.End() != OK {
			t.Fatalf("%q: split at %d: %d %d %v, whole: %d %d", data, k, j, s.Exp, s.End(), end, exp)
		}
	}
	n := data[:end]
	var ns NumberScan
	ns.Scan(n, 0)
	if ns.Small(len(n)) && NumberLimit(n, exp) != OK {
		t.Fatalf("%q: Small, but NumberLimit = %v", n, NumberLimit(n, exp))
	}
	switch NumberLimit(n, exp) {
	case TooLarge:
		if len(n) <= MaxNumberLen && exp <= MaxNumberExponent {
			t.Fatalf("%q: TooLarge", n)
		}
	case OutOfRange:
		f, err := strconv.ParseFloat(string(n), 64)
		if !errors.Is(err, strconv.ErrRange) || !math.IsInf(f, 0) {
			t.Fatalf("%q: OutOfRange, ParseFloat = %v, %v", n, f, err)
		}
	case OK:
		if len(n) <= 400 {
			if f, err := strconv.ParseFloat(string(n), 64); math.IsInf(f, 0) {
				t.Fatalf("%q: in range, ParseFloat = %v, %v", n, f, err)
			}
		}
	}
}

func TestLexTable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		end  int
		code Code
	}{
		{`"abc"`, 5, OK},
		{`"a\u00e9\ud83d\ude00b"`, 22, OK},
		{`"a\x"`, 3, BadEscape},
		{`"a\u12g4"`, 6, BadHex},
		{"\"a\x01\"", 2, Control},
		{`"abc`, 4, EOF},
		{`"ab\`, 4, EOF},
	} {
		end, _, code := SkipString([]byte(tc.in), 0)
		if end != tc.end || code != tc.code {
			t.Errorf("SkipString(%s) = %d %v, want %d %v", tc.in, end, code, tc.end, tc.code)
		}
		checkAgainstJSON(t, []byte(tc.in))
	}
	for _, tc := range []struct {
		in       string
		end, exp int
		code     Code
	}{
		{"0", 1, 0, OK},
		{"-12.5e+30,", 9, 30, OK},
		{"01", 1, 0, OK},
		{"-x", 1, 0, BadNumber},
		{"1.e5", 2, 0, BadDecimal},
		{"1e+", 3, 0, EOF},
		{"1eX", 2, 0, BadExponent},
		{"1e99999", 7, MaxNumberExponent + 1, OK},
	} {
		end, exp, code := ScanNumber([]byte(tc.in), 0)
		if end != tc.end || exp != tc.exp || code != tc.code {
			t.Errorf("ScanNumber(%s) = %d %d %v, want %d %d %v", tc.in, end, exp, code, tc.end, tc.exp, tc.code)
		}
		checkAgainstJSON(t, []byte(tc.in))
	}
	if got := NumberLimit([]byte("2e308"), 308); got != OutOfRange {
		t.Errorf("NumberLimit(2e308) = %v", got)
	}
	if got := NumberLimit([]byte("1.7976931348623157e308"), 308); got != OK {
		t.Errorf("NumberLimit(max float64) = %v", got)
	}
	if got := NumberLimit([]byte("1e1001"), 1001); got != TooLarge {
		t.Errorf("NumberLimit(1e1001) = %v", got)
	}
	var buf []byte
	text, _, f, _ := ReadString([]byte("\"\\ud800x\xff\""), 0, &buf)
	if string(text) != "\uFFFDx\uFFFD" || f&Lone == 0 || f&BadUTF8 == 0 {
		t.Errorf("lone surrogate and bad byte: %q %b", text, f)
	}
}

// FuzzLex holds the lexical primitives to encoding/json: what they accept
// it accepts, with the same decoded text; what they refuse it refuses;
// a number read in two pieces reads as in one; the range check agrees
// with strconv.
func FuzzLex(f *testing.F) {
	for _, s := range []string{
		`"plain"`, `"esc\n\"\\\/\b\f\r\t"`, `"\u00e9\ud83d\ude00"`, `"\ud800\ud800"`, `"\udc00"`,
		"\"bad \xff utf8\"", "\"\xe2\x82\"", `"ctl` + "\x01" + `"`, `"\q"`, `"\u12"`, `"open`,
		"0", "-0.5e-7", "1e400", "-1.8e308", "179769313486231580000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
		"01", "1.", "-", "1e", "1E+5", "true", "tru", "fals", "nulx", "null",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAgainstJSON(t, data)
	})
}
