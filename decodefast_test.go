package judge

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/sharedtest"
)

// strictRequest decodes body as DecodeRequest did before the fast path:
// DecodeStrict alone.
func strictRequest(body []byte, maxDepth int) (*Request, error) {
	var req Request
	if err := DecodeStrict(body, maxDepth, &req, requestFields); err != nil {
		return nil, err
	}
	if len(req.Output) == 0 {
		return nil, &RequestError{Field: "output", Msg: `the request has no "output"`}
	}
	return &req, nil
}

// sameAsStrict fails t unless the fast path's answer on body, when it
// gives one, is the request the strict decoder gives.
func sameAsStrict(t *testing.T, body []byte, maxDepth int) (fast bool) {
	t.Helper()
	got, ok := decodeRequestFast(jsonvalue.TrimBOM(body), maxDepth)
	want, err := strictRequest(body, maxDepth)
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("fast path decoded %q, which the strict decoder refuses: %v", body, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fast path decoded %q as %+v, the strict decoder as %+v", body, got, want)
	}
	return true
}

// The fast path of DecodeRequest takes the plain bodies, giving exactly
// the request the strict decoder gives, and leaves every other body,
// well formed or not, to it.
func TestDecodeRequestFast(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body string
		fast bool
	}{
		{`{"output": 1}`, true},
		{` {"output":{"a":[1,2.5e-3,-0,true,false,null,"x\"\\\/\b\f\n\r\t\u00e9"]},"expected_schema":{"type":"object"}} `, true},
		{"\ufeff{\"output\": \"é☃𝄞\", \"context\": {\"k\": []}, \"expected_schema\": true}", true},
		{`{"output": null}`, true},
		{`{"expected_schema": {}, "output": [], "context": null}`, true},
		{`{"output": {"a": 1, "a": 2}}`, true}, // duplicates inside a value are the engine's to find
		{`{}`, false},
		{`{"expected_schema": {}}`, false},
		{`{"output": 1, "output": 2}`, false},
		{`{"Output": 1}`, false},
		{`{"\u006futput": 1}`, false},
		{`{"output": 1, "options": {}}`, false},
		{`{"output": 1, "validation_types": ["schema"]}`, false},
		{`{"output": 1}}`, false},
		{`{"output": 1} {}`, false},
		{`{"output": 1,}`, false},
		{`{"output": [1,]}`, false},
		{`{"output": {"a" 1}}`, false},
		{`{"output": {"a": 1,}}`, false},
		{`{"output": 01}`, false},
		{`{"output": 1.}`, false},
		{`{"output": .5}`, false},
		{`{"output": -}`, false},
		{`{"output": 1e}`, false},
		{`{"output": 1e+}`, false},
		{`{"output": +1}`, false},
		{`{"output": tru}`, false},
		{`{"output": truex}`, false},
		{`{"output": nul}`, false},
		{`{"output": "\x"}`, false},
		{`{"output": "\u12G4"}`, false},
		{`{"output": "\u12"}`, false},
		{"{\"output\": \"a\tb\"}", false},
		{"{\"output\": \"\xff\"}", false},
		{"{\"output\": \"\xe2\x82\"}", false},
		{`{"output": "abc`, false},
		{`{"output": [`, false},
		{`{"output": 1`, false},
		{`[{"output": 1}]`, false},
		{`{"output": [[[[1]]]]}`, false}, // deeper than the 4 levels of this table
		{`{"output": [[[1]]]}`, true},
	} {
		if got := sameAsStrict(t, []byte(tc.body), 4); got != tc.fast {
			t.Errorf("%q: fast path taken %v, want %v", tc.body, got, tc.fast)
		}
	}
}

// Every POST /validate body of the benchmark corpus takes the fast path.
func TestDecodeRequestFastCorpus(t *testing.T) {
	t.Parallel()
	c := sharedtest.LoadBenchCorpus(t)
	var docs [][2][]byte
	for _, cs := range c.Cases {
		docs = append(docs, [2][]byte{cs.Schema, []byte(cs.Valid)}, [2][]byte{cs.Schema, []byte(cs.Invalid)})
	}
	docs = append(docs, [2][]byte{c.Large.Schema, []byte(c.Large.Valid)}, [2][]byte{c.Large.Schema, []byte(c.Large.Invalid)})
	for _, d := range docs {
		for _, indent := range []bool{false, true} {
			body, err := json.Marshal(map[string]json.RawMessage{"output": d[1], "expected_schema": d[0]})
			if err != nil {
				t.Fatal(err)
			}
			if indent {
				var b bytes.Buffer
				if err := json.Indent(&b, body, "", "\t"); err != nil {
					t.Fatal(err)
				}
				body = b.Bytes()
			}
			if !sameAsStrict(t, body, jsonvalue.DefaultMaxDepth) {
				t.Fatalf("corpus body %.200s… left the fast path", body)
			}
		}
	}
}

// FuzzDecodeRequestFast: whatever the body, the fast path answers only
// where the strict decoder succeeds, with the same request.
func FuzzDecodeRequestFast(f *testing.F) {
	for _, s := range []string{`{"output": 1}`, `{"output": {"a": [1, "x\u00e9"]}, "expected_schema": {"type": "object"}}`,
		`{"output": 1, "output": 2}`, `{"output": 1}}`, `{"output": "\ud800"}`, `{"context": [], "output": -0.5E+3}`,
		"{\"output\": \"\xc3\xa9\"}", `{"output": [[[[[1]]]]]}`, strings.Repeat("[", 40)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		sameAsStrict(t, body, 4)
	})
}
