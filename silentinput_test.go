package judge_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/result"
)

// TestSilentInputChanges: the engine refuses what encoding/json would
// change without a word (a number beyond the float64 range, invalid UTF-8)
// with its location, and reports a repeated key as a duplicate_key warning
// at its location while checking the last value.
func TestSilentInputChanges(t *testing.T) {
	t.Parallel()
	e, err := judge.New()
	if err != nil {
		t.Fatal(err)
	}
	schema := json.RawMessage(`{"type": "object", "properties": {"n": {"type": "integer", "maximum": 5}, "s": {"type": "string", "maxLength": 2}}}`)
	refused := []struct {
		name, output string
		sentinel     error
		msg          string
	}{
		{"1e400", `{"n": 1e400}`, jsonvalue.ErrOutOfRange, "line 1, column 7: number 1e400 at n is outside the range of a 64-bit float"},
		{"1e400 in a JSON string", `"{\"n\": 1e400}"`, jsonvalue.ErrOutOfRange, "number 1e400 at n is outside"},
		{"invalid UTF-8", "{\"s\": \"a\xffb\"}", jsonvalue.ErrInvalidUTF8, "invalid UTF-8 (byte 0xff) at byte offset 8 at s"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := e.Validate(context.Background(), &judge.Request{Output: json.RawMessage(tt.output), ExpectedSchema: schema})
			var re *judge.RequestError
			if !errors.As(err, &re) || re.Field != "output" || !errors.Is(err, tt.sentinel) || !strings.Contains(re.Msg, tt.msg) {
				t.Fatalf("err = %v, want a RequestError on output wrapping %v with %q", err, tt.sentinel, tt.msg)
			}
		})
	}
	t.Run("duplicate keys", func(t *testing.T) {
		t.Parallel()
		res, err := e.Validate(context.Background(), &judge.Request{Output: json.RawMessage(`{"n": 1, "s": "ok", "n": 9}`), ExpectedSchema: schema})
		if err != nil {
			t.Fatal(err)
		}
		if err := result.Check(res); err != nil {
			t.Fatal(err)
		}
		var dup, max bool
		for _, is := range res.Issues {
			dup = dup || is.Type == result.DuplicateKey && is.Severity == result.Warning && is.Location == "n" && is.Rule == "output.duplicate_key"
			max = max || is.Rule == "schema.maximum" && is.Location == "n"
		}
		if !dup || !max || res.Valid {
			t.Fatalf("want a duplicate_key warning at n and the last value (9) over the maximum: %+v", res.Issues)
		}
	})
	// Whatever the schema looks at, the input's own warnings and refusals
	// are the same: a schema that reads nothing inside the object (the
	// fast path's case) must not lose them.
	for _, sch := range []string{`{"type": "object"}`, `true`, `{}`, `{"anyOf": [{"required": ["x"]}, {"type": "object"}]}`} {
		t.Run("schema "+sch, func(t *testing.T) {
			t.Parallel()
			res, err := e.Validate(context.Background(), &judge.Request{Output: json.RawMessage(`{"role": "user", "role": "admin"}`), ExpectedSchema: json.RawMessage(sch)})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Issues) != 1 || res.Issues[0].Rule != "output.duplicate_key" || res.Issues[0].Location != "role" || !res.Valid {
				t.Fatalf("want valid with one duplicate_key warning at role, got valid %v %+v", res.Valid, res.Issues)
			}
			for _, out := range []string{`{"n": 1e400}`, "{\"s\": \"a\xffb\"}"} {
				if _, err := e.Validate(context.Background(), &judge.Request{Output: json.RawMessage(out), ExpectedSchema: json.RawMessage(sch)}); err == nil {
					t.Errorf("%q: want the output refused, as under a schema that reads it", out)
				}
			}
		})
	}
}

// TestDecodeRequestEnvelope: a request body with a field given twice or
// bytes that are not UTF-8 is refused; a leading byte-order mark is
// skipped.
func TestDecodeRequestEnvelope(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ body, want string }{
		{`{"output": 1, "output": 2}`, `body: line 1, column 15: field "output" is given twice (first at line 1, column 2)`},
		{`{"output": 1, "options": {}, "OPTIONS": {"output_mode": "value"}}`, `field "OPTIONS" is given twice`},
		{"{\"output\": \"\xc0\"}", "invalid UTF-8 (byte 0xc0) at byte offset 12 at output"},
	} {
		_, err := judge.DecodeRequest([]byte(tc.body), 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("DecodeRequest(%q) = %v, want %q", tc.body, err, tc.want)
		}
	}
	req, err := judge.DecodeRequest([]byte("\xef\xbb\xbf{\"output\": {\"a\": 1}}"), 0)
	if err != nil || string(req.Output) != `{"a": 1}` {
		t.Fatalf("with a BOM: %v, %v", req, err)
	}
	// A key repeated inside the output is not the envelope's: a warning later.
	if _, err := judge.DecodeRequest([]byte(`{"output": {"a": 1, "a": 2}}`), 0); err != nil {
		t.Fatalf("repeated key inside the output: %v", err)
	}
}

// alternation is a flat list of n alternatives that share prefixes
// ("a|aa|aaa|…"), which RE2's parser factors into nested groups.
func alternation(n int) string {
	alts := make([]string, n)
	for i := range alts {
		alts[i] = strings.Repeat("a", i+1)
	}
	return "^(" + strings.Join(alts, "|") + ")$"
}

// TestMisleadingMessages: the messages say what limit was really hit.
func TestMisleadingMessages(t *testing.T) {
	t.Parallel()
	e, err := judge.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	pattern, _ := json.Marshal(alternation(600))
	_, err = e.Validate(ctx, &judge.Request{Output: json.RawMessage(`"a"`), ExpectedSchema: json.RawMessage(`{"type": "string", "pattern": ` + string(pattern) + `}`)})
	var re *judge.RequestError
	if !errors.As(err, &re) || re.Field != "expected_schema/pattern" ||
		!strings.Contains(re.Msg, "factors the common prefixes of the 600 alternatives into nested groups, and they nest more than 1000 levels deep although the pattern itself nests 1") {
		t.Errorf("alternation: %v", err)
	}

	_, err = e.Validate(ctx, &judge.Request{Output: json.RawMessage(`{"n": ` + strings.Repeat("12", 600) + `}`), ExpectedSchema: json.RawMessage(`{"type": "object"}`)})
	if !errors.As(err, &re) || !strings.Contains(re.Msg, "number 1212121212121212121212121212121212121212… (1200 digits) at n is beyond what judge accepts") {
		t.Errorf("huge number: %v", err)
	}

	items := make([]string, 1200)
	for i := range items {
		items[i] = `"x"`
	}
	res, err := e.Validate(ctx, &judge.Request{Output: json.RawMessage("[" + strings.Join(items, ",") + "]"),
		ExpectedSchema: json.RawMessage(`{"type": "array", "items": {"type": "integer"}}`)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Issues) != result.DefaultMaxIssues {
		t.Fatalf("%d issues, want the cap %d", len(res.Issues), result.DefaultMaxIssues)
	}
	for i, is := range res.Issues[:result.DefaultMaxIssues-1] {
		if want := "[" + strconv.Itoa(i) + "]"; is.Location != want {
			t.Fatalf("issue %d at %s, want %s: the issues kept at the cap are in index order", i, is.Location, want)
		}
	}
}
