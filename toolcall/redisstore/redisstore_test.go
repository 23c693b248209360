package redisstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agentjudge/judge/internal/redistest"
	"github.com/agentjudge/judge/toolcall"
	"github.com/agentjudge/judge/toolcall/redisstore"
	"github.com/agentjudge/judge/toolcall/storetest"
)

// namespaces makes each store of a test its own namespace on the shared
// server.
var namespaces atomic.Int64

// open returns a Store on srv, closed when t ends.
func open(t *testing.T, srv *redistest.Server, opts redisstore.Options) *redisstore.Store {
	t.Helper()
	s, err := redisstore.New(srv.URL(0), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// rawClient is a plain client on srv, to look at what the store wrote.
func rawClient(t *testing.T, srv *redistest.Server) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: srv.Addr, DisableIdentity: true})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// The Redis store passes the behaviour suite MemoryStore passes.
func TestRedisStoreBehaviour(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	storetest.Run(t, func(t *testing.T, ttl time.Duration, maxSessions int) toolcall.Store {
		return open(t, srv, redisstore.Options{TTL: ttl, MaxSessions: maxSessions,
			Namespace: fmt.Sprint("suite", namespaces.Add(1))})
	})
}

// A session is the JSON of toolcall.Session under judge:session:<id>, with
// the TTL set, and refreshed, by every update.
func TestRedisKeyLayout(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	s := open(t, srv, redisstore.Options{TTL: time.Minute})
	raw := rawClient(t, srv)
	ctx := context.Background()
	want := toolcall.Session{RepairAttempts: map[string]int{"get_issue": 1}, LastCall: "c", SameCall: 2, Calls: 3}
	if err := s.Update(ctx, "s1", func(x *toolcall.Session) error { *x = want; return nil }); err != nil {
		t.Fatal(err)
	}
	data, err := raw.Get(ctx, "judge:session:s1").Bytes()
	if err != nil {
		t.Fatalf("GET judge:session:s1: %v", err)
	}
	var got toolcall.Session
	if err := json.Unmarshal(data, &got); err != nil || got.Calls != 3 || got.RepairAttempts["get_issue"] != 1 || got.LastCall != "c" {
		t.Errorf("stored %s (%v), want the JSON of %+v", data, err, want)
	}
	// Age the key, then update: the TTL is back to a minute.
	if err := raw.PExpire(ctx, "judge:session:s1", 5*time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, "s1", func(x *toolcall.Session) error { x.Calls++; return nil }); err != nil {
		t.Fatal(err)
	}
	if ttl := raw.PTTL(ctx, "judge:session:s1").Val(); ttl < 50*time.Second || ttl > time.Minute {
		t.Errorf("TTL after an update = %v, want about 1m", ttl)
	}
	if n, err := raw.ZCard(ctx, "judge:sessions").Result(); err != nil || n != 1 {
		t.Errorf("index judge:sessions holds %d (%v), want 1", n, err)
	}
	if n, err := s.Len(ctx); err != nil || n != 1 {
		t.Errorf("Len = %d, %v, want 1", n, err)
	}
}

// progressDefs is one tool, for the replicas' checkers.
const progressDefs = `[{"name": "list_issues", "description": "List the issues of a repository.",
  "inputSchema": {"type": "object", "properties": {"owner": {"type": "string"}}}}]`

// replica returns a toolset whose checker keeps sessions in store.
func replica(t *testing.T, store toolcall.Store) *toolcall.Toolset {
	t.Helper()
	c, err := toolcall.New(toolcall.WithStore(store))
	if err != nil {
		t.Fatal(err)
	}
	defs, err := toolcall.ParseDefinitions([]byte(progressDefs), "tools.json")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := c.NewToolset(defs...)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// Two replicas on one Redis server see one session: the same call made
// twice on each crosses the limit of three, as it would on one replica; with
// a MemoryStore each, neither sees it.
func TestRedisReplicasShareProgress(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	shared := []*toolcall.Toolset{
		replica(t, open(t, srv, redisstore.Options{})),
		replica(t, open(t, srv, redisstore.Options{})),
	}
	separate := []*toolcall.Toolset{
		replica(t, toolcall.NewMemoryStore(0, 0)),
		replica(t, toolcall.NewMemoryStore(0, 0)),
	}
	ctx := context.Background()
	last := func(replicas []*toolcall.Toolset) *toolcall.Progress {
		var p *toolcall.Progress
		for i := range 4 {
			o, err := replicas[i%2].Outcome(ctx, toolcall.OutcomeRequest{
				Call:   toolcall.Call{Tool: "list_issues", Arguments: json.RawMessage(`{"owner": "o"}`), SessionID: "agent-7"},
				Result: json.RawMessage(fmt.Sprintf(`[{"number": %d}]`, i))})
			if err != nil {
				t.Fatal(err)
			}
			p = o.Progress
		}
		return p
	}
	if p := last(shared); p.Verdict != toolcall.Escalate || p.Limit != "same_call" || p.Calls != 4 {
		t.Errorf("two replicas on Redis: progress after the 4th same call = %+v, want escalate (same_call) after 4 calls", p)
	}
	if p := last(separate); p.Verdict != toolcall.Continue || p.Calls != 2 {
		t.Errorf("two replicas in memory: progress = %+v, want continue after 2 calls each", p)
	}
}

// Many goroutines on several Stores (replicas) lose no update.
func TestRedisConcurrentReplicas(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	const replicas, goroutines, each = 3, 4, 25
	var stores []*redisstore.Store
	for range replicas {
		stores = append(stores, open(t, srv, redisstore.Options{}))
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	var failed atomic.Int64
	for r := range replicas {
		for range goroutines {
			wg.Go(func() {
				for range each {
					if err := stores[r].Update(ctx, "hot", func(x *toolcall.Session) error { x.Calls++; return nil }); err != nil {
						failed.Add(1)
						t.Errorf("update on replica %d: %v", r, err)
					}
				}
			})
		}
	}
	wg.Wait()
	var calls int
	if err := stores[0].Update(ctx, "hot", func(x *toolcall.Session) error { calls = x.Calls; return nil }); err != nil {
		t.Fatal(err)
	}
	if want := replicas * goroutines * each; calls != want {
		t.Errorf("%d calls counted, want %d (%d updates failed)", calls, want, failed.Load())
	}
}

// An update that keeps losing the race gives up after MaxRetries with
// ErrConflict; one more try succeeds, fn running once per try.
func TestRedisConflict(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	raw := rawClient(t, srv)
	ctx := context.Background()
	for _, tt := range []struct {
		retries, interfere int
		wantErr            bool
		wantCalls          int
	}{
		{retries: 2, interfere: 2, wantErr: true},
		{retries: 3, interfere: 2, wantCalls: 1},
	} {
		s := open(t, srv, redisstore.Options{MaxRetries: tt.retries, Namespace: fmt.Sprint("conflict", tt.retries)})
		key := fmt.Sprintf("conflict%d:session:x", tt.retries)
		runs := 0
		err := s.Update(ctx, "x", func(x *toolcall.Session) error {
			runs++
			if runs <= tt.interfere {
				// Another replica writes the session meanwhile.
				if err := raw.Set(ctx, key, `{"calls": 0}`, time.Minute).Err(); err != nil {
					return err
				}
			}
			x.Calls++
			return nil
		})
		if got := errors.Is(err, redisstore.ErrConflict); got != tt.wantErr {
			t.Errorf("retries %d: Update = %v, want ErrConflict: %v", tt.retries, err, tt.wantErr)
		}
		if want := min(tt.retries, tt.interfere+1); runs != want {
			t.Errorf("retries %d: fn ran %d times, want %d", tt.retries, runs, want)
		}
		if err != nil && !strings.Contains(err.Error(), srv.Addr) {
			t.Errorf("the conflict error does not name the server %s: %v", srv.Addr, err)
		}
		if !tt.wantErr {
			data, _ := raw.Get(ctx, key).Result()
			if data != `{"calls":1}` {
				t.Errorf("stored %s, want {\"calls\":1}", data)
			}
		}
	}
}

// A session over MaxSessionBytes is refused and left as it was; a stored
// value that is not a session is an error naming its key, fn never running
// on a made-up session.
func TestRedisBoundsAndBadValues(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	s := open(t, srv, redisstore.Options{MaxSessionBytes: 200})
	ctx := context.Background()
	if err := s.Update(ctx, "big", func(x *toolcall.Session) error { x.Calls = 1; return nil }); err != nil {
		t.Fatal(err)
	}
	err := s.Update(ctx, "big", func(x *toolcall.Session) error {
		x.Calls = 2
		x.RepairAttempts = map[string]int{}
		for i := range 50 {
			x.RepairAttempts[fmt.Sprint("tool_", i)] = i
		}
		return nil
	})
	if !errors.Is(err, redisstore.ErrTooLarge) || !strings.Contains(err.Error(), "over the bound of 200") {
		t.Errorf("oversized session: %v, want ErrTooLarge", err)
	}
	_ = s.Update(ctx, "big", func(x *toolcall.Session) error {
		if x.Calls != 1 || x.RepairAttempts != nil {
			t.Errorf("a refused update changed the session: %+v", x)
		}
		return nil
	})

	raw := rawClient(t, srv)
	if err := raw.Set(ctx, "judge:session:junk", "not json", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	ran := false
	err = s.Update(ctx, "junk", func(*toolcall.Session) error { ran = true; return nil })
	if err == nil || !strings.Contains(err.Error(), "judge:session:junk is not a session") || ran {
		t.Errorf("a value that is not JSON: %v (fn ran: %v)", err, ran)
	}

	// The namespace never holds more sessions than its bound.
	small := open(t, srv, redisstore.Options{MaxSessions: 5, Namespace: "small"})
	for i := range 20 {
		if err := small.Update(ctx, fmt.Sprint(i), func(x *toolcall.Session) error { x.Calls = 1; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := small.Len(ctx); err != nil || n != 5 {
		t.Errorf("Len = %d, %v after 20 sessions, want the bound 5", n, err)
	}
}

// An unreachable server is an error naming it, at once.
func TestRedisUnreachable(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	s, err := redisstore.New("redis://"+addr+"/0", redisstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start := time.Now()
	err = s.Update(context.Background(), "s", func(*toolcall.Session) error { return nil })
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Update took %v against a closed port", d)
	}
	var se *redisstore.ServerError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "redis://"+addr+"/0") {
		t.Errorf("Update = %v, want a *ServerError naming redis://%s/0", err, addr)
	}
	if err := s.Ping(context.Background()); err == nil || !strings.Contains(err.Error(), addr) {
		t.Errorf("Ping = %v, want an error naming %s", err, addr)
	}
}

// A server that accepts connections and never answers does not hang an
// update: the read timeout ends it, and a shorter context deadline wins.
func TestRedisSilentServer(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns sync.WaitGroup
	done := make(chan struct{})
	t.Cleanup(func() { close(done); ln.Close(); conns.Wait() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Go(func() { <-done; c.Close() }) // read nothing, answer nothing
		}
	}()
	addr := ln.Addr().String()
	for _, tt := range []struct {
		name     string
		timeout  time.Duration
		deadline time.Duration // 0: none
		want     error
	}{
		{name: "read timeout", timeout: 300 * time.Millisecond},
		{name: "context deadline", timeout: time.Minute, deadline: 300 * time.Millisecond, want: context.DeadlineExceeded},
	} {
		s, err := redisstore.New("redis://"+addr+"/2", redisstore.Options{Timeout: tt.timeout})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		if tt.deadline > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, tt.deadline)
			defer cancel()
		}
		start := time.Now()
		err = s.Update(ctx, "s", func(*toolcall.Session) error { return nil })
		d := time.Since(start)
		_ = s.Close()
		if err == nil || !strings.Contains(err.Error(), "redis://"+addr+"/2") {
			t.Errorf("%s: Update = %v, want an error naming redis://%s/2", tt.name, err, addr)
		}
		if tt.want != nil && !errors.Is(err, tt.want) {
			t.Errorf("%s: Update = %v, want %v", tt.name, err, tt.want)
		}
		if d > 5*time.Second {
			t.Errorf("%s: Update took %v", tt.name, d)
		}
	}
}

// A URL that is not a Redis URL is a *URLError that does not repeat it.
func TestRedisMalformedURL(t *testing.T) {
	t.Parallel()
	for _, u := range []string{
		"",
		"localhost:6379",
		"http://localhost:6379/0",
		"redis://:s3cret@localhost:notaport/0",
		"redis://:s3cret@localhost:6379/zero",
		"redis://:s3cret@localhost:6379/0/1",
		"redis://:s3cret@local host:6379/0",
	} {
		_, err := redisstore.New(u, redisstore.Options{})
		var ue *redisstore.URLError
		if !errors.As(err, &ue) {
			t.Errorf("New(%q) = %v, want a *URLError", u, err)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("New(%q): the error repeats the password: %v", u, err)
		}
	}
	s, err := redisstore.New("redis://:s3cret@localhost:6390/3", redisstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Where() != "redis://localhost:6390/3" {
		t.Errorf("Where = %q", s.Where())
	}
}

// The documented use (see ExampleNew), against a real server: a Checker
// with a Redis store counts repair attempts in Redis.
func TestRedisDocumentedUse(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	store, err := redisstore.New(srv.URL(1), redisstore.Options{TTL: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if err := store.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	ts := replica(t, store)
	for want := 1; want <= 2; want++ {
		res, err := ts.Check(context.Background(), toolcall.Call{Tool: "list_issues", Arguments: json.RawMessage(`{"owner": 7}`), SessionID: "s1"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Repair == nil || res.Repair.Attempt != want {
			t.Fatalf("check %d: repair = %+v, want attempt %d", want, res.Repair, want)
		}
	}
	raw := redis.NewClient(&redis.Options{Addr: srv.Addr, DB: 1, DisableIdentity: true})
	defer raw.Close()
	if data := raw.Get(context.Background(), "judge:session:s1").Val(); !strings.Contains(data, `"list_issues":2`) {
		t.Errorf("database 1 holds %q, want the repair attempts", data)
	}
}
