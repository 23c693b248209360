package jsontoken_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/jsontoken"
	"github.com/agentjudge/judge/internal/jsonvalue"
)

// tok is a token with its text copied.
type tok struct {
	Kind       jsontoken.Kind
	Begin, End int64
	Text       string
	Depth      int
}

// run tokenizes data cut into chunks at the offsets cuts (sorted), and
// returns the tokens and the error.
func run(data []byte, maxDepth int, cuts []int) ([]tok, error) {
	t := jsontoken.New(maxDepth)
	var toks []tok
	emit := func(k *jsontoken.Token) error {
		toks = append(toks, tok{k.Kind, k.Begin, k.End, string(k.Text), k.Depth})
		return nil
	}
	prev := 0
	for _, c := range append(cuts, len(data)) {
		if c < prev || c > len(data) {
			continue
		}
		if err := t.Write(data[prev:c], emit); err != nil {
			return toks, err
		}
		prev = c
	}
	return toks, t.Close(emit)
}

// value rebuilds the document's value from its tokens, as
// jsonvalue.Decode reads it.
func value(toks []tok) any {
	i := 0
	var read func() any
	read = func() any {
		k := toks[i]
		i++
		switch k.Kind {
		case jsontoken.BeginObject:
			m := map[string]any{}
			for toks[i].Kind != jsontoken.EndObject {
				key := toks[i].Text
				i++
				m[key] = read()
			}
			i++
			return m
		case jsontoken.BeginArray:
			a := []any{}
			for toks[i].Kind != jsontoken.EndArray {
				a = append(a, read())
			}
			i++
			return a
		case jsontoken.String:
			return k.Text
		case jsontoken.Number:
			return json.Number(k.Text)
		case jsontoken.True:
			return true
		case jsontoken.False:
			return false
		}
		return nil
	}
	return read()
}

// refused reports whether err is one of the limits judge adds to JSON.
func refused(err error) bool {
	return errors.Is(err, jsonvalue.ErrTooDeep) || errors.Is(err, jsonvalue.ErrInvalidUTF8) ||
		errors.Is(err, jsonvalue.ErrNumberTooLarge)
}

// check compares the tokenizer with jsonvalue.Decode and encoding/json on
// data, and whole-buffer tokenization with the chunking cuts.
func check(t *testing.T, data []byte, maxDepth int, cuts []int) {
	t.Helper()
	whole, werr := run(data, maxDepth, nil)
	chunked, cerr := run(data, maxDepth, cuts)
	if fmt.Sprint(werr) != fmt.Sprint(cerr) || !reflect.DeepEqual(whole, chunked) {
		t.Fatalf("%q cut at %v:\nwhole   %v %v\nchunked %v %v", data, cuts, whole, werr, chunked, cerr)
	}
	byByte := make([]int, len(data))
	for i := range byByte {
		byByte[i] = i
	}
	if one, err := run(data, maxDepth, byByte); fmt.Sprint(werr) != fmt.Sprint(err) || !reflect.DeepEqual(whole, one) {
		t.Fatalf("%q byte by byte: %v %v, whole %v %v", data, one, err, whole, werr)
	}
	want, derr := jsonvalue.Decode(data, maxDepth)
	switch {
	case (werr == nil) != (derr == nil):
		t.Fatalf("%q: tokenizer error %v, jsonvalue.Decode error %v", data, werr, derr)
	case werr == nil:
		if got := value(whole); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: tokens give %#v, Decode %#v", data, got, want)
		}
	default:
		var se *jsonvalue.SyntaxError
		if !errors.As(werr, &se) {
			t.Fatalf("%q: error %T %v, want *jsonvalue.SyntaxError", data, werr, werr)
		}
		line, col := jsonvalue.Position(jsonvalue.TrimBOM(data), se.Offset)
		if se.Line != line || se.Col != col {
			t.Fatalf("%q: error %v at line %d col %d, offset %d is at %d:%d", data, werr, se.Line, se.Col, se.Offset, line, col)
		}
		var de *jsonvalue.SyntaxError
		if !refused(werr) && errors.As(derr, &de) && !refused(derr) && (de.Offset != se.Offset || de.Msg != se.Msg) {
			t.Fatalf("%q: error %v (offset %d), Decode %v (offset %d)", data, werr, se.Offset, derr, de.Offset)
		}
	}
	if maxDepth >= 10000 || maxDepth <= 0 {
		return
	}
	valid := json.Valid(jsonvalue.TrimBOM(data))
	if werr == nil && !valid {
		t.Fatalf("%q: tokenizer accepts, encoding/json refuses", data)
	}
	if werr != nil && valid && !refused(werr) {
		t.Fatalf("%q: encoding/json accepts, tokenizer refuses: %v", data, werr)
	}
}

var seeds = []string{
	`{}`, `[]`, `0`, `-0.5e+10`, `"a\u00e9\ud83d\ude00\ud800x\udc00\ud800\ud800\udc00"`, `true`, `false`, `null`,
	`{"a": [1, 2, {"b": null}], "c": "d\n", "a": 3}`, ` [ 1 , [ ] , { } ] `, "\xef\xbb\xbf{\"k\":1}",
	`{"a" 1}`, `{"a":1,}`, `[1,]`, `[1 2]`, `01`, `1.`, `1e`, `-`, `1.e5`, `"\x"`, `"\u12g4"`, "\"a\x01\"",
	"\"\xff\"", "\"\xe2\x82\"", "\"\xe2\x82\xac\"", "\"\xed\xa0\x80\"", `[[[[[[[[[[]]]]]]]]]]`, `tru`, `trux`, `nul`, ``, `  `,
	`{"a":1}x`, `1e1001`, `1e308`, `2e308`, strings.Repeat("1", 1001), `{"a":"b"`, `[`, `{`, `{"`, "\xef\xbb", "\xef\xbbx",
	`"\/\b\f\n\r\t\\\""`, `{"a":{"b":{"c":[true,false,null,-1.5E-3]}}}`, `[1,2]]`, `}`, `]`, `:`, `,`,
}

func TestTokenizer(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range seeds {
		t.Run(fmt.Sprintf("%q", s), func(t *testing.T) {
			data := []byte(s)
			for range 20 {
				check(t, data, 8, randomCuts(rng, len(data)))
			}
		})
	}
}

func randomCuts(rng *rand.Rand, n int) []int {
	var cuts []int
	for i := 1; i < n; i++ {
		if rng.IntN(3) == 0 {
			cuts = append(cuts, i)
		}
	}
	return cuts
}

// TestTokens pins the tokens of one document: kinds, offsets, texts and
// depths.
func TestTokens(t *testing.T) {
	t.Parallel()
	got, err := run([]byte(`{"a": [1, "x\n"], "b": null}`), 0, []int{3, 9, 13})
	if err != nil {
		t.Fatal(err)
	}
	want := []tok{
		{jsontoken.BeginObject, 0, 1, "", 0},
		{jsontoken.Key, 1, 4, "a", 1},
		{jsontoken.BeginArray, 6, 7, "", 1},
		{jsontoken.Number, 7, 8, "1", 2},
		{jsontoken.String, 10, 15, "x\n", 2},
		{jsontoken.EndArray, 15, 16, "", 1},
		{jsontoken.Key, 18, 21, "b", 1},
		{jsontoken.Null, 23, 27, "", 1},
		{jsontoken.EndObject, 27, 28, "", 0},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tokens\n got %v\nwant %v", got, want)
	}
}

// TestPending checks what the tokenizer says of a token cut by a chunk's
// end.
func TestPending(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		kind jsontoken.Kind
		text string
	}{
		{`{"ab`, jsontoken.Key, "ab"},
		{`["x\u00e9\ud83d`, jsontoken.String, "xé"},
		{`["x\`, jsontoken.String, "x"},
		{"[\"\xe2\x82", jsontoken.String, ""},
		{`[-12.`, jsontoken.Number, "-12."},
		{`[tr`, jsontoken.True, ""},
	}
	for _, tc := range tests {
		tk := jsontoken.New(0)
		if err := tk.Write([]byte(tc.in), func(*jsontoken.Token) error { return nil }); err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		kind, _, text, ok := tk.Pending()
		if !ok || kind != tc.kind || string(text) != tc.text {
			t.Errorf("%q: Pending = %v %q %v, want %v %q", tc.in, kind, text, ok, tc.kind, tc.text)
		}
	}
}

// TestDeep checks the depth limit at its byte, beyond any chunking.
func TestDeep(t *testing.T) {
	t.Parallel()
	data := bytes.Repeat([]byte("["), 300)
	_, err := run(data, 256, []int{100, 200})
	var se *jsonvalue.SyntaxError
	if !errors.As(err, &se) || !errors.Is(err, jsonvalue.ErrTooDeep) || se.Offset != 256 {
		t.Fatalf("error %v, want ErrTooDeep at offset 256", err)
	}
}

func FuzzTokenizer(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s), uint64(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		if len(data) > 4096 {
			return
		}
		rng := rand.New(rand.NewPCG(seed, seed>>7))
		check(t, data, 6, randomCuts(rng, len(data)))
	})
}
