package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// goid is the id of the calling goroutine, read from its stack header
// ("goroutine 17 [running]:"); tests use it to tell worker goroutines
// apart.
func goid() int {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	buf = bytes.TrimPrefix(buf, []byte("goroutine "))
	id, _ := strconv.Atoi(string(buf[:bytes.IndexByte(buf, ' ')]))
	return id
}

// workerLayer is a layer whose behaviour the output picks: 1 returns at
// once, 2 ignores its deadline until release is closed, 3 panics. Each run
// sends the id of the goroutine it ran on to ids.
func workerLayer(ids chan<- int, release <-chan struct{}) *layer.Layer {
	return &layer.Layer{
		Name: "worker", Doc: "worker: a layer for tests",
		Run: func(ctx context.Context, p *layer.Pass) error {
			ids <- goid()
			switch fmt.Sprint(p.Input.Output) {
			case "2":
				<-release // ignores ctx
			case "3":
				panic("boom")
			}
			p.Decided(1)
			return nil
		},
	}
}

func runWorker(t *testing.T, e *Engine, output string) *result.ValidationResult {
	t.Helper()
	r, err := e.Validate(context.Background(), &Request{Output: json.RawMessage(output)})
	if err != nil {
		t.Fatalf("Validate: %v", err)
	}
	return r
}

func hasFailure(r *result.ValidationResult, substr string) bool {
	for _, is := range r.Issues {
		if is.Type == result.LayerFailed && strings.Contains(is.Message, substr) {
			return true
		}
	}
	return false
}

// Runs that follow one another go to the worker goroutine that ran the
// previous one once it is idle, instead of each to a new goroutine.
func TestWorkerReused(t *testing.T) {
	t.Parallel()
	ids := make(chan int, 10)
	parked := make(chan struct{}, 4)
	e, err := New(WithLayers(workerLayer(ids, nil)), withParked(parked))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for range 5 {
		if r := runWorker(t, e, `1`); r.Confidence != 1 {
			t.Fatalf("issues %+v", r.Issues)
		}
		seen[<-ids] = true
		<-parked // the worker is idle
	}
	if len(seen) != 1 {
		t.Fatalf("5 runs used %d goroutines, want 1 reused worker", len(seen))
	}
	if n := e.workers.Load(); n != 1 {
		t.Fatalf("%d workers alive, want 1", n)
	}
}

// A reused worker whose layer ignores its deadline is still abandoned at
// the deadline, keeps its slot until the layer returns, and takes new runs
// again only afterwards; a panic on a worker fails that run only.
func TestReusedWorkerAbandonsLateLayer(t *testing.T) {
	t.Parallel()
	ids := make(chan int, 10)
	release := make(chan struct{})
	parked := make(chan struct{}, 4)
	e, err := New(WithLayers(workerLayer(ids, release)), WithLayerTimeout(50*time.Millisecond), WithMaxConcurrentRuns(1), withParked(parked))
	if err != nil {
		t.Fatal(err)
	}
	if r := runWorker(t, e, `1`); r.Confidence != 1 {
		t.Fatalf("first run: %+v", r.Issues)
	}
	worker := <-ids
	<-parked // the worker is idle

	start := time.Now()
	late := runWorker(t, e, `2`)
	if d := time.Since(start); d > time.Second {
		t.Errorf("Validate waited %v for a layer that ignores its deadline", d)
	}
	if !hasFailure(late, "did not finish within 50ms") {
		t.Fatalf("late run: %+v", late.Issues)
	}
	if id := <-ids; id != worker {
		t.Fatalf("late run on goroutine %d, want the idle worker %d", id, worker)
	}
	if busy, err := e.Validate(context.Background(), &Request{Output: json.RawMessage(`1`)}); !errors.Is(err, ErrBusy) {
		t.Fatalf("a run got the slot the abandoned run still holds: %+v, %v", busy, err)
	}
	// The busy run's worker, which never got a slot, idles: the only
	// worker that can signal, since the late run's still holds its run.
	<-parked

	close(release)
	<-parked // the abandoned run returned, its slot is free, its worker idles
	if r := runWorker(t, e, `3`); !hasFailure(r, "internal error: boom") {
		t.Fatalf("panicking run: %+v", r.Issues)
	}
	<-ids
	<-parked // the worker that ran the panic idles again
	if r := runWorker(t, e, `1`); r.Confidence != 1 {
		t.Fatalf("run after a panic: %+v", r.Issues)
	}
	<-ids
	// The worker of the late run and the one that found no slot, both
	// reused since: the panic ended no goroutine and needed no new one.
	if n := e.workers.Load(); n != 2 {
		t.Fatalf("%d workers alive, want 2", n)
	}
}

// Close ends the workers: at once when they are idle, and, for a layer
// that ignores its context, not before the layer returns: Close then ends
// with its context's error, naming the worker that stays.
func TestEngineClose(t *testing.T) {
	t.Parallel()
	ids := make(chan int, 10)
	release := make(chan struct{})
	e, err := New(WithLayers(workerLayer(ids, release)), WithLayerTimeout(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if r := runWorker(t, e, `1`); r.Confidence != 1 {
		t.Fatalf("run: %+v", r.Issues)
	}
	<-ids
	if late := runWorker(t, e, `2`); !hasFailure(late, "did not finish") {
		t.Fatalf("late run: %+v", late.Issues)
	}
	<-ids // the stuck layer is running
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := e.Close(ctx); err == nil || !strings.Contains(err.Error(), "ignores its context") {
		t.Fatalf("Close with a stuck layer = %v, want the stuck worker named", err)
	}
	close(release)
	if err := e.Close(context.Background()); err != nil {
		t.Fatalf("Close after the layer returned: %v", err)
	}
	if n := e.workers.Load(); n != 0 {
		t.Errorf("%d workers alive after Close, want 0", n)
	}
	// Validate still answers after Close.
	if r := runWorker(t, e, `1`); r.Confidence != 1 {
		t.Fatalf("run after Close: %+v", r.Issues)
	}
	<-ids
	if err := e.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// withParked is the engine's test hook: each worker about to wait for its
// next run sends on parked (see Engine.parked).
func withParked(parked chan struct{}) Option {
	return func(e *Engine) error {
		e.parked = parked
		return nil
	}
}
