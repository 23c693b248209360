package httpapi

import (
	"net"
	"net/http"
	"runtime"
	"sync"
	"time"
)

// DefaultProcsHold is how long [ProcsAdapter] waits, after the last moment
// two connections had a request in flight, before it runs the process on
// one processor again.
const DefaultProcsHold = time.Second

// ProcsAdapter runs the process on one processor (GOMAXPROCS 1) while at
// most one connection has a request in flight, and on the runtime's
// default otherwise. A server answering one client at a time (an agent's
// sidecar, calls in turn) gains nothing from a second processor but pays
// for it: each request wakes an idle thread (net/http starts a goroutine
// per request to watch its connection, and the runtime hands a processor
// stuck in a write system call to another thread), which cost a quarter
// of the request's CPU time on loopback (decision 68). As soon as a second
// connection has a request in flight the default comes back; one
// processor again only after Hold without that.
//
// It counts connections, which on HTTP/1.1 (what Serve speaks) carry one
// request at a time; a long-lived response (a stream) counts as a request
// in flight for as long as it lasts.
//
// GOMAXPROCS is the whole process's: give a ProcsAdapter only to the one
// server of a process that owns it (judge serve does), never to a server
// mounted in another program. Its ConnState is an http.Server's
// ConnState. It is safe for concurrent use.
type ProcsAdapter struct {
	// Hold is how long after the last moment of two requests in flight
	// one processor comes back; 0 means DefaultProcsHold.
	Hold time.Duration
	// set changes GOMAXPROCS: one true for 1, false for the default.
	set func(one bool)

	mu        sync.Mutex
	state     map[net.Conn]bool // connections seen, true while a request is in flight
	active    int               // connections with a request in flight
	one       bool              // the process runs on one processor now
	lastMulti time.Time         // the last moment active was 2 or more
	changes   int
}

// NewProcsAdapter returns a ProcsAdapter that changes the process's
// GOMAXPROCS, or nil when there is nothing to adapt: one processor only
// by default, or GOMAXPROCS set by its environment variable (the
// operator's choice is kept).
func NewProcsAdapter(getenv func(string) string) *ProcsAdapter {
	if getenv("GOMAXPROCS") != "" || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	return newProcsAdapter(func(one bool) {
		if one {
			runtime.GOMAXPROCS(1)
		} else {
			runtime.SetDefaultGOMAXPROCS()
		}
	})
}

func newProcsAdapter(set func(one bool)) *ProcsAdapter {
	return &ProcsAdapter{set: set, state: map[net.Conn]bool{}}
}

// ConnState follows each connection's state: StateActive is a request in
// flight (from its first byte to its answer).
func (p *ProcsAdapter) ConnState(c net.Conn, s http.ConnState) {
	p.stateAt(c, s, time.Now())
}

func (p *ProcsAdapter) stateAt(c net.Conn, s http.ConnState, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	was := p.state[c]
	switch s {
	case http.StateActive:
		p.state[c] = true
	case http.StateNew, http.StateIdle:
		p.state[c] = false
	default: // closed or hijacked: no longer followed
		delete(p.state, c)
	}
	if cur := p.state[c]; cur != was {
		if cur {
			p.active++
		} else {
			p.active--
		}
	}
	if p.active >= 2 {
		p.lastMulti = now
		if p.one {
			p.one = false
			p.changes++
			p.set(false)
		}
		return
	}
	hold := p.Hold
	if hold <= 0 {
		hold = DefaultProcsHold
	}
	if !p.one && p.active <= 1 && now.Sub(p.lastMulti) >= hold {
		p.one = true
		p.changes++
		p.set(true)
	}
}

// One reports whether the process runs on one processor now, and how many
// times the adapter changed it.
func (p *ProcsAdapter) One() (one bool, changes int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.one, p.changes
}
