package main

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/agentjudge/judge/server"
)

// accessLogDelay is how long judge serve may hold access-log lines before
// writing them; maxLogBuffer is how many bytes it holds at most.
const (
	accessLogDelay = 100 * time.Millisecond
	maxLogBuffer   = 32 << 10
)

// logBuffer batches the lines written to w: a server under load writes an
// access-log line per request, and one write (a system call) per line cost
// as much as a tenth of a request's CPU time. Lines are held until Flush,
// until maxLogBuffer bytes wait, or for at most delay. It is safe for
// concurrent use.
type logBuffer struct {
	mu    sync.Mutex
	w     io.Writer
	buf   []byte
	delay time.Duration
	timer *time.Timer // armed while buf holds lines
	armed bool
	err   error // the first write error, returned by every later call
}

func newLogBuffer(w io.Writer, delay time.Duration) *logBuffer {
	b := &logBuffer{w: w, delay: delay}
	b.timer = time.AfterFunc(time.Hour, func() { _ = b.Flush() })
	b.timer.Stop()
	return b
}

// Write holds p (one log line: slog's handlers write each record whole).
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return 0, b.err
	}
	b.buf = append(b.buf, p...)
	if len(b.buf) >= maxLogBuffer {
		return len(p), b.flushLocked()
	}
	if !b.armed {
		b.armed = true
		b.timer.Reset(b.delay)
	}
	return len(p), nil
}

// Flush writes the lines held.
func (b *logBuffer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushLocked()
}

func (b *logBuffer) flushLocked() error {
	if b.armed {
		b.armed = false
		b.timer.Stop()
	}
	if len(b.buf) == 0 || b.err != nil {
		return b.err
	}
	_, b.err = b.w.Write(b.buf)
	b.buf = b.buf[:0]
	if cap(b.buf) > 4*maxLogBuffer {
		b.buf = nil
	}
	return b.err
}

// flushingHandler writes every record through h and flushes buf after
// each one but the server's access-log lines below WARN: only those wait
// in the buffer; the start, errors, panics and shutdown are written at
// once.
type flushingHandler struct {
	slog.Handler
	buf *logBuffer
}

func (h flushingHandler) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn || r.Message != server.AccessLogMessage {
		if ferr := h.buf.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

func (h flushingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return flushingHandler{h.Handler.WithAttrs(as), h.buf}
}

func (h flushingHandler) WithGroup(name string) slog.Handler {
	return flushingHandler{h.Handler.WithGroup(name), h.buf}
}
