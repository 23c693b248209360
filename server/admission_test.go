package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/server/api"
)

// holdLayer blocks the run of an output equal to "hold" until release is
// closed, ignoring its deadline as a layer inside a library call would,
// and signals started when it begins; any other output passes at once.
func holdLayer(started chan<- struct{}, release <-chan struct{}) *layer.Layer {
	return &layer.Layer{
		Name: "hold", Doc: "hold: blocks the output \"hold\" until the test releases it",
		Run: func(ctx context.Context, p *layer.Pass) error {
			if p.Input.Output == "hold" {
				started <- struct{}{}
				<-release
			}
			p.Decided(1)
			return nil
		},
	}
}

// post sends one request to url+path and reads the whole answer.
func post(t testing.TB, url, path, body string) response {
	t.Helper()
	resp, err := http.Post(url+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("POST %s: reading body: %v", path, err)
	}
	return response{resp.StatusCode, resp.Header, b}
}

func get(t testing.TB, url, path string) response {
	t.Helper()
	resp, err := http.Get(url + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{resp.StatusCode, resp.Header, b}
}

// metricValue returns the value of the sample of /metrics whose name and
// labels start with series (as "name{labels}"), or -1 when absent.
func metricValue(t testing.TB, metrics []byte, series string) float64 {
	t.Helper()
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`)
	m := re.FindSubmatch(metrics)
	if m == nil {
		return -1
	}
	v, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// slowClient is a real TCP client sending a body one byte per tick.
type slowClient struct {
	conn net.Conn
	rd   *bufio.Reader
}

// dialSlow opens a connection, sends the header of a POST /validate of
// length bytes with Expect: 100-continue, and waits for the server's
// "100 Continue", which Go's server sends when the handler starts reading
// the body: the event that says the request is in the handler.
func dialSlow(t *testing.T, addr string, length int) *slowClient {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST /validate HTTP/1.1\r\nHost: judge\r\nContent-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", length)
	c := &slowClient{conn: conn, rd: bufio.NewReader(conn)}
	line, err := c.rd.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "HTTP/1.1 100 ") {
		rest, _ := io.ReadAll(io.LimitReader(c.rd, 2048))
		t.Fatalf("slow client: got %q%s (%v), want 100 Continue: the server answered before reading the body", line, rest, err)
	}
	if _, err := c.rd.ReadString('\n'); err != nil { // the blank line after it
		t.Fatal(err)
	}
	return c
}

// trickle sends one byte of the body at each tick until the connection
// fails (the server closed it) or stop is closed.
func (c *slowClient) trickle(tick <-chan time.Time, stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-tick:
			if _, err := c.conn.Write([]byte(" ")); err != nil {
				return
			}
		}
	}
}

// Slow uploads hold no in-flight slot: with twice MaxInFlight connections
// sending a body a byte at a time, an ordinary request is answered and
// /readyz stays ready; when the server's read timeout passes, each slow
// request is answered 408 (not 499, which says the client left) and
// counted as 408 in the metrics.
func TestSlowUploadsHoldNoSlot(t *testing.T) {
	t.Parallel()
	const slots = 4
	s := New(newEngine(t), Options{MaxInFlight: slots, ReadTimeout: 2 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, _ := serve(t, ctx, s)
	addr := strings.TrimPrefix(url, "http://")

	ticker := time.NewTicker(100 * time.Millisecond)
	defer ticker.Stop()
	stop := make(chan struct{})
	defer close(stop)
	var clients []*slowClient
	var wg sync.WaitGroup
	for range 2 * slots {
		c := dialSlow(t, addr, 1000)
		clients = append(clients, c)
		wg.Go(func() { c.trickle(ticker.C, stop) })
	}

	// Every slow request is in its handler, reading its body.
	if r := post(t, url, "/validate", `{"output": {"a": 1}, "expected_schema": {"type": "object"}}`); r.status != http.StatusOK {
		t.Fatalf("ordinary request beside %d slow uploads: %d %s", len(clients), r.status, r.body)
	}
	if r := get(t, url, "/readyz"); r.status != http.StatusOK {
		t.Fatalf("/readyz beside slow uploads: %d %s", r.status, r.body)
	}

	for i, c := range clients {
		resp, err := http.ReadResponse(c.rd, nil)
		if err != nil {
			t.Fatalf("slow client %d: %v", i, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(b), "read timeout of 2s") ||
			!strings.Contains(string(b), string(api.CodeRequestTimeout)) {
			t.Fatalf("slow client %d: %d %s, want 408 naming the read timeout", i, resp.StatusCode, b)
		}
	}
	m := get(t, url, "/metrics").body
	if n := metricValue(t, m, MetricRequests+`{code="408",method="POST",route="/validate"}`); n != 2*slots {
		t.Errorf("408s counted: %v, want %d", n, 2*slots)
	}
	if n := metricValue(t, m, MetricRequests+`{code="499",method="POST",route="/validate"}`); n != -1 {
		t.Errorf("499s counted: %v, want none", n)
	}
}

// A request whose layer cannot start because every engine slot is taken
// is not answered valid: it gets 503 with Retry-After, and /readyz reports
// the saturation; once the slot is free, requests are checked again.
func TestEngineBusyIs503(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}, 1), make(chan struct{})
	e := newEngine(t, judge.WithLayers(holdLayer(started, release)), judge.WithMaxConcurrentRuns(1))
	s := New(e, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, _ := serve(t, ctx, s)

	first := make(chan response, 1)
	go func() { first <- post(t, url, "/validate", `{"output": "hold"}`) }()
	wait(t, started, "the first request's layer")

	busy := post(t, url, "/validate", `{"output": 1, "options": {"timeout_ms": 100}}`)
	if err := checkProblem(busy.header, busy.body, http.StatusServiceUnavailable); err != nil {
		t.Fatalf("busy request: %v: %d %s", err, busy.status, busy.body)
	}
	if busy.header.Get("Retry-After") == "" || !strings.Contains(string(busy.body), "hold layer could not start within 100ms") {
		t.Fatalf("busy request: %v %s", busy.header, busy.body)
	}
	if r := get(t, url, "/readyz"); r.status != http.StatusServiceUnavailable || !strings.Contains(string(r.body), "1 of 1 engine layer runs busy") {
		t.Fatalf("/readyz with every engine slot taken: %d %s", r.status, r.body)
	}
	close(release)
	if r := <-first; r.status != http.StatusOK {
		t.Fatalf("first request: %d %s", r.status, r.body)
	}
	r := mustResult(t, post(t, url, "/validate", `{"output": 1}`))
	if !r.Valid || r.Confidence != 1 {
		t.Fatalf("after the slot was freed: %+v", r)
	}
}

// Admission weighs requests by their body: while a large one is answered,
// another large one that would go over MaxInFlightBytes gets 503, a small
// one is still answered, and /readyz says when every slot is taken.
func TestInFlightBytes(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}, 1), make(chan struct{})
	s := New(newEngine(t, judge.WithLayers(holdLayer(started, release))), Options{MaxInFlight: 2, MaxInFlightBytes: 1000})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, _ := serve(t, ctx, s)

	pad := strings.Repeat("x", 600)
	first := make(chan response, 1)
	go func() { first <- post(t, url, "/validate", `{"output": "hold", "context": "`+pad+`"}`) }()
	wait(t, started, "the large request's layer")

	large := post(t, url, "/validate", `{"output": 1, "context": "`+pad+`"}`)
	if large.status != http.StatusServiceUnavailable || large.header.Get("Retry-After") == "" ||
		!strings.Contains(string(large.body), "over its limit of 1000 (--max-in-flight-bytes)") {
		t.Fatalf("second large request: %d %v %s", large.status, large.header, large.body)
	}
	if r := mustResult(t, post(t, url, "/validate", `{"output": 1}`)); !r.Valid {
		t.Fatalf("small request beside a large one: %+v", r)
	}
	if r := get(t, url, "/readyz"); r.status != http.StatusOK {
		t.Fatalf("/readyz with one of two slots taken: %d %s", r.status, r.body)
	}

	// A second held request takes the last slot: /readyz turns 503.
	second := make(chan response, 1)
	go func() { second <- post(t, url, "/validate", `{"output": "hold"}`) }()
	wait(t, started, "the second held request's layer")
	if r := get(t, url, "/readyz"); r.status != http.StatusServiceUnavailable || !strings.Contains(string(r.body), "2 of 2 requests in flight") {
		t.Fatalf("/readyz with every slot taken: %d %s", r.status, r.body)
	}
	close(release)
	for _, c := range []chan response{first, second} {
		if r := <-c; r.status != http.StatusOK {
			t.Fatalf("held request: %d %s", r.status, r.body)
		}
	}
}
