package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer"
)

// Over MaxInFlight validations at once, a request is refused with 503 and
// Retry-After before its body is read; once one finishes, the next is served.
func TestMaxInFlight(t *testing.T) {
	t.Parallel()
	entered := make(chan struct{})
	release := make(chan struct{})
	slow := &layer.Layer{Name: "slow", Doc: "slow: waits for the test",
		Run: func(ctx context.Context, p *layer.Pass) error {
			entered <- struct{}{}
			<-release
			p.Decided(1)
			return nil
		}}
	s := New(newEngine(t, judge.WithLayers(slow)), Options{MaxInFlight: 1})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)

	first := make(chan response, 1)
	go func() { first <- do(t, ts, http.MethodPost, "/validate", `{"output": 1}`, nil) }()
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the first request never reached the layer")
	}
	busy := do(t, ts, http.MethodPost, "/validate", `{"output": 2}`, nil)
	if busy.status != http.StatusServiceUnavailable || busy.header.Get("Retry-After") != "1" ||
		!strings.Contains(string(busy.body), "its limit") {
		t.Fatalf("second request: %d %v %s", busy.status, busy.header, busy.body)
	}
	close(release)
	if r := <-first; r.status != http.StatusOK {
		t.Fatalf("first request: %d %s", r.status, r.body)
	}
	go func() { <-entered }()
	if r := do(t, ts, http.MethodPost, "/validate", `{"output": 3}`, nil); r.status != http.StatusOK {
		t.Fatalf("after the first finished: %d %s", r.status, r.body)
	}
}
