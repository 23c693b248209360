// Package redisstore keeps the sessions of package toolcall in Redis, so
// that several replicas of judge (servers, gateways, one-shot CLI runs) see
// one session's progress.
//
// It is a package of its own so that toolcall, and whoever imports it, does
// not depend on a Redis client.
//
// # Storage
//
// A session is stored as the JSON of [toolcall.Session] under the key
// "judge:session:<id>" ("<namespace>:session:<id>" with
// [Options.Namespace]) with a TTL refreshed by every update, as
// [toolcall.MemoryStore] refreshes it. A sorted set "judge:sessions" orders
// the sessions by last update (Redis server time, so that the clocks of the
// replicas do not matter); past [Options.MaxSessions] the least recently
// updated sessions are deleted, as MemoryStore evicts them.
//
// # Redis Cluster
//
// With a redis+cluster:// URL (see [New]) the store runs on a Redis
// Cluster. The namespace is then a hash tag: "{judge}:session:<id>" and
// "{judge}:sessions", so that the keys of one update, and those the
// trimming deletes, hash to one slot, as WATCH, MULTI/EXEC and the script
// need. The price: all the sessions of a namespace live on one shard, so a
// cluster spreads the namespaces, not the sessions of one. On a single
// server the keys keep their names without braces.
//
// # Concurrency
//
// [Store.Update] is optimistic: it WATCHes the session's key, reads it,
// applies fn to a fresh copy and writes it in MULTI/EXEC, which fails when
// another replica wrote the key in between. It then tries again, up to
// [Options.MaxRetries] times with a short random backoff, and gives up with
// an error wrapping [ErrConflict]. fn may therefore run more than once.
//
// The trimming of old sessions runs as a Lua script inside the same
// transaction; it computes the keys of the sessions it deletes, which is
// why on a cluster every key of a namespace must share its hash slot.
package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// Defaults of [Options].
const (
	// DefaultNamespace prefixes every key: "judge:session:<id>".
	DefaultNamespace = "judge"
	// DefaultMaxRetries is how many times an update is tried when other
	// writers keep changing the session.
	DefaultMaxRetries = 50
	// DefaultTimeout bounds dialing Redis, and each read and write.
	DefaultTimeout = 2 * time.Second
	// DefaultMaxSessionBytes bounds a session's JSON, in bytes.
	DefaultMaxSessionBytes = 64 << 10
)

// ErrConflict is wrapped by the error of an update that lost the race for
// its session more than Options.MaxRetries times in a row.
var ErrConflict = errors.New("the session kept changing under the update")

// ErrTooLarge is wrapped by the error of an update that would store a
// session larger than Options.MaxSessionBytes; the session is unchanged.
var ErrTooLarge = errors.New("session too large")

// ErrClusterNode is wrapped by the error of a Store made with a redis://
// URL when the server turns out to be a node of a Redis Cluster: by Ping,
// and by an update that meets a key of another slot (MOVED, CROSSSLOT).
var ErrClusterNode = errors.New("the server is a node of a Redis Cluster: give its URL as redis+cluster://host:port")

// Options configure a [Store]. A zero field takes its default.
type Options struct {
	// TTL is how long a session idles before Redis forgets it; every
	// update refreshes it. Default toolcall.DefaultSessionTTL (30m);
	// rounded to whole milliseconds, at least one.
	TTL time.Duration
	// MaxSessions is how many sessions the namespace keeps; past it, the
	// least recently updated are deleted. Default
	// toolcall.DefaultMaxSessions (10,000).
	MaxSessions int
	// MaxSessionBytes bounds the JSON of one session; an update past it
	// fails with ErrTooLarge. Default DefaultMaxSessionBytes (64 KiB).
	MaxSessionBytes int
	// MaxRetries is how many times an update is tried when the session
	// changes under it. Default DefaultMaxRetries (50).
	MaxRetries int
	// Timeout bounds dialing Redis and each read and write on the
	// connection, unless the URL sets dial_timeout, read_timeout or
	// write_timeout. Default DefaultTimeout (2s). A context deadline
	// shorter than it wins.
	Timeout time.Duration
	// Namespace prefixes the keys: "<namespace>:session:<id>" and
	// "<namespace>:sessions", or on a Redis Cluster "{<namespace>}:..."
	// (so it must not hold a brace there). Default DefaultNamespace
	// ("judge").
	Namespace string
}

// Store is a toolcall.Store in Redis. It is safe for concurrent use, and
// several Stores (in several processes) on the same Redis server or
// cluster and namespace share their sessions. Make one with [New]; Close
// it when done.
type Store struct {
	client  redis.UniversalClient
	cluster *redis.ClusterClient // client, on a cluster; nil on one server
	where   string               // redacted URL: scheme://host:port/db, or the cluster's
	opts    Options
	prefix  string // "<namespace>:session:"; "{<namespace>}:session:" on a cluster
	index   string // "<namespace>:sessions"; "{<namespace>}:sessions" on a cluster
}

var _ toolcall.Store = (*Store)(nil)

// URLError is the error of [New] for a URL it cannot use. It does not
// repeat the URL, which may hold a password.
type URLError struct {
	// Reason says what is wrong with the URL.
	Reason string
	// Cluster is true for a redis+cluster:// or rediss+cluster:// URL.
	Cluster bool
}

// Error implements error.
func (e *URLError) Error() string {
	if e.Cluster {
		return "malformed Redis Cluster URL (want redis+cluster://[user:password@]host:port?addr=host:port): " + e.Reason
	}
	return "malformed Redis URL (want redis://[user:password@]host:port/db): " + e.Reason
}

// ServerError is the error of a Store that could not talk to its Redis
// server: unreachable, too slow, or answering with an error. Where names
// the server by its URL without a password.
type ServerError struct {
	Where string // redis://host:port/db, redis+cluster://host:port?addr=host:port
	Op    string // what the store was doing: "update session \"s1\"", "ping"
	Err   error
}

// Error implements error.
func (e *ServerError) Error() string {
	return fmt.Sprintf("redis session store at %s: %s: %v", e.Where, e.Op, e.Err)
}

// Unwrap returns the cause, so that errors.Is finds context.Canceled and
// context.DeadlineExceeded.
func (e *ServerError) Unwrap() error { return e.Err }

// New returns a Store on the Redis server of rawURL
// (redis://[user:password@]host:port/db, rediss:// for TLS, or
// unix:///path?db=N), or on the Redis Cluster of a redis+cluster:// URL
// (rediss+cluster:// for TLS): go-redis's cluster URL with that scheme,
// redis+cluster://[user:password@]host:port?addr=host:port&addr=host:port,
// naming one or more of the cluster's nodes (the others are found from
// them), and database 0 only. The query takes go-redis's options of either
// form (dial_timeout, read_timeout, max_retries, ...).
//
// It does not connect: the first update does, and [Store.Ping] checks the
// server at once. It fails with a *URLError when rawURL is malformed, and
// with an error when, on a cluster, opts.Namespace holds a brace (it would
// break the keys' hash tag).
func New(rawURL string, opts Options) (*Store, error) {
	if strings.TrimSpace(rawURL) == "" {
		return nil, &URLError{Reason: "empty"}
	}
	opts = opts.withDefaults()
	if scheme, _, ok := strings.Cut(rawURL, "://"); ok && (scheme == "redis+cluster" || scheme == "rediss+cluster") {
		return newCluster(rawURL, opts)
	}
	ro, err := redis.ParseURL(rawURL)
	if err != nil {
		if u, perr := url.Parse(rawURL); perr == nil && u.Query().Has("addr") {
			return nil, &URLError{Reason: "addr= names the nodes of a Redis Cluster, whose URL starts with redis+cluster://"}
		}
		return nil, urlError(err, false)
	}
	u, _ := url.Parse(rawURL) // parsed above
	where := fmt.Sprintf("%s://%s/%d", u.Scheme, ro.Addr, ro.DB)
	if ro.Network == "unix" {
		where = fmt.Sprintf("unix://%s?db=%d", ro.Addr, ro.DB)
	}
	bound(u.Query(), opts.Timeout, clientKnobs{&ro.DialTimeout, &ro.ReadTimeout, &ro.WriteTimeout, &ro.ContextTimeoutEnabled,
		&ro.DialerRetries, &ro.MaxRetries, &ro.DisableIdentity, &ro.MaintNotificationsConfig})
	return &Store{
		client: redis.NewClient(ro),
		where:  where,
		opts:   opts,
		prefix: opts.Namespace + ":session:",
		index:  opts.Namespace + ":sessions",
	}, nil
}

// clientKnobs points at the options that redis.Options and
// redis.ClusterOptions both have, so that one function sets them for both.
type clientKnobs struct {
	dial, read, write  *time.Duration
	contextTimeout     *bool
	dialerRetries      *int
	maxRetries         *int
	disableIdentity    *bool
	maintNotifications **maintnotifications.Config
}

// bound sets a client's options from timeout where the URL's query q does
// not set them. The context's deadline bounds every command; a failed dial
// or command is not tried again by the client (Update tries only conflicts
// again), so that an unreachable server fails fast.
func bound(q url.Values, timeout time.Duration, k clientKnobs) {
	for name, d := range map[string]*time.Duration{"dial_timeout": k.dial, "read_timeout": k.read, "write_timeout": k.write} {
		if !q.Has(name) {
			*d = timeout
		}
	}
	*k.contextTimeout = true
	*k.dialerRetries = 1
	if !q.Has("max_retries") {
		*k.maxRetries = -1
	}
	*k.disableIdentity = true
	*k.maintNotifications = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
}

// newCluster is New for a redis+cluster:// or rediss+cluster:// URL.
func newCluster(rawURL string, opts Options) (*Store, error) {
	if strings.ContainsAny(opts.Namespace, "{}") {
		return nil, fmt.Errorf("redis session store: namespace %q: a namespace on a Redis Cluster must not hold { or }, which would break the hash tag its keys share", opts.Namespace)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, urlError(err, true)
	}
	if u.Path != "" && u.Path != "/" && u.Path != "/0" {
		return nil, &URLError{Reason: "a Redis Cluster has only database 0", Cluster: true}
	}
	u.Scheme = strings.TrimSuffix(u.Scheme, "+cluster")
	u.Path = ""
	co, err := redis.ParseClusterURL(u.String())
	if err != nil {
		return nil, urlError(err, true)
	}
	// As on one server, but a command answered MOVED or ASK (its slot is
	// served by another node, after a failover or resharding) follows the
	// redirect, up to max_redirects (3) times.
	bound(u.Query(), opts.Timeout, clientKnobs{&co.DialTimeout, &co.ReadTimeout, &co.WriteTimeout, &co.ContextTimeoutEnabled,
		&co.DialerRetries, &co.MaxRetries, &co.DisableIdentity, &co.MaintNotificationsConfig})
	where := u.Scheme + "+cluster://" + co.Addrs[0]
	if len(co.Addrs) > 1 {
		where += "?addr=" + strings.Join(co.Addrs[1:], "&addr=")
	}
	tag := "{" + opts.Namespace + "}"
	client := redis.NewClusterClient(co)
	return &Store{
		client:  client,
		cluster: client,
		where:   where,
		opts:    opts,
		prefix:  tag + ":session:",
		index:   tag + ":sessions",
	}, nil
}

// urlError is the *URLError of err, go-redis's error parsing a URL.
func urlError(err error, cluster bool) *URLError {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // the url.Error repeats the URL, password included
	}
	return &URLError{Reason: strings.TrimPrefix(err.Error(), "redis: "), Cluster: cluster}
}

// withDefaults returns opts with every zero field set to its default.
func (opts Options) withDefaults() Options {
	if opts.TTL <= 0 {
		opts.TTL = toolcall.DefaultSessionTTL
	}
	opts.TTL = max(opts.TTL.Round(time.Millisecond), time.Millisecond)
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = toolcall.DefaultMaxSessions
	}
	if opts.MaxSessionBytes <= 0 {
		opts.MaxSessionBytes = DefaultMaxSessionBytes
	}
	if opts.MaxRetries <= 0 {
		opts.MaxRetries = DefaultMaxRetries
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Namespace == "" {
		opts.Namespace = DefaultNamespace
	}
	return opts
}

// Where returns the server's URL without its password:
// redis://host:port/db, or for a cluster the URL of the nodes it was given,
// redis+cluster://host:port?addr=host:port.
func (s *Store) Where() string { return s.where }

// Close closes the connections to Redis.
func (s *Store) Close() error { return s.client.Close() }

// Ping checks that the server answers and is not a node of a Redis
// Cluster (whose URL is redis+cluster://); on a cluster, that the cluster's
// layout can be read from a node given and that every master answers.
func (s *Store) Ping(ctx context.Context) error {
	var err error
	if s.cluster != nil {
		err = s.cluster.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error {
			return c.Ping(ctx).Err()
		})
	} else if err = s.client.Ping(ctx).Err(); err == nil {
		// A server that refuses INFO (some proxies do) passes.
		if info, ierr := s.client.Info(ctx, "cluster").Result(); ierr == nil && strings.Contains(info, "cluster_enabled:1") {
			err = ErrClusterNode
		}
	}
	if err != nil {
		return s.serverError(ctx, "ping", err)
	}
	return nil
}

// Len returns how many sessions of the namespace Redis holds (expired ones
// are gone). It scans the keys (on a cluster, of every master), so it is
// for tests and diagnostics.
func (s *Store) Len(ctx context.Context) (int, error) {
	var n atomic.Int64
	scan := func(ctx context.Context, c redis.Cmdable) error {
		iter := c.Scan(ctx, 0, globEscape(s.prefix)+"*", 1000).Iterator()
		for iter.Next(ctx) {
			n.Add(1)
		}
		return iter.Err()
	}
	var err error
	if s.cluster != nil {
		err = s.cluster.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error { return scan(ctx, c) })
	} else {
		err = scan(ctx, s.client)
	}
	if err != nil {
		return 0, s.serverError(ctx, "count sessions", err)
	}
	return int(n.Load()), nil
}

// fnError carries fn's error out of the transaction, to be returned as
// it is.
type fnError struct{ err error }

func (e fnError) Error() string { return e.err.Error() }

// Update implements toolcall.Store: it applies fn to the session id
// atomically across every Store on the server, creating an empty session
// when there is none, and refreshes its TTL. fn may run more than once
// (see the package documentation); its error is returned as it is and
// leaves the session unchanged. The other errors are a *ServerError naming
// the server (unreachable, a timeout, a context done; wrapping
// ErrClusterNode for a redis:// URL of a cluster's node), an error wrapping
// ErrConflict or ErrTooLarge, or one wrapping toolcall.ErrSessionID for an
// invalid id.
func (s *Store) Update(ctx context.Context, id string, fn func(*toolcall.Session) error) error {
	if err := toolcall.CheckSessionID(id); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	key := s.prefix + id
	for attempt := 1; ; attempt++ {
		err := s.client.Watch(ctx, func(tx *redis.Tx) error { return s.apply(ctx, tx, key, id, fn) }, key)
		if err == nil {
			return nil
		}
		var fe fnError
		switch {
		case errors.As(err, &fe):
			return fe.err
		case errors.Is(err, ErrTooLarge):
			return err
		case !errors.Is(err, redis.TxFailedErr):
			return s.serverError(ctx, fmt.Sprintf("update session %q", clip(id)), err)
		case attempt >= s.opts.MaxRetries:
			return fmt.Errorf("redis session store at %s: update session %q: tried %d times: %w", s.where, clip(id), attempt, ErrConflict)
		}
		// Another writer won: wait a random while, longer each time, so
		// that the writers of one session spread out.
		wait := time.Duration(rand.Int64N(int64(min(time.Millisecond<<min(attempt, 5), 25*time.Millisecond)) + 1))
		select {
		case <-ctx.Done():
			return s.serverError(ctx, fmt.Sprintf("update session %q", clip(id)), ctx.Err())
		case <-time.After(wait):
		}
	}
}

// apply runs one attempt of an update inside WATCH key.
func (s *Store) apply(ctx context.Context, tx *redis.Tx, key, id string, fn func(*toolcall.Session) error) error {
	var sess toolcall.Session
	data, err := tx.Get(ctx, key).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
	case err != nil:
		return err
	default:
		if sess, err = decodeSession(key, data); err != nil {
			return err
		}
	}
	if err := fn(&sess); err != nil {
		return fnError{err}
	}
	data, err = json.Marshal(&sess)
	if err != nil {
		return fnError{err}
	}
	if len(data) > s.opts.MaxSessionBytes {
		return fmt.Errorf("redis session store at %s: session %q would take %d bytes, over the bound of %d: %w",
			s.where, clip(id), len(data), s.opts.MaxSessionBytes, ErrTooLarge)
	}
	_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, key, data, s.opts.TTL)
		p.Eval(ctx, touchScript, []string{s.index}, id, s.prefix,
			s.opts.TTL.Microseconds(), s.opts.MaxSessions, s.opts.TTL.Milliseconds())
		return nil
	})
	return err
}

// decodeSession reads the stored value data of key as a session; an error
// names the key.
func decodeSession(key string, data []byte) (toolcall.Session, error) {
	var sess toolcall.Session
	if err := json.Unmarshal(data, &sess); err != nil {
		return toolcall.Session{}, fmt.Errorf("the value of %s is not a session: %w", key, err)
	}
	return sess, nil
}

// touchScript marks a session as the most recently updated in the index
// (KEYS[1]), by the server's clock in microseconds, drops the entries of
// expired sessions, and deletes the least recently updated sessions past
// the bound. ARGV: id, key prefix, TTL in µs, max sessions, TTL in ms.
const touchScript = `
redis.replicate_commands()
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[3]))
local over = redis.call('ZCARD', KEYS[1]) - (tonumber(ARGV[4]) - 1)
if over > 0 then
  local old = redis.call('ZPOPMIN', KEYS[1], over)
  for i = 1, #old, 2 do
    redis.call('DEL', ARGV[2] .. old[i])
  end
end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 0
`

// serverError wraps err, the failure of op; when ctx is done, the cause
// is ctx's error. The client reports ctx's deadline as the i/o timeout of
// its connection, which may come a moment before ctx's own timer.
func (s *Store) serverError(ctx context.Context, op string, err error) error {
	cerr := ctx.Err()
	if dl, ok := ctx.Deadline(); ok && cerr == nil && !time.Now().Before(dl) {
		cerr = context.DeadlineExceeded
	}
	if cerr != nil && !errors.Is(err, cerr) {
		err = fmt.Errorf("%w: %v", cerr, err)
	}
	if msg := err.Error(); s.cluster == nil && (strings.HasPrefix(msg, "MOVED ") || strings.HasPrefix(msg, "CROSSSLOT ")) {
		err = fmt.Errorf("%w; %w", err, ErrClusterNode)
	}
	return &ServerError{Where: s.where, Op: op, Err: err}
}

// clip shortens a session id for an error message.
func clip(id string) string { return result.Clip(id, 80) }

// globEscape escapes the glob characters of a SCAN pattern.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
