package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/result"
)

// streamOutcome is what streaming one document in given chunks gave.
type streamOutcome struct {
	firstError int64 // bytes read when the first error event came, -1 when none
	events     []schema.Event
	err        error // the tokenizer's
	doc        []byte
	valid      bool // the stream vouched for the document
}

// streamDoc streams doc into v cut at cuts (sorted offsets) and checks
// that no event comes for bytes not yet written.
func streamDoc(t testing.TB, v *schema.Validator, doc []byte, cuts []int) streamOutcome {
	t.Helper()
	s := v.Stream(schema.StreamOptions{})
	out := streamOutcome{firstError: -1}
	note := func(evs []schema.Event, written int) {
		for _, ev := range evs {
			if ev.At > int64(written) || ev.At <= 0 {
				t.Fatalf("%s: event at %d after %d bytes written: %+v", doc, ev.At, written, ev)
			}
			out.events = append(out.events, ev)
			for _, is := range ev.Issues {
				if is.Severity == result.Error && out.firstError < 0 {
					out.firstError = ev.At
				}
			}
		}
	}
	prev := 0
	for _, c := range append(cuts, len(doc)) {
		if c <= prev || c > len(doc) {
			continue
		}
		evs, err := s.Write(doc[prev:c])
		note(evs, c)
		prev = c
		if err != nil {
			out.err = err
			return out
		}
	}
	evs, err := s.Close()
	note(evs, len(doc))
	out.err = err
	out.doc = s.Document()
	out.valid = err == nil && s.Valid()
	return out
}

func everyByte(n int) []int {
	cuts := make([]int, n)
	for i := range cuts {
		cuts[i] = i
	}
	return cuts
}

// verdict is the whole-document validation of doc: whether it is valid
// (nil error and no error issue) and whether it could be validated.
func verdict(v *schema.Validator, doc []byte) (valid bool, err error) {
	issues, err := v.Validate(doc)
	if err != nil {
		return false, err
	}
	for _, is := range issues {
		if is.Severity == result.Error {
			return false, nil
		}
	}
	return true, nil
}

// guarantee checks, for doc against v, every prefix (byte by byte) and the
// chunkings cuts: an error event means the whole document is invalid, the
// tokenizer refuses exactly the documents the validator cannot read, and
// the stream hands back the document's bytes. It reports whether an error
// came before the last byte.
func guarantee(t testing.TB, name string, v *schema.Validator, doc []byte, cuts ...[]int) (early bool, at int64) {
	t.Helper()
	valid, verr := verdict(v, doc)
	if bytes.Contains(doc, []byte(`"`)) && hasDuplicateKeys(doc) {
		return false, -1 // the guarantee is for documents whose keys do not repeat
	}
	for _, c := range append([][]int{everyByte(len(doc)), nil}, cuts...) {
		out := streamDoc(t, v, doc, c)
		if (out.err != nil) != (verr != nil) {
			var se *jsonvalue.SyntaxError
			if !(errors.As(verr, &se) && out.err != nil) {
				t.Fatalf("%s: %s: stream error %v, Validate error %v", name, doc, out.err, verr)
			}
		}
		if verr != nil {
			continue
		}
		if out.valid && !valid {
			t.Fatalf("%s: the stream vouched for the invalid %s", name, doc)
		}
		if valid && out.firstError >= 0 {
			t.Fatalf("%s: false early verdict on the valid %s at byte %d: %+v", name, doc, out.firstError, out.events)
		}
		if !bytes.Equal(out.doc, jsonvalue.TrimBOM(doc)) {
			t.Fatalf("%s: Document() = %q, want %q", name, out.doc, doc)
		}
		if c != nil && len(c) == len(doc) && out.firstError >= 0 && out.firstError < int64(len(doc)) {
			early, at = true, out.firstError
		}
	}
	return early, at
}

func hasDuplicateKeys(doc []byte) bool {
	_, dups, err := jsonvalue.DecodeDuplicates(doc, 0)
	return err == nil && len(dups) > 0
}

// TestStreamGuarantee streams every document of the JSON Schema Test Suite
// (draft-07 and 2020-12) and of the benchmark corpus, byte by byte and
// whole: no document the validator finds valid ever gets an error event,
// after any prefix.
func TestStreamGuarantee(t *testing.T) {
	t.Parallel()
	suiteDir := sharedtest.Dir(t, "json-schema-test-suite")
	remotes := map[string]json.RawMessage{}
	for uri, data := range sharedtest.SuiteRemotes(t, suiteDir) {
		remotes[uri] = data
	}
	var docs, invalid, early atomic.Int64
	t.Run("suite", func(t *testing.T) {
		for _, d := range sharedtest.SuiteDrafts {
			for _, file := range sharedtest.SuiteFiles(t, suiteDir, d) {
				t.Run(d.Dir+"/"+filepath.Base(file), func(t *testing.T) {
					t.Parallel()
					for _, g := range sharedtest.ReadSuiteFile(t, file, d) {
						v, err := schema.Compile(g.Schema, schema.Options{Schemas: remotes})
						if err != nil {
							continue // a schema judge refuses: nothing to stream
						}
						for _, tc := range g.Tests {
							docs.Add(1)
							name := g.Description + " / " + tc.Description
							e, _ := guarantee(t, name, v, tc.Data)
							if !tc.Valid {
								invalid.Add(1)
								if e {
									early.Add(1)
								}
							}
						}
					}
				})
			}
		}
	})
	t.Run("corpus", func(t *testing.T) {
		t.Parallel()
		corpus := sharedtest.LoadBenchCorpus(t)
		for _, c := range corpus.Cases {
			v, err := schema.Compile(c.Schema, schema.Options{})
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			for _, doc := range []string{c.Valid, c.Invalid} {
				docs.Add(1)
				guarantee(t, c.Name, v, []byte(doc))
			}
		}
	})
	t.Logf("%d documents streamed; %d invalid, %d of them reported before their last byte", docs.Load(), invalid.Load(), early.Load())
	if docs.Load() < 1000 {
		t.Fatalf("only %d documents streamed", docs.Load())
	}
}

// TestStreamEvents pins the early events of a few documents: which byte
// makes each violation certain, and its issue.
func TestStreamEvents(t *testing.T) {
	t.Parallel()
	sch := []byte(`{"type": "object", "additionalProperties": false, "required": ["name", "kind"],
		"properties": {"name": {"type": "string", "maxLength": 5}, "kind": {"enum": ["circle", "square"]},
			"tags": {"type": "array", "maxItems": 2, "items": {"type": "string"}}, "n": {"type": "integer"}}}`)
	v, err := schema.Compile(sch, schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, doc string
		at        int64
		loc, rule string
	}{
		{"type at the first byte", `{"name": 12, "kind": "circle"}`, 10, "name", "schema.type"},
		{"unknown key at its end", `{"nmae": "x", "kind": "circle"}`, 7, "nmae", "schema.additionalProperties"},
		{"maxLength before the string ends", `{"name": "abcdefgh", "kind": "circle"}`, 16, "name", "schema.maxLength"},
		{"enum prefix", `{"kind": "tri", "name": "x"}`, 11, "kind", "schema.enum"},
		{"maxItems at the third item", `{"name": "a", "kind": "square", "tags": ["a", "b", "c"]}`, 52, "tags", "schema.maxItems"},
		{"required at the close", `{"name": "a"}`, 13, "root", "schema.required"},
		{"integer when the number ends", `{"name": "a", "kind": "circle", "n": 1.5}`, 41, "n", "schema.type"},
		{"item type", `{"tags": [true], "name": "a", "kind": "circle"}`, 11, "tags[0]", "schema.type"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := streamDoc(t, v, []byte(tc.doc), everyByte(len(tc.doc)))
			if out.err != nil {
				t.Fatal(out.err)
			}
			if len(out.events) == 0 {
				t.Fatalf("no event; want %s at %d", tc.rule, tc.at)
			}
			ev := out.events[0]
			is := ev.Issues[0]
			if ev.At != tc.at || is.Location != tc.loc || is.Rule != tc.rule || is.Severity != result.Error {
				t.Fatalf("first event at %d: %+v; want %s at %s, byte %d", ev.At, is, tc.rule, tc.loc, tc.at)
			}
			if valid, _ := verdict(v, []byte(tc.doc)); valid {
				t.Fatalf("%s is valid", tc.doc)
			}
		})
	}
}

// TestStreamDuplicate checks the duplicate_key warning at the repeated key.
func TestStreamDuplicate(t *testing.T) {
	t.Parallel()
	v, err := schema.Compile([]byte(`{"type": "object"}`), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc := "{\"a\": 1,\n \"a\": 2}"
	out := streamDoc(t, v, []byte(doc), []int{3, 11})
	if len(out.events) != 1 || out.events[0].At != 13 {
		t.Fatalf("events %+v, want one at 13", out.events)
	}
	is := out.events[0].Issues[0]
	if is.Type != result.DuplicateKey || is.Severity != result.Warning || is.Location != "a" {
		t.Fatalf("issue %+v", is)
	}
}

// FuzzStream streams mutated documents against the corpus's and a few
// keyword-rich schemas in random chunks: an error event only for invalid
// documents, the tokenizer's verdict equal to the validator's, and the
// document handed back whole.
func FuzzStream(f *testing.F) {
	schemas := []string{
		`{"type": "object", "additionalProperties": false, "required": ["a"], "properties": {"a": {"enum": ["xy", "xz", 3]}, "b": {"type": "array", "maxItems": 2, "items": {"type": "string", "maxLength": 3}}}}`,
		`{"allOf": [{"$ref": "#/$defs/o"}], "$defs": {"o": {"type": "object", "propertyNames": {"pattern": "^[a-c]+$"}, "patternProperties": {"^a": {"type": "integer"}}}}}`,
		`{"type": "array", "prefixItems": [{"const": "k"}, {"type": "number"}], "items": false}`,
		`{"anyOf": [{"type": "string"}, {"type": "object", "properties": {"x": {"not": {"type": "null"}}}}]}`,
		`{"type": "object", "properties": {"o": {"type": "object", "minProperties": 2, "properties": {"q": {"oneOf": [{"type": "integer"}, {"minimum": 2}]}}}}}`,
		`{"type": "object", "properties": {"n": {"type": "number", "multipleOf": 0.5, "exclusiveMaximum": 10}, "i": {"type": "integer", "minimum": -3}, "s": {"type": "string", "minLength": 2, "maxLength": 3}}}`,
	}
	var vs []*schema.Validator
	for _, s := range schemas {
		v, err := schema.Compile([]byte(s), schema.Options{})
		if err != nil {
			f.Fatal(err)
		}
		vs = append(vs, v)
	}
	for i, doc := range []string{`{"a": "xy", "b": ["a", "bcd"]}`, `{"a": "xq"}`, `{"abc": 1, "c": {}}`, `["k", 1.5, 2]`,
		`{"x": null}`, `"s"`, `{"o": {"q": 1, "r": 2}}`, `{"o": {"q": 1.5}}`, `{"b": ["toolong"], "a": 3}`,
		`{"n": 9.5, "i": -3, "s": "ab"}`, `{"n": 10, "i": 1.0, "s": "a"}`, `{"n": 0.25, "i": -4e0, "s": "abcd"}`} {
		f.Add([]byte(doc), uint8(i), uint64(i))
	}
	f.Fuzz(func(t *testing.T, doc []byte, which uint8, seed uint64) {
		if len(doc) > 2048 {
			return
		}
		v := vs[int(which)%len(vs)]
		rng := rand.New(rand.NewPCG(seed, 7))
		var cuts []int
		for i := 1; i < len(doc); i++ {
			if rng.IntN(4) == 0 {
				cuts = append(cuts, i)
			}
		}
		guarantee(t, fmt.Sprint(which), v, doc, cuts)
	})
}

// TestStreamConcurrent streams documents against one Validator from many
// goroutines, as a server does (run with -race): the plans and the pool
// of streams are shared.
func TestStreamConcurrent(t *testing.T) {
	t.Parallel()
	v, err := schema.Compile([]byte(`{"type": "object", "properties": {"a": {"enum": ["x", "y"]}, "b": {"type": "array", "items": {"type": "integer", "minimum": 2}}}}`), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	docs := []string{`{"a": "x", "b": [2, 3]}`, `{"a": "z"}`, `{"b": [1]}`, `{"b": ["s"]}`}
	wantErr := []bool{false, true, true, true}
	done := make(chan error, 8)
	for g := range 8 {
		go func() {
			for i := range 50 {
				k := (g + i) % len(docs)
				out := streamDoc(t, v, []byte(docs[k]), []int{3, 7})
				if (out.firstError >= 0) != wantErr[k] || out.err != nil {
					done <- fmt.Errorf("%s: first error at %d, tokenizer %v", docs[k], out.firstError, out.err)
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
