// Package accesslog is judge serve's log output: a buffer that holds
// the access-log lines of many requests for one write, and a JSON handler
// that writes the usual access-log line directly into it, byte for byte
// what slog.JSONHandler writes, without that handler's general path.
// Server benchmarks log through it to measure what judge serve does.
package accesslog

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/agentjudge/judge/internal/httpapi"
)

// maxLogBuffer is how many bytes a Buffer holds at most.
const maxLogBuffer = 32 << 10

// Buffer batches the lines written to w: a server under load writes an
// access-log line per request, and one write (a system call) per line cost
// as much as a tenth of a request's CPU time. Lines are held until Flush,
// until maxLogBuffer bytes wait, or for at most delay. It is safe for
// concurrent use.
type Buffer struct {
	mu    sync.Mutex
	w     io.Writer
	buf   []byte
	delay time.Duration
	timer *time.Timer // armed while buf holds lines
	armed bool
	err   error // the first write error, returned by every later call
}

// NewBuffer returns a Buffer writing to w, holding lines at most delay.
func NewBuffer(w io.Writer, delay time.Duration) *Buffer {
	b := &Buffer{w: w, delay: delay}
	b.timer = time.AfterFunc(time.Hour, func() { _ = b.Flush() })
	b.timer.Stop()
	return b
}

// Write holds p (one log line: slog's handlers write each record whole).
func (b *Buffer) Write(p []byte) (int, error) {
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
func (b *Buffer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushLocked()
}

func (b *Buffer) flushLocked() error {
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

// NewHandler returns judge serve's handler: slog.JSONHandler writing to
// buf at level, the access-log lines below WARN held in buf and written
// directly where they can be, every other line flushed at once.
func NewHandler(buf *Buffer, level slog.Leveler) slog.Handler {
	return &flushingHandler{slog.NewJSONHandler(buf, &slog.HandlerOptions{Level: level}), buf, true}
}

// flushingHandler writes every record through h and flushes buf after
// each one but the server's access-log lines below WARN: only those wait
// in the buffer; the start, errors, panics and shutdown are written at
// once. When direct, h is judge serve's own slog.JSONHandler writing to
// buf, with no attributes or groups added and no ReplaceAttr, and an
// access-log line whose values need no escaping is written to buf by
// appendAccessLine, byte for byte the line h writes, without h's
// general path (8% of a request's instructions). It is used as a
// pointer: a value in an interface is called through a wrapper that
// copies it.
type flushingHandler struct {
	slog.Handler
	buf    *Buffer
	direct bool
}

func (h *flushingHandler) Handle(ctx context.Context, r slog.Record) error {
	ok, err := h.writeAccessLine(&r, nil)
	if !ok {
		err = h.Handler.Handle(ctx, r)
	}
	return h.flushAfter(&r, err)
}

// HandleIDs writes r's access-log line directly with the attributes
// trace_id ids[:32] and span_id ids[32:] added last, and reports true,
// where Handle would write it directly; else it does nothing and reports
// false. ids are a trace id's and a span id's lowercase hex digits,
// written as they are: telemetry.LogHandler hands them over so (its
// idsHandler), rather than as attributes to copy the record for and
// check byte by byte.
func (h *flushingHandler) HandleIDs(_ context.Context, r slog.Record, ids [48]byte) (bool, error) {
	ok, err := h.writeAccessLine(&r, &ids)
	if !ok {
		return false, nil
	}
	return true, h.flushAfter(&r, err)
}

// flushAfter flushes the buffer after r was handled (with err) unless
// r is an access-log line below WARN, and returns the first error.
func (h *flushingHandler) flushAfter(r *slog.Record, err error) error {
	if r.Level >= slog.LevelWarn || r.Message != httpapi.AccessLogMessage {
		if ferr := h.buf.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

// writeAccessLine writes r's JSON line, with ids (see HandleIDs) when
// not nil, to the buffer, and true, when the handler is direct and r is
// an access-log line that appendAccessLine takes; the line is made on
// the stack (the buffer copies it).
func (h *flushingHandler) writeAccessLine(r *slog.Record, ids *[48]byte) (bool, error) {
	if !h.direct || r.Message != httpapi.AccessLogMessage {
		return false, nil
	}
	var arr [512]byte
	line, ok := appendAccessLine(arr[:0], r, ids)
	if !ok {
		return false, nil
	}
	_, err := h.buf.Write(line)
	return true, err
}

// appendAccessLine appends the line slog.JSONHandler (no options but the
// level) writes for r, with trace_id and span_id attributes of ids'
// digits added last when ids is not nil, and true; or false when r has
// something that
// handler writes in a way this one does not: a zero time or one outside
// years 0-9999, a value that is not a string, an integer or a duration,
// or a key, message or string that JSON would escape (a quote, a
// backslash, a control or non-ASCII byte, or <, > and &, which
// slog escapes as encoding/json does).
func appendAccessLine(b []byte, r *slog.Record, ids *[48]byte) ([]byte, bool) {
	if y := r.Time.Year(); r.Time.IsZero() || y < 0 || y >= 10000 || !plainJSON(r.Message) {
		return b, false
	}
	b = append(b, `{"time":"`...)
	b = r.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","level":"`...)
	b = append(b, r.Level.String()...)
	b = append(b, `","msg":"`...)
	b = append(b, r.Message...)
	b = append(b, '"')
	ok := true
	r.Attrs(func(a slog.Attr) bool {
		if !plainJSON(a.Key) || a.Key == "" {
			ok = false
			return false
		}
		b = append(b, `,"`...)
		b = append(b, a.Key...)
		b = append(b, `":`...)
		switch v := a.Value; v.Kind() {
		case slog.KindString:
			if ok = plainJSON(v.String()); ok {
				b = append(append(append(b, '"'), v.String()...), '"')
			}
		case slog.KindInt64:
			b = strconv.AppendInt(b, v.Int64(), 10)
		case slog.KindDuration:
			b = strconv.AppendInt(b, int64(v.Duration()), 10)
		default:
			ok = false
		}
		return ok
	})
	if ids != nil {
		b = append(b, `,"trace_id":"`...)
		b = append(b, ids[:32]...)
		b = append(b, `","span_id":"`...)
		b = append(b, ids[32:]...)
		b = append(b, '"')
	}
	return append(b, "}\n"...), ok
}

// plainJSON reports whether s is written in JSON by slog as it is,
// between quotes: printable ASCII but for ", \, <, > and &. A string of
// eight bytes or more is read eight bytes at a time, its last eight
// bytes last (the log ids' 63 bytes a line cost ~20 instructions a byte
// one at a time), by the bit tricks for a byte below n in a word,
// (x - n·ones) &^ x & highs (exact, for n <= 0x80, as to whether any
// byte is), and for a zero byte (the same with n = 1, of x XOR a byte
// repeated): a high bit set (>= 0x80), a byte below 0x20, 0x7f, a
// backslash, and two pairs each found by one comparison after setting
// the bit they differ by ('"' 0x22 and '&' 0x26 by 0x04, '<' 0x3c and
// '>' 0x3e by 0x02).
func plainJSON(s string) bool {
	n := len(s)
	if n < 8 {
		for i := 0; i < n; i++ {
			if !plainByte(s[i]) {
				return false
			}
		}
		return true
	}
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i := 0; ; i += 8 {
		i = min(i, n-8)
		w := s[i : i+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		del, bs := x^0x7f*ones, x^'\\'*ones
		qa, lg := (x|0x04*ones)^0x26*ones, (x|0x02*ones)^0x3e*ones
		bad := x | (x-0x20*ones)&^x | (del-ones)&^del | (bs-ones)&^bs | (qa-ones)&^qa | (lg-ones)&^lg
		if bad&highs != 0 {
			return false
		}
		if i == n-8 {
			return true
		}
	}
}

// plainByte reports whether c is written by slog as it is.
func plainByte(c byte) bool {
	return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
}

func (h *flushingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &flushingHandler{h.Handler.WithAttrs(as), h.buf, false}
}

func (h *flushingHandler) WithGroup(name string) slog.Handler {
	return &flushingHandler{h.Handler.WithGroup(name), h.buf, false}
}
