package server

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestServeAdaptProcs serves with AdaptProcs on a real listener: requests
// in turn on one connection leave the process on one processor, and two
// requests in flight at once on two connections bring the default back.
// It changes the test process's GOMAXPROCS, so it does not run in
// parallel, and restores the default when done.
func TestServeAdaptProcs(t *testing.T) {
	if os.Getenv("GOMAXPROCS") != "" || runtime.GOMAXPROCS(0) < 2 {
		t.Skip("GOMAXPROCS is set or the machine has one processor: nothing to adapt")
	}
	defaultProcs := runtime.GOMAXPROCS(0)
	t.Cleanup(runtime.SetDefaultGOMAXPROCS)
	arrived := make(chan struct{}, 2)
	release := make(chan struct{})
	hold := Mount{Pattern: "GET /hold", Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-release
		_, _ = io.WriteString(w, "held")
	})}
	s := New(newEngine(t), Options{AdaptProcs: true}, hold)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	base := "http://" + ln.Addr().String()

	one := &http.Client{}
	defer one.CloseIdleConnections()
	for range 3 {
		resp, err := one.Post(base+"/validate", "application/json",
			strings.NewReader(`{"output": {"a": 1}, "expected_schema": {"type": "object"}}`))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d", resp.StatusCode)
		}
	}
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("after requests in turn on one connection: GOMAXPROCS %d, want 1", got)
	}

	errs := make(chan error, 2)
	for range 2 {
		go func() {
			c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
			resp, err := c.Get(base + "/hold")
			if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			errs <- err
		}()
	}
	<-arrived
	<-arrived
	// Both requests are in flight now, on two connections.
	if got := runtime.GOMAXPROCS(0); got != defaultProcs {
		t.Errorf("two requests in flight: GOMAXPROCS %d, want the default %d", got, defaultProcs)
	}
	close(release)
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
