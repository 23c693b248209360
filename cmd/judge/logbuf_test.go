package main

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjudge/judge/server"
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
	buf := newLogBuffer(sink, time.Hour)
	log := slog.New(flushingHandler{slog.NewJSONHandler(buf, nil), buf})

	log.Info(server.AccessLogMessage, "n", 1)
	log.Info(server.AccessLogMessage, "n", 2)
	if got, n := sink.text(); n != 0 {
		t.Fatalf("access lines written before a flush: %q", got)
	}
	log.Info("judge serve listening", "url", "http://x")
	got, n := sink.text()
	if n != 1 || strings.Count(got, "\n") != 3 || !strings.Contains(got, `"n":1`) || strings.Index(got, `"n":2`) > strings.Index(got, "listening") {
		t.Fatalf("after a start line: %d writes %q, want the three lines in order in one write", n, got)
	}
	log.Error(server.AccessLogMessage, "status", 500)
	if _, n := sink.text(); n != 2 {
		t.Fatalf("an access line at ERROR waited: %d writes", n)
	}
	line := `{"msg":"request","pad":"` + strings.Repeat("x", 1000) + "\"}\n"
	for range maxLogBuffer/len(line) + 1 {
		log.Info(server.AccessLogMessage, "pad", strings.Repeat("x", 1000))
	}
	if _, n := sink.text(); n != 3 {
		t.Fatalf("a full buffer was not written: %d writes", n)
	}
	log.Info(server.AccessLogMessage, "n", 3)
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
	buf := newLogBuffer(sink, 10*time.Millisecond)
	log := slog.New(flushingHandler{slog.NewJSONHandler(buf, nil), buf})
	start := time.Now()
	log.Info(server.AccessLogMessage, "n", 1)
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
