// Package storetest checks that a [toolcall.Store] keeps the promises of
// the interface, as testing/fstest checks an fs.FS: the in-memory store and
// the Redis store pass the same suite.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentjudge/judge/toolcall"
)

// Open returns a new, empty store that forgets a session idle for ttl and
// keeps at most maxSessions sessions, the least recently used evicted
// first. It may call t.Fatal or t.Skip.
type Open func(t *testing.T, ttl time.Duration, maxSessions int) toolcall.Store

// Run runs the behaviour suite on stores made by open, each case in its own
// subtest and its own store.
func Run(t *testing.T, open Open) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, open)
		})
	}
}

// cases is the behaviour suite.
var cases = []struct {
	name string
	run  func(t *testing.T, open Open)
}{
	{"new session starts empty and keeps what fn left", keeps},
	{"sessions are separate", separate},
	{"fn error is returned and leaves the session unchanged", fnError},
	{"invalid session id", invalidID},
	{"canceled context", canceled},
	{"size bound evicts the least recently used", sizeBound},
	{"ttl is refreshed by each update, then expires", ttl},
	{"concurrent updates lose none", concurrent},
}

// update calls s.Update and fails the test on an error.
func update(t *testing.T, s toolcall.Store, id string, fn func(*toolcall.Session)) {
	t.Helper()
	if err := s.Update(t.Context(), id, func(x *toolcall.Session) error { fn(x); return nil }); err != nil {
		t.Fatalf("Update(%q): %v", id, err)
	}
}

// get returns a copy of the session id as the store holds it (an Update
// that changes nothing).
func get(t *testing.T, s toolcall.Store, id string) toolcall.Session {
	t.Helper()
	var got toolcall.Session
	update(t, s, id, func(x *toolcall.Session) {
		got = *x
		if x.RepairAttempts != nil {
			got.RepairAttempts = map[string]int{}
			for k, v := range x.RepairAttempts {
				got.RepairAttempts[k] = v
			}
		}
	})
	return got
}

// full is a session with every field set.
func full() toolcall.Session {
	return toolcall.Session{RepairAttempts: map[string]int{"get_issue": 2, "list_issues": 1},
		LastCall: "c1", SameCall: 2, LastError: "e1", SameError: 1, Empty: 3,
		LastResult: "r1", SameResult: 2, Calls: 7, Escalated: true,
		Refused: []toolcall.RefusedCall{{Call: "c0", Reason: "the same call of 'get_issue' made no progress 5 times in a row"}}}
}

func keeps(t *testing.T, open Open) {
	s := open(t, time.Hour, 10)
	if got := get(t, s, "a"); !reflect.DeepEqual(got, toolcall.Session{}) {
		t.Fatalf("a new session is %+v, want the zero Session", got)
	}
	want := full()
	update(t, s, "a", func(x *toolcall.Session) { *x = full() })
	if got := get(t, s, "a"); !reflect.DeepEqual(got, want) {
		t.Errorf("session = %+v, want %+v", got, want)
	}
	// Changing the map given to fn changes the session.
	update(t, s, "a", func(x *toolcall.Session) { x.RepairAttempts["get_issue"]++; delete(x.RepairAttempts, "list_issues") })
	if got := get(t, s, "a").RepairAttempts; !reflect.DeepEqual(got, map[string]int{"get_issue": 3}) {
		t.Errorf("repair attempts = %v, want map[get_issue:3]", got)
	}
}

func separate(t *testing.T, open Open) {
	s := open(t, time.Hour, 10)
	update(t, s, "a", func(x *toolcall.Session) { x.Calls = 1 })
	update(t, s, "b", func(x *toolcall.Session) { x.Calls = 2 })
	if a, b := get(t, s, "a").Calls, get(t, s, "b").Calls; a != 1 || b != 2 {
		t.Errorf("calls of a, b = %d, %d, want 1, 2", a, b)
	}
}

func fnError(t *testing.T, open Open) {
	s := open(t, time.Hour, 10)
	update(t, s, "a", func(x *toolcall.Session) { *x = full() })
	errNo := errors.New("no")
	err := s.Update(t.Context(), "a", func(x *toolcall.Session) error {
		x.Calls = 99
		x.RepairAttempts["get_issue"] = 99
		return fmt.Errorf("wrapped: %w", errNo)
	})
	if !errors.Is(err, errNo) || err.Error() != "wrapped: no" {
		t.Errorf("Update returned %v, want fn's error as it is", err)
	}
	if got := get(t, s, "a"); !reflect.DeepEqual(got, full()) {
		t.Errorf("a failed update changed the session: %+v", got)
	}
	// A session fn failed to create is not created.
	_ = s.Update(t.Context(), "new", func(x *toolcall.Session) error { x.Calls = 5; return errNo })
	if got := get(t, s, "new"); got.Calls != 0 {
		t.Errorf("a failed update created a session with %d calls", got.Calls)
	}
}

func invalidID(t *testing.T, open Open) {
	s := open(t, time.Hour, 10)
	for _, id := range []string{"", strings.Repeat("x", toolcall.MaxSessionIDLen+1)} {
		called := false
		err := s.Update(t.Context(), id, func(*toolcall.Session) error { called = true; return nil })
		if !errors.Is(err, toolcall.ErrSessionID) {
			t.Errorf("id of %d bytes: %v, want ErrSessionID", len(id), err)
		}
		if called {
			t.Errorf("id of %d bytes: fn was called", len(id))
		}
	}
	// The longest id allowed is accepted.
	update(t, s, strings.Repeat("x", toolcall.MaxSessionIDLen), func(x *toolcall.Session) { x.Calls = 1 })
}

func canceled(t *testing.T, open Open) {
	s := open(t, time.Hour, 10)
	update(t, s, "a", func(x *toolcall.Session) { x.Calls = 1 })
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := s.Update(ctx, "a", func(x *toolcall.Session) error { x.Calls = 2; return nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Update with a canceled context: %v, want context.Canceled", err)
	}
	if got := get(t, s, "a").Calls; got != 1 {
		t.Errorf("an update with a canceled context changed the session: %d calls", got)
	}
}

func sizeBound(t *testing.T, open Open) {
	s := open(t, time.Hour, 3)
	for i := range 5 {
		update(t, s, fmt.Sprint("s", i), func(x *toolcall.Session) { x.Calls = i + 1 })
	}
	// The three most recent are kept...
	for i := 4; i >= 2; i-- {
		if got := get(t, s, fmt.Sprint("s", i)).Calls; got != i+1 {
			t.Errorf("s%d: %d calls, want %d (kept)", i, got, i+1)
		}
	}
	// ...and the two least recently used were forgotten.
	for i := range 2 {
		if got := get(t, s, fmt.Sprint("s", i)).Calls; got != 0 {
			t.Errorf("s%d: %d calls, want 0 (evicted)", i, got)
		}
	}
}

func ttl(t *testing.T, open Open) {
	const ttl = 400 * time.Millisecond
	s := open(t, ttl, 10)
	// A stalled machine (an update later than one TTL after the one
	// before) makes the session rightly expire: the run is tried again on
	// a new session, and a machine that stalls every time skips the test,
	// visibly, rather than passing it unchecked.
	const tries = 3
	for try := range tries {
		id := fmt.Sprint("a", try)
		stalled, ok := ttlRun(t, s, id, ttl)
		if !ok {
			return
		}
		if stalled == "" {
			time.Sleep(ttl * 2) // the store's own clock: no fake clock reaches Redis
			if got := get(t, s, id); got.Calls != 0 {
				t.Errorf("a session idle for twice its TTL kept %d calls", got.Calls)
			}
			return
		}
		t.Logf("try %d: %s", try+1, stalled)
	}
	t.Skipf("the machine stalled longer than the TTL %v in each of %d tries, so TTL refresh could not be checked", ttl, tries)
}

// ttlRun updates session id four times, each well within the TTL of the one
// before, and checks that each update finds the session the one before
// left. It returns why it could not check (the machine stalled), or ok
// false when it failed the test.
func ttlRun(t *testing.T, s toolcall.Store, id string, ttl time.Duration) (stalled string, ok bool) {
	t.Helper()
	begin := time.Now()
	last := begin
	update(t, s, id, func(x *toolcall.Session) { x.Calls = 1 })
	for want := 1; want <= 4; want++ {
		time.Sleep(ttl / 4) // the store's own clock: no fake clock reaches Redis
		var got int
		started := last
		last = time.Now()
		update(t, s, id, func(x *toolcall.Session) { got = x.Calls; x.Calls++ })
		if gap := time.Since(started); gap >= ttl {
			return fmt.Sprintf("update %d came %v after the one before (TTL %v)", want, gap, ttl), true
		}
		if got != want {
			t.Errorf("update %d, %v after the first: %d calls, want %d (the TTL is refreshed by each update)", want, time.Since(begin), got, want)
			return "", false
		}
	}
	if time.Since(begin) <= ttl {
		t.Errorf("the updates took %v, not longer than the TTL %v", time.Since(begin), ttl)
		return "", false
	}
	return "", true
}

func concurrent(t *testing.T, open Open) {
	const goroutines, each = 8, 50
	s := open(t, time.Hour, 10)
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*each)
	for g := range goroutines {
		wg.Go(func() {
			for range each {
				err := s.Update(t.Context(), "c", func(x *toolcall.Session) error {
					x.Calls++
					if x.RepairAttempts == nil {
						x.RepairAttempts = map[string]int{}
					}
					x.RepairAttempts[fmt.Sprint("tool", g%2)]++
					return nil
				})
				if err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent update: %v", err)
	}
	got := get(t, s, "c")
	if got.Calls != goroutines*each {
		t.Errorf("concurrent updates: %d calls, want %d", got.Calls, goroutines*each)
	}
	if a, b := got.RepairAttempts["tool0"], got.RepairAttempts["tool1"]; a+b != goroutines*each || a != b {
		t.Errorf("concurrent updates: repair attempts %v, want %d each", got.RepairAttempts, goroutines*each/2)
	}
}
