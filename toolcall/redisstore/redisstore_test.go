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

// target is a Redis deployment the store's tests run on: one server, or a
// cluster.
type target struct {
	// url returns the URL of database db (a cluster has only 0).
	url func(db int) string
	// addr is an address every error of the store names.
	addr string
	// raw is a plain client on database 0, to look at what the store wrote.
	raw redis.UniversalClient
	// cluster is true for a cluster, whose keys put the namespace in a
	// hash tag.
	cluster bool
}

// key returns the name of a key of namespace ns: "ns:rest", or "{ns}:rest"
// on a cluster.
func (tg target) key(ns, rest string) string {
	if tg.cluster {
		return "{" + ns + "}:" + rest
	}
	return ns + ":" + rest
}

// open returns a Store on tg, closed when t ends.
func (tg target) open(t *testing.T, opts redisstore.Options) *redisstore.Store {
	t.Helper()
	s, err := redisstore.New(tg.url(0), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// onServer returns a target on a redis-server of its own, stopped when t
// ends.
func onServer(t *testing.T) target {
	srv := redistest.Start(t)
	raw := redis.NewClient(&redis.Options{Addr: srv.Addr, DisableIdentity: true})
	t.Cleanup(func() { _ = raw.Close() })
	return target{url: srv.URL, addr: srv.Addr, raw: raw}
}

// onCluster returns a target on a Redis Cluster of three masters, stopped
// when t ends.
func onCluster(t *testing.T) target {
	c := redistest.StartCluster(t)
	raw := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs, DisableIdentity: true})
	t.Cleanup(func() { _ = raw.Close() })
	return target{
		url: func(db int) string {
			if db != 0 {
				t.Fatalf("a cluster has no database %d", db)
			}
			return c.URL()
		},
		addr:    c.Addrs[0],
		raw:     raw,
		cluster: true,
	}
}

// storeTests run on one server and on a cluster.
var storeTests = []struct {
	name string
	run  func(t *testing.T, tg target)
}{
	{"Behaviour", testBehaviour},
	{"KeyLayout", testKeyLayout},
	{"ReplicasShareProgress", testReplicasShareProgress},
	{"ConcurrentReplicas", testConcurrentReplicas},
	{"Conflict", testConflict},
	{"BoundsAndBadValues", testBoundsAndBadValues},
	{"DocumentedUse", testDocumentedUse},
}

// TestRedisStore runs storeTests on one server, each test on its own, in
// parallel, and on a cluster started once (about 2 s), one test after the
// other on the emptied cluster.
func TestRedisStore(t *testing.T) {
	t.Run("server", func(t *testing.T) {
		t.Parallel()
		for _, tt := range storeTests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				tt.run(t, onServer(t))
			})
		}
	})
	t.Run("cluster", func(t *testing.T) {
		t.Parallel()
		tg := onCluster(t)
		for _, tt := range storeTests {
			t.Run(tt.name, func(t *testing.T) {
				err := tg.raw.(*redis.ClusterClient).ForEachMaster(context.Background(), func(ctx context.Context, c *redis.Client) error {
					return c.FlushAll(ctx).Err()
				})
				if err != nil {
					t.Fatalf("emptying the cluster: %v", err)
				}
				tt.run(t, tg)
			})
		}
		t.Run("ServerURL", func(t *testing.T) { testServerURLOnCluster(t, tg) })
	})
}

// A redis:// URL of one node of a cluster fails Ping, and updates of keys
// the node does not serve (MOVED) or that are in different slots
// (CROSSSLOT), and the error says to use redis+cluster://.
func testServerURLOnCluster(t *testing.T, tg target) {
	s, err := redisstore.New("redis://"+tg.addr+"/0", redisstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Ping(context.Background()); !errors.Is(err, redisstore.ErrClusterNode) || !strings.Contains(err.Error(), "give its URL as redis+cluster://") {
		t.Errorf("Ping through redis://%s/0, one node of a cluster: %v, want an error saying to use redis+cluster://", tg.addr, err)
	}
	for i := range 10 {
		err := s.Update(context.Background(), fmt.Sprint("s", i), func(*toolcall.Session) error { return nil })
		if !errors.Is(err, redisstore.ErrClusterNode) || !strings.Contains(err.Error(), "give its URL as redis+cluster://") {
			t.Errorf("update through redis://%s/0, one node of a cluster: %v, want an error saying to use redis+cluster://", tg.addr, err)
		}
	}
}

// The Redis store passes the behaviour suite MemoryStore passes.
func testBehaviour(t *testing.T, tg target) {
	storetest.Run(t, func(t *testing.T, ttl time.Duration, maxSessions int) toolcall.Store {
		return tg.open(t, redisstore.Options{TTL: ttl, MaxSessions: maxSessions,
			Namespace: fmt.Sprint("suite", namespaces.Add(1))})
	})
}

// A session is the JSON of toolcall.Session under judge:session:<id>
// ({judge}:session:<id> on a cluster, in the slot of the index), with the
// TTL set, and refreshed, by every update.
func testKeyLayout(t *testing.T, tg target) {
	s := tg.open(t, redisstore.Options{TTL: time.Minute})
	raw := tg.raw
	ctx := context.Background()
	want := toolcall.Session{RepairAttempts: map[string]int{"get_issue": 1}, LastCall: "c", SameCall: 2, Calls: 3}
	if err := s.Update(ctx, "s1", func(x *toolcall.Session) error { *x = want; return nil }); err != nil {
		t.Fatal(err)
	}
	key, index := tg.key("judge", "session:s1"), tg.key("judge", "sessions")
	data, err := raw.Get(ctx, key).Bytes()
	if err != nil {
		t.Fatalf("GET %s: %v", key, err)
	}
	var got toolcall.Session
	if err := json.Unmarshal(data, &got); err != nil || got.Calls != 3 || got.RepairAttempts["get_issue"] != 1 || got.LastCall != "c" {
		t.Errorf("stored %s (%v), want the JSON of %+v", data, err, want)
	}
	// Age the key, then update: the TTL is back to a minute.
	if err := raw.PExpire(ctx, key, 5*time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, "s1", func(x *toolcall.Session) error { x.Calls++; return nil }); err != nil {
		t.Fatal(err)
	}
	if ttl := raw.PTTL(ctx, key).Val(); ttl < 50*time.Second || ttl > time.Minute {
		t.Errorf("TTL after an update = %v, want about 1m", ttl)
	}
	if n, err := raw.ZCard(ctx, index).Result(); err != nil || n != 1 {
		t.Errorf("index %s holds %d (%v), want 1", index, n, err)
	}
	if n, err := s.Len(ctx); err != nil || n != 1 {
		t.Errorf("Len = %d, %v, want 1", n, err)
	}
	if tg.cluster {
		ks, ksErr := raw.ClusterKeySlot(ctx, key).Result()
		is, isErr := raw.ClusterKeySlot(ctx, index).Result()
		if ksErr != nil || isErr != nil || ks != is {
			t.Errorf("CLUSTER KEYSLOT: %s in %d (%v), %s in %d (%v), want one slot", key, ks, ksErr, index, is, isErr)
		}
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
// twice on each without progress crosses the limit of three, as it would on
// one replica; with a MemoryStore each, neither sees it. The refusal of the
// call that goes on looping is shared too.
func testReplicasShareProgress(t *testing.T, tg target) {
	shared := []*toolcall.Toolset{
		replica(t, tg.open(t, redisstore.Options{})),
		replica(t, tg.open(t, redisstore.Options{})),
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
				Result: json.RawMessage(fmt.Sprintf(`{"items": [], "page": %d}`, i))})
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
	// The fifth stops and refuses the call; the other replica's check
	// refuses it too, and only it.
	call := toolcall.Call{Tool: "list_issues", Arguments: json.RawMessage(`{"owner": "o"}`), SessionID: "agent-7"}
	o, err := shared[0].Outcome(ctx, toolcall.OutcomeRequest{Call: call, Result: json.RawMessage(`{"items": []}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !o.Progress.Refused || o.Progress.Verdict != toolcall.Stop {
		t.Errorf("fifth call: progress %+v, want stop, refused", o.Progress)
	}
	for i, c := range []toolcall.Call{call, {Tool: "list_issues", Arguments: json.RawMessage(`{"owner": "p"}`), SessionID: "agent-7"}} {
		chk, err := shared[1].Check(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		if (chk.Refused != "") != (i == 0) {
			t.Errorf("the other replica's check of %s: refused %q", c.Arguments, chk.Refused)
		}
	}
}

// Many goroutines on several Stores (replicas) lose no update.
func testConcurrentReplicas(t *testing.T, tg target) {
	const replicas, goroutines, each = 3, 4, 25
	var stores []*redisstore.Store
	for range replicas {
		stores = append(stores, tg.open(t, redisstore.Options{}))
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
func testConflict(t *testing.T, tg target) {
	raw := tg.raw
	ctx := context.Background()
	for _, tt := range []struct {
		retries, interfere int
		wantErr            bool
		wantCalls          int
	}{
		{retries: 2, interfere: 2, wantErr: true},
		{retries: 3, interfere: 2, wantCalls: 1},
	} {
		s := tg.open(t, redisstore.Options{MaxRetries: tt.retries, Namespace: fmt.Sprint("conflict", tt.retries)})
		key := tg.key(fmt.Sprint("conflict", tt.retries), "session:x")
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
		if err != nil && !strings.Contains(err.Error(), tg.addr) {
			t.Errorf("the conflict error does not name the server %s: %v", tg.addr, err)
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
func testBoundsAndBadValues(t *testing.T, tg target) {
	s := tg.open(t, redisstore.Options{MaxSessionBytes: 200})
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

	junk := tg.key("judge", "session:junk")
	if err := tg.raw.Set(ctx, junk, "not json", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	ran := false
	err = s.Update(ctx, "junk", func(*toolcall.Session) error { ran = true; return nil })
	if err == nil || !strings.Contains(err.Error(), junk+" is not a session") || ran {
		t.Errorf("a value that is not JSON: %v (fn ran: %v)", err, ran)
	}

	// The namespace never holds more sessions than its bound.
	small := tg.open(t, redisstore.Options{MaxSessions: 5, Namespace: "small"})
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
	for _, url := range []string{"redis://" + addr + "/0", "redis+cluster://" + addr} {
		s, err := redisstore.New(url, redisstore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		err = s.Update(context.Background(), "s", func(*toolcall.Session) error { return nil })
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: Update took %v against a closed port", url, d)
		}
		var se *redisstore.ServerError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), url) {
			t.Errorf("Update = %v, want a *ServerError naming %s", err, url)
		}
		if err := s.Ping(context.Background()); err == nil || !strings.Contains(err.Error(), url) {
			t.Errorf("Ping = %v, want an error naming %s", err, url)
		}
		_ = s.Close()
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
		"redis://:s3cret@localhost:6379/0?addr=localhost:6380",
		"redis+cluster://:s3cret@localhost:6379/1?addr=localhost:6380",
		"redis+cluster://:s3cret@localhost:6379?addr=localhost",
		"redis+cluster://:s3cret@localhost:6379?db=1",
		"redis+cluster://:s3cret@localhost:notaport",
		"rediss+cluster://:s3cret@local host:6379",
		"unix+cluster:///run/redis.sock",
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
	for _, tt := range []struct{ url, where string }{
		{"redis://:s3cret@localhost:6390/3", "redis://localhost:6390/3"},
		{"redis+cluster://:s3cret@localhost:6390?addr=10.0.0.2:6391&addr=10.0.0.3:6392&read_timeout=1s", "redis+cluster://localhost:6390?addr=10.0.0.2:6391&addr=10.0.0.3:6392"},
		{"rediss+cluster://u:s3cret@redis.internal/0", "rediss+cluster://redis.internal:6379"},
	} {
		s, err := redisstore.New(tt.url, redisstore.Options{})
		if err != nil {
			t.Errorf("New(%q): %v", tt.url, err)
			continue
		}
		if s.Where() != tt.where {
			t.Errorf("New(%q).Where() = %q, want %q", tt.url, s.Where(), tt.where)
		}
		_ = s.Close()
	}
	// On a cluster, the namespace is a hash tag, which a brace would break.
	if _, err := redisstore.New("redis+cluster://localhost:6390", redisstore.Options{Namespace: "}x"}); err == nil || !strings.Contains(err.Error(), "must not hold { or }") {
		t.Errorf("New on a cluster with the namespace }x: %v, want an error", err)
	}
}

// The documented use (see ExampleNew), against a real server (in database
// 1) or cluster: a Checker with a Redis store counts repair attempts in
// Redis.
func testDocumentedUse(t *testing.T, tg target) {
	db := 1
	if tg.cluster {
		db = 0
	}
	store, err := redisstore.New(tg.url(db), redisstore.Options{TTL: 10 * time.Minute})
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
	raw := tg.raw
	if db != 0 {
		c := redis.NewClient(&redis.Options{Addr: tg.addr, DB: db, DisableIdentity: true})
		defer c.Close()
		raw = c
	}
	if data := raw.Get(context.Background(), tg.key("judge", "session:s1")).Val(); !strings.Contains(data, `"list_issues\u0000owner\u0000schema.type":2`) {
		t.Errorf("database %d holds %q, want the repair attempts", db, data)
	}
}
