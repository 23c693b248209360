package schema

import (
	"runtime"
	"sync"
	"testing"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/result"
)

// dropFull collects until c's weakly held full form is gone, failing when
// something still holds it.
func dropFull(t *testing.T, c *compiled) {
	t.Helper()
	held := func() bool {
		c.full.mu.Lock()
		defer c.full.mu.Unlock()
		return c.full.weak.Value() != nil
	}
	for i := 0; i < 20 && held(); i++ {
		runtime.GC()
	}
	if held() {
		t.Fatal("the full form is still held after 20 collections")
	}
}

// slowIssues is doc's issues on the slow path of a schema compiled afresh.
func slowIssues(t *testing.T, sch, doc string) []result.Issue {
	t.Helper()
	v, err := Compile([]byte(sch), Options{})
	if err != nil {
		t.Fatal(err)
	}
	val, err := jsonvalue.Decode([]byte(doc), jsonvalue.DefaultMaxDepth)
	if err != nil {
		t.Fatal(err)
	}
	issues, err := v.c.validate(val)
	if err != nil {
		t.Fatal(err)
	}
	return issues
}

func sameIssues(t *testing.T, got, want []result.Issue) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d issues, want %d:\n got %+v\nwant %+v", len(got), len(want), got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("issue %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

// TestFullFormCompiledAgain: a schema the fast path covers keeps
// santhosh-tekuri's form weakly; once the collector freed it, the first
// document that needs it compiles it again, and its issues are the slow
// path's of a schema compiled afresh, byte for byte. A document whose
// issues go through the reporter or the slow path keeps the form from then
// on; a node's words are worked out without keeping it; a length or
// numeric bound's words need no full form at all.
func TestFullFormCompiledAgain(t *testing.T) {
	const nested = `{"type": "object", "properties": {"a": {"type": "object", "properties": {
		"b": {"type": "string", "minLength": 3, "maxLength": 5},
		"n": {"type": "number", "minimum": 1, "exclusiveMaximum": 5}}}}}`
	for _, tc := range []struct {
		name, schema, doc string
		compiles          int32
		kept              bool
	}{
		{"required, words worked out", `{"type": "object", "required": ["name"],
			"properties": {"name": {"type": "string", "description": "Who to greet"}}}`, `{}`, 1, false},
		{"enum at the root's member", `{"type": "object", "properties": {"state": {"enum": ["open", "closed"]}}}`,
			`{"state": "gone"}`, 1, false},
		{"additionalProperties false", `{"type": "object", "properties": {"owner": {"type": "string"}},
			"additionalProperties": false}`, `{"ownr": "x"}`, 1, false},
		{"anyOf through the reporter", `{"anyOf": [{"type": "string"}, {"type": "integer"}]}`, `true`, 1, true},
		{"slow path: a duplicate key", `{"type": "object", "properties": {"a": {"type": "string"}}}`,
			`{"a": 1, "a": 2}`, 1, true},
		{"length two levels down", nested, `{"a": {"b": "x"}}`, 0, false},
		{"number two levels down", nested, `{"a": {"n": 7}}`, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Compile([]byte(tc.schema), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if v.c.fast == nil {
				t.Fatalf("the schema takes the slow path: %s", v.c.slow)
			}
			if v.c.full.strong.Load() != nil {
				t.Fatal("the full form is kept strongly after compiling")
			}
			dropFull(t, v.c)
			issues, err := v.Validate([]byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			sameIssues(t, issues, slowIssues(t, tc.schema, tc.doc))
			if got := v.c.full.compiles.Load(); got != tc.compiles {
				t.Errorf("compiled again %d times, want %d", got, tc.compiles)
			}
			if kept := v.c.full.strong.Load() != nil; kept != tc.kept {
				t.Errorf("full form kept strongly = %v, want %v", kept, tc.kept)
			}
			// A second document the same way compiles nothing more while
			// the form lives, and gives the same issues.
			again, err := v.Validate([]byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			sameIssues(t, again, issues)
		})
	}
}

// TestFullFormSlowPathSchema: a schema the fast path does not cover keeps
// its full form strongly from the start.
func TestFullFormSlowPathSchema(t *testing.T) {
	v, err := Compile([]byte(`{"unevaluatedProperties": false, "$schema": "https://json-schema.org/draft/2020-12/schema"}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v.c.fast != nil {
		t.Fatal("the schema takes the fast path")
	}
	if v.c.full.strong.Load() == nil {
		t.Fatal("the full form of a slow-path schema is not kept strongly")
	}
}

// TestFullFormConcurrentFirstUse: documents validated at once, by several
// goroutines, after the full form was freed compile it once, and each gets
// the slow path's issues (run with -race).
func TestFullFormConcurrentFirstUse(t *testing.T) {
	for _, tc := range []struct{ name, schema, doc string }{
		{"reporter", `{"type": "object", "properties": {"id": {"oneOf": [{"type": "string"}, {"type": "integer", "minimum": 0}]}}}`,
			`{"id": -3}`},
		{"words", `{"type": "object", "required": ["owner", "repo"], "properties": {
			"owner": {"type": "string", "description": "Repository owner"}, "repo": {"type": "string"}}}`, `{"repo": 1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Compile([]byte(tc.schema), Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := slowIssues(t, tc.schema, tc.doc)
			dropFull(t, v.c)
			const n = 8
			got := make([][]result.Issue, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() { got[i], errs[i] = v.Validate([]byte(tc.doc)) })
			}
			wg.Wait()
			for i := range n {
				if errs[i] != nil {
					t.Fatal(errs[i])
				}
				sameIssues(t, got[i], want)
			}
			if c := v.c.full.compiles.Load(); c != 1 {
				t.Errorf("compiled again %d times, want 1", c)
			}
		})
	}
}
