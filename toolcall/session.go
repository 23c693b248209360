package toolcall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/result"
)

// Defaults of the in-memory session store.
const (
	// DefaultSessionTTL is how long a session idles before it is
	// forgotten.
	DefaultSessionTTL = 30 * time.Minute
	// DefaultMaxSessions is how many sessions the store keeps; past it,
	// the least recently used is forgotten.
	DefaultMaxSessions = 10_000
	// MaxSessionIDLen is the longest session id accepted, in bytes.
	MaxSessionIDLen = 256
)

// Session is what a store keeps of one session. It is plain data with
// JSON tags, so that a store may keep it anywhere (memory, Redis).
type Session struct {
	// RepairAttempts counts the invalid calls in a row that made each
	// mistake, keyed by the tool, the location and its rule
	// (joined by NUL bytes, see [MistakeKey]): a mistake the next invalid
	// call no longer makes is forgotten, and a valid call of the tool
	// forgets all of the tool's. A count stops one past the limit.
	RepairAttempts map[string]int `json:"repair_attempts,omitempty"`
	// LastCall is the signature of the last call (tool and arguments)
	// that made no progress (it failed, or its result was empty) and
	// SameCall how many times in a row it was made; a call that made
	// progress resets both, so that polling is never a loop.
	LastCall string `json:"last_call,omitempty"`
	SameCall int    `json:"same_call,omitempty"`
	// LastError is the signature of the last failure and SameError how
	// many failures in a row had it.
	LastError string `json:"last_error,omitempty"`
	SameError int    `json:"same_error,omitempty"`
	// Empty counts empty results in a row.
	Empty int `json:"empty,omitempty"`
	// LastResult is the signature of the last result and SameResult how
	// many results in a row had it.
	LastResult string `json:"last_result,omitempty"`
	SameResult int    `json:"same_result,omitempty"`
	// Calls counts the outcomes recorded.
	Calls int `json:"calls"`
	// Escalated is true once a verdict escalated: the next limit crossed
	// stops.
	Escalated bool `json:"escalated,omitempty"`
	// Shown are the tools the model was shown, as the caller last said
	// (Call.ShownTools), or as the escalation widened them; empty when
	// unknown.
	Shown []string `json:"shown,omitempty"`
	// Refused are the calls (tool and arguments) the session refuses: a
	// stop verdict on a call made again and again without progress
	// refuses that call, and only that call. [Toolset.Check] reports a
	// refused call in [CheckResult.Refused], for every replica sharing the
	// store. At most [MaxRefused], the oldest forgotten first.
	Refused []RefusedCall `json:"refused,omitempty"`
}

// RefusedCall is a call a session refuses: its signature (a digest of
// the tool and the normalized arguments) and why.
type RefusedCall struct {
	Call   string `json:"call"`
	Reason string `json:"reason"`
}

// MaxRefused is how many refused calls a session keeps.
const MaxRefused = 32

// refusal returns why the session refuses the call of signature sig, or "".
func (s *Session) refusal(sig string) string {
	for _, r := range s.Refused {
		if r.Call == sig {
			return r.Reason
		}
	}
	return ""
}

// refuse records that the session refuses the call of signature sig.
func (s *Session) refuse(sig, reason string) {
	if s.refusal(sig) != "" {
		return
	}
	if len(s.Refused) >= MaxRefused {
		s.Refused = slices.Delete(s.Refused, 0, len(s.Refused)-MaxRefused+1)
	}
	s.Refused = append(s.Refused, RefusedCall{Call: sig, Reason: reason})
}

// MistakeKey is the key of Session.RepairAttempts that counts one mistake
// of a tool: the tool, the location and its rule, joined by NUL
// bytes. A tool name or a location over 128 bytes (an unknown tool's or
// parameter's name is the caller's) is replaced by its digest, so that a
// session stays small whatever the calls name.
func MistakeKey(tool, location, rule string) string {
	return mistakePrefix(tool) + bounded(location) + "\x00" + rule
}

// mistakePrefix begins the keys of a tool's mistakes.
func mistakePrefix(tool string) string { return bounded(tool) + "\x00" }

// bounded is s, or "#" and its digest when it is over 128 bytes.
func bounded(s string) string {
	if len(s) <= 128 {
		return s
	}
	return "#" + digestBytes([]byte(s))
}

// repairOver returns the largest count of the tool's mistakes.
func (s *Session) repairOver(tool string) int {
	if len(s.RepairAttempts) == 0 {
		return 0
	}
	n := s.RepairAttempts[tool] // a count of an older judge, by tool alone
	prefix := mistakePrefix(tool)
	for k, v := range s.RepairAttempts {
		if v > n && strings.HasPrefix(k, prefix) {
			n = v
		}
	}
	return n
}

// Store keeps sessions. Update must apply fn atomically to the session
// named id, creating an empty one when there is none, and keep what fn left
// unless it returns an error. A store with optimistic concurrency may call
// fn more than once (on a fresh copy each time), so fn only reads and
// changes the session it is given. Implementations are safe for concurrent
// use and reject an id that [CheckSessionID] rejects. The in-memory
// [MemoryStore] is the default; package toolcall/redisstore keeps sessions
// in Redis, shared by several replicas.
type Store interface {
	Update(ctx context.Context, id string, fn func(*Session) error) error
}

// ErrSessionID is wrapped by the error for an empty or over-long session
// id.
var ErrSessionID = errors.New("invalid session id")

// MemoryStore is a Store in memory with a TTL and a size bound. It is safe
// for concurrent use.
type MemoryStore struct {
	ttl time.Duration
	max int
	now func() time.Time

	mu sync.Mutex
	m  map[string]*memEntry
}

type memEntry struct {
	s    Session
	seen time.Time
}

// NewMemoryStore returns a store forgetting sessions idle for ttl
// (DefaultSessionTTL when <= 0) and keeping at most maxSessions
// (DefaultMaxSessions when <= 0).
func NewMemoryStore(ttl time.Duration, maxSessions int) *MemoryStore {
	if ttl <= 0 {
		ttl = DefaultSessionTTL
	}
	if maxSessions <= 0 {
		maxSessions = DefaultMaxSessions
	}
	return &MemoryStore{ttl: ttl, max: maxSessions, now: time.Now, m: map[string]*memEntry{}}
}

// Update implements Store.
func (ms *MemoryStore) Update(ctx context.Context, id string, fn func(*Session) error) error {
	if err := CheckSessionID(id); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ms.mu.Lock()
	defer ms.mu.Unlock()
	now := ms.now()
	e, ok := ms.m[id]
	if ok && now.Sub(e.seen) > ms.ttl {
		delete(ms.m, id)
		ok = false
	}
	var s Session
	if ok {
		s = cloneSession(e.s)
	}
	if err := fn(&s); err != nil {
		return err
	}
	if !ok {
		ms.makeRoom(now)
		e = &memEntry{}
		ms.m[id] = e
	}
	e.s, e.seen = s, now
	return nil
}

// Len returns how many sessions the store holds, expired ones included
// until they are swept.
func (ms *MemoryStore) Len() int {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return len(ms.m)
}

// makeRoom drops expired sessions and, when the store is still full, the
// least recently used one. Called with mu held.
func (ms *MemoryStore) makeRoom(now time.Time) {
	if len(ms.m) < ms.max {
		return
	}
	var oldest string
	var at time.Time
	for id, e := range ms.m {
		if now.Sub(e.seen) > ms.ttl {
			delete(ms.m, id)
			continue
		}
		if oldest == "" || e.seen.Before(at) {
			oldest, at = id, e.seen
		}
	}
	if len(ms.m) >= ms.max && oldest != "" {
		delete(ms.m, oldest)
	}
}

func cloneSession(s Session) Session {
	s.Shown = slices.Clone(s.Shown)
	s.Refused = slices.Clone(s.Refused)
	if len(s.RepairAttempts) == 0 {
		s.RepairAttempts = nil // nothing to copy, and nothing to allocate
	} else {
		m := make(map[string]int, len(s.RepairAttempts))
		for k, v := range s.RepairAttempts {
			m[k] = v
		}
		s.RepairAttempts = m
	}
	return s
}

// CheckSessionID returns an error wrapping ErrSessionID when id is empty or
// longer than MaxSessionIDLen bytes, and nil otherwise. Stores call it
// first in Update.
func CheckSessionID(id string) error {
	if id == "" || len(id) > MaxSessionIDLen {
		return fmt.Errorf("toolcall: session id of %d bytes (1 to %d): %w", len(id), MaxSessionIDLen, ErrSessionID)
	}
	return nil
}

// Limits are how much repetition a session tolerates before the progress
// verdict escalates, then stops. A zero field takes its default.
type Limits struct {
	// SameCall is how many times in a row the same call (tool and
	// arguments) may make no progress (fail, or come back empty); default
	// 3. A call that made progress is never counted: polling is no loop.
	SameCall int `json:"same_call"`
	// SameError is how many failures in a row may have the same error;
	// default 2.
	SameError int `json:"same_error"`
	// Empty is how many empty results in a row are tolerated; default 3.
	Empty int `json:"empty"`
	// SameResult is how many results in a row may be the same; default 3.
	SameResult int `json:"same_result"`
	// RepairAttempts is how many invalid calls in a row may make the same
	// mistake (tool, location, rule); default 3.
	RepairAttempts int `json:"repair_attempts"`
}

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.SameCall, 3)
	def(&l.SameError, 2)
	def(&l.Empty, 3)
	def(&l.SameResult, 3)
	def(&l.RepairAttempts, 3)
	return l
}

// Verdicts of [Progress].
const (
	Continue = "continue"
	Escalate = "escalate"
	Stop     = "stop"
)

// Progress is the verdict on a session after a call: continue, escalate
// (widen the tool set the model sees; given once per session), or stop,
// with the reason and the counters behind it. It is advice: what stops is
// the looping call alone (Refused), never the session.
type Progress struct {
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
	// Limit names the limit crossed: "same_call", "same_error", "empty",
	// "same_result", "repair_attempts".
	Limit string `json:"limit,omitempty"`
	// Calls counts the outcomes recorded in the session.
	Calls int `json:"calls"`
	// Show is, with an escalate verdict, the wider set of tools to show
	// the model from now on: the tools shown plus the registry's next
	// tier, or every tool. It is given once, with the escalation; empty
	// when the model already sees every tool.
	Show []string `json:"show,omitempty"`
	// Refused is true when, with a stop verdict, the session now refuses
	// this very call (tool and arguments), which was made again and again
	// without progress: [Toolset.Check] reports it in CheckResult.Refused,
	// and the gateway answers it without running it. Other calls go on.
	Refused bool `json:"refused,omitempty"`
}

// observation is what one outcome tells the session.
type observation struct {
	call, err, res string // signatures; err empty when the call did not fail
	empty          bool
}

// observe records an outcome in s and returns the verdict. The same
// call counts only while it makes no progress (a failure or an empty
// result): a status polled until it changes is no loop, though an
// unchanged result still earns the same_result advice.
func (l Limits) observe(s *Session, o observation, tool string) Progress {
	s.Calls++
	stuck := o.err != "" || o.empty
	switch {
	case !stuck:
		s.LastCall, s.SameCall = "", 0
	case o.call == s.LastCall:
		s.SameCall++
	default:
		s.LastCall, s.SameCall = o.call, 1
	}
	switch {
	case o.err == "":
		s.LastError, s.SameError = "", 0
	case o.err == s.LastError:
		s.SameError++
	default:
		s.LastError, s.SameError = o.err, 1
	}
	if o.empty {
		s.Empty++
	} else {
		s.Empty = 0
	}
	if o.res == s.LastResult {
		s.SameResult++
	} else {
		s.LastResult, s.SameResult = o.res, 1
	}
	var limit, reason string
	switch {
	case s.SameError > l.SameError:
		limit, reason = "same_error", fmt.Sprintf("the same error came back %d times in a row", s.SameError)
	case s.SameCall > l.SameCall:
		limit, reason = "same_call", fmt.Sprintf("the same call of '%s' made no progress %d times in a row", tool, s.SameCall)
	case s.Empty > l.Empty:
		limit, reason = "empty", fmt.Sprintf("%d empty results in a row", s.Empty)
	case s.SameResult > l.SameResult:
		limit, reason = "same_result", fmt.Sprintf("the same result came back %d times in a row", s.SameResult)
	default:
		if n := s.repairOver(tool); n > l.RepairAttempts {
			limit, reason = "repair_attempts", fmt.Sprintf("%d invalid calls of '%s' in a row made the same mistake", l.RepairAttempts, tool)
		}
	}
	p := l.verdict(s, limit, reason)
	if p.Verdict == Stop && stuck && s.SameCall > 1 {
		// Only the call that loops is refused: the same tool with the
		// same arguments, made again without progress after the
		// escalation.
		p.Refused = true
		s.refuse(o.call, fmt.Sprintf("the same call of '%s' (the same arguments) made no progress %d times in a row: %s", result.Clip(tool, 80), s.SameCall, strings.TrimPrefix(p.Reason, "no progress: ")))
	}
	return p
}

// verdict turns a crossed limit into continue, escalate (once) or stop.
func (l Limits) verdict(s *Session, limit, reason string) Progress {
	p := Progress{Verdict: Continue, Calls: s.Calls}
	if limit == "" {
		return p
	}
	p.Limit = limit
	if !s.Escalated {
		s.Escalated = true
		p.Verdict, p.Reason = Escalate, "no progress: "+reason+"; widen the tools the model sees"
		return p
	}
	p.Verdict, p.Reason = Stop, "no progress: "+reason+", after the tool set was already widened"
	return p
}

// signature is a short digest of a JSON value, for comparing calls and
// results across a session without keeping them.
func signature(parts ...any) string {
	b := make([]byte, 0, 256)
	for _, p := range parts {
		b = appendSignature(append(b, '|'), p)
	}
	return digestBytes(b)
}

// appendSignature appends an unambiguous encoding of v, a decoded JSON
// value: every value tagged with its kind, strings quoted, object keys
// sorted, so that equal values (whatever their keys' order) encode alike
// and different ones do not. It is for digests only, and faster than
// encoding/json, which reflects over every map.
func appendSignature(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, 'n')
	case bool:
		if v {
			return append(b, 't')
		}
		return append(b, 'f')
	case string:
		return strconv.AppendQuote(append(b, 's'), v)
	case json.Number:
		return append(append(b, 'd'), v...)
	case float64:
		return strconv.AppendFloat(append(b, 'd'), v, 'g', -1, 64)
	case map[string]any:
		b = append(b, '{')
		var small [16]string // the keys of most objects, without allocating
		for _, k := range jsonvalue.SortedKeys(small[:0], v) {
			b = appendSignature(strconv.AppendQuote(b, k), v[k])
			b = append(b, ',')
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for _, e := range v {
			b = append(appendSignature(b, e), ',')
		}
		return append(b, ']')
	}
	j, err := json.Marshal(v)
	if err != nil {
		return fmt.Appendf(append(b, 'x'), "%v", v)
	}
	return append(append(b, 'j'), j...)
}
