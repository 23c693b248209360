package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/jsontoken/lex"
	"github.com/agentjudge/judge/internal/sharedtest"
)

// referenceDecode is Decode as it was before the hand-written parser:
// encoding/json's Decoder with UseNumber into an any, after a depth
// pre-scan and before a check for trailing data, then the checks
// encoding/json does not make: numbers over the limits or out of the
// float64 range, and invalid UTF-8 (replaced by encoding/json), the first
// in the document. Decode must agree with it on every input.
func referenceDecode(data []byte, maxDepth int) (any, error) {
	data = TrimBOM(data)
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	if err := CheckDepth(data, maxDepth); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, Wrap(data, dec.InputOffset(), err)
	}
	off := dec.InputOffset()
	for off < int64(len(data)) && lex.IsSpace(data[off]) {
		off++
	}
	if off < int64(len(data)) {
		line, col := Position(data, off)
		return nil, &SyntaxError{Offset: off, Line: line, Col: col, Msg: "unexpected data after the JSON value"}
	}
	// The number limits, checked on the tokens in document order.
	numOff := -1
	toks := json.NewDecoder(bytes.NewReader(data))
	toks.UseNumber()
	for {
		tok, err := toks.Token()
		if err != nil {
			break
		}
		if n, ok := tok.(json.Number); ok && (referenceNumberTooLarge(string(n)) || referenceOutOfRange(string(n))) {
			numOff = int(toks.InputOffset()) - len(n)
			break
		}
	}
	// In a well-formed document, invalid UTF-8 can only be in strings.
	badOff := FirstInvalidUTF8(data)
	switch {
	case numOff >= 0 && (badOff < 0 || numOff < badOff):
		return nil, numberError(data, numOff)
	case badOff >= 0:
		return nil, utf8Error(data, badOff)
	}
	return v, nil
}

// referenceOutOfRange reports whether strconv reads n as an infinity.
func referenceOutOfRange(n string) bool {
	f, err := strconv.ParseFloat(n, 64)
	return err != nil && math.IsInf(f, 0)
}

func referenceNumberTooLarge(n string) bool {
	if len(n) > MaxNumberLen {
		return true
	}
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		exp := strings.TrimLeft(n[i+1:], "+-")
		exp = strings.TrimLeft(exp, "0")
		return len(exp) > 4 || (exp != "" && atoi(exp) > MaxNumberExponent)
	}
	return false
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// checkMatchesReference fails t unless Decode and referenceDecode agree on
// data: the same value, or errors at the same place with the same message
// and the same sentinel cause.
func checkMatchesReference(t *testing.T, data []byte, maxDepth int) {
	t.Helper()
	want, wantErr := referenceDecode(data, maxDepth)
	got, err := Decode(data, maxDepth)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("Decode(%.200q, %d): error %v, reference error %v", data, maxDepth, err, wantErr)
	}
	if err == nil {
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Decode(%.200q, %d) = %#.300v, reference %#.300v", data, maxDepth, got, want)
		}
		return
	}
	if got != nil {
		t.Fatalf("Decode(%.200q, %d) = %v with error %v, want nil", data, maxDepth, got, err)
	}
	var se, wse *SyntaxError
	if !errors.As(err, &se) || !errors.As(wantErr, &wse) {
		t.Fatalf("Decode(%.200q, %d): errors %v and reference %v are not both *SyntaxError", data, maxDepth, err, wantErr)
	}
	if se.Offset != wse.Offset || se.Line != wse.Line || se.Col != wse.Col || se.Msg != wse.Msg || se.Path != wse.Path {
		t.Fatalf("Decode(%.200q, %d): error at %d (%d:%d) %q, reference at %d (%d:%d) %q",
			data, maxDepth, se.Offset, se.Line, se.Col, se.Msg, wse.Offset, wse.Line, wse.Col, wse.Msg)
	}
	for _, sentinel := range []error{ErrTooDeep, io.EOF, io.ErrUnexpectedEOF, ErrNumberTooLarge, ErrOutOfRange, ErrInvalidUTF8} {
		if errors.Is(err, sentinel) != errors.Is(wantErr, sentinel) {
			t.Fatalf("Decode(%.200q, %d): error %v and reference error %v differ on wrapping %v", data, maxDepth, err, wantErr, sentinel)
		}
	}
}

// edgeCases are inputs for the differential tests and seeds for the fuzz
// target: escapes, surrogates, invalid UTF-8, numbers, literals, white
// space and malformed structure, each error at a different place.
var edgeCases = []string{
	// Strings and escapes.
	`""`, `"a"`, `"\u0000"`, `"\u0041\u00e9\u20ac"`, `"\uFFFD"`, `"\uffff"`, `"\uFEFF"`,
	`"\/"`, `"\b\f\n\r\t\"\\"`, `"a\"b"`, `"\x"`, `"\'"`, `"\U0041"`, `"\u"`, `"\u12"`, `"\u12x4"`, `"\u004g"`,
	`"\`, `"\u`, `"\u00`, `"abc`, `"`, `"\"`,
	// Surrogate escapes, paired and not.
	`"\ud83d\ude00"`, `"\uD83D\uDE00"`, `"\ud83d"`, `"\ude00"`, `"\ud83d\u0041"`, `"\ud83d\ud83d\ude00"`,
	`"\ud83dx"`, `"\ud83d\"`, `"\ud83d\u12"`, `"\ud83d\u12"x`, `"\ud83d\uzzzz"`, `"\uDFFF\uD800"`, `"\uDBFF\uDFFF"`,
	`"\uD800\uDC00\uD800"`, `"\ud83d\\ude00"`, `"\ud83d\n"`, `"\ud83d\ude00\ude00"`, `"\ud83d\ude0`,
	`"\ud83d\ude00`, `{"\ud83d":"\ude00"}`,
	// Raw UTF-8, valid and not, and control characters.
	"\"é€😀\"", "\"\xef\xbf\xbd\"", "\"\xff\"", "\"\xfe\xff\"", "\"\xc3\"", "\"\xc3\x28\"", "\"\xed\xa0\x80\"",
	"\"\xed\xbf\xbf\"", "\"\xf4\x90\x80\x80\"", "\"\xc0\xaf\"", "\"\xe2\x82\"", "\"\xe2\x82\xac\xe2\x82\"",
	"\"\xf0\x9f\x98\"", "\"\\n\xff\"", "\"\xff\\n\"", "\"a\xffb\xc3\xa9\"", "\"\x80\x80\x80\"", "\"\xe2\"",
	"\"\xe2", "\"\xf0\x9f\x98\x80", "{\"\xff\":\"\xfe\"}", "\"\x00\"", "\"\x01\"", "\"\x1f\"", "\"\x7f\"",
	"\"a\nb\"", "\"a\tb\"", "\"\\u0000\x00\"", "\xff", "[\xff]", "{\xff:1}", "\x80", "é",
	// Numbers.
	`0`, `-0`, `-0.0`, `0.0`, `1e999`, `-1e-999`, `1E+2`, `1e-2`, `1E2`, `12345678901234567890123456789`,
	`123456789012345678901234567890123456789012345678901234567890`, `3.141592653589793238462643383279`,
	`01`, `-01`, `00`, `1.`, `.5`, `+1`, `-`, `--1`, `-a`, `1e`, `1e+`, `1e-`, `1E+x`, `1.e5`, `0x10`, `1.5E`,
	`[1.]`, `[-]`, `[1e]`, `[1e+]`, `[1.5e5x]`, `[01]`, `[-0]`, `[0.]`, `Infinity`, `-Infinity`, `NaN`, `1_000`,
	`[1e5x]`, `{"a":1x}`, `{"a":-}`, `[1,-]`, `1 2`, `1x`, `0e0`, `0E-0`, `-0e+00`,
	// Literals.
	`true`, `false`, `null`, `tru`, `trux`, `t`, `f`, `n`, `nul`, `nulll`, `True`, `nil`, `fals`, `falsy`,
	`[true,false,null]`, `truefalse`, `[truefalse]`, `{"a":nulx}`, `[tru]`, `[nul`,
	// White space.
	" \t\r\n1 \t\r\n", "\f1", "\v1", "1\f", "1\v", "\u00a01", "1\u00a0", "", " ", "   \n\t", "\n",
	"\xef\xbb\xbf{}", "[ 1 , 2 ]", "{ \"a\" : 1 , \"b\" : [ ] }", "[\n]", "{\r\n}", "\x00", "1\x00",
	// Structure.
	`{}`, `[]`, `[[]]`, `[{}]`, `{"a":{}}`, `{"a":1,"a":2}`, `{"a":{"b":1},"a":[2]}`, `{"a":1,"b":2,"a":3}`,
	`{"":1}`, `{"a":1,"":2}`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `[,1]`, `[,]`, `{,}`, `{1:2}`, `{a:1}`,
	`{"a":1 "b":2}`, `[1 2]`, `{"a"}`, `{"a":}`, `]`, `}`, `:`, `,`, `[}`, `{]`, `[1}`, `{"a":1]`, `{'a':1}`,
	`['a']`, `[1]]`, `{"a":1}}`, `[][]`, `{} {}`, `[] x`, `"a""b"`, `"a" "b"`, `[`, `{`, `{"`, `{"a`, `{"a"`,
	`{"a":`, `{"a":1`, `{"a":1,`, `{"a":1,"`, `[1`, `[1,`, `[1,2`, `[1,2,`, `[[1,2],[3,4]]`, `{"a"::1}`,
	`{"a":1,,"b":2}`, `[1,,2]`, `{"a":[1,{"b":null}]}`, `[1,2]  `, "[1,2]\n\n x", "{\n  \"a\": 1,\n  \"b\": }",
	`{"a":1} // comment`, `/* c */ 1`, `[1] ]`, `{"a":"b"]`, `["a":1]`,
}

func TestDecodeMatchesReferenceEdgeCases(t *testing.T) {
	t.Parallel()
	for _, in := range edgeCases {
		for _, maxDepth := range []int{0, 1, 2} {
			checkMatchesReference(t, []byte(in), maxDepth)
		}
	}
}

func TestDecodeMatchesReferenceDepth(t *testing.T) {
	t.Parallel()
	nest := func(open, mid, close string, n int) []byte {
		return []byte(strings.Repeat(open, n) + mid + strings.Repeat(close, n))
	}
	for _, limit := range []int{1, 2, 3, 10, DefaultMaxDepth} {
		for _, n := range []int{limit - 1, limit, limit + 1} {
			for _, doc := range [][]byte{
				nest("[", "", "]", n),
				nest("[", "1", "]", n),
				nest(`{"a":`, "{}", "}", max(n-1, 0)),
				nest(`[{"a":`, "1", "}]", n/2),
				nest(`{"a":[`, "", "]}", n/2),
				nest("[", "", "]", n)[:n],                               // truncated at the innermost
				nest("[", "x", "]", n),                                  // a syntax error inside
				append([]byte(`{"a" x`), nest("[", "", "]", n)...),      // a syntax error before
				append(nest("[", "", "]", 1), nest("[", "", "]", n)...), // trailing data
				[]byte(`["` + strings.Repeat("[", n+1) + `"]`),
				[]byte(`["\"` + strings.Repeat("[", n+1) + `"]`),
			} {
				maxDepth := limit
				if limit == DefaultMaxDepth {
					maxDepth = 0
				}
				checkMatchesReference(t, doc, maxDepth)
			}
		}
	}
	// encoding/json's own limit of 10000 levels, below a larger maxDepth.
	for _, n := range []int{maxNestingDepth, maxNestingDepth + 1} {
		checkMatchesReference(t, nest("[", "", "]", n), 2*maxNestingDepth)
		checkMatchesReference(t, nest(`{"a":`, "1", "}", n), 2*maxNestingDepth)
	}
}

// TestDecodeMatchesReferenceSharedData compares Decode with the reference
// on the JSON Schema Test Suite and the benchmark corpus, whole, truncated
// and with bytes changed.
func TestDecodeMatchesReferenceSharedData(t *testing.T) {
	t.Parallel()
	var docs [][]byte
	suite := sharedtest.Dir(t, "json-schema-test-suite", "tests")
	err := filepath.WalkDir(suite, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || filepath.Ext(path) != ".json" {
			return err
		}
		data, err := os.ReadFile(path)
		docs = append(docs, data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatalf("no JSON files under %s", suite)
	}
	corpus := sharedtest.Dir(t, "mcp-tools", "bench-corpus.json")
	data, err := os.ReadFile(corpus)
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, data)
	c := sharedtest.LoadBenchCorpus(t)
	docs = append(docs, []byte(c.Large.Valid), []byte(c.Large.Invalid), c.Large.Schema)
	for _, tc := range c.Cases {
		docs = append(docs, []byte(tc.Valid), []byte(tc.Invalid), tc.Schema)
	}

	rng := rand.New(rand.NewPCG(1, 2))
	replacements := []byte("\x00\x1f \"\\/[]{},:-+.0159eEtfnux\x7f\x80\xc3\xed\xff")
	for _, doc := range docs {
		checkMatchesReference(t, doc, 0)
		checkMatchesReference(t, doc, 4)
		if len(doc) == 0 {
			continue
		}
		for range 8 {
			checkMatchesReference(t, doc[:rng.IntN(len(doc))], 0)
			changed := bytes.Clone(doc)
			changed[rng.IntN(len(doc))] = replacements[rng.IntN(len(replacements))]
			checkMatchesReference(t, changed, 0)
		}
	}
}

func FuzzDecodeMatchesEncodingJSON(f *testing.F) {
	for _, s := range edgeCases {
		f.Add([]byte(s), uint8(0))
	}
	f.Add([]byte(`[[[[1]]]]`), uint8(3))
	f.Add([]byte(`{"a":{"b":{"c":[]}}}`), uint8(4))
	f.Fuzz(func(t *testing.T, data []byte, depth uint8) {
		checkMatchesReference(t, data, int(depth%40)) // 0: DefaultMaxDepth
	})
}

// BenchmarkReferenceDecode measures referenceDecode on the inputs of
// BenchmarkDecode, for comparison.
func BenchmarkReferenceDecode(b *testing.B) {
	benchmarkDecode(b, referenceDecode)
}
