package telemetry

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Batch is how ended spans are batched before they are exported: the
// OTEL_BSP_* variables, read by [ReadConfig]. A zero field means the
// default of its variable.
type Batch struct {
	// Delay is the longest an ended span waits before it is exported
	// (OTEL_BSP_SCHEDULE_DELAY, DefaultBatchDelay); negative: no wait.
	Delay time.Duration
	// ExportTimeout bounds one export (OTEL_BSP_EXPORT_TIMEOUT, 30 s);
	// negative: no bound.
	ExportTimeout time.Duration
	// MaxQueueSize is how many ended spans may wait; more are dropped
	// and counted (OTEL_BSP_MAX_QUEUE_SIZE, 2048).
	MaxQueueSize int
	// MaxExportBatchSize is the most spans one export sends, and the
	// count at which waiting spans are sent before Delay has passed
	// (OTEL_BSP_MAX_EXPORT_BATCH_SIZE, 512; at most MaxQueueSize).
	MaxExportBatchSize int
}

// withDefaults returns b with every zero field set to its default.
func (b Batch) withDefaults() Batch {
	if b.Delay == 0 {
		b.Delay = DefaultBatchDelay
	}
	if b.ExportTimeout == 0 {
		b.ExportTimeout = sdktrace.DefaultExportTimeout * time.Millisecond
	}
	if b.MaxQueueSize <= 0 {
		b.MaxQueueSize = sdktrace.DefaultMaxQueueSize
	}
	if b.MaxExportBatchSize <= 0 {
		b.MaxExportBatchSize = sdktrace.DefaultMaxExportBatchSize
	}
	if b.MaxExportBatchSize > b.MaxQueueSize { // as the SDK's batch processor does
		b.MaxExportBatchSize = min(sdktrace.DefaultMaxExportBatchSize, b.MaxQueueSize)
	}
	return b
}

// batchQueue is the batching behind judge's span processor ([batcher],
// the SDK's spans) and judge's own provider (its records): the SDK's
// batch processor's behaviour (items batched up to MaxExportBatchSize or
// Delay, a bounded queue that drops when full, ForceFlush and Shutdown
// exporting what is queued) at less cost on the request's path. An ended
// span is appended to a slice under a mutex (no channel send, no
// allocation once the slice has grown), and the exporting goroutine is
// woken once a batch (by its first span, to start the delay, and when it
// is full), not once a span: the SDK's processor wakes its goroutine for
// every span, a scheduler round trip each that an idle server pays in
// full.
type batchQueue[T any] struct {
	exportFn   func(context.Context, []T) error // exports one batch
	shutdownFn func(context.Context) error      // shuts the exporter down
	release    func([]T)                        // after an export: the items are done with
	o          Batch

	mu      sync.Mutex
	queue   []T // ended spans waiting, at most o.MaxQueueSize
	dropped int // spans dropped since the last export
	lost    int // spans dropped since the start
	stopped bool

	spare []T // the exported queue, emptied, for reuse; the loop's own

	// arena holds the bytes of the queued items that addBytes queued
	// (judge's own spans, encoded as they end; the SDK's spans have
	// none): items point into it, and it is swapped with the queue at
	// export. spareArena is the exported one, emptied, for reuse.
	arena, spareArena []byte

	kick     chan struct{}     // capacity 1: a batch has begun or is full
	flushReq chan flushRequest // ForceFlush
	stop     chan flushRequest // Shutdown
	done     chan struct{}     // closed when the loop has returned
	stopOnce sync.Once
}

// batcher is the span processor of an exporting [Telemetry] whose spans
// the SDK records: a batchQueue of the SDK's read-only spans.
type batcher struct {
	*batchQueue[sdktrace.ReadOnlySpan]
}

// flushRequest asks the loop to export every queued span within ctx and
// to answer on reply.
type flushRequest struct {
	ctx   context.Context
	reply chan error
}

var _ sdktrace.SpanProcessor = (*batcher)(nil)

// newBatcher returns a batcher exporting with exp, its goroutine started.
func newBatcher(exp sdktrace.SpanExporter, o Batch) *batcher {
	return &batcher{newBatchQueue(exp.ExportSpans, exp.Shutdown, func(spans []sdktrace.ReadOnlySpan) { clear(spans) }, o)}
}

// newBatchQueue returns a batchQueue exporting with export, its goroutine
// started. release is given every exported batch (and, at Shutdown, the
// items nobody will export) once the queue is done with them.
func newBatchQueue[T any](export func(context.Context, []T) error, shutdown func(context.Context) error, release func([]T), o Batch) *batchQueue[T] {
	b := &batchQueue[T]{
		exportFn:   export,
		shutdownFn: shutdown,
		release:    release,
		o:          o.withDefaults(),
		kick:       make(chan struct{}, 1),
		flushReq:   make(chan flushRequest),
		stop:       make(chan flushRequest, 1),
		done:       make(chan struct{}),
	}
	go b.loop()
	return b
}

// OnStart does nothing: spans are batched when they end.
func (*batcher) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

// OnEnd queues a sampled span for export, or drops it when the queue is
// full or the processor shut down.
func (b *batcher) OnEnd(s sdktrace.ReadOnlySpan) {
	if !s.SpanContext().IsSampled() {
		return
	}
	b.add(s)
}

// add queues an item for export and reports whether it was: false when
// the queue is full (the item is counted as dropped) or shut down.
func (b *batchQueue[T]) add(s T) bool {
	b.mu.Lock()
	if !b.admitLocked() {
		b.mu.Unlock()
		return false
	}
	b.queue = append(b.queue, s)
	b.queuedLocked()
	return true
}

// maxKeptArena is the most arena bytes kept for reuse once exported.
const maxKeptArena = 4 << 20

// addBytes queues the item that item makes of a copy of p, kept in the
// arena until the item is exported, and reports whether it was queued
// (see add).
func (b *batchQueue[T]) addBytes(p []byte, item func([]byte) T) bool {
	b.mu.Lock()
	if !b.admitLocked() {
		b.mu.Unlock()
		return false
	}
	// An item keeps pointing to its bytes when a later append moves the
	// arena: the old array is left as it was.
	off := len(b.arena)
	b.arena = append(b.arena, p...)
	b.queue = append(b.queue, item(b.arena[off:len(b.arena):len(b.arena)]))
	b.queuedLocked()
	return true
}

// admitLocked reports whether one more item may be queued, counting it
// as dropped when the queue is full; b.mu is held.
func (b *batchQueue[T]) admitLocked() bool {
	if b.stopped {
		return false
	}
	if len(b.queue) >= b.o.MaxQueueSize {
		b.dropped++
		b.lost++
		return false
	}
	return true
}

// queuedLocked releases b.mu after an item was queued and wakes the loop
// when the item starts a batch or fills one.
func (b *batchQueue[T]) queuedLocked() {
	n := len(b.queue)
	b.mu.Unlock()
	if n == 1 || n == b.o.MaxExportBatchSize {
		select {
		case b.kick <- struct{}{}:
		default: // the loop has a kick it has not read: it reads the length then
		}
	}
}

// loop exports the queue when a batch is full, when the first span of
// a batch has waited Delay, on ForceFlush and on Shutdown.
func (b *batchQueue[T]) loop() {
	defer close(b.done)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	armed := false // timer runs: the spans queued will be exported when it fires
	for {
		select {
		case <-b.kick:
			if b.queued() < b.o.MaxExportBatchSize && b.o.Delay > 0 {
				if !armed {
					timer.Reset(b.o.Delay)
					armed = true
				}
				continue
			}
		case <-timer.C:
			armed = false
		case f := <-b.flushReq:
			f.reply <- b.export(f.ctx)
			continue
		case f := <-b.stop:
			f.reply <- b.export(f.ctx)
			return
		}
		if err := b.export(context.Background()); err != nil {
			otel.Handle(err)
		}
	}
}

// queued is how many spans wait.
func (b *batchQueue[T]) queued() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.queue)
}

// export sends every queued span, in batches of at most
// MaxExportBatchSize, each within ExportTimeout of ctx. It returns the
// exporter's errors, and one for spans dropped since the last export.
func (b *batchQueue[T]) export(ctx context.Context) error {
	b.mu.Lock()
	spans, dropped, arena := b.queue, b.dropped, b.arena
	b.queue, b.dropped, b.arena = b.spare, 0, b.spareArena
	b.mu.Unlock()
	var errs []error
	if dropped > 0 {
		errs = append(errs, fmt.Errorf("telemetry: %d spans dropped: %d were waiting for export (OTEL_BSP_MAX_QUEUE_SIZE)", dropped, b.o.MaxQueueSize))
	}
	for rest := spans; len(rest) > 0; {
		n := min(len(rest), b.o.MaxExportBatchSize)
		if err := b.exportBatch(ctx, rest[:n]); err != nil {
			errs = append(errs, err)
		}
		rest = rest[n:]
	}
	b.release(spans) // done with: let the collector (or a pool) have them
	clear(spans)
	b.spare = spans[:0]
	if cap(arena) <= maxKeptArena {
		b.spareArena = arena[:0]
	} else {
		b.spareArena = nil
	}
	return errors.Join(errs...)
}

func (b *batchQueue[T]) exportBatch(ctx context.Context, spans []T) error {
	if b.o.ExportTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, b.o.ExportTimeout, errors.New("telemetry: export timeout (OTEL_BSP_EXPORT_TIMEOUT)"))
		defer cancel()
	}
	if err := b.exportFn(ctx, spans); err != nil {
		return fmt.Errorf("telemetry: export of %d spans: %w", len(spans), err)
	}
	return nil
}

// ForceFlush exports every span ended before it was called, within ctx.
// It does nothing after Shutdown.
func (b *batchQueue[T]) ForceFlush(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	reply := make(chan error, 1)
	select {
	case b.flushReq <- flushRequest{ctx, reply}:
	case <-b.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Shutdown exports every queued span and shuts the exporter down, within
// ctx; spans that end afterwards are dropped. Only the first call does
// anything.
func (b *batchQueue[T]) Shutdown(ctx context.Context) error {
	var err error
	b.stopOnce.Do(func() { err = b.shutdown(ctx) })
	return err
}

func (b *batchQueue[T]) shutdown(ctx context.Context) error {
	b.mu.Lock()
	b.stopped = true
	b.mu.Unlock()
	reply := make(chan error, 1)
	b.stop <- flushRequest{ctx, reply} // the loop's last request: stop has room for it
	select {
	case err := <-reply:
		return errors.Join(err, b.shutdownFn(ctx))
	case <-ctx.Done():
		return ctx.Err()
	}
}
