package schema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/result"
)

// verdicts returns both paths' verdicts on doc: the fast path's (and
// whether it was sure) and the slow path's, from the issues Validate
// gives when the fast path is skipped. It fails t when the fast path
// finds valid a document the decoder warns about (a duplicate key): the
// engine and Validator.Validate answer a valid verdict of the fast path
// alone, so the warning would be lost; an invalid verdict sends them to
// the slow path, which reports it.
func verdicts(t testing.TB, v *schema.Validator, doc []byte) (fast, sure, slow bool) {
	t.Helper()
	fast, sure = schema.FastVerdict(v, doc)
	if _, dups, err := jsonvalue.DecodeDuplicates(doc, 0); sure && fast && err == nil && len(dups) > 0 {
		t.Errorf("document %.200q: the fast path found it valid, but the decoder warns of the duplicate key %s", doc, dups[0].Path)
	}
	issues, err := schema.SlowValidate(v, doc)
	if err != nil {
		// Not JSON, or a $ref cycle at run time: the fast path must not
		// have found it valid.
		return fast, sure, false
	}
	slow = true
	for _, is := range issues {
		if is.Severity == result.Error {
			slow = false
		}
	}
	return fast, sure, slow
}

// TestFastPathSuite runs every required test of the JSON Schema Test Suite
// (draft-07 and 2020-12) on both paths: wherever the fast path is sure, its
// verdict must be the slow path's and the suite's; and the slow path must
// agree with the suite. It also counts how many tests the fast path
// decided, so that a fast path that gave up everywhere would fail.
func TestFastPathSuite(t *testing.T) {
	t.Parallel()
	suiteDir := sharedtest.Dir(t, "json-schema-test-suite")
	remotes := map[string]json.RawMessage{}
	for uri, data := range sharedtest.SuiteRemotes(t, suiteDir) {
		remotes[uri] = data
	}
	var total, fastSchemas, schemas, decided, duplicated, dupAnswered atomic.Int64
	for _, d := range sharedtest.SuiteDrafts {
		for _, file := range sharedtest.SuiteFiles(t, suiteDir, d) {
			for _, g := range sharedtest.ReadSuiteFile(t, file, d) {
				v, err := schema.Compile(g.Schema, schema.Options{Schemas: remotes})
				if err != nil {
					t.Errorf("%s / %s: Compile: %v", filepath.Base(file), g.Description, err)
					continue
				}
				schemas.Add(1)
				if fast, _, _ := v.Path(); fast {
					fastSchemas.Add(1)
				}
				for _, tc := range g.Tests {
					total.Add(1)
					fast, sure, slow := verdicts(t, v, tc.Data)
					if slow != tc.Valid {
						t.Errorf("%s / %s / %s: slow path valid = %v, want %v", filepath.Base(file), g.Description, tc.Description, slow, tc.Valid)
					}
					if sure {
						decided.Add(1)
						if fast != slow || fast != tc.Valid {
							t.Errorf("%s %s / %s / %s: fast path valid = %v, slow path %v, suite %v",
								d.Dir, filepath.Base(file), g.Description, tc.Description, fast, slow, tc.Valid)
						}
					}
					// The same document with a key repeated, alone and
					// inside an array and an object: verdicts fails the
					// test wherever the fast path's verdict decides one;
					// the fast path with duplicates must give the
					// decoder's repeated keys and the issues of the value
					// it keeps.
					if dup := repeatFirstKey(tc.Data); dup != nil {
						duplicated.Add(1)
						for _, doc := range []string{string(dup), "[" + string(dup) + "]", `{"x": ` + string(dup) + "}"} {
							verdicts(t, v, []byte(doc))
							if duplicatesMatchDecoder(t, v, []byte(doc)) {
								dupAnswered.Add(1)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("suite: %d schemas, %d on the fast path; %d tests, %d decided by the fast path; %d objects checked again with a key repeated",
		schemas.Load(), fastSchemas.Load(), total.Load(), decided.Load(), duplicated.Load())
	t.Logf("suite: of the %d documents with a repeated key, the fast path answers %d itself", 3*duplicated.Load(), dupAnswered.Load())
	if dupAnswered.Load()*2 < 3*duplicated.Load() {
		t.Errorf("the fast path answers only %d of the %d documents with a repeated key", dupAnswered.Load(), 3*duplicated.Load())
	}
	if duplicated.Load() < 100 {
		t.Errorf("only %d suite documents were objects to repeat a key of", duplicated.Load())
	}
	if fastSchemas.Load()*2 < schemas.Load() {
		t.Errorf("only %d of %d suite schemas take the fast path", fastSchemas.Load(), schemas.Load())
	}
}

// TestFastPathBenchCorpus checks both paths on every document of the bench
// corpus: the fast path decides every valid one, agreeing with the labels.
func TestFastPathBenchCorpus(t *testing.T) {
	t.Parallel()
	c := sharedtest.LoadBenchCorpus(t)
	check := func(name string, sch json.RawMessage, doc string, want bool) {
		v, err := schema.Compile(sch, schema.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if fast, _, why := v.Path(); !fast {
			t.Errorf("%s: the schema takes the slow path: %s", name, why)
		}
		fast, sure, slow := verdicts(t, v, []byte(doc))
		if slow != want {
			t.Errorf("%s: slow path valid = %v, want %v", name, slow, want)
		}
		if sure && fast != want {
			t.Errorf("%s: fast path valid = %v, want %v", name, fast, want)
		}
		if want && !sure {
			t.Errorf("%s: the fast path did not decide a valid document", name)
		}
	}
	for _, tc := range c.Cases {
		check(tc.Name+"/valid", tc.Schema, tc.Valid, true)
		check(tc.Name+"/invalid", tc.Schema, tc.Invalid, false)
	}
	check("large/valid", c.Large.Schema, c.Large.Valid, true)
	check("large/invalid", c.Large.Schema, c.Large.Invalid, false)
}

// Hostile schemas and documents stay bounded on the fast path: a $ref loop
// over the same value and over-deep documents make it give up (the slow
// path then reports them), a huge enum is one map lookup, and a pattern
// that backtracking engines take exponential time on runs in linear time
// in Go's RE2-based regexp.
func TestFastPathHostile(t *testing.T) {
	t.Parallel()
	enum := make([]string, 100000)
	for i := range enum {
		enum[i] = fmt.Sprintf("%q", fmt.Sprint("v", i))
	}
	for _, tc := range []struct {
		name, schema, doc string
		valid, sure       bool
	}{
		{"ref loop", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "allOf": [{"type": "object"}, {"$ref": "#"}]}`, `{}`, false, false},
		{"deep document", `{"items": {"$ref": "#"}}`, strings.Repeat("[", 5000) + strings.Repeat("]", 5000), false, false},
		{"deep valid", `{"items": {"$ref": "#"}}`, strings.Repeat("[", 200) + strings.Repeat("]", 200), true, true},
		{"huge enum", `{"enum": [` + strings.Join(enum, ",") + `]}`, `"v99999"`, true, true},
		{"catastrophic pattern", `{"pattern": "^(a+)+$"}`, `"` + strings.Repeat("a", 100000) + `!"`, false, true},
	} {
		v, err := schema.Compile([]byte(tc.schema), schema.Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if fast, _, why := v.Path(); !fast {
			t.Errorf("%s: slow path: %s", tc.name, why)
			continue
		}
		valid, sure := schema.FastVerdict(v, []byte(tc.doc))
		if valid != tc.valid || sure != tc.sure {
			t.Errorf("%s: fast path valid %v sure %v, want %v %v", tc.name, valid, sure, tc.valid, tc.sure)
		}
	}
}

// Duplicate keys, which the decoder resolves by keeping the last: the fast
// path never gives a verdict the slow path does not, also where a member
// it found invalid is dropped by the decoder and the failure would make
// the value valid (not, oneOf, if, contains); and objects of more members
// than are compared as they are read are decided, duplicates found.
func TestFastPathDuplicateKeys(t *testing.T) {
	t.Parallel()
	big := func(dup bool) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range 200 {
			fmt.Fprintf(&b, `"k%d": %d, `, i, i)
		}
		if dup {
			b.WriteString(`"k7": 70, `)
		}
		b.WriteString(`"last": 1}`)
		return b.String()
	}
	// An object of 20 members whose 18th holds big's object, and an
	// outer key repeated from its first 16 after it or none: the outer
	// object's first keys, kept on the stack, must survive the inner
	// object's keys spilling to the scanner's table.
	nested := func(dupInner, dupOuter bool) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range 20 {
			if i == 17 {
				fmt.Fprintf(&b, `"k%d": %s, `, i, big(dupInner))
				continue
			}
			fmt.Fprintf(&b, `"k%d": %d, `, i, i)
		}
		if dupOuter {
			b.WriteString(`"k3": 30, `)
		}
		b.WriteString(`"last": 1}`)
		return b.String()
	}
	intOrObject := `{"type": "object", "additionalProperties": {"type": ["integer", "object"], "additionalProperties": {"type": "integer"}}}`
	maxA := `{"properties": {"a": {"maximum": 3}}}`
	for _, tc := range []struct {
		name, schema, doc string
		sure              bool // the fast path must decide
	}{
		{"not, first dropped", `{"not": ` + maxA + `}`, `{"a": 9, "a": 1}`, false},
		{"not, last kept", `{"not": ` + maxA + `}`, `{"a": 1, "a": 9}`, false},
		{"not, other key", `{"not": ` + maxA + `}`, `{"a": 9, "b": 1}`, true},
		{"oneOf", `{"oneOf": [` + maxA + `, {"required": ["a"]}]}`, `{"a": 9, "a": 1}`, false},
		{"if", `{"if": ` + maxA + `, "then": true, "else": false}`, `{"a": 9, "a": 1}`, false},
		{"contains", `{"contains": ` + maxA + `, "maxContains": 0}`, `[{"a": 9, "a": 1}]`, false},
		// Valid by the branch that reads the object without looking at
		// its members: deciding it would lose the duplicate_key warning.
		{"anyOf", `{"anyOf": [` + maxA + `, {"type": "object"}]}`, `{"a": 9, "a": 1}`, false},
		{"anyOf, no duplicate", `{"anyOf": [` + maxA + `, {"type": "object"}]}`, `{"a": 9, "b": 1}`, true},
		// Objects the schema says nothing of inside are still read for
		// duplicate keys, at any depth, however many keys they hold.
		{"unchecked object", `{"type": "object"}`, `{"role": "user", "role": "admin"}`, false},
		{"unchecked object, distinct keys", `{"type": "object"}`, `{"role": "user", "name": "admin"}`, true},
		{"schema true", `true`, `{"role": "user", "role": "admin"}`, false},
		{"unchecked nested", `{"type": "array"}`, `[{"a": {"b": 1, "c": {"d": 1, "d": 2}}}]`, false},
		{"unchecked nested, distinct", `{"type": "array"}`, `[{"a": {"b": 1, "c": {"d": 1, "e": 2}}}, {"a": 2}]`, true},
		{"unchecked siblings", `{"type": "array"}`, `[{"a": 1}, {"a": 2}]`, true},
		{"unchecked escaped key", `{"type": "object"}`, `{"a": 1, "\u0061": 2}`, false},
		{"unchecked large object", `{"type": "object"}`, big(false), true},
		{"unchecked large object, duplicate", `{"type": "object"}`, big(true), false},
		{"unchecked value of a property", `{"properties": {"a": {"type": "object"}}}`, `{"a": {"x": 1, "x": 1}}`, false},
		{"nested not", `{"not": {"properties": {"o": ` + maxA + `}}}`, `{"o": {"a": 9, "a": 1}}`, false},
		{"large object", `{"type": "object", "additionalProperties": {"type": ["integer", "string"]}, "minProperties": 150}`, big(false), true},
		{"large object, duplicate", `{"type": "object", "additionalProperties": {"type": "integer"}}`, big(true), false},
		// Keys are told apart by their hashes as they are read, however
		// many: under not too, a large object is decided.
		{"large object under not", `{"not": {"required": ["zz"]}}`, big(false), true},
		{"large object under not, duplicate", `{"not": {"required": ["zz"]}}`, big(true), false},
		{"large object under not, member invalid", `{"not": {"additionalProperties": {"maximum": 150}}}`, big(false), true},
		{"large object under not, invalid member repeated", `{"not": {"additionalProperties": {"not": {"const": 7}}}}`, big(true), false},
		{"nested large objects", intOrObject, nested(false, false), true},
		{"nested large objects, outer duplicate", intOrObject, nested(false, true), false},
		{"nested large objects, inner duplicate", intOrObject, nested(true, false), false},
		{"nested large objects unchecked, outer duplicate", `{"type": "object"}`, nested(false, true), false},
	} {
		v, err := schema.Compile([]byte(tc.schema), schema.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		fast, sure, slow := verdicts(t, v, []byte(tc.doc))
		if sure && fast != slow {
			t.Errorf("%s: fast path valid = %v, slow path %v", tc.name, fast, slow)
		}
		if sure != tc.sure {
			t.Errorf("%s: fast path sure = %v, want %v", tc.name, sure, tc.sure)
		}
	}
}

// A valid object of many members is decided without allocating.
func TestFastPathLargeObjectAllocs(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 500 {
		fmt.Fprintf(&b, `"key%d": %d, `, 500-i, i)
	}
	b.WriteString(`"z": 0}`)
	doc := []byte(b.String())
	v, err := schema.Compile([]byte(`{"type": "object", "additionalProperties": {"type": "integer"}}`), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if valid, sure := schema.FastVerdict(v, doc); !valid || !sure {
		t.Fatalf("fast path valid %v sure %v, want true true", valid, sure)
	}
	if n := testing.AllocsPerRun(20, func() { schema.FastVerdict(v, doc) }); n != 0 && !raceEnabled {
		t.Errorf("%v allocations per document, want 0", n)
	}
}

// An object schema requiring more than 64 names (the width of the bits the
// fast path tracks names with) stays on the fast path by counting the
// required keys it meets, and agrees with the slow path: all present,
// one missing, one missing and another repeated (which the scanner refuses
// as a duplicate, so it never counts twice), and with a dependency, which
// needs the bits and falls back.
func TestFastPathManyRequired(t *testing.T) {
	t.Parallel()
	names := make([]string, 100)
	for i := range names {
		names[i] = fmt.Sprintf("p%d", i)
	}
	req, _ := json.Marshal(names)
	doc := func(skip, repeat int) string {
		var b strings.Builder
		b.WriteString("{")
		for i, n := range names {
			if i == skip {
				continue
			}
			fmt.Fprintf(&b, `"%s": %d, `, n, i)
		}
		if repeat >= 0 {
			fmt.Fprintf(&b, `"%s": 0, `, names[repeat])
		}
		b.WriteString(`"extra": true}`)
		return b.String()
	}
	plain := `{"type": "object", "required": ` + string(req) + `}`
	withDep := `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ` + string(req) + `, "dependentRequired": {"p1": ["q"]}}`
	for _, tc := range []struct {
		name, schema, doc string
		valid, sure, fast bool
	}{
		{"all present", plain, doc(-1, -1), true, true, true},
		{"one missing", plain, doc(5, -1), false, true, true},
		{"one missing, another repeated", plain, doc(5, 6), false, false, true},
		{"with a dependency", withDep, doc(-1, -1), false, true, false},
	} {
		v, err := schema.Compile([]byte(tc.schema), schema.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if fast, _, why := v.Path(); fast != tc.fast {
			t.Errorf("%s: fast path %v (%s), want %v", tc.name, fast, why, tc.fast)
		}
		fast, sure, slow := verdicts(t, v, []byte(tc.doc))
		if slow != tc.valid {
			t.Errorf("%s: slow path valid = %v, want %v", tc.name, slow, tc.valid)
		}
		if tc.fast && sure != tc.sure {
			t.Errorf("%s: fast path sure = %v, want %v", tc.name, sure, tc.sure)
		}
		if sure && fast != slow {
			t.Errorf("%s: fast path valid = %v, slow path %v", tc.name, fast, slow)
		}
	}
}

// repeatFirstKey returns doc, a JSON object with at least one member,
// with its first key given once more before it (null as the value, which
// the decoder's last-wins rule discards); nil for any other document.
func repeatFirstKey(doc []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(doc))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	tok, err := dec.Token()
	key, ok := tok.(string)
	if err != nil || !ok {
		return nil
	}
	k, _ := json.Marshal(key)
	at := bytes.IndexByte(doc, '{')
	out := append([]byte(nil), doc[:at+1]...)
	out = append(append(out, k...), ": null, "...)
	return append(out, doc[at+1:]...)
}
