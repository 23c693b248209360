package layer

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentjudge/judge/result"
)

func TestMustExtractDoc(t *testing.T) {
	t.Parallel()
	src := "// Package x does x.\n//\n// # Layer x\n//\n// x: do x\n//\n// More.\n//\n// # Other\n//\n// Not this.\npackage x\n"
	if got := MustExtractDoc(src, "x"); got != "x: do x\n\nMore." {
		t.Errorf("got %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic for a missing heading")
		}
	}()
	MustExtractDoc(src, "y")
}

func TestCacheBuildsOncePerKey(t *testing.T) {
	t.Parallel()
	c := NewCache(0)
	var builds atomic.Int32
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			v, err := c.Load("k", func() (any, error) { builds.Add(1); return 42, nil })
			if err != nil || v != 42 {
				t.Errorf("Load = %v, %v", v, err)
			}
		})
	}
	wg.Wait()
	if n := builds.Load(); n != 1 {
		t.Fatalf("built %d times, want once", n)
	}
	if entries, hits := c.Stats(); entries != 1 || hits != 31 {
		t.Fatalf("stats = %d entries, %d hits", entries, hits)
	}
}

func TestCacheKeepsFailuresAndPanics(t *testing.T) {
	t.Parallel()
	c := NewCache(2)
	boom := errors.New("bad schema")
	for range 2 {
		if _, err := c.Load("bad", func() (any, error) { return nil, boom }); !errors.Is(err, boom) {
			t.Fatalf("err = %v", err)
		}
	}
	if _, err := c.Load("panic", func() (any, error) { panic("oops") }); err == nil || !strings.Contains(err.Error(), "oops") {
		t.Fatalf("a panicking build gave err = %v", err)
	}
	// Full: the next new key evicts the least recently used, "bad".
	if _, err := c.Load("third", func() (any, error) { return 3, nil }); err != nil {
		t.Fatal(err)
	}
	if entries, _ := c.Stats(); entries != 2 {
		t.Fatalf("entries = %d after overflow, want 2", entries)
	}
	rebuilt := false
	_, _ = c.Load("bad", func() (any, error) { rebuilt = true; return nil, boom })
	if !rebuilt {
		t.Fatal("the least recently used entry was kept")
	}
}

// sized is a cached value of a known size.
type sized int64

func (s sized) Size() int64 { return int64(s) }

// A budget shared by caches evicts the least recently used entries of any
// of them to stay within its bytes, keeps no entry larger than itself, and
// its statistics add up.
func TestBudget(t *testing.T) {
	t.Parallel()
	b := NewBudget(10_000)
	x, y := b.NewCache("x", 0), b.NewCache("y", 0)
	builds := map[string]int{}
	load := func(c *Cache, key string, size int64) {
		t.Helper()
		v, err := c.Load(key, func() (any, error) { builds[key]++; return sized(size), nil })
		if err != nil || v != sized(size) {
			t.Fatalf("Load(%s) = %v, %v", key, v, err)
		}
	}
	load(x, "a", 3000)
	load(y, "b", 3000)
	load(x, "c", 3000)
	load(x, "a", 3000) // a is now more recent than b and c
	load(y, "d", 3000) // over 10,000: b, the least recently used, goes
	stats, used := b.Stats()
	if used > b.Limit() {
		t.Fatalf("used %d over the limit %d", used, b.Limit())
	}
	var sum int64
	for _, s := range stats {
		sum += s.Bytes
	}
	if sum != used || len(stats) != 2 || stats[0].Name != "x" || stats[1].Entries != 1 || stats[1].Evictions != 1 {
		t.Fatalf("stats %+v, used %d", stats, used)
	}
	load(x, "a", 3000)
	load(y, "b", 3000)
	if builds["a"] != 1 || builds["b"] != 2 {
		t.Fatalf("builds %v: want a kept (recently used) and b rebuilt (evicted)", builds)
	}
	// An entry larger than the whole budget is built each time, not kept.
	load(x, "huge", 20_000)
	load(x, "huge", 20_000)
	if builds["huge"] != 2 {
		t.Fatalf("an entry over the budget was kept: built %d times", builds["huge"])
	}
	if _, used := b.Stats(); used > b.Limit() {
		t.Fatalf("used %d over the limit %d", used, b.Limit())
	}
}

func TestPassFindings(t *testing.T) {
	t.Parallel()
	p := NewPass(&Layer{Name: "x"}, &Input{}, NewCache(0))
	if f := p.Findings(); f.Confidence != 1 || f.Checks != 0 {
		t.Fatalf("empty pass: %+v", f)
	}
	p.Decided(1)
	p.Decided(0.5)
	p.Decided(7) // clamped to 1
	p.Undecided("acceptance_criteria[0]", "criterion was not checked here", "Give it a rule")
	p.Passed("a")
	p.Failed("b")
	p.UsedModel("m")
	f := p.Findings()
	if f.Checks != 4 || f.Confidence != 2.5/4 {
		t.Fatalf("checks %d confidence %v, want 4 and 0.625", f.Checks, f.Confidence)
	}
	if len(f.Issues) != 1 || f.Issues[0].Type != result.NotChecked || f.Issues[0].Severity != result.Info {
		t.Fatalf("issues %+v", f.Issues)
	}
	if len(f.Passed) != 1 || len(f.Failed) != 1 || len(f.Models) != 1 {
		t.Fatalf("findings %+v", f)
	}
}

func TestCriterionJSON(t *testing.T) {
	t.Parallel()
	var cs []Criterion
	if err := json.Unmarshal([]byte(`["Tests are included", {"id": "n", "rule": "size(output) > 0", "message": "empty"}]`), &cs); err != nil {
		t.Fatal(err)
	}
	if cs[0].Name() != "Tests are included" || cs[1].Name() != "n" || cs[1].Message != "empty" {
		t.Fatalf("got %+v", cs)
	}
	for _, bad := range []string{`{"rul": "x"}`, `{}`, `3`} {
		var c Criterion
		if err := json.Unmarshal([]byte(bad), &c); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestLayerValidate(t *testing.T) {
	t.Parallel()
	ok := &Layer{Name: "schema", Doc: "schema: d", Run: func(context.Context, *Pass) error { return nil }}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, l := range []*Layer{nil, {Name: "Schema", Doc: "d", Run: ok.Run}, {Name: "s", Run: ok.Run}, {Name: "s", Doc: "d"}} {
		if l.Validate() == nil {
			t.Errorf("%+v accepted", l)
		}
	}
}
