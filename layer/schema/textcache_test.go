package schema

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/agentjudge/judge/internal/jsonvalue"
)

// The texts a node keeps of the issues written directly are bounded
// (maxCachedTexts entries, keys of at most maxCachedKey bytes), however
// many different keys the documents send, and an answer is the slow
// path's whether its texts were kept, built, or built past the bound.
func TestCachedTextsBounded(t *testing.T) {
	t.Parallel()
	v, err := Compile([]byte(`{"additionalProperties": {"type": "string"},
		"properties": {"o": {"required": ["a", "b"]}, "e": {"enum": ["a", "b", 1]}, "c": {"const": 1},
			"both": {"const": "x", "enum": ["y"]}}, "required": ["x", "y"]}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	long := make([]byte, maxCachedKey+1)
	for i := range long {
		long[i] = 'k'
	}
	docs := []string{`{"` + string(long) + `": 1}`, `{"o": {}}`, `{"o": {"a": 1}, "x": 2}`,
		// const and enum: kept by the value's bytes (an escape is other
		// bytes for the same value), not for an object or a long value.
		`{"e": "z", "c": 2, "both": "y"}`, `{"e": "\u007a", "c": 2.0, "both": "q"}`, `{"e": {"k": [1]}, "c": [1]}`,
		`{"e": "` + string(long) + `", "c": "1", "both": "x"}`, `{"e": 1.0, "c": 1e0, "x": "s", "y": "t"}`}
	for i := range 3 * maxCachedTexts {
		docs = append(docs, fmt.Sprintf(`{"key%d": %d, "x": "s"}`, i, i))
	}
	for round := range 2 {
		for _, doc := range docs {
			fast, sure := v.c.fastIssuesUnguarded([]byte(doc), 0)
			val, err := jsonvalue.Decode([]byte(doc), 0)
			if err != nil {
				t.Fatal(err)
			}
			slow, err := v.c.validate(val)
			if !sure || err != nil || !reflect.DeepEqual(fast, slow) {
				t.Fatalf("round %d, %s: fast path (sure %v) %+v, slow path (%v) %+v", round, doc, sure, fast, err, slow)
			}
		}
	}
	var walk func(n *node, seen map[*node]bool)
	kept, values := 0, 0
	walk = func(n *node, seen map[*node]bool) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		if p := n.texts.Load(); p != nil {
			if len(*p) > maxCachedTexts {
				t.Errorf("a node keeps %d texts, at most %d allowed", len(*p), maxCachedTexts)
			}
			for _, e := range *p {
				if len(e.key) > maxCachedKey {
					t.Errorf("a node keeps the texts of a key of %d bytes", len(e.key))
				}
				if e.name <= -2 {
					values++
					if !keepValue([]byte(e.got)) {
						t.Errorf("a node keeps the texts of the value %.80q", e.got)
					}
				}
			}
			kept += len(*p)
		}
		walk(n.addl, seen)
		for _, k := range n.keys {
			walk(k.n, seen)
		}
		if n.table != nil {
			for _, k := range n.table.slots {
				walk(k.info.n, seen)
			}
		}
	}
	walk(v.c.fast, map[*node]bool{})
	if kept == 0 || values == 0 {
		t.Errorf("the nodes kept %d texts, %d of them of a const or enum", kept, values)
	}
}

// Validators are shared between goroutines: nodes keeping texts while
// others read them give every goroutine the slow path's issues (run with
// -race).
func TestCachedTextsConcurrent(t *testing.T) {
	t.Parallel()
	v, err := Compile([]byte(`{"additionalProperties": {"type": "integer"}, "required": ["id"]}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var docs [][]byte
	var want [][]any
	for i := range 2 * maxCachedTexts {
		doc := []byte(fmt.Sprintf(`{"k%d": "v", "k%d": true}`, i, i+1))
		val, err := jsonvalue.Decode(doc, 0)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := v.c.validate(val)
		if err != nil {
			t.Fatal(err)
		}
		docs, want = append(docs, doc), append(want, []any{slow})
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range 20 {
				k := (g*7 + r) % len(docs)
				fast, sure := v.c.fastIssuesUnguarded(docs[k], 0)
				if !sure || !reflect.DeepEqual([]any{fast}, want[k]) {
					t.Errorf("%s: fast path (sure %v) %+v, want %+v", docs[k], sure, fast, want[k])
					return
				}
			}
		}()
	}
	wg.Wait()
}
