package server

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjudge/judge"
)

// serve starts s.Serve on a loopback port and returns its base URL and the
// channel Serve's error arrives on.
func serve(t *testing.T, ctx context.Context, s *Server) (string, <-chan error) {
	t.Helper()
	url, done, _ := serveWatched(t, ctx, s)
	return url, done
}

// serveWatched is serve that also returns a channel closed when the server
// closes its listener, which http.Server.Shutdown does first.
func serveWatched(t *testing.T, ctx context.Context, s *Server) (string, <-chan error, <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w := &watchedListener{Listener: ln, closed: make(chan struct{})}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, w) }()
	return "http://" + ln.Addr().String(), done, w.closed
}

// watchedListener is a listener that closes closed when it is closed.
type watchedListener struct {
	net.Listener
	once   sync.Once
	closed chan struct{}
}

func (l *watchedListener) Close() error {
	err := l.Listener.Close()
	l.once.Do(func() { close(l.closed) })
	return err
}

func readyz(s *Server) int {
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
	return rec.Code
}

// TestGracefulShutdown cancels Serve's context while a request is in
// flight: the server turns unready, the request completes, and Serve
// returns nil.
func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	g := newGate()
	s := New(newEngine(t, judge.WithLayers(g.layer())), Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, done, closed := serveWatched(t, ctx, s)

	type answer struct {
		status int
		body   []byte
		err    error
	}
	answered := make(chan answer, 1)
	go func() {
		resp, err := http.Post(url+"/validate", "application/json", strings.NewReader(`{"output": 1}`))
		if err != nil {
			answered <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		answered <- answer{resp.StatusCode, b, err}
	}()
	wait(t, g.started, "the request to reach the layer")
	if got := readyz(s); got != 200 {
		t.Errorf("readyz while serving = %d", got)
	}
	cancel()
	// Shutdown closes the listener first, after Serve turned unready; the
	// request still holds the gate, so Serve cannot have returned.
	wait(t, closed, "the server to close its listener")
	if got := readyz(s); got != http.StatusServiceUnavailable {
		t.Errorf("readyz while draining = %d, want 503", got)
	}
	select {
	case err := <-done:
		t.Fatalf("Serve returned %v with a request in flight", err)
	default:
	}
	if c, err := net.DialTimeout("tcp", strings.TrimPrefix(url, "http://"), time.Second); err == nil {
		c.Close()
		t.Fatal("the listener still accepts connections while draining")
	}
	close(g.release)
	a := <-answered
	if a.err != nil {
		t.Fatalf("in-flight request: %v", a.err)
	}
	mustResult(t, response{a.status, http.Header{"Content-Type": {"application/json"}}, a.body})
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after the in-flight request completed")
	}
}

// TestShutdownTimeout checks that a request that does not finish within
// ShutdownTimeout is cancelled and Serve reports it.
func TestShutdownTimeout(t *testing.T) {
	t.Parallel()
	g := newGate()
	s := New(newEngine(t, judge.WithLayers(g.layer()), judge.WithLayerTimeout(time.Minute)), Options{ShutdownTimeout: 200 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, done := serve(t, ctx, s)
	go func() {
		resp, err := http.Post(url+"/validate", "application/json", strings.NewReader(`{"output": 1}`))
		if err == nil {
			resp.Body.Close()
		}
	}()
	wait(t, g.started, "the request to reach the layer")
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Serve = %v, want an error wrapping context.DeadlineExceeded", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("Serve took %v to give up", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
	}
	wait(t, g.canceled, "the in-flight request to be cancelled")
}

// TestServeClientCancel checks that a request whose client goes away is
// logged and counted as 499, not as a server error.
func TestServeClientCancel(t *testing.T) {
	t.Parallel()
	g := newGate()
	logs := logBuffer{written: make(chan struct{}, 1)}
	s := New(newEngine(t, judge.WithLayers(g.layer()), judge.WithLayerTimeout(time.Minute)), Options{Logger: newLogger(&logs)})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/validate", strings.NewReader(`{"output": 1}`))
		req.Header.Set(HeaderRequestID, "gone-1")
		if resp, err := ts.Client().Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	wait(t, g.started, "the request to reach the layer")
	cancel()
	wait(t, g.canceled, "the layer to see the cancellation")
	timeout := time.After(10 * time.Second)
	for {
		for _, l := range logs.lines(t) {
			if l["msg"] == "request" && l["request_id"] == "gone-1" {
				if l["status"] != 499.0 || l["level"] != "INFO" {
					t.Errorf("log line %v, want status 499 at INFO", l)
				}
				return
			}
		}
		select {
		case <-logs.written: // a line was written since: look again
		case <-timeout:
			t.Fatal("no log line for the cancelled request")
		}
	}
}

func TestListenAndServe(t *testing.T) {
	t.Parallel()
	s := New(newEngine(t), Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := s.ListenAndServe(ctx, "127.0.0.1:0"); err != nil {
		t.Errorf("ListenAndServe = %v, want nil after the context ends", err)
	}
	if err := s.ListenAndServe(context.Background(), "256.0.0.1:bad"); err == nil {
		t.Error("ListenAndServe on a bad address succeeded")
	}
}
