package accesslog

import (
	"bytes"
	"context"
	"encoding/hex"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/httpapi"
)

// lineSink records what reaches it, one Write at a time, and signals each.
type lineSink struct {
	mu     sync.Mutex
	writes []string
	wrote  chan struct{}
}

func (s *lineSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	s.writes = append(s.writes, string(p))
	s.mu.Unlock()
	select {
	case s.wrote <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (s *lineSink) text() (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.writes, ""), len(s.writes)
}

// judge serve's log: access-log lines wait in the buffer (one write for
// many) until it fills, the delay passes or it is flushed; every other
// line, and an access line at WARN or above, is written at once with
// what waited before it, in order.
func TestLogBuffer(t *testing.T) {
	t.Parallel()
	sink := &lineSink{wrote: make(chan struct{}, 1)}
	buf := NewBuffer(sink, time.Hour)
	log := slog.New(&flushingHandler{slog.NewJSONHandler(buf, nil), buf, true})

	log.Info(httpapi.AccessLogMessage, "n", 1)
	log.Info(httpapi.AccessLogMessage, "n", 2)
	if got, n := sink.text(); n != 0 {
		t.Fatalf("access lines written before a flush: %q", got)
	}
	log.Info("judge serve listening", "url", "http://x")
	got, n := sink.text()
	if n != 1 || strings.Count(got, "\n") != 3 || !strings.Contains(got, `"n":1`) || strings.Index(got, `"n":2`) > strings.Index(got, "listening") {
		t.Fatalf("after a start line: %d writes %q, want the three lines in order in one write", n, got)
	}
	log.Error(httpapi.AccessLogMessage, "status", 500)
	if _, n := sink.text(); n != 2 {
		t.Fatalf("an access line at ERROR waited: %d writes", n)
	}
	line := `{"msg":"request","pad":"` + strings.Repeat("x", 1000) + "\"}\n"
	for range maxLogBuffer/len(line) + 1 {
		log.Info(httpapi.AccessLogMessage, "pad", strings.Repeat("x", 1000))
	}
	if _, n := sink.text(); n != 3 {
		t.Fatalf("a full buffer was not written: %d writes", n)
	}
	log.Info(httpapi.AccessLogMessage, "n", 3)
	if err := buf.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, n := sink.text(); n != 4 || !strings.HasSuffix(got, "\"n\":3}\n") {
		t.Fatalf("Flush: %d writes, ending %q", n, got[max(0, len(got)-40):])
	}
}

// An access line waits at most the buffer's delay.
func TestLogBufferDelay(t *testing.T) {
	t.Parallel()
	sink := &lineSink{wrote: make(chan struct{}, 1)}
	buf := NewBuffer(sink, 10*time.Millisecond)
	log := slog.New(&flushingHandler{slog.NewJSONHandler(buf, nil), buf, true})
	start := time.Now()
	log.Info(httpapi.AccessLogMessage, "n", 1)
	select {
	case <-sink.wrote:
	case <-time.After(10 * time.Second):
		t.Fatal("the access line was never written")
	}
	if got, _ := sink.text(); !bytes.Contains([]byte(got), []byte(`"n":1`)) {
		t.Fatalf("written %q", got)
	}
	t.Logf("written after %v", time.Since(start))
}

// accessRecord is an access-log record as the server's middleware makes
// it, with the given path, request id, status and time.
func accessRecord(t time.Time, level slog.Level, path, id string, status int, d time.Duration) slog.Record {
	r := slog.NewRecord(t, level, httpapi.AccessLogMessage, 0)
	r.AddAttrs(slog.String("method", "POST"), slog.String("route", "/validate"), slog.String("path", path),
		slog.Int("status", status), slog.Duration("duration", d), slog.Int64("bytes", 345),
		slog.String("request_id", id), slog.String("remote", "127.0.0.1:33688"))
	return r
}

// sameAsJSONHandler checks appendAccessLine against slog.JSONHandler on r:
// the same line when it takes r (and it must when want), no line when not;
// and the same with ids (hex digits of a trace id and a span id) against
// r with their trace_id and span_id attributes added last, taken or not
// as r is.
func sameAsJSONHandler(t *testing.T, r slog.Record, want bool) {
	t.Helper()
	got, ok := appendAccessLine(nil, &r, nil)
	var ids [48]byte
	hex.Encode(ids[:], []byte("0123456789abcdef\xfe\xdc\xba\x98\x76\x54\x32\x10"))
	withIDs := r.Clone()
	withIDs.AddAttrs(slog.String("trace_id", string(ids[:32])), slog.String("span_id", string(ids[32:])))
	gotIDs, okIDs := appendAccessLine(nil, &r, &ids)
	for _, c := range []struct {
		r   slog.Record
		got []byte
		ok  bool
	}{{r, got, ok}, {withIDs, gotIDs, okIDs}} {
		var ref bytes.Buffer
		if err := slog.NewJSONHandler(&ref, &slog.HandlerOptions{Level: slog.LevelDebug}).Handle(context.Background(), c.r); err != nil {
			t.Fatal(err)
		}
		if c.ok && string(c.got) != ref.String() {
			t.Fatalf("appendAccessLine\n%s\nslog.JSONHandler\n%s", c.got, ref.String())
		}
		if want && !c.ok {
			t.Fatalf("appendAccessLine declined %s", ref.String())
		}
	}
	if ok != okIDs {
		t.Fatalf("taken %v without ids, %v with them", ok, okIDs)
	}
}

// TestAccessLine: judge serve writes an access-log line itself, byte for
// byte the line slog.JSONHandler writes, and leaves to that handler any
// record it would write otherwise (escapes, other kinds, odd times).
func TestAccessLine(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 28, 0, 56, 37, 956044615, time.UTC)
	paris := time.FixedZone("CET", 3600)
	group := accessRecord(now, slog.LevelInfo, "/validate", "a", 200, time.Microsecond)
	group.AddAttrs(slog.Group("g", slog.Int("n", 1)))
	float := accessRecord(now, slog.LevelInfo, "/validate", "a", 200, time.Microsecond)
	float.AddAttrs(slog.Float64("f", 1.5))
	for _, c := range []struct {
		name string
		r    slog.Record
		take bool
	}{
		{"usual", accessRecord(now, slog.LevelInfo, "/validate", "mccldppnfsnmh6b6whbcfghifx", 200, 28103), true},
		{"error level", accessRecord(now, slog.LevelError, "/v1/validate", "req-1", 503, 2*time.Second), true},
		{"odd level", accessRecord(now, slog.LevelInfo+2, "/x", "r", 404, 0), true},
		{"whole second", accessRecord(now.Truncate(time.Second), slog.LevelInfo, "/x", "r", 200, 1), true},
		{"another zone", accessRecord(now.In(paris), slog.LevelInfo, "/x", "r", 200, 1), true},
		{"negative duration", accessRecord(now, slog.LevelInfo, "/x", "r", 200, -5), true},
		{"quote in path", accessRecord(now, slog.LevelInfo, `/a"b`, "r", 404, 1), false},
		{"html in path", accessRecord(now, slog.LevelInfo, "/a<b>&c", "r", 404, 1), false},
		{"non-ascii id", accessRecord(now, slog.LevelInfo, "/x", "réq", 200, 1), false},
		{"control byte", accessRecord(now, slog.LevelInfo, "/x\x01", "r", 200, 1), false},
		{"zero time", accessRecord(time.Time{}, slog.LevelInfo, "/x", "r", 200, 1), false},
		{"year 10000", accessRecord(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo, "/x", "r", 200, 1), false},
		{"group", group, false},
		{"float", float, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			sameAsJSONHandler(t, c.r, c.take)
			if _, ok := appendAccessLine(nil, &c.r, nil); ok != c.take {
				t.Fatalf("taken %v, want %v", ok, c.take)
			}
		})
	}
}

// plainRef is plainJSON a byte at a time.
func plainRef(s string) bool {
	for i := 0; i < len(s); i++ {
		if !plainByte(s[i]) {
			return false
		}
	}
	return true
}

// TestPlainJSON: the eight-bytes-at-a-time check agrees with plainByte
// for every byte value at every position of strings of 1 to 24 bytes
// (three words and every tail), among plain bytes and beside another
// byte that is not.
func TestPlainJSON(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		fill byte
		del  bool // the last byte 0x7f as well
	}{{"plain", 'a', false}, {"edge fill", 0x7e, false}, {"space fill", ' ', false}, {"and a DEL", 'a', true}} {
		t.Run(c.name, func(t *testing.T) {
			for n := 1; n <= 24; n++ {
				for pos := range n {
					for v := range 256 {
						b := bytes.Repeat([]byte{c.fill}, n)
						if c.del {
							b[n-1] = 0x7f
						}
						b[pos] = byte(v)
						if got, want := plainJSON(string(b)), plainRef(string(b)); got != want {
							t.Fatalf("plainJSON(%q) = %v, want %v", b, got, want)
						}
					}
				}
			}
			if !plainJSON("") {
				t.Fatal("the empty string is plain")
			}
		})
	}
}

// FuzzPlainJSON holds plainJSON to plainRef.
func FuzzPlainJSON(f *testing.F) {
	f.Add("4bf92f3577b34da6a3ce929d0e0e4736")
	f.Add("abcdefgh<abcdefg&\\\"\x7f\x80\x1f")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := plainJSON(s), plainRef(s); got != want {
			t.Fatalf("plainJSON(%q) = %v, want %v", s, got, want)
		}
	})
}

// FuzzAccessLine holds appendAccessLine to slog.JSONHandler on any path,
// request id, status, duration and time.
func FuzzAccessLine(f *testing.F) {
	f.Add("/validate", "mccldppnfsnmh6b6whbcfghifx", 200, int64(28103), int64(1795828597956044615))
	f.Add(`/a"<&>`, "r\u2028", -1, int64(-1), int64(0))
	f.Fuzz(func(t *testing.T, path, id string, status int, d, unixNano int64) {
		sameAsJSONHandler(t, accessRecord(time.Unix(0, unixNano), slog.LevelInfo, path, id, status, time.Duration(d)), false)
	})
}

// TestLogBufferAccessLineDirect: through judge serve's handler, an access
// line that appendAccessLine takes and one it leaves to the JSON handler
// (a path with a quote) both reach the output as that handler writes them,
// in order; through a handler with attributes added, none is taken.
func TestLogBufferAccessLineDirect(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 28, 1, 2, 3, 4, time.UTC)
	recs := []slog.Record{
		accessRecord(now, slog.LevelInfo, "/validate", "a", 200, 10),
		accessRecord(now, slog.LevelInfo, `/x"y`, "b", 404, 20),
	}
	var want bytes.Buffer
	ref := slog.NewJSONHandler(&want, nil)
	for _, r := range recs {
		_ = ref.Handle(context.Background(), r)
	}
	for _, c := range []struct {
		name string
		h    func(*Buffer) slog.Handler
		ref  func() string
	}{
		{"direct", func(b *Buffer) slog.Handler { return &flushingHandler{slog.NewJSONHandler(b, nil), b, true} }, want.String},
		{"with attributes", func(b *Buffer) slog.Handler {
			return (&flushingHandler{slog.NewJSONHandler(b, nil), b, true}).WithAttrs([]slog.Attr{slog.String("k", "v")})
		}, func() string {
			return strings.ReplaceAll(want.String(), `"msg":"request",`, `"msg":"request","k":"v",`)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sink := &lineSink{wrote: make(chan struct{}, 1)}
			buf := NewBuffer(sink, time.Hour)
			h := c.h(buf)
			for _, r := range recs {
				if err := h.Handle(context.Background(), r); err != nil {
					t.Fatal(err)
				}
			}
			if err := buf.Flush(); err != nil {
				t.Fatal(err)
			}
			if got, _ := sink.text(); got != c.ref() {
				t.Fatalf("got\n%s\nwant\n%s", got, c.ref())
			}
		})
	}
}

// BenchmarkAccessLine: one access-log line through judge serve's handler
// into its buffer, written directly and through slog.JSONHandler (the
// handler with an attribute added, which is never direct).
func BenchmarkAccessLine(b *testing.B) {
	r := accessRecord(time.Now(), slog.LevelInfo, "/validate", "mccldppnfsnmh6b6whbcfghifx", 200, 28103)
	for _, c := range []struct {
		name   string
		direct bool
	}{{"direct", true}, {"json_handler", false}} {
		b.Run(c.name, func(b *testing.B) {
			buf := NewBuffer(io.Discard, time.Hour)
			h := &flushingHandler{slog.NewJSONHandler(buf, nil), buf, c.direct}
			b.ReportAllocs()
			for b.Loop() {
				if err := h.Handle(context.Background(), r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestHandleIDs: HandleIDs writes what Handle writes for the record with
// the ids' trace_id and span_id attributes added last, when the line is
// written directly; otherwise (a line the direct writer leaves to the
// JSON handler, another message, a handler with attributes added) it
// writes nothing and reports false. A line written directly is flushed
// as Handle flushes it: an access line below WARN waits, others do not.
func TestHandleIDs(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 28, 1, 2, 3, 4, time.UTC)
	var ids [48]byte
	copy(ids[:], "4bf92f3577b34da6a3ce929d0e0e473600f067aa0ba902b7")
	other := slog.NewRecord(now, slog.LevelInfo, "started", 0)
	for _, c := range []struct {
		name  string
		r     slog.Record
		attrs bool // the handler has an attribute added
		done  bool
		waits bool // the line waits in the buffer
	}{
		{"access line", accessRecord(now, slog.LevelInfo, "/validate", "a", 200, 10), false, true, true},
		{"access line, error", accessRecord(now, slog.LevelError, "/validate", "a", 503, 10), false, true, false},
		{"quote in path", accessRecord(now, slog.LevelInfo, `/x"y`, "b", 404, 20), false, false, false},
		{"another message", other, false, false, false},
		{"with attributes", accessRecord(now, slog.LevelInfo, "/validate", "a", 200, 10), true, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			sink := &lineSink{wrote: make(chan struct{}, 1)}
			buf := NewBuffer(sink, time.Hour)
			var h slog.Handler = &flushingHandler{slog.NewJSONHandler(buf, nil), buf, true}
			if c.attrs {
				h = h.WithAttrs([]slog.Attr{slog.String("k", "v")})
			}
			done, err := h.(interface {
				HandleIDs(context.Context, slog.Record, [48]byte) (bool, error)
			}).HandleIDs(context.Background(), c.r, ids)
			if err != nil || done != c.done {
				t.Fatalf("HandleIDs: %v, %v; want %v", done, err, c.done)
			}
			if got, _ := sink.text(); got != "" && c.waits {
				t.Fatalf("written at once: %s", got)
			}
			if err := buf.Flush(); err != nil {
				t.Fatal(err)
			}
			got, _ := sink.text()
			if !done {
				if got != "" {
					t.Fatalf("declined, but wrote %s", got)
				}
				return
			}
			var want bytes.Buffer
			r := c.r.Clone()
			r.AddAttrs(slog.String("trace_id", string(ids[:32])), slog.String("span_id", string(ids[32:])))
			if err := slog.NewJSONHandler(&want, nil).Handle(context.Background(), r); err != nil {
				t.Fatal(err)
			}
			if got != want.String() {
				t.Fatalf("got\n%s\nwant\n%s", got, want.String())
			}
		})
	}
}
