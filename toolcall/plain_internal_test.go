package toolcall

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/sharedtest"
)

// sameAnswer checks call through Check and through the usual path alone
// (decoded, normalized, checked) and fails t unless both answer the same:
// the same error, or the same JSON of the CheckResult (the durations set
// aside) and the same normalized arguments. It reports whether Check
// answered without decoding.
func sameAnswer(t testing.TB, ts *Toolset, call Call) bool {
	t.Helper()
	ctx := context.Background()
	got, gerr := ts.Check(ctx, call)
	want, werr := ts.checkDecoded(ctx, call, time.Now())
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Fatalf("%s %s: error %v, the usual path's %v", call.Tool, call.Arguments, gerr, werr)
	}
	if gerr != nil {
		return false
	}
	got.Result.Metadata.DurationMS, want.Result.Metadata.DurationMS = 0, 0
	gj, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	wj, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gj, wj) {
		t.Fatalf("%s %s:\n got %s\nwant %s", call.Tool, call.Arguments, gj, wj)
	}
	if ga, wa := got.Arguments(), want.Arguments(); !reflect.DeepEqual(ga, wa) {
		t.Fatalf("%s %s: arguments %#v, the usual path's %#v", call.Tool, call.Arguments, ga, wa)
	}
	if want.NormalizedArguments == nil || want.raw != nil {
		t.Fatalf("%s: the usual path kept no decoded arguments", call.Tool)
	}
	return got.raw != nil
}

// variants are the arguments doc and forms of it that the undecoded path
// must leave to the usual one, or answer alike: spaced out, with a
// byte-order mark, a key repeated, an unknown parameter, an escaped key,
// cut short, null, an array.
func variants(doc string) []string {
	out := []string{doc, " \n" + doc + "\t\n", "\ufeff" + doc, doc + " x", doc[:len(doc)/2], "null", "[]", "{}", ` {"zz_unknown": 1}`}
	if rest, ok := strings.CutPrefix(strings.TrimSpace(doc), "{"); ok && strings.TrimSpace(rest) != "}" {
		out = append(out,
			`{"zz_unknown": true, `+rest,
			`{"\u0061": 1, `+rest,
			`{"a\"b": 1, `+rest)
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(doc), &m) == nil {
			for k, v := range m {
				// A repeated key, and the key's value as a string and
				// as a list of itself: what normalization coerces.
				out = append(out, `{"`+k+`": `+string(v)+`, `+rest,
					`{"`+k+`": "7", `+rest, `{"`+k+`": [`+string(v)+`], `+rest)
				break
			}
		}
	}
	return out
}

// The undecoded answer is the usual path's, byte for byte, on every call
// of the benchmark corpus (the 117 github-mcp-server tools, valid and
// invalid arguments and their variants) and of the tau-bench airline
// conversations, with and without a goal that lifts limits; and it is the
// answer of nearly every valid corpus call.
func TestPlainSameAnswer(t *testing.T) {
	t.Parallel()
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	corpus := sharedtest.LoadBenchCorpus(t)
	var defs []Definition
	for _, cs := range corpus.Cases {
		var s any
		if err := json.Unmarshal(cs.Schema, &s); err != nil {
			t.Fatal(err)
		}
		defs = append(defs, Definition{Name: cs.Name, Kind: KindMCP, InputSchema: s})
	}
	ts, err := c.NewToolset(defs...)
	if err != nil {
		t.Fatal(err)
	}
	plain, calls, closed := 0, 0, 0
	for _, ct := range ts.contracts {
		if ct.closed != nil {
			closed++
		}
	}
	t.Logf("%d of %d corpus tools decided by their closed schema", closed, len(ts.contracts))
	for _, cs := range corpus.Cases {
		if sameAnswer(t, ts, Call{Tool: cs.Name, Arguments: json.RawMessage(cs.Valid)}) {
			plain++
		}
		for _, doc := range append(variants(cs.Valid), variants(cs.Invalid)...) {
			for _, goal := range []string{"", "list all of them"} {
				sameAnswer(t, ts, Call{Tool: cs.Name, Arguments: json.RawMessage(doc), Goal: goal})
				calls++
			}
		}
	}
	t.Logf("%d of %d valid corpus calls answered undecoded; %d variants compared", plain, len(corpus.Cases), calls)
	if plain < len(corpus.Cases)*9/10 {
		t.Errorf("%d of %d valid corpus calls answered undecoded, want at least 90%%", plain, len(corpus.Cases))
	}

	tools, convs := sharedtest.AirlineTraces(t)
	adefs, err := ParseDefinitions(tools, "tau-bench-airline-tools.json")
	if err != nil {
		t.Fatal(err)
	}
	ats, err := c.NewToolset(adefs...)
	if err != nil {
		t.Fatal(err)
	}
	n, aplain := 0, 0
	for _, conv := range convs {
		for _, m := range conv {
			for _, tc := range m.ToolCalls {
				n++
				if sameAnswer(t, ats, Call{Tool: tc.Function.Name, Arguments: json.RawMessage(tc.Function.Arguments)}) {
					aplain++
				}
			}
		}
	}
	t.Logf("tau-bench airline: %d of %d calls answered undecoded", aplain, n)
	if n < 100 {
		t.Errorf("only %d tau-bench calls", n)
	}
}

// closable is true for the contracts whose closed schema alone may decide
// the undecoded path, and false for each thing that keeps plainKeys
// needed.
func TestClosable(t *testing.T) {
	t.Parallel()
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, schema, applies string
		want                  bool
	}{
		{"plain", `{"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}, "required": ["q"]}`, "", true},
		{"no properties", `{"type": "object"}`, "", true},
		{"a default", `{"type": "object", "properties": {"n": {"type": "integer", "default": 3}}}`, "", false},
		{"an action scope", `{"type": "object", "properties": {"a": {"type": "string"}, "id": {"type": "string"}}}`, `{"id": {"a": ["get"]}}`, false},
		{"an array", `{"type": "object", "properties": {"ids": {"type": "array", "items": {"type": "integer"}}}}`, "", true},
		{"an array or a number", `{"type": "object", "properties": {"ids": {"type": ["array", "number"]}}}`, "", true},
		{"an array or an integer", `{"type": "object", "properties": {"ids": {"type": ["array", "integer"]}}}`, "", false},
		{"a $ref beside a number's type", `{"type": "object", "properties": {"n": {"$ref": "#/$defs/n", "type": "integer"}}, "$defs": {"n": {}}}`, "", false},
		{"allOf", `{"type": "object", "allOf": [{"properties": {"q": {"type": "string"}}}]}`, "", false},
		{"anyOf", `{"type": "object", "properties": {"q": {}}, "anyOf": [{"required": ["q"]}]}`, "", false},
		{"patternProperties", `{"type": "object", "patternProperties": {"^x": {}}}`, "", false},
		{"additionalProperties", `{"type": "object", "additionalProperties": {"type": "string"}}`, "", false},
		{"$ref", `{"$ref": "#/$defs/a", "$defs": {"a": {"type": "object"}}}`, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			def := `{"name": "t", "inputSchema": ` + tc.schema
			if tc.applies != "" {
				def += `, "applies_when": ` + tc.applies
			}
			defs, err := ParseDefinitions([]byte("["+def+"}]"), "")
			if err != nil {
				t.Fatal(err)
			}
			ts, err := c.NewToolset(defs...)
			if err != nil {
				t.Fatal(err)
			}
			if got := ts.contracts["t"].closed != nil; got != tc.want {
				t.Errorf("closable %v, want %v", got, tc.want)
			}
		})
	}
}

// FuzzPlainCheck holds Check's undecoded answer to the usual path's on any
// arguments, for a contract with every kind of normalization: a default,
// an action scope, parameters a coercion applies to, unknown parameters
// reported; and for one without any, which its closed schema decides
// alone (see closable).
func FuzzPlainCheck(f *testing.F) {
	c, err := New()
	if err != nil {
		f.Fatal(err)
	}
	defs, err := ParseDefinitions([]byte(`[{"name": "a", "inputSchema": {"type": "object", "required": ["q"], "properties": {
		"q": {"type": "string", "minLength": 1}, "n": {"type": "integer", "default": 5}, "tags": {"type": "array", "items": {"type": "string"}},
		"action": {"type": "string", "enum": ["list", "get"]}, "id": {"type": "integer"}, "o": {"type": "object"}}},
		"applies_when": {"id": {"action": ["get"]}}},
		{"name": "b", "inputSchema": {"type": "object", "properties": {"x": {}}, "additionalProperties": true}},
		{"name": "c", "inputSchema": {"type": "object", "required": ["q"], "properties": {
		"q": {"type": "string"}, "n": {"type": ["integer", "null"], "minimum": 1}, "r": {"type": "number"}, "o": {"type": "object"},
		"l": {"type": "array", "items": {"type": "integer"}}, "m": {"type": ["array", "number"]}}}}]`), "")
	if err != nil {
		f.Fatal(err)
	}
	ts, err := c.NewToolset(defs...)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{`{"q": "x", "n": 3}`, `{"q": "x"}`, `{"q": "x", "n": "3"}`, `{"q": "x", "n": 1, "tags": "t"}`,
		`{"q": "x", "n": 1, "action": "list", "id": 4}`, `{"q": "x", "n": 1, "o": {"k": 1, "k": 2}}`, `{"n": 1, "q": "\u00e9"}`,
		`{"q":"x","n":1e400}`, "{\"q\":\"\xff\",\"n\":1}", `{"q": "x", "n": 1, "zz": 1}`, `{"x": [1, {"y": null}]}`, ``} {
		f.Add("a", s)
		f.Add("b", s)
		f.Add("c", s)
	}
	for _, s := range []string{`{"q": "x", "n": 1.0, "r": 2}`, `{"q": "x", "r": "2"}`, `{"q": "x", "n": null}`, `{"\u0071": "x", "n": 3}`,
		`{"q": "x", "o": {"zz": 1}}`, `{"q": "x", "zz": 1}`, ` {"q": "x"} `, `{"q": "x", "q": "y"}`, `{"q": "x", "n": "0"}`,
		`{"q": "x", "l": 1}`, `{"q": "x", "l": [1.0]}`, `{"q": "x", "m": 1.0}`, `{"q": "x", "m": [1]}`, `{"q": "x", "m": "1"}`, `{"q": "x", "m": null}`} {
		f.Add("c", s)
	}
	// Nesting about the decoder's limit (jsonvalue.DefaultMaxDepth), which
	// the undecoded path must keep.
	for _, n := range []int{254, 255, 256, 257} {
		f.Add("b", `{"x": `+strings.Repeat("[", n)+strings.Repeat("]", n)+`}`)
		f.Add("a", `{"q": "x", "n": 1, "o": `+strings.Repeat(`{"k":`, n)+`1`+strings.Repeat("}", n)+`}`)
	}
	f.Fuzz(func(t *testing.T, tool, args string) {
		sameAnswer(t, ts, Call{Tool: tool, Arguments: json.RawMessage(args)})
	})
}
