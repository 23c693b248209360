package telemetry

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// recordExporter keeps the batches it is given; when gate is set, each
// export first waits for it to be closed (or for its context to end).
type recordExporter struct {
	mu       sync.Mutex
	batches  [][]string // span names, batch by batch
	shutdown int
	gate     chan struct{}
	entered  chan struct{} // told when an export begins, when set
	got      chan int      // each batch's size, when set
}

func (e *recordExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if e.entered != nil {
		e.entered <- struct{}{}
	}
	if e.gate != nil {
		select {
		case <-e.gate:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
	names := make([]string, len(spans))
	for i, s := range spans {
		names[i] = s.Name()
	}
	e.mu.Lock()
	e.batches = append(e.batches, names)
	e.mu.Unlock()
	if e.got != nil {
		e.got <- len(spans)
	}
	return nil
}

func (e *recordExporter) Shutdown(context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.shutdown++
	return nil
}

// exported returns the names of every span exported, in order, and the
// largest batch.
func (e *recordExporter) exported() (names []string, largest int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, b := range e.batches {
		names = append(names, b...)
		largest = max(largest, len(b))
	}
	return names, largest
}

// endSpans starts and ends n spans named prefix0, prefix1, … from tp.
func endSpans(tp *sdktrace.TracerProvider, prefix string, n int) {
	tr := tp.Tracer("test")
	for i := range n {
		_, s := tr.Start(context.Background(), prefix+strconv.Itoa(i))
		s.End()
	}
}

// waitBatch waits for the exporter to report a batch, failing the test
// after a generous bound (a deadline for a broken processor, not a
// pause).
func waitBatch(t *testing.T, got chan int) int {
	t.Helper()
	select {
	case n := <-got:
		return n
	case <-time.After(10 * time.Second):
		t.Fatal("no batch exported within 10 s")
		return 0
	}
}

// A full batch is exported at once, the delay (an hour) not waited for;
// a span of a batch that does not fill waits for the delay, no less.
func TestBatcherFullBatchAndDelay(t *testing.T) {
	t.Parallel()
	exp := &recordExporter{got: make(chan int, 8)}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(newBatcher(exp, Batch{Delay: time.Hour, MaxExportBatchSize: 4})))
	defer func() { _ = tp.Shutdown(context.Background()) }()
	endSpans(tp, "s", 4)
	if n := waitBatch(t, exp.got); n != 4 {
		t.Fatalf("batch of %d spans, want 4", n)
	}

	exp2 := &recordExporter{got: make(chan int, 8)}
	const delay = 50 * time.Millisecond
	tp2 := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(newBatcher(exp2, Batch{Delay: delay})))
	defer func() { _ = tp2.Shutdown(context.Background()) }()
	start := time.Now()
	endSpans(tp2, "d", 1)
	if n := waitBatch(t, exp2.got); n != 1 {
		t.Fatalf("batch of %d spans, want 1", n)
	}
	if waited := time.Since(start); waited < delay {
		t.Errorf("the span was exported after %v, before the %v delay", waited, delay)
	}
}

// ForceFlush exports every ended span, in batches of at most
// MaxExportBatchSize, before it returns; Shutdown exports what is left,
// shuts the exporter down once, and spans ended after it are dropped.
func TestBatcherFlushAndShutdown(t *testing.T) {
	t.Parallel()
	exp := &recordExporter{}
	b := newBatcher(exp, Batch{Delay: time.Hour, MaxExportBatchSize: 3})
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(b))
	ctx := context.Background()
	endSpans(tp, "a", 2)
	if err := tp.ForceFlush(ctx); err != nil {
		t.Fatal(err)
	}
	if names, _ := exp.exported(); strings.Join(names, ",") != "a0,a1" {
		t.Fatalf("after ForceFlush: %v, want a0,a1", names)
	}
	// 3 fill a batch and may be exported at once; the rest wait for Shutdown.
	endSpans(tp, "b", 8)
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	names, largest := exp.exported()
	if got := strings.Join(names, ","); got != "a0,a1,b0,b1,b2,b3,b4,b5,b6,b7" {
		t.Errorf("after Shutdown: %s", got)
	}
	if largest > 3 {
		t.Errorf("a batch of %d spans, above MaxExportBatchSize 3", largest)
	}
	endSpans(tp, "late", 1)
	if err := b.ForceFlush(ctx); err != nil {
		t.Errorf("ForceFlush after Shutdown: %v", err)
	}
	if err := b.Shutdown(ctx); err != nil {
		t.Errorf("second Shutdown: %v", err)
	}
	if names, _ := exp.exported(); len(names) != 10 {
		t.Errorf("spans ended after Shutdown were exported: %v", names)
	}
	if exp.shutdown != 1 {
		t.Errorf("exporter shut down %d times, want 1", exp.shutdown)
	}
}

// With the exporter stuck, the queue holds MaxQueueSize spans and drops
// the rest, counted.
func TestBatcherQueueFull(t *testing.T) {
	t.Parallel()
	exp := &recordExporter{gate: make(chan struct{}), entered: make(chan struct{}, 8)}
	b := newBatcher(exp, Batch{Delay: time.Hour, MaxQueueSize: 4, MaxExportBatchSize: 2})
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(b))
	defer func() { _ = tp.Shutdown(context.Background()) }()
	endSpans(tp, "a", 2) // a full batch: the loop takes it and waits at the gate
	<-exp.entered
	endSpans(tp, "b", 6) // 4 wait, 2 are dropped
	close(exp.gate)
	if err := tp.ForceFlush(context.Background()); err != nil && !strings.Contains(err.Error(), "2 spans dropped") {
		t.Fatalf("ForceFlush: %v", err)
	}
	if names, _ := exp.exported(); strings.Join(names, ",") != "a0,a1,b0,b1,b2,b3" {
		t.Errorf("exported %v", names)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.lost != 2 {
		t.Errorf("%d spans counted as dropped, want 2", b.lost)
	}
}

// An export that outlasts ExportTimeout is cancelled, and ForceFlush
// says so.
func TestBatcherExportTimeout(t *testing.T) {
	t.Parallel()
	exp := &recordExporter{gate: make(chan struct{})} // never opened
	b := newBatcher(exp, Batch{Delay: time.Hour, ExportTimeout: 20 * time.Millisecond})
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(b))
	endSpans(tp, "a", 1)
	err := tp.ForceFlush(context.Background())
	if err == nil || !strings.Contains(err.Error(), "OTEL_BSP_EXPORT_TIMEOUT") {
		t.Fatalf("ForceFlush: %v, want the export timeout", err)
	}
	endSpans(tp, "b", 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := tp.Shutdown(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Shutdown with an ended context: %v", err)
	}
}

// neverSample records spans without sampling them: they are not exported.
type recordOnly struct{}

func (recordOnly) ShouldSample(sdktrace.SamplingParameters) sdktrace.SamplingResult {
	return sdktrace.SamplingResult{Decision: sdktrace.RecordOnly}
}
func (recordOnly) Description() string { return "RecordOnly" }

func TestBatcherSkipsUnsampled(t *testing.T) {
	t.Parallel()
	exp := &recordExporter{}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(recordOnly{}), sdktrace.WithSpanProcessor(newBatcher(exp, Batch{})))
	endSpans(tp, "r", 3)
	if err := tp.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if names, _ := exp.exported(); len(names) != 0 {
		t.Errorf("unsampled spans exported: %v", names)
	}
}

// Spans ended from many goroutines at once are all exported, none twice
// (run with -race).
func TestBatcherConcurrent(t *testing.T) {
	t.Parallel()
	exp := &recordExporter{}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(newBatcher(exp, Batch{Delay: time.Millisecond, MaxExportBatchSize: 7})))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() { endSpans(tp, "g"+strconv.Itoa(g)+"-", 250) })
	}
	wg.Wait()
	if err := tp.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	names, largest := exp.exported()
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Fatalf("%s exported twice", n)
		}
		seen[n] = true
	}
	if len(seen) != 2000 || largest > 7 {
		t.Errorf("%d distinct spans exported (want 2000), largest batch %d (at most 7)", len(seen), largest)
	}
}

func TestBatchDefaults(t *testing.T) {
	t.Parallel()
	got := Batch{}.withDefaults()
	want := Batch{Delay: DefaultBatchDelay, ExportTimeout: 30 * time.Second, MaxQueueSize: 2048, MaxExportBatchSize: 512}
	if got != want {
		t.Errorf("defaults %+v, want %+v", got, want)
	}
	if got := (Batch{MaxQueueSize: 100, MaxExportBatchSize: 200}).withDefaults(); got.MaxExportBatchSize != 100 {
		t.Errorf("batch above the queue: %d, want 100", got.MaxExportBatchSize)
	}
}

// With no delay (OTEL_BSP_SCHEDULE_DELAY=0), a span is exported without
// waiting for a batch to fill or for ForceFlush.
func TestBatcherNoDelay(t *testing.T) {
	t.Parallel()
	exp := &recordExporter{got: make(chan int, 8)}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(newBatcher(exp, Batch{Delay: -1})))
	defer func() { _ = tp.Shutdown(context.Background()) }()
	endSpans(tp, "n", 1)
	if n := waitBatch(t, exp.got); n != 1 {
		t.Fatalf("batch of %d spans, want 1", n)
	}
}

// FuzzReadBatch: any values of the OTEL_BSP_* variables give a Batch or
// an error naming the variable, never a panic; with its defaults filled,
// an accepted Batch has a queue and a batch above 0, the batch no larger
// than the queue, and no zero delay or timeout.
func FuzzReadBatch(f *testing.F) {
	f.Add("", "", "", "")
	f.Add("200", "0", "100", "1000")
	f.Add("-1", "x", "0", "9223372036854775807")
	f.Add("9223372036854", " 5", "2048", "512")
	f.Fuzz(func(t *testing.T, delay, timeout, queue, batch string) {
		vars := map[string]string{"OTEL_BSP_SCHEDULE_DELAY": delay, "OTEL_BSP_EXPORT_TIMEOUT": timeout,
			"OTEL_BSP_MAX_QUEUE_SIZE": queue, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": batch}
		b, err := readBatch(func(k string) string { return vars[k] })
		if err != nil {
			if !strings.Contains(err.Error(), "OTEL_BSP_") {
				t.Fatalf("error names no variable: %v", err)
			}
			return
		}
		d := b.withDefaults()
		if d.MaxQueueSize <= 0 || d.MaxExportBatchSize <= 0 || d.MaxExportBatchSize > d.MaxQueueSize || d.Delay == 0 || d.ExportTimeout == 0 {
			t.Fatalf("%+v from %q", d, vars)
		}
	})
}
