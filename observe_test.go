package judge_test

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// runs records the layer runs an observer is told of.
type runs struct {
	mu  sync.Mutex
	got []judge.LayerRun
}

func (r *runs) observe(run judge.LayerRun) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, run)
}

// observeText validates the output "text" with an engine of opts and
// returns the layer runs observed.
func observeText(t *testing.T, opts ...judge.Option) []judge.LayerRun {
	t.Helper()
	e := mustEngine(t, opts...)
	defer func() {
		if err := e.Close(context.Background()); err != nil {
			t.Error(err)
		}
	}()
	var rec runs
	ctx := judge.ObserveLayers(context.Background(), rec.observe)
	if _, err := e.Validate(ctx, &judge.Request{Output: json.RawMessage(`"text"`)}); err != nil {
		t.Fatal(err)
	}
	return rec.got
}

// TestObserveLayers validates with an observer in the context: it is told
// of every layer run, with its time, failure and issues; on the fast path
// too; and a context without one changes nothing.
func TestObserveLayers(t *testing.T) {
	t.Parallel()
	// The layers run in a synctest bubble: its clock moves only when every
	// goroutine of the bubble waits, so the slow layer's deadline comes
	// exactly 30 ms after its start however loaded the machine is, and
	// its run's time is that, not a window around it.
	synctest.Test(t, func(t *testing.T) {
		broken := testLayer("broken", func(ctx context.Context, p *layer.Pass) error { return errors.New("disk on fire") })
		slow := testLayer("slow", func(ctx context.Context, p *layer.Pass) error {
			<-ctx.Done()
			return ctx.Err()
		})
		const timeout = 30 * time.Millisecond
		got := observeText(t, judge.WithLayers(testLayer("fine", nil), broken, slow), judge.WithLayerTimeout(timeout))
		slices.SortFunc(got, func(a, b judge.LayerRun) int { return strings.Compare(a.Layer, b.Layer) })
		if len(got) != 3 {
			t.Fatalf("%d runs observed, want 3: %+v", len(got), got)
		}
		b, f, s := got[0], got[1], got[2]
		if b.Layer != "broken" || !b.Failed || len(b.Issues) != 1 || b.Issues[0].Type != result.LayerFailed {
			t.Errorf("broken: %+v", b)
		}
		if f.Layer != "fine" || f.Failed || len(f.Issues) != 1 || f.Issues[0].Type != result.StyleIssue || f.Duration != 0 {
			t.Errorf("fine: %+v, want no time passed (the bubble's clock stands while goroutines run)", f)
		}
		if s.Layer != "slow" || !s.Failed || len(s.Issues) != 1 || s.Issues[0].Type != result.LayerFailed || s.Duration != timeout {
			t.Errorf("slow: %+v, want failed after exactly its %v from its start to its deadline", s, timeout)
		}
	})

	// A layer that waited for a slot is timed from taking it: with one slot,
	// whichever layer takes it first returns 10 ms in, the other then
	// starts and its deadline (30 ms after the validation began) leaves it
	// 20 ms.
	synctest.Test(t, func(t *testing.T) {
		var taken atomic.Int32
		run := func(ctx context.Context, p *layer.Pass) error {
			if taken.Add(1) == 1 {
				time.Sleep(10 * time.Millisecond)
				return nil
			}
			<-ctx.Done()
			return ctx.Err()
		}
		got := observeText(t, judge.WithLayers(testLayer("one", run), testLayer("two", run)),
			judge.WithLayerTimeout(30*time.Millisecond), judge.WithMaxConcurrentRuns(1))
		slices.SortFunc(got, func(a, b judge.LayerRun) int { return cmp.Compare(a.Duration, b.Duration) })
		if len(got) != 2 || got[0].Duration != 10*time.Millisecond || got[0].Failed ||
			got[1].Duration != 20*time.Millisecond || !got[1].Failed {
			t.Errorf("runs %+v, want one done after 10ms, the other failed after 20ms (from taking the slot to its deadline)", got)
		}
	})

	// The fast path (the schema layer alone) is observed too.
	def := mustEngine(t)
	var fast runs
	ctx := judge.ObserveLayers(context.Background(), fast.observe)
	schema := json.RawMessage(`{"type": "object", "required": ["a"]}`)
	for _, out := range []string{`{"a": 1}`, `{"b": 1}`} {
		if _, err := def.Validate(ctx, &judge.Request{Output: json.RawMessage(out), ExpectedSchema: schema}); err != nil {
			t.Fatal(err)
		}
	}
	if len(fast.got) != 2 || fast.got[0].Layer != "schema" || len(fast.got[0].Issues) != 0 || len(fast.got[1].Issues) == 0 {
		t.Errorf("fast path runs %+v, want schema twice, the second with issues", fast.got)
	}
}
