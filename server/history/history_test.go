package history

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// clock is a settable clock for the tests.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

var t0 = time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)

func issue(t result.Type, s result.Severity) result.Issue {
	return result.Issue{Type: t, Severity: s, Message: "a message for the test"}
}

// TestRollover counts events just before and at minute boundaries and
// finds them in the minutes they happened in.
func TestRollover(t *testing.T) {
	t.Parallel()
	c := &clock{t: t0.Add(59*time.Second + 999*time.Millisecond)}
	h := New(c.now)
	h.Validation(&result.ValidationResult{Valid: true}, 3*time.Millisecond)
	c.set(t0.Add(time.Minute)) // the next minute's first instant
	h.Validation(&result.ValidationResult{Valid: false, Issues: []result.Issue{issue(result.MissingField, result.Error)}}, 40*time.Millisecond)
	h.Validation(&result.ValidationResult{Valid: true}, 2*time.Millisecond)
	c.set(t0.Add(3*time.Minute + 30*time.Second))
	d := h.Snapshot()
	if len(d.Minutes) != 2 {
		t.Fatalf("%d minutes, want 2: %+v", len(d.Minutes), d.Minutes)
	}
	for i, want := range []struct {
		start       time.Time
		validations int
		valid       int
	}{{t0, 1, 1}, {t0.Add(time.Minute), 2, 1}} {
		m := d.Minutes[i]
		if !m.Start.Equal(want.start) || m.Validations != want.validations || m.Valid != want.valid {
			t.Errorf("minute %d = %v %d/%d, want %v %d/%d", i, m.Start, m.Valid, m.Validations, want.start, want.valid, want.validations)
		}
	}
	if got := d.Minutes[1].Issues["missing_field"].Error; got != 1 {
		t.Errorf("minute 1 missing_field errors = %d, want 1", got)
	}
	if d.Totals.Validations != 3 || d.Totals.Valid != 2 || *d.Totals.ValidShare != 2.0/3 {
		t.Errorf("totals %+v", d.Totals)
	}
	if want := t0.Add(3*time.Minute - (Window-1)*time.Minute); !d.Start.Equal(want) {
		t.Errorf("start %v, want %v", d.Start, want)
	}
}

// TestWindow moves the clock past the window: a minute older than
// Window minutes is gone, and a bucket reused for a new minute starts
// from zero.
func TestWindow(t *testing.T) {
	t.Parallel()
	c := &clock{t: t0}
	h := New(c.now)
	h.Validation(&result.ValidationResult{Valid: true}, time.Millisecond)
	c.set(t0.Add((Window - 1) * time.Minute))
	if d := h.Snapshot(); len(d.Minutes) != 1 || d.Totals.Validations != 1 {
		t.Fatalf("the first minute is still in the window: %d minutes, %d validations", len(d.Minutes), d.Totals.Validations)
	}
	c.set(t0.Add(Window * time.Minute)) // the same ring slot as t0
	if d := h.Snapshot(); len(d.Minutes) != 0 || d.Totals.Validations != 0 {
		t.Fatalf("a minute %d minutes old is still shown: %+v", Window, d.Minutes)
	}
	h.Validation(&result.ValidationResult{Valid: false}, time.Millisecond)
	d := h.Snapshot()
	if len(d.Minutes) != 1 || d.Minutes[0].Validations != 1 || d.Minutes[0].Valid != 0 {
		t.Fatalf("the reused bucket kept the old minute's counts: %+v", d.Minutes)
	}
	// The clock steps back: the event counts in the latest minute.
	c.set(t0.Add(time.Hour))
	h.Validation(&result.ValidationResult{Valid: true}, time.Millisecond)
	d = h.Snapshot()
	if len(d.Minutes) != 1 || d.Minutes[0].Validations != 2 {
		t.Fatalf("after the clock stepped back: %+v", d.Minutes)
	}
}

// TestBounds feeds far more names than the limits and every minute of a
// day: the memory stays that of the ring and the names past the limits
// count as other.
func TestBounds(t *testing.T) {
	t.Parallel()
	c := &clock{t: t0}
	h := New(c.now)
	before := Bytes()
	for i := range 3 * Window {
		c.set(t0.Add(time.Duration(i) * time.Minute))
		tool := fmt.Sprintf("tool_%d", i)
		h.Check(tool, i%2 == 0, nil)
		h.Outcome(tool, toolcall.Failed, nil)
		h.Layer(fmt.Sprintf("layer_%d", i), time.Millisecond, false, nil)
		h.Issues([]result.Issue{issue(result.Type(fmt.Sprintf("made_up_%d", i)), result.Warning)})
	}
	if Bytes() != before {
		t.Fatalf("Bytes changed")
	}
	d := h.Snapshot()
	if len(d.Minutes) != Window {
		t.Fatalf("%d minutes, want %d", len(d.Minutes), Window)
	}
	tools := d.Totals.Calls.Tools
	if len(tools) > ToolLimit+1 {
		t.Fatalf("%d tools, want at most %d", len(tools), ToolLimit+1)
	}
	var other int
	for _, tc := range tools {
		if tc.Tool == Other {
			other = tc.Calls
		}
	}
	// Of the last Window minutes' tools, all came after the first 50.
	if other != 2*Window {
		t.Errorf("other tool calls = %d, want %d", other, 2*Window)
	}
	if len(d.Totals.Layers) != 1 || d.Totals.Layers[Other].Runs != Window {
		t.Errorf("layers %v, want only other with %d runs", d.Totals.Layers, Window)
	}
	if len(d.Totals.Issues) != 1 || d.Totals.Issues[Other].Warning != Window {
		t.Errorf("issues %v, want only other with %d warnings", d.Totals.Issues, Window)
	}
	if h.Tools.Name(ToolLimit-1) != fmt.Sprintf("tool_%d", ToolLimit-1) || h.Tools.Label("tool_1000") != Other {
		t.Errorf("names: %q, %q", h.Tools.Name(ToolLimit-1), h.Tools.Label("tool_1000"))
	}
	t.Logf("history memory bound: %d bytes (%d minutes of %d bytes)", Bytes(), Window, Bytes()/Window)
}

// TestPercentiles checks the percentiles against the histogram's
// buckets: each lies within the bucket of the true percentile.
func TestPercentiles(t *testing.T) {
	t.Parallel()
	c := &clock{t: t0}
	h := New(c.now)
	for i := 1; i <= 100; i++ {
		h.Validation(&result.ValidationResult{Valid: true}, time.Duration(i)*time.Millisecond)
	}
	p := h.Snapshot().Totals.LatencyMS
	for _, tc := range []struct {
		name      string
		got, want float64
	}{{"p50", p.P50, 50}, {"p95", p.P95, 95}, {"p99", p.P99, 99}} {
		i := latencyIndex(time.Duration(tc.want * float64(time.Millisecond)))
		lo, hi := latencyBound(i-1), latencyBound(i)
		if tc.got < lo || tc.got > hi {
			t.Errorf("%s = %v, want within the bucket (%v, %v] of %v", tc.name, tc.got, lo, hi, tc.want)
		}
	}
	if !(p.P50 <= p.P95 && p.P95 <= p.P99) {
		t.Errorf("percentiles out of order: %+v", p)
	}
}

// TestToolsOrder ranks the tools by failures, then calls.
func TestToolsOrder(t *testing.T) {
	t.Parallel()
	h := New((&clock{t: t0}).now)
	h.Check("search", true, nil)
	h.Check("search", true, nil)
	h.Check("book", false, nil)
	h.Outcome("book", toolcall.Failed, nil)
	h.Outcome("cancel", toolcall.Satisfied, nil)
	h.Outcome("cancel", "SOMETHING_ELSE", nil)
	cc := h.Snapshot().Totals.Calls
	if cc.Checks != 3 || cc.Invalid != 1 || cc.Outcomes["FAILED"] != 1 || cc.Outcomes["SATISFIED"] != 1 || cc.Outcomes[Other] != 1 {
		t.Errorf("calls %+v", cc)
	}
	var order []string
	for _, tc := range cc.Tools {
		order = append(order, fmt.Sprintf("%s %d/%d", tc.Tool, tc.Failures, tc.Calls))
	}
	if fmt.Sprint(order) != "[book 2/2 cancel 0/2 search 0/2]" {
		t.Errorf("tools %v", order)
	}
}

// TestConcurrent counts from many goroutines (run with -race).
func TestConcurrent(t *testing.T) {
	t.Parallel()
	h := New(nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				h.Validation(&result.ValidationResult{Valid: i%2 == 0}, time.Millisecond)
				h.Check(fmt.Sprintf("t%d", (g*200+i)%70), true, nil)
				if i%50 == 0 {
					_ = h.Snapshot()
				}
			}
		}()
	}
	wg.Wait()
	d := h.Snapshot()
	if d.Totals.Validations != 1600 || d.Totals.Calls.Checks != 1600 {
		t.Errorf("totals %d validations, %d checks, want 1600 each", d.Totals.Validations, d.Totals.Calls.Checks)
	}
}
