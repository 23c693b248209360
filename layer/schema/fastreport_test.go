package schema_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/result"
)

// fastMatchesSlow compares the fast path's issues of doc with the slow path's
// (the reference) wherever the fast path is sure, and returns what the fast
// path answered: sure, and valid when it found no issue. It also counts
// whether the fast path's verdict alone (Check, which answers only
// "valid") decides the document, which is how the fast path stood before it
// reported issues. It asks the fast path twice: the second answer, whose
// texts a node may have kept from the first (see cachedText), must be the
// first's.
func fastMatchesSlow(t testing.TB, v *schema.Validator, name string, doc []byte) (sure, valid, verdictOnly bool) {
	t.Helper()
	fast, sure := schema.FastIssues(v, doc)
	if again, sureAgain := schema.FastIssues(v, doc); sureAgain != sure || !reflect.DeepEqual(again, fast) {
		t.Errorf("%s: document %.300q: asked again, the fast path answered (sure %v):\n%s\nthe first time (sure %v):\n%s",
			name, doc, sureAgain, showIssues(again), sure, showIssues(fast))
	}
	fv, fsure := schema.FastVerdict(v, doc)
	verdictOnly = fsure && fv
	slow, err := schema.SlowValidate(v, doc)
	if !sure {
		return false, false, verdictOnly
	}
	if err != nil {
		t.Errorf("%s: the fast path answered %d issues for a document the slow path refuses: %v", name, len(fast), err)
		return sure, len(fast) == 0, verdictOnly
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Errorf("%s: document %.300q:\nfast path: %s\nslow path: %s", name, doc, showIssues(fast), showIssues(slow))
	}
	if fsure && fv != (len(fast) == 0) {
		t.Errorf("%s: the fast path's verdict is valid = %v, its issues %d", name, fv, len(fast))
	}
	return sure, len(fast) == 0, verdictOnly
}

func showIssues(issues []result.Issue) string {
	b, _ := json.MarshalIndent(issues, "", "  ")
	return string(b)
}

// tally counts the documents the fast path answers by itself.
type tally struct {
	total, valid, invalid, before int
}

func (c *tally) add(sure, valid, before bool) {
	c.total++
	switch {
	case sure && valid:
		c.valid++
	case sure:
		c.invalid++
	}
	if before {
		c.before++
	}
}

// TestFastIssuesSuite runs every required test of the JSON Schema Test
// Suite (draft-07 and 2020-12) on both paths: wherever the fast path is
// sure, its issues must be the slow path's, byte for byte and in order. It
// also requires the fast path to answer most invalid documents itself.
func TestFastIssuesSuite(t *testing.T) {
	t.Parallel()
	suiteDir := sharedtest.Dir(t, "json-schema-test-suite")
	remotes := map[string]json.RawMessage{}
	for uri, data := range sharedtest.SuiteRemotes(t, suiteDir) {
		remotes[uri] = data
	}
	var c tally
	invalid := 0
	for _, d := range sharedtest.SuiteDrafts {
		for _, file := range sharedtest.SuiteFiles(t, suiteDir, d) {
			for _, g := range sharedtest.ReadSuiteFile(t, file, d) {
				v, err := schema.Compile(g.Schema, schema.Options{Schemas: remotes})
				if err != nil {
					t.Errorf("%s / %s: Compile: %v", filepath.Base(file), g.Description, err)
					continue
				}
				for _, tc := range g.Tests {
					name := d.Dir + "/" + filepath.Base(file) + " / " + g.Description + " / " + tc.Description
					sure, valid, before := fastMatchesSlow(t, v, name, tc.Data)
					if sure && valid != tc.Valid {
						t.Errorf("%s: fast path valid = %v, suite %v", name, valid, tc.Valid)
					}
					if !tc.Valid {
						invalid++
					}
					c.add(sure, valid, before)
				}
			}
		}
	}
	t.Logf("suite: %d tests; the fast path answers %d by itself (%d valid, %d invalid with their issues), %d before it reported issues (valid only); %d tests are invalid",
		c.total, c.valid+c.invalid, c.valid, c.invalid, c.before, invalid)
	if c.invalid*2 < invalid {
		t.Errorf("the fast path answers only %d of the suite's %d invalid documents", c.invalid, invalid)
	}
}

// TestFastIssuesBenchCorpus compares both paths on every document of the
// bench corpus, and requires the fast path to answer each one itself.
func TestFastIssuesBenchCorpus(t *testing.T) {
	t.Parallel()
	corpus := sharedtest.LoadBenchCorpus(t)
	var c tally
	check := func(name string, sch json.RawMessage, doc string, want bool) {
		v, err := schema.Compile(sch, schema.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sure, valid, before := fastMatchesSlow(t, v, name, []byte(doc))
		if !sure {
			t.Errorf("%s: the fast path did not answer", name)
		} else if valid != want {
			t.Errorf("%s: fast path valid = %v, want %v", name, valid, want)
		}
		c.add(sure, valid, before)
	}
	for _, tc := range corpus.Cases {
		check(tc.Name+"/valid", tc.Schema, tc.Valid, true)
		check(tc.Name+"/invalid", tc.Schema, tc.Invalid, false)
	}
	check("large/valid", corpus.Large.Schema, corpus.Large.Valid, true)
	check("large/invalid", corpus.Large.Schema, corpus.Large.Invalid, false)
	t.Logf("bench corpus: %d documents; the fast path answers %d by itself (%d valid, %d invalid), %d before it reported issues",
		c.total, c.valid+c.invalid, c.valid, c.invalid, c.before)
}

// FuzzFastIssues mutates documents of the JSON Schema Test Suite and of
// the bench corpus (the fuzzer picks the schema by number) and compares
// the fast path's issues with the slow path's wherever the fast path is
// sure.
func FuzzFastIssues(f *testing.F) {
	var vs []*schema.Validator
	corpus := sharedtest.LoadBenchCorpus(f)
	for _, tc := range corpus.Cases {
		v, err := schema.Compile(tc.Schema, schema.Options{})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint(len(vs)), []byte(tc.Valid))
		f.Add(uint(len(vs)), []byte(tc.Invalid))
		vs = append(vs, v)
	}
	// The large document's schema, with issues deep in arrays and values
	// holding quotes and backslashes, which the reporter steps over.
	large, err := schema.Compile(corpus.Large.Schema, schema.Options{})
	if err != nil {
		f.Fatal(err)
	}
	for _, doc := range []string{
		corpus.Large.Invalid,
		`[{"name": "a\\\"]b"}, {"id": 0, "name": "\\", "tags": ["x\"", 1]}]`,
		`[{}, {"meta": {"source": "[{\"", "version": "1"}}, {"email": "a\"@b"}]`,
	} {
		f.Add(uint(len(vs)), []byte(doc))
	}
	largeAt := uint(len(vs))
	vs = append(vs, large)
	// The suite's documents seed the fuzzer only when it mutates them
	// (go test -fuzz): replayed as plain tests, each would check what
	// TestFastIssuesSuite checks already on every suite test (a document
	// without repeated keys gets the same comparison from
	// duplicatesMatchDecoder), and the ~2,000 of them cost every go test
	// run seconds. The seeds below, of this file's own cases, stay.
	fz := flag.Lookup("test.fuzz")
	fuzzing := fz != nil && fz.Value.String() != ""
	suiteDir := sharedtest.Dir(f, "json-schema-test-suite")
	remotes := map[string]json.RawMessage{}
	for uri, data := range sharedtest.SuiteRemotes(f, suiteDir) {
		remotes[uri] = data
	}
	for _, d := range sharedtest.SuiteDrafts {
		if !fuzzing {
			break
		}
		for _, file := range sharedtest.SuiteFiles(f, suiteDir, d) {
			for _, g := range sharedtest.ReadSuiteFile(f, file, d) {
				v, err := schema.Compile(g.Schema, schema.Options{Schemas: remotes})
				if err != nil {
					continue
				}
				if fast, _, _ := v.Path(); !fast {
					continue
				}
				for _, tc := range g.Tests {
					f.Add(uint(len(vs)), []byte(tc.Data))
				}
				vs = append(vs, v)
			}
		}
	}
	// Schemas whose issues the scan writes itself (type, required, enum,
	// const), with keys that are not identifiers, long names, items and
	// descriptions, and a tree (anyOf) beside them.
	for _, tc := range []struct{ schema, doc string }{
		{`{"additionalProperties": {"type": "string"}, "required": ["a b", "` + strings.Repeat("n", 110) + `"]}`,
			`{"ünï": 1, "0": 2, "` + strings.Repeat("k", 120) + `": {}, "": null}`},
		{`{"properties": {"id": {"type": ["integer", "null"], "description": " The   id. "}, "tags": {"items": {"enum": ["a", "b"]}}},
			"required": ["id", "name"], "additionalProperties": {"const": {"x": [1]}}}`, `{"tags": ["a", "c", 1], "z": {"x": [2]}}`},
		{`{"items": {"anyOf": [{"type": "string"}, {"required": ["k"]}], "properties": {"v": {"type": "boolean"}}}}`,
			`[{"v": 1}, "s", {"k": 1, "v": "t"}]`},
		// additionalProperties false and the string keywords, written
		// directly too (decision 89).
		{`{"properties": {"owner": {"type": "string"}, "user": {"properties": {"email": {}}, "patternProperties": {"^x-": {}}, "additionalProperties": false}},
			"required": ["owner"], "additionalProperties": false}`, `{"ownr": 1, "user": {"emial": 2, "x-a": 3, "b c": 4}, "": 5}`},
		{`{"properties": {"sha": {"pattern": "^[0-9a-f]{7,40}$", "minLength": 7}, "title": {"minLength": 1, "maxLength": 8}},
			"items": {"maxLength": 2}}`, `{"sha": "HEAD", "title": "a title too long"}`},
		{`{"properties": {"perPage": {"type": "integer", "minimum": 1, "maximum": 100}, "r": {"exclusiveMaximum": 1, "multipleOf": 0.5}},
			"items": {"minimum": 0}}`, `{"perPage": 500, "r": 1.25}`},
	} {
		v, err := schema.Compile([]byte(tc.schema), schema.Options{})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint(len(vs)), []byte(tc.doc))
		vs = append(vs, v)
	}
	// Repeated keys: the decoder keeps the last member.
	for _, doc := range []string{
		`{"owner": 1, "repo": "r", "owner": "o"}`,
		`{"owner": "o", "owner": 1, "repo": "r"}`,
		`{"owner": "o", "repo": "r", "x": {"y": 1, "y": 2}, "x": 3}`,
		`{"owner": "o", "repo": "r", "perPage": 1, "perPage": 1, "perPage": "many"}`,
	} {
		f.Add(uint(0), []byte(doc))
	}
	f.Add(largeAt, []byte(`[{"id": 1, "id": "x", "name": "n", "name": "m"}, {"tags": [1], "tags": ["a", "a", "b", "c", "d", "e"]}]`))
	f.Fuzz(func(t *testing.T, which uint, doc []byte) {
		k := which % uint(len(vs))
		fastMatchesSlow(t, vs[k], "schema "+itoa(k), doc)
		_ = duplicatesMatchDecoder(t, vs[k], doc)
	})
}

// FuzzFastDuplicates is FuzzFastIssues's check of repeated keys on the
// bench corpus's schemas alone, whose seeds a short run gets through.
func FuzzFastDuplicates(f *testing.F) {
	corpus := sharedtest.LoadBenchCorpus(f)
	vs := make([]*schema.Validator, 0, len(corpus.Cases)+1)
	for _, tc := range corpus.Cases {
		v, err := schema.Compile(tc.Schema, schema.Options{})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint(len(vs)), []byte(tc.Invalid))
		vs = append(vs, v)
	}
	large, err := schema.Compile(corpus.Large.Schema, schema.Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint(0), []byte(`{"owner": 1, "repo": "r", "owner": "o"}`))
	f.Add(uint(0), []byte(`{"owner": "o", "repo": "r", "x": {"y": 1, "y": 2}, "x": 3}`))
	f.Add(uint(len(vs)), []byte(`[{"id": 1, "id": "x", "name": "n", "name": "m"}, {"tags": [1], "tags": ["a", "a"]}]`))
	// Locations, lines and columns the scan gives without the decoder's
	// walk: nested arrays and objects, names that need quoting, lines.
	f.Add(uint(len(vs)), []byte("[\n  {\"id\": 1},\n  {\"a b\": [[], [{\"x\": 1,\n \"x\": 2}]], \"a b\": 0,\n\t\"\u00e9t\u00e9\": 1, \"été\": 2}\n]"))
	f.Add(uint(0), []byte("{\"owner\": \"o\", \"repo\": \"r\", \"x\": [0, {\"\": 1, \"\": 2}, [3, {\"1\": [], \"1\": {}}]]}"))
	vs = append(vs, large)
	f.Fuzz(func(t *testing.T, which uint, doc []byte) {
		_ = duplicatesMatchDecoder(t, vs[which%uint(len(vs))], doc)
	})
}

// duplicatesMatchDecoder compares the fast path's answer for a document
// with repeated keys with the decoder's: the same repeated keys, and the
// issues of the value the decoder keeps.
func duplicatesMatchDecoder(t *testing.T, v *schema.Validator, doc []byte) (sure bool) {
	t.Helper()
	issues, repeated, sure := schema.FastIssuesDuplicates(v, doc)
	// The engine's call, with the issues written in a result.Room: the
	// same answer.
	inRoom, _, repeatedRoom, sureRoom := schema.FastIssuesDuplicatesRoom(v, doc)
	if sureRoom != sure || !reflect.DeepEqual(inRoom, issues) || !reflect.DeepEqual(repeatedRoom, repeated) {
		t.Fatalf("document %q: in a room %v %+v %+v, without %v %+v %+v", doc, sureRoom, inRoom, repeatedRoom, sure, issues, repeated)
	}
	// The engine's call itself, which writes issuesDuplicates' steps out
	// (guarded): the same answer.
	public, _, repeatedPublic, surePublic := v.IssuesDuplicatesRoom(doc, schema.MaxDepth(v))
	if surePublic != sure || !reflect.DeepEqual(public, issues) || !reflect.DeepEqual(repeatedPublic, repeated) {
		t.Fatalf("document %q: IssuesDuplicatesRoom %v %+v %+v, without the room %v %+v %+v", doc, surePublic, public, repeatedPublic, sure, issues, repeated)
	}
	if !sure {
		return false
	}
	_, dups, err := jsonvalue.DecodeDuplicates(doc, 0)
	if err != nil {
		t.Fatalf("document %q: the fast path answered for a document the decoder refuses: %v", doc, err)
	}
	if !reflect.DeepEqual(dups, repeated) && len(dups)+len(repeated) > 0 {
		t.Fatalf("document %q: repeated keys %+v, the decoder's %+v", doc, repeated, dups)
	}
	slow, err := schema.SlowValidate(v, doc)
	if err != nil {
		t.Fatalf("document %q: %v", doc, err)
	}
	if !reflect.DeepEqual(issues, slow) {
		t.Fatalf("document %q:\nfast path: %s\nslow path: %s", doc, showIssues(issues), showIssues(slow))
	}
	return true
}

// FuzzRawSkip: on any well-formed document, the reporter's quick step
// over a value ends where the value ends.
func FuzzRawSkip(f *testing.F) {
	for _, doc := range []string{`1`, `-1.5e3 `, `"a\\"`, `"a\"b"`, `[1, "]", {"a": "}"}]`, ` {"k\\": ["\\\""]} `, `true`, `null`} {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if !json.Valid(doc) {
			return
		}
		start := len(doc) - len(bytes.TrimLeft(doc, " \t\n\r"))
		end := len(bytes.TrimRight(doc, " \t\n\r"))
		if got := schema.RawSkip(doc, start); got != end {
			t.Fatalf("%q: the value ends at %d, RawSkip says %d", doc, end, got)
		}
	})
}

func itoa(k uint) string {
	b, _ := json.Marshal(k)
	return string(b)
}

// TestFastIssuesEdges compares both paths where the fast path's tree must
// follow the reference closely: more errors than MaxIssues (the budget
// keeps the first in the reference's order), alternatives, names, counts
// and quoted values; and checks where it must give up.
func TestFastIssuesEdges(t *testing.T) {
	t.Parallel()
	many := func(n int, item string) string {
		b := []byte("[")
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, item...)
		}
		return string(append(b, ']'))
	}
	var req, obj []byte
	req, obj = append(req, `{"required": [`...), append(obj, '{')
	for i := range 70 {
		if i > 0 {
			req, obj = append(req, ','), append(obj, ',')
		}
		req = append(req, `"k`+itoa(uint(i))+`"`...)
		if i < 69 {
			obj = append(obj, `"k`+itoa(uint(i))+`": 1`...)
		}
	}
	req, obj = append(req, "]}"...), append(obj, '}')
	// An object of 600 members, each one additionalProperties false refuses.
	extra := "{"
	for i := range 600 {
		if i > 0 {
			extra += ", "
		}
		extra += `"x` + itoa(uint(i)) + `": 1`
	}
	extra += "}"
	for _, tc := range []struct {
		name, schema, doc string
		sure              bool
	}{
		{"over the budget", `{"items": {"type": "string"}}`, many(1200, "1"), true},
		{"over the budget in objects", `{"items": {"properties": {"a": {"type": "string"}, "b": {"maximum": 1}}}}`, many(300, `{"a": 1, "b": 2}`), true},
		{"anyOf, one left", `{"anyOf": [{"type": "string"}, {"type": "object", "required": ["a"]}]}`, `{"b": 1}`, true},
		{"anyOf by type", `{"anyOf": [{"type": "string"}, {"type": "integer"}]}`, `true`, true},
		{"oneOf twice", `{"oneOf": [{"type": "integer"}, {"minimum": 1}]}`, `3`, true},
		{"oneOf none", `{"oneOf": [{"title": "Cat", "properties": {"kind": {"const": "cat"}}, "required": ["meow"]}, {"title": "Dog", "required": ["bark"]}]}`, `{"kind": "cat"}`, true},
		{"not", `{"not": {"type": "string"}}`, `"x"`, true},
		{"propertyNames", `{"propertyNames": {"pattern": "^[a-z]+$", "maxLength": 3}}`, `{"Bad": 1, "good": 2, "ok": 3}`, true},
		{"additionalProperties", `{"properties": {"email": {}}, "additionalProperties": false}`, `{"emial": 1, "zzz": [1, {"a": 2}]}`, true},
		{"uniqueItems", `{"uniqueItems": true}`, `[1, 2, {"a": [1]}, 2, {"a": [1.0]}, 1]`, true},
		{"additionalItems", `{"items": [{}, {}], "additionalItems": false}`, `[1, 2, 3, 4]`, true},
		{"contains", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "contains": {"type": "string"}, "minContains": 2, "maxItems": 2}`, `[1, "a", 2]`, true},
		{"dependencies", `{"dependencies": {"card": ["cvv", "zip"], "x": {"required": ["y"]}}}`, `{"card": 1, "x": 2}`, true},
		{"dependentRequired", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "dependentRequired": {"card": ["cvv"]}, "dependentSchemas": {"x": {"maxProperties": 1}}}`, `{"card": 1, "x": 2}`, true},
		{"ref and siblings", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"p": {"type": "integer", "minimum": 5}}, "properties": {"a": {"$ref": "#/$defs/p", "maximum": 3}}}`, `{"a": 4}`, true},
		{"if then else", `{"if": {"properties": {"a": {"const": 1}}}, "then": {"required": ["b"]}, "else": {"required": ["c"]}}`, `{"a": 1}`, true},
		{"numbers", `{"items": {"multipleOf": 0.01, "exclusiveMaximum": 1e2, "minimum": -1}}`, `[0.075, 100, 1e2, -1.5, 12345678901234567890]`, true},
		{"strings", `{"items": {"minLength": 2, "maxLength": 3, "pattern": "^a", "format": "email"}}`, `["", "bcde", "a\u00e9\u00e9", "ab"]`, true},
		{"false schema", `{"properties": {"a": false}, "items": false}`, `{"a": {"deep": [1]}}`, true},
		// The issues the scan writes itself (a failed type or required
		// keyword), alone and beside the reporter's.
		{"type at root", `{"type": ["object", "array"]}`, `"x"`, true},
		{"type of items", `{"items": {"items": {"type": "integer"}}}`, `[[1, "a"], [], [true, 2.5]]`, true},
		{"type of keys that are not identifiers", `{"additionalProperties": {"type": "string"}}`,
			`{"a b": 1, "0": 2, "ünï": 3, "a` + "\u200d" + `b": 4, "_x9": 5, "9x": 6, "": 7, "é": null}`, true},
		{"long key and location", `{"additionalProperties": {"additionalProperties": {"type": "string"}}}`,
			`{"` + strings.Repeat("k", 130) + `": {"` + strings.Repeat("é", 120) + `": 1}, "short": {"also_short": [1]}}`, true},
		{"long location of an item", `{"additionalProperties": {"items": {"type": "string"}}}`,
			`{"` + strings.Repeat("long_", 20) + `": [1, "a", 2]}`, true},
		{"required, described and typed", `{"properties": {"a": {"type": "string", "description": "  The\n a   field. "},
			"b": {"type": ["integer", "null"]}, "c": {"title": "The C"}, "d": {"$ref": "#/$defs/d"}, "e": true},
			"required": ["a", "b", "c", "d", "e", "f", "` + strings.Repeat("n", 120) + `", "order"],
			"$defs": {"d": {"type": "array", "description": "` + strings.Repeat("word ", 80) + `"}}}`, `{}`, true},
		{"a long required name keeps its description", `{"required": ["` + strings.Repeat("customer_shipping_address_", 12)[:300] + `"], "properties": {"` +
			strings.Repeat("customer_shipping_address_", 12)[:300] + `": {"type": "string", "description": "the street"}}}`, `{}`, true},
		{"required in items and a type beside", `{"items": {"properties": {"id": {"type": "integer"}}, "required": ["id", "name"]}}`,
			`[{"id": 1, "name": "a"}, {"id": "x"}, 3, {"name": 1}]`, true},
		{"required under $ref and allOf", `{"$ref": "#/definitions/o", "definitions": {"o": {"allOf": [{"required": ["a"]}, {"properties": {"b": {"type": "string"}}}]}}}`,
			`{"b": 1}`, true},
		{"required and anyOf together", `{"required": ["x"], "properties": {"v": {"anyOf": [{"type": "string"}, {"required": ["k"]}]}}}`,
			`{"v": {"j": 1}}`, true},
		{"enum and const", `{"properties": {"one": {"enum": ["only"]}, "few": {"enum": ["a", 1, null, {"k": [true]}]},
			"many": {"enum": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}, "long": {"enum": ["` + strings.Repeat("x", 70) + `", "` + strings.Repeat("y", 90) + `"]},
			"c": {"const": {"a": [1, "b"]}}, "both": {"const": 1, "enum": [2]}},
			"items": {"enum": ["x"]}}`, `{"one": "other", "few": "é` + strings.Repeat("z", 80) + `", "many": 1.5, "long": {"q": [1]}, "c": {"a": [1]}, "both": 3}`, true},
		{"enum at root and in items", `{"enum": [[1, "a"], 2]}`, `[1, "b"]`, true},
		{"enum items", `{"items": {"enum": ["x", "y"]}}`, `["x", "z", 1e2, -0.0]`, true},
		{"over the budget, required and types", `{"items": {"properties": {"a": {"type": "string"}}, "required": ["b"]}}`, many(300, `{"a": 1}`), true},
		{"more than 64 required, some missing", string(req), string(obj), false},
		{"over the budget, additional properties", `{"properties": {"k1": {}}, "additionalProperties": false}`, extra, true},
		{"duplicate key", `{"required": ["a"]}`, `{"b": 1, "b": 2}`, false},
	} {
		v, err := schema.Compile([]byte(tc.schema), schema.Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		sure, valid, _ := fastMatchesSlow(t, v, tc.name, []byte(tc.doc))
		if sure != tc.sure {
			t.Errorf("%s: the fast path sure = %v, want %v", tc.name, sure, tc.sure)
		}
		if sure && valid {
			t.Errorf("%s: the fast path found the document valid", tc.name)
		}
	}
}

// The issues of every invalid document of the bench corpus (a wrong type,
// missing required fields) are written by the report scan itself: one
// allocation a document, the issues, whatever their number, once the
// schema has kept their texts (the first invalid document; see
// cachedText).
func TestFastIssuesAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop the scanner at random")
	}
	corpus := sharedtest.LoadBenchCorpus(t)
	for _, tc := range corpus.Cases {
		v, err := schema.Compile(tc.Schema, schema.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.Name, err)
		}
		doc := []byte(tc.Invalid)
		issues, sure := v.Issues(doc, 0)
		if !sure || len(issues) == 0 {
			t.Fatalf("%s: the fast path answered sure %v with %d issues", tc.Name, sure, len(issues))
		}
		if n := testing.AllocsPerRun(20, func() { v.Issues(doc, 0) }); n > 1 {
			t.Errorf("%s: %v allocations for %d issues, want at most 1", tc.Name, n, len(issues))
		}
	}
}

// A document with far more issues than MaxIssues stops the scan that
// writes them directly at the budget (the document is then read again
// without writing any): before, it wrote all of them first, 200,001 for
// this one, about six times the memory and four times the time of the
// second reading.
func TestDirectReportStopsAtTheBudget(t *testing.T) {
	t.Parallel()
	v, err := schema.Compile([]byte(`{"items": {"type": "string"}}`), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc := []byte("[" + strings.Repeat("1,", 200000) + "1]")
	issues, sure := schema.DirectReport(v, doc)
	if sure || len(issues) != schema.MaxIssues+1 {
		t.Fatalf("the direct scan wrote %d issues (sure %v), want it stopped at %d", len(issues), sure, schema.MaxIssues+1)
	}
	all, sure := schema.FastIssues(v, doc)
	if !sure || len(all) == 0 {
		t.Fatalf("the fast path answered %d issues, sure %v", len(all), sure)
	}
	if slow, err := schema.SlowValidate(v, doc); err != nil || !reflect.DeepEqual(all, slow) {
		t.Fatalf("the fast path's %d issues differ from the slow path's %d (%v)", len(all), len(slow), err)
	}
}

// The fields additionalProperties false refuses, and the strings that
// minLength, maxLength or pattern refuse, are written by the scan itself
// (decision 89), wherever the reporter would only walk through the errors
// above them: every issue of these documents comes from the direct scan,
// and they are the slow path's, byte for byte.
func TestDirectKeywords(t *testing.T) {
	t.Parallel()
	declared70 := `{"additionalProperties": false, "properties": {`
	for i := range 70 {
		if i > 0 {
			declared70 += ", "
		}
		declared70 += `"name_` + itoa(uint(i)) + `": {}`
	}
	declared70 += "}}"

	for _, tc := range []struct{ name, schema, doc string }{
		{"near a declared name", `{"properties": {"owner": {}, "repo": {}}, "additionalProperties": false}`, `{"ownr": 1, "repo": "r"}`},
		{"a declared name present is no suggestion", `{"properties": {"owner": {}, "repo": {}}, "additionalProperties": false}`, `{"owner": 1, "ownr": 2, "zzz": 3}`},
		{"patterns and declared", `{"properties": {"email": {}, "name": {}}, "patternProperties": {"^x-": {}}, "additionalProperties": false}`,
			`{"x-ok": 1, "nickname": 2, "a b": 3, "ünï": 4, "": 5}`},
		{"patterns only", `{"patternProperties": {"^x-": {}, "^y": {}}, "additionalProperties": false}`, `{"zz": 1}`},
		{"nothing declared", `{"additionalProperties": false}`, `{"b": 1, "a": 2}`},
		{"many declared", `{"properties": {"a1": {}, "a2": {}, "a3": {}, "a4": {}, "a5": {}, "a6": {}, "a7": {}, "a8": {}, "a9": {}, "b1": {}, "b2": {}}, "additionalProperties": false}`,
			`{"zzzzzz": 1}`},
		{"more than 64 declared, some present", declared70, `{"name_1": 1, "name_69": 2, "nmae_1": 3, "name_7O": 4, "name_1x": 5}`},
		{"nested, long names", `{"properties": {"user": {"properties": {"email": {}}, "additionalProperties": false}}}`,
			`{"user": {"emial": 1, "` + strings.Repeat("k", 130) + `": 2}}`},
		{"in items, long location", `{"additionalProperties": {"items": {"properties": {"id": {}}, "additionalProperties": false}}}`,
			`{"` + strings.Repeat("long_", 20) + `": [{"id": 1, "idd": 2}, {"x": 3}]}`},
		{"beside required and type", `{"properties": {"id": {"type": "integer"}}, "required": ["id", "name"], "additionalProperties": false}`,
			`{"id": "x", "nmae": 1}`},
		{"under $ref and allOf", `{"$ref": "#/definitions/o", "definitions": {"o": {"allOf": [{"properties": {"a": {}}, "additionalProperties": false}]}}}`,
			`{"b": 1, "a": 2}`},
		{"lengths", `{"properties": {"short": {"minLength": 3}, "long": {"maxLength": 2}, "one": {"maxLength": 1}, "both": {"minLength": 2, "maxLength": 4}}}`,
			`{"short": "ab", "long": "abc", "one": "ab", "both": "abcdef"}`},
		{"lengths in characters, escapes, a long value", `{"items": {"minLength": 70}}`,
			`["é\u00e9\n\"q\"", "` + strings.Repeat("word ", 12) + `"]`},
		{"at root, length 1", `{"minLength": 2}`, `"x"`},
		{"pattern", `{"properties": {"sha": {"pattern": "^[0-9a-f]{40}$"}, "date": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"}}}`,
			`{"sha": "main", "date": "May 1st"}`},
		{"long pattern, long key", `{"additionalProperties": {"pattern": "^(` + strings.Repeat("abc|", 40) + `x)$"}}`,
			`{"` + strings.Repeat("k", 120) + `": "nope"}`},
		{"several failures of one schema", `{"properties": {"v": {"minLength": 5, "pattern": "^a"}}, "required": ["w"]}`,
			`{"v": "bc"}`},
		{"numeric bounds", `{"properties": {"perPage": {"type": "integer", "minimum": 1, "maximum": 100}, "page": {"minimum": 1},
			"ratio": {"exclusiveMinimum": 0, "exclusiveMaximum": 1}, "both": {"minimum": 2, "exclusiveMinimum": 3}, "top": {"maximum": 5, "exclusiveMaximum": 4},
			"step": {"multipleOf": 0.01}, "even": {"multipleOf": 2}}}`,
			`{"perPage": 500, "page": -1.5e0, "ratio": 1.0, "both": 2, "top": 4.5, "step": 0.075, "even": 3}`},
		{"numbers at root, in items, long", `{"items": {"maximum": 10}}`, `[11, 1e2, -0, ` + strings.Repeat("9", 70) + `, 10.000000000000001]`},
		{"a number at root", `{"minimum": 1, "multipleOf": 3}`, `-2`},
		{"strings under $ref, beside a type", `{"$defs": {"s": {"type": "string", "maxLength": 3, "pattern": "^[a-z]+$"}}, "properties": {"a": {"$ref": "#/$defs/s"}, "b": {"$ref": "#/$defs/s"}}}`,
			`{"a": "ABCDE", "b": 1}`},
	} {
		v, err := schema.Compile([]byte(tc.schema), schema.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		doc := []byte(tc.doc)
		direct, sure := schema.DirectReport(v, doc)
		slow, err := schema.SlowValidate(v, doc)
		if !sure || err != nil || len(slow) == 0 {
			t.Fatalf("%s: direct scan sure %v, slow path %d issues (%v)", tc.name, sure, len(slow), err)
		}
		if len(direct) != len(slow) {
			t.Errorf("%s: the scan wrote %d of the %d issues itself", tc.name, len(direct), len(slow))
		}
		fastMatchesSlow(t, v, tc.name, doc)
	}
}

// TestGuardedScanRecovers holds the recover that fastIssuesIn defers
// when guarded: a panic of the scan leaves the document to the slow path
// (sure false, no issues) through Issues and IssuesDuplicatesRoom, the
// tests' unguarded call panics, and the scanner pool still serves other
// schemas.
func TestGuardedScanRecovers(t *testing.T) {
	const sch = `{"type": "object", "properties": {"owner": {"type": "string"}, "repo": {"type": "string"}}, "required": ["owner"]}`
	v, err := schema.Compile([]byte(sch), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	other, err := schema.Compile([]byte(sch), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{`{"owner": "o", "repo": "r"}`, `{"owner": 1}`, `{"repo": "r", "repo": "s"}`} {
		want, wantSure := schema.FastIssues(other, []byte(doc))
		if !wantSure && !strings.Contains(doc, `"repo": "s"`) {
			t.Fatalf("%s: the fast path is not sure", doc)
		}
		if !schema.BreakKeyTable(v) {
			t.Fatal("the root has no key table")
		}
		if issues, sure := v.Issues([]byte(doc), 0); sure || issues != nil {
			t.Errorf("%s: Issues after a panic = %v, %v; want nil, false", doc, issues, sure)
		}
		if issues, room, repeated, sure := v.IssuesDuplicatesRoom([]byte(doc), 0); sure || issues != nil || room != (result.Room{}) || repeated != nil {
			t.Errorf("%s: IssuesDuplicatesRoom after a panic = %v, %v, %v, %v; want nothing, false", doc, issues, room, repeated, sure)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: the unguarded scan did not panic", doc)
				}
			}()
			schema.FastIssues(v, []byte(doc))
		}()
		got, sure := schema.FastIssues(other, []byte(doc))
		if sure != wantSure || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: another schema after the panic = %v, %v; want %v, %v", doc, got, sure, want, wantSure)
		}
	}
}
