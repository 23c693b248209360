package judge

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/result"
)

// twoEngines returns an engine and one just like it whose fast path is
// off.
func twoEngines(t testing.TB) (fast, slow *Engine) {
	t.Helper()
	fast, err := New()
	if err != nil {
		t.Fatal(err)
	}
	slow, err = New()
	if err != nil {
		t.Fatal(err)
	}
	if fast.fast == nil {
		t.Fatal("the default engine does not take the fast path")
	}
	slow.fast = nil
	return fast, slow
}

// sameResult runs req through both engines and fails unless they give the
// same result (but for the duration) or the same error.
func sameResult(t *testing.T, name string, fast, slow *Engine, req *Request) {
	t.Helper()
	rf, errf := fast.Validate(context.Background(), req)
	rs, errs := slow.Validate(context.Background(), req)
	if (errf == nil) != (errs == nil) || errf != nil && errf.Error() != errs.Error() {
		t.Errorf("%s: errors differ: fast path %v, slow path %v", name, errf, errs)
		return
	}
	if errf != nil {
		return
	}
	rf.Metadata.DurationMS, rs.Metadata.DurationMS = 0, 0
	if !reflect.DeepEqual(rf, rs) {
		jf, _ := json.Marshal(rf)
		js, _ := json.Marshal(rs)
		t.Errorf("%s: results differ:\nfast path %s\nslow path %s", name, jf, js)
	}
}

// Through the engine, every document of the bench corpus gets the same
// result with and without the fast path, and the fast path answers every
// one, valid or invalid, without decoding it (the engine's decoded-schema cache is
// the only thing the layers would have used).
func TestFastPathEngineCorpus(t *testing.T) {
	t.Parallel()
	c := sharedtest.LoadBenchCorpus(t)
	fast, slow := twoEngines(t)
	for _, tc := range c.Cases {
		for _, doc := range []string{tc.Valid, tc.Invalid} {
			sameResult(t, tc.Name, fast, slow, &Request{Output: json.RawMessage(doc), ExpectedSchema: tc.Schema})
		}
		for _, doc := range []string{tc.Valid, tc.Invalid} {
			req := &Request{Output: json.RawMessage(doc), ExpectedSchema: tc.Schema}
			// A string output that may hold JSON to parse is the usual
			// path's (plainString); the corpus's strings hold none.
			if fast.validateFast(context.Background(), req, fast.clock()) == nil {
				t.Errorf("%s: the document %s did not take the fast path", tc.Name, doc)
			}
		}
	}
	for _, doc := range []string{c.Large.Valid, c.Large.Invalid} {
		req := &Request{Output: json.RawMessage(doc), ExpectedSchema: c.Large.Schema}
		sameResult(t, "large", fast, slow, req)
		if fast.validateFast(context.Background(), req, fast.clock()) == nil {
			t.Errorf("a large document did not take the fast path")
		}
	}
}

// Inputs that only the usual path handles give the same result or error
// through both engines: the fast path never accepts what the slow path
// rejects.
func TestFastPathEngineEdges(t *testing.T) {
	t.Parallel()
	fast, slow := twoEngines(t)
	obj := `{"type": "object", "properties": {"a": {"type": "integer", "maximum": 3}}, "minProperties": 2}`
	cases := []struct{ name, schema, output string }{
		{"duplicate key", obj, `{"a": 9, "a": 1}`},
		{"duplicate key counts once", obj, `{"a": 1, "a": 2}`},
		{"valid", obj, `{"a": 1, "b": 2}`},
		{"duplicate key the schema does not read", `{"type": "object"}`, `{"role": "user", "role": "admin"}`},
		{"duplicate key under schema true", `true`, `{"role": "user", "role": "admin"}`},
		{"duplicate key deep in an unchecked array", `{"type": "array"}`, `[{"a": [{"b": 1, "b": 2}]}]`},
		{"duplicate escaped key", `{"type": "object"}`, `{"a": 1, "\u0061": 2}`},
		{"invalid UTF-8 in a key", `{"propertyNames": {"maxLength": 1}}`, "{\"\xff\xfe\": 1}"},
		{"invalid UTF-8 in a value", `{"maxLength": 1}`, "\"\xff\xfe\""},
		{"unpaired surrogate", `{"maxLength": 1}`, `"\ud800\ud800"`},
		{"escaped string", `{"const": "a\nb"}`, `"a\u000ab"`},
		{"number too large", `{}`, `[1e99999]`},
		{"number too long", `{"type": "array"}`, `[` + string(make([]byte, 0)) + `1` + zeros(1200) + `]`},
		{"too deep", `{}`, nest(300)},
		{"trailing data", `{}`, `{} x`},
		{"malformed", `{"type": "object"}`, `{"a" 1}`},
		{"string holding JSON", `{"type": "object"}`, `"{\"a\": 1}"`},
		{"string output", `{"type": "string"}`, `"plain"`},
		{"plain string output, wrong type", `{"type": "object", "required": ["a"]}`, `"not-an-object"`},
		{"string output with a bracket", `{"type": "object"}`, `"see [1]"`},
		{"string holding an array", `{"type": "array"}`, `" [1, 2]"`},
		{"string with a fence", `{"type": "object"}`, "\"text\\n```json\\n{\\\"a\\\": 1}\\n```\""},
		{"string with an unclosed fence", `{"type": "object"}`, "\"```json\\n{\""},
		{"string holding JSON after a no-break space", `{"type": "object"}`, `"\u00a0{\"a\": 1}"`},
		{"string with trailing data", `{"type": "string"}`, `"plain" x`},
		{"integer 1.0", `{"type": "integer"}`, `1.0`},
		{"big integer", `{"type": "integer", "minimum": 1e30}`, `1000000000000000000000000000001`},
		{"multipleOf float", `{"multipleOf": 0.01}`, `0.075`},
		{"multipleOf float ok", `{"multipleOf": 0.01}`, `19.99`},
		{"enum object", `{"enum": [{"a": [1, 2.0]}, null]}`, `{"a": [1.0, 2]}`},
		{"uniqueItems", `{"uniqueItems": true}`, `[{"a": 1, "b": 2}, {"b": 2, "a": 1.0}]`},
		{"invalid schema", `{"type": 12}`, `1`},
		{"schema not JSON", `{"type": `, `1`},
		{"ref cycle", `{"$defs": {"a": {"anyOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a", "$schema": "https://json-schema.org/draft/2020-12/schema"}`, `1`},
	}
	for _, tc := range cases {
		for _, mode := range []string{"", OutputValue} {
			req := &Request{Output: json.RawMessage(tc.output), ExpectedSchema: json.RawMessage(tc.schema),
				Options: Options{OutputMode: mode}}
			sameResult(t, tc.name+"/"+mode, fast, slow, req)
		}
	}
}

// A document with a repeated key gets, on the fast path, the result of
// the usual path: the issues of the value the decoder keeps (the last
// member of a repeated key) and a duplicate_key warning per repetition,
// located and worded alike. Those the fast path answers must not go to
// the usual path.
func TestFastPathDuplicateKeys(t *testing.T) {
	t.Parallel()
	fast, slow := twoEngines(t)
	obj := `{"type": "object", "properties": {"a": {"type": "integer", "maximum": 3}, "b": {"type": "string"}},
		"required": ["a"], "additionalProperties": false, "minProperties": 2}`
	many := `{"a": 1` + strings.Repeat(`, "a": 1`, 101) + `}`
	cases := []struct {
		name, schema, output string
		fast                 bool
	}{
		{"earlier invalid, last valid", obj, `{"a": 9, "b": "x", "a": 1}`, true},
		{"earlier valid, last invalid", obj, `{"a": 1, "b": "x", "a": 9}`, true},
		{"counts once", obj, `{"a": 1, "a": 2}`, true},
		{"three times", obj, "{\"a\": \"x\",\n \"a\": 2,\n \"a\": 3}", true},
		{"repeated unknown key", obj, `{"a": 1, "c": 1, "b": "x", "c": 2}`, true},
		{"nested under a dropped member", obj, `{"b": {"z": 1, "z": 2}, "a": 1, "b": "y"}`, true},
		{"nested under the kept member", `{"properties": {"b": {"properties": {"z": {"type": "string"}}}}}`,
			`{"b": 1, "b": {"z": 1, "z": "s"}}`, true},
		{"in an array", `{"type": "array", "items": {"required": ["k"]}}`, `[{"k": 1}, {"k": 1, "j": 2, "k": 3}, {"j": 1, "j": 2}]`, true},
		{"under schema true", `true`, `{"role": "user", "role": "admin"}`, true},
		{"valid", `{"type": "object"}`, `{"role": "user", "role": "admin"}`, true},
		{"last value at the end of the object", obj, `{"b": "x", "a": 1, "b": 2}`, true},
		{"escaped key", `{"type": "object"}`, `{"a": 1, "\u0061": 2}`, false},
		{"invalid UTF-8 in a dropped member", `{"type": "object"}`, "{\"a\": \"\xff\", \"a\": 1}", false},
		{"number too large in a dropped member", `{"type": "object"}`, `{"a": 1e99999, "a": 1}`, false},
		{"more repetitions than the decoder lists", `{"type": "object"}`, many, false},
	}
	for _, tc := range cases {
		req := &Request{Output: json.RawMessage(tc.output), ExpectedSchema: json.RawMessage(tc.schema)}
		sameResult(t, tc.name, fast, slow, req)
		if got := fast.validateFast(context.Background(), req, fast.clock()) != nil; got != tc.fast {
			t.Errorf("%s: took the fast path = %v, want %v", tc.name, got, tc.fast)
		}
	}
}

func zeros(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0'
	}
	return string(b)
}

func nest(n int) string {
	b := make([]byte, 0, 2*n)
	for range n {
		b = append(b, '[')
	}
	for range n {
		b = append(b, ']')
	}
	return string(b)
}

// A schema slice reused by the caller is found by its address without a
// hash, but its bytes still decide: bytes changed in place, or a shorter
// slice at the same address, are another schema.
func TestFastPathSchemaChangedInPlace(t *testing.T) {
	t.Parallel()
	e, err := New()
	if err != nil {
		t.Fatal(err)
	}
	buf := []byte(`{"maximum": 3}`)
	cases := []struct {
		name   string
		schema func() []byte
		valid  bool
	}{
		{"first", func() []byte { return buf }, true},
		{"again", func() []byte { return buf }, true},
		{"changed in place", func() []byte { buf[12] = '1'; return buf }, false},
		{"changed back", func() []byte { buf[12] = '3'; return buf }, true},
		{"shorter at the same address", func() []byte { copy(buf, `{"maximum":1}`); return buf[:13] }, false},
		{"a copy", func() []byte { return []byte(`{"maximum": 3}`) }, true},
	}
	for _, tc := range cases {
		req := &Request{Output: json.RawMessage(`2`), ExpectedSchema: tc.schema()}
		r, err := e.Validate(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r.Valid != tc.valid {
			t.Errorf("%s: schema %s: valid = %v, want %v", tc.name, req.ExpectedSchema, r.Valid, tc.valid)
		}
	}
}

// A valid document of the fast path costs one allocation through the
// engine, its result; the validator allocates nothing. An invalid one
// costs at most two: the result and its issues, whose texts the schema's
// nodes keep once built (decision 89). Both hold for every document of the corpus, through
// Engine.Validate and through Prepared.Validate. (The result's
// self-check, on in the test script, is turned off here with
// WithSelfCheck(nil): it validates the result against the specification's
// schema, which allocates.) The schema layer gives each invalid
// document's issues already in the order of a result, so that
// result.Found neither sorts nor compacts them.
func TestFastPathAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop the scanner at random")
	}
	c := sharedtest.LoadBenchCorpus(t)
	e, err := New(WithSelfCheck(nil))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range c.Cases {
		req := &Request{Output: json.RawMessage(tc.Valid), ExpectedSchema: tc.Schema}
		if r, err := e.Validate(ctx, req); err != nil || !r.Valid {
			t.Fatalf("%s: %v %+v", tc.Name, err, r)
		}
		if n := testing.AllocsPerRun(20, func() { _, _ = e.Validate(ctx, req) }); n != 1 {
			t.Errorf("%s: %v allocations per valid document, want 1 (the result)", tc.Name, n)
		}
		p, err := e.Prepare(ctx, &Request{ExpectedSchema: tc.Schema})
		if err != nil {
			t.Fatalf("%s: %v", tc.Name, err)
		}
		valid, invalid := json.RawMessage(tc.Valid), json.RawMessage(tc.Invalid)
		if n := testing.AllocsPerRun(20, func() { _, _ = p.Validate(ctx, valid) }); n != 1 {
			t.Errorf("%s: %v allocations per valid document through Prepared.Validate, want 1 (the result)", tc.Name, n)
		}
		// An invalid one: the result and its issues. Their texts were
		// built by the first call and are kept on the schema's nodes
		// (decision 89), so the calls counted build none.
		req = &Request{Output: invalid, ExpectedSchema: tc.Schema}
		if r, err := e.Validate(ctx, req); err != nil || r.Valid {
			t.Fatalf("%s: %v %+v", tc.Name, err, r)
		}
		if n := testing.AllocsPerRun(20, func() { _, _ = e.Validate(ctx, req) }); n > 1 {
			t.Errorf("%s: %v allocations per invalid document, want 1 (the result and its issues, result.Room)", tc.Name, n)
		}
		if n := testing.AllocsPerRun(20, func() { _, _ = p.Validate(ctx, invalid) }); n > 1 {
			t.Errorf("%s: %v allocations per invalid document through Prepared.Validate, want 1 (the result and its issues, result.Room)", tc.Name, n)
		}
		issues, _, _, sure := e.fastSchema(req).dups.IssuesDuplicatesRoom(invalid, e.maxDepth)
		if !sure || len(issues) == 0 {
			t.Fatalf("%s: the fast path is not sure of the invalid document (%v, %d issues)", tc.Name, sure, len(issues))
		}
		for i := 1; i < len(issues); i++ {
			if result.CompareIssues(issues[i-1], issues[i]) >= 0 {
				t.Errorf("%s: the layer's issues %d and %d are not in strictly increasing order: %+v, %+v", tc.Name, i-1, i, issues[i-1], issues[i])
			}
		}
	}
}

// A Prepared's fast path takes its expected schema's document as found at
// Prepare: it does not look it up again by its bytes, so it neither adds it
// back once the engine's table of documents has started over nor depends on
// the table at all, and its answers stay those of the prepared schema.
func TestPreparedKeepsItsDocument(t *testing.T) {
	t.Parallel()
	e, err := New(WithSelfCheck(nil))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p, err := e.Prepare(ctx, &Request{ExpectedSchema: json.RawMessage(`{"type": "object", "required": ["a"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	outs := []struct {
		out   string
		valid bool
	}{{`{"a": 1}`, true}, {`{}`, false}, {`{"b": 2}`, false}}
	// The first outputs keep the compiled schema on the document; then the
	// table starts over, as it does when full.
	for round := range 2 {
		if round == 1 {
			e.docs.mu.Lock()
			e.docs.startOver()
			e.docs.mu.Unlock()
		}
		for _, tc := range outs {
			r, err := p.Validate(ctx, json.RawMessage(tc.out))
			if err != nil || r.Valid != tc.valid {
				t.Fatalf("round %d, %s: %v %+v, want valid %v", round, tc.out, err, r, tc.valid)
			}
		}
	}
	if st := e.docs.stats(); st.Entries != 0 {
		t.Errorf("the engine holds %d schema documents after the Prepared's outputs, want 0: it looked its schema up again", st.Entries)
	}
}

// TestFastPathAssertFormat holds the fast path to the schema prepared for
// the request's assert_format: one schema's two preparations (without and
// with the format asserted, which draft 2020-12 only annotates otherwise)
// sit in two slots of its document, which validateFastDoc reads itself; alternated in both orders, each request
// gets the slow path's answer, through the fast path.
func TestFastPathAssertFormat(t *testing.T) {
	schema := []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"email": {"type": "string", "format": "email"}}}`)
	out := json.RawMessage(`{"email": "not an address"}`)
	for _, order := range [][]bool{{false, true, false, true}, {true, false, true, false}} {
		fast, slow := twoEngines(t)
		for _, af := range order {
			req := &Request{Output: out, ExpectedSchema: schema, Options: Options{AssertFormat: af}}
			sameResult(t, "assert_format", fast, slow, req)
			r := fast.validateFast(context.Background(), req, fast.clock())
			if r == nil {
				t.Fatalf("assert_format %v: the fast path did not answer", af)
			}
			if r.Valid == af {
				t.Errorf("assert_format %v: valid %v", af, r.Valid)
			}
		}
	}
}
