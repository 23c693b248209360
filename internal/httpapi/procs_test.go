package httpapi

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder keeps the changes a ProcsAdapter asks for.
type recorder struct {
	mu  sync.Mutex
	set []bool
}

func (r *recorder) record(one bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.set = append(r.set, one)
}

func (r *recorder) changes() []bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]bool(nil), r.set...)
}

// TestProcsAdapterStates drives the adapter through connection states at
// given moments and checks each change of GOMAXPROCS it asks for.
func TestProcsAdapterStates(t *testing.T) {
	t.Parallel()
	a, b, c := &net.TCPConn{}, &net.TCPConn{}, &net.TCPConn{}
	t0 := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	type step struct {
		conn *net.TCPConn
		s    http.ConnState
		ms   int
	}
	tests := []struct {
		name  string
		steps []step
		want  []bool // the changes asked for, in order: true for one processor
	}{
		{"one client in turn: one processor at its first request", []step{
			{a, http.StateNew, 0}, {a, http.StateActive, 1}, {a, http.StateIdle, 2}, {a, http.StateActive, 3}, {a, http.StateIdle, 4},
		}, []bool{true}},
		{"a second request in flight: the default at once, one again only after the hold", []step{
			{a, http.StateActive, 0}, {b, http.StateActive, 1}, {b, http.StateIdle, 2},
			{a, http.StateIdle, 500}, {a, http.StateActive, 900}, {a, http.StateIdle, 1100},
		}, []bool{true, false, true}},
		{"idle connections do not count", []step{
			{a, http.StateNew, 0}, {b, http.StateNew, 0}, {c, http.StateNew, 0},
			{a, http.StateActive, 1}, {a, http.StateIdle, 2}, {b, http.StateActive, 3}, {b, http.StateIdle, 4},
		}, []bool{true}},
		{"a connection closed or hijacked while active no longer counts", []step{
			{a, http.StateActive, 0}, {b, http.StateActive, 1}, {c, http.StateActive, 2},
			{b, http.StateClosed, 3}, {c, http.StateHijacked, 4}, {a, http.StateIdle, 1005},
		}, []bool{true, false, true}},
		{"a closed idle connection changes nothing", []step{
			{a, http.StateActive, 0}, {a, http.StateIdle, 1}, {a, http.StateClosed, 2}, {b, http.StateActive, 3},
		}, []bool{true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var r recorder
			p := newProcsAdapter(r.record)
			for _, s := range tt.steps {
				p.stateAt(s.conn, s.s, at(s.ms))
			}
			got := r.changes()
			if len(got) != len(tt.want) {
				t.Fatalf("changes %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("changes %v, want %v", got, tt.want)
				}
			}
			if one, n := p.One(); n != len(tt.want) || one != tt.want[len(tt.want)-1] {
				t.Errorf("One() = %v, %d; want %v, %d", one, n, tt.want[len(tt.want)-1], len(tt.want))
			}
		})
	}
}

// TestProcsAdapterServer follows a real server on loopback: requests in
// turn on one connection ask for one processor; two requests in flight
// at once, on two connections, for the default.
func TestProcsAdapterServer(t *testing.T) {
	t.Parallel()
	var r recorder
	p := newProcsAdapter(r.record)
	arrived := make(chan struct{}, 2)
	release := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == "/both" {
			arrived <- struct{}{}
			<-release
		}
		_, _ = io.WriteString(w, "ok")
	}))
	srv.Config.ConnState = p.ConnState
	srv.Start()
	defer srv.Close()

	get := func(c *http.Client, path string) error {
		resp, err := c.Get(srv.URL + path)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err == nil && string(b) != "ok" {
			t.Errorf("answer %q", b)
		}
		return err
	}
	one := srv.Client()
	for range 3 {
		if err := get(one, "/"); err != nil {
			t.Fatal(err)
		}
	}
	if got := r.changes(); len(got) != 1 || !got[0] {
		t.Fatalf("after requests in turn: changes %v, want [true]", got)
	}
	// Two clients, two connections, both requests held in flight until
	// both have arrived.
	clients := []*http.Client{
		{Transport: &http.Transport{DisableKeepAlives: true}},
		{Transport: &http.Transport{DisableKeepAlives: true}},
	}
	errs := make(chan error, 2)
	for _, c := range clients {
		go func() { errs <- get(c, "/both") }()
	}
	<-arrived
	<-arrived
	close(release)
	for range clients {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if got := r.changes(); len(got) != 2 || got[1] {
		t.Fatalf("after two requests in flight: changes %v, want [true false]", got)
	}
}

// TestNewProcsAdapter keeps the operator's GOMAXPROCS and adapts nothing
// on one processor.
func TestNewProcsAdapter(t *testing.T) {
	t.Parallel()
	env := func(kv string) func(string) string {
		return func(k string) string {
			name, v, _ := strings.Cut(kv, "=")
			if k == name {
				return v
			}
			return ""
		}
	}
	if p := NewProcsAdapter(env("GOMAXPROCS=2")); p != nil {
		t.Error("GOMAXPROCS set: want no adapter")
	}
	p := NewProcsAdapter(env(""))
	if multi := runtime.GOMAXPROCS(0) >= 2; (p != nil) != multi {
		t.Errorf("GOMAXPROCS %d: adapter %v", runtime.GOMAXPROCS(0), p != nil)
	}
}
