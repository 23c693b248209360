package executor_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjudge/judge/executor"
	"github.com/agentjudge/judge/manifest"
)

// itemsServer is the items service of the api fixtures, on loopback. Its
// /items/ answers follow the "mode" query parameter.
type itemsServer struct {
	*httptest.Server
	mu    sync.Mutex
	hits  []time.Time
	reqs  []*http.Request
	body  []string
	flaky int // answers 503 this many times first
}

func newItemsServer(t *testing.T) *itemsServer {
	s := &itemsServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.hits = append(s.hits, time.Now())
		s.reqs = append(s.reqs, r)
		s.body = append(s.body, string(b))
		n := len(s.hits)
		flaky := s.flaky
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch q := r.URL.Query().Get("q"); {
		case q == "retry-after" && n <= flaky:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
		case q == "too-long-wait":
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = io.WriteString(w, `{"error": "slow down"}`)
			return
		case q == "always-503":
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `{"error": "down"}`)
			return
		case q == "bad":
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"error": "bad query"}`)
			return
		case q == "text":
			_, _ = io.WriteString(w, "not json")
			return
		}
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusCreated)
			_, _ = io.WriteString(w, `{"created": true}`)
			return
		}
		_, _ = io.WriteString(w, `{"data": {"id": "x", "tags": ["a", "b", "c"]}}`)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *itemsServer) requests() []*http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*http.Request(nil), s.reqs...)
}

func apiRunner(t *testing.T, srv *itemsServer, opts ...executor.Option) *executor.Runner {
	t.Helper()
	ctx := context.Background()
	reg, err := manifest.LoadDirs(ctx, "testdata/tools")
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	base := []executor.Option{executor.WithLookupEnv(env(map[string]string{"ITEMS_HOST": host}))}
	r, err := executor.New(ctx, reg, append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

func TestAPI(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, tool, args string
		status, attempts int
		isError          bool
		value            string
	}{
		{name: "transform applied", tool: "items_api", args: `{"id": "x", "q": "ok"}`, status: 200, attempts: 1, value: `["a","b"]`},
		{name: "no retry on 400", tool: "items_api", args: `{"id": "x", "q": "bad"}`, status: 400, attempts: 1, isError: true, value: `{"error":"bad query"}`},
		{name: "retries on 5xx then gives up", tool: "items_api", args: `{"id": "x", "q": "always-503"}`, status: 503, attempts: 3, isError: true, value: `{"error":"down"}`},
		{name: "a Retry-After past the bound is not waited for", tool: "items_api", args: `{"id": "x", "q": "too-long-wait"}`, status: 429, attempts: 1, isError: true, value: `{"error":"slow down"}`},
		{name: "a transform on a body that is not JSON", tool: "items_api", args: `{"id": "x", "q": "text"}`, status: 200, attempts: 1, isError: true},
		{name: "POST body from the template", tool: "create_item", args: `{"name": "bolt", "count": 3}`, status: 201, attempts: 1, value: `{"created":true}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newItemsServer(t)
			r := apiRunner(t, srv, executor.WithAllowLoopback(true), executor.WithLimits(executor.Limits{MaxRetryWait: 2 * time.Second}))
			res := call(t, r, tc.tool, tc.args)
			got, _ := json.Marshal(res.Value)
			if res.Status != tc.status || res.Attempts != tc.attempts || res.IsError != tc.isError || (tc.value != "" && string(got) != tc.value) {
				t.Errorf("status %d attempts %d isError %v value %s; want %d %d %v %s", res.Status, res.Attempts, res.IsError, got,
					tc.status, tc.attempts, tc.isError, tc.value)
			}
			if got := len(srv.requests()); got != tc.attempts {
				t.Errorf("the server saw %d requests, want %d", got, tc.attempts)
			}
		})
	}
}

func TestAPIRetryAfter(t *testing.T) {
	t.Parallel()
	srv := newItemsServer(t)
	srv.flaky = 1
	r := apiRunner(t, srv, executor.WithAllowLoopback(true))
	res := call(t, r, "items_api", `{"id": "x", "q": "retry-after"}`)
	if res.IsError || res.Attempts != 2 {
		t.Fatalf("%+v", res)
	}
	srv.mu.Lock()
	gap := srv.hits[1].Sub(srv.hits[0])
	srv.mu.Unlock()
	if gap < 900*time.Millisecond {
		t.Errorf("retried after %v; the server asked for 1 s", gap)
	}
}

func TestAPIRequest(t *testing.T) {
	t.Parallel()
	srv := newItemsServer(t)
	r := apiRunner(t, srv, executor.WithAllowLoopback(true))
	call(t, r, "items_api", `{"id": "a/b c?d#e", "q": "x&y=z"}`)
	req := srv.requests()[0]
	if p := req.URL.EscapedPath(); p != "/items/a%2Fb%20c%3Fd%23e" {
		t.Errorf("path %s: the id was not escaped as one segment", p)
	}
	if q := req.URL.Query(); q.Get("q") != "x&y=z" || q.Has("y") {
		t.Errorf("query %v: the value was not escaped", q)
	}
	if k := req.Header.Get("X-Api-Key"); k != "key-123" {
		t.Errorf("X-Api-Key %q", k)
	}
	call(t, r, "create_item", `{"name": "bolt", "count": 3}`)
	srv.mu.Lock()
	body := srv.body[1]
	srv.mu.Unlock()
	if body != `{"item":{"count":3,"name":"bolt"}}` {
		t.Errorf("body %s", body)
	}
}

func TestAPIRefusesLoopback(t *testing.T) {
	t.Parallel()
	srv := newItemsServer(t)
	port := srv.URL[strings.LastIndexByte(srv.URL, ':'):]
	for _, host := range []string{strings.TrimPrefix(srv.URL, "http://"), "localhost" + port} {
		ctx := context.Background()
		reg, err := manifest.LoadDirs(ctx, "testdata/tools")
		if err != nil {
			t.Fatal(err)
		}
		r, err := executor.New(ctx, reg, executor.WithLookupEnv(env(map[string]string{"ITEMS_HOST": host})), executor.WithAllowPrivate(true))
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Call(ctx, "items_api", json.RawMessage(`{"id": "x", "q": "ok"}`))
		var ae *executor.AddressError
		if !errors.Is(err, executor.ErrRefusedAddress) || !errors.As(err, &ae) || ae.Kind != "loopback" {
			t.Errorf("%s: err = %v, want a refused loopback address", host, err)
		}
		r.Close()
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("the server saw %d requests", n)
	}
}
