// Package history keeps what a judge server has seen over the last six
// hours, minute by minute, in a fixed ring of buckets: validations and
// their valid share, a histogram of their durations, issues by type, layer
// and severity, layer runs and their time, tool calls checked and their
// outcomes, by tool. Its memory is fixed when it is made ([Bytes]) and
// does not grow with traffic, time or the names requests use: tool and
// layer names past their limits count as "other", unknown issue types as
// "other". The dashboard of judge serve reads it as JSON (GET
// /v1/dashboard, [History.Snapshot]).
package history

import (
	"math"
	"sort"
	"sync"
	"time"
	"unsafe"

	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/server/api"
	"github.com/agentjudge/judge/toolcall"
)

// Bounds of the history.
const (
	// Window is how many minutes the history keeps: 6 hours.
	Window = 360
	// ToolLimit is how many tool names are told apart; further tools
	// count as "other".
	ToolLimit = 50
	// LayerLimit is how many layer names are told apart.
	LayerLimit = 16
	// typeLimit is how many issue types are told apart (result.Types has
	// fewer); an unknown type counts as "other".
	typeLimit = 48
	// latencyBuckets is the number of buckets of the latency histogram:
	// bucket i holds durations up to latencyBound(i), each √2 times the
	// one before from 0.1 ms (the last, 2^19.5 × 0.1 ms ≈ 74 s, holds
	// everything longer too).
	latencyBuckets = 40
	// latencyBase is the upper bound of the first latency bucket, in ms.
	latencyBase = 0.1
)

// statusCount is the number of outcome statuses told apart.
const statusCount = 4

// statuses are the outcome statuses told apart, in their index order;
// index statusCount is any other.
func statuses() [statusCount]toolcall.Status {
	return [statusCount]toolcall.Status{toolcall.Satisfied, toolcall.NeedsMoreTools, toolcall.NeedUserInput, toolcall.Failed}
}

// severities counts by severity: error, warning, info.
type severities [3]uint32

func (s *severities) add(sev result.Severity) {
	switch sev {
	case result.Error:
		s[0]++
	case result.Warning:
		s[1]++
	default:
		s[2]++
	}
}

func (s severities) api() api.Severities {
	return api.Severities{Error: int(s[0]), Warning: int(s[1]), Info: int(s[2])}
}

// layerBucket is one layer's minute.
type layerBucket struct {
	runs, failed uint32
	nanos        uint64
	issues       severities
}

// toolBucket is one tool's minute.
type toolBucket struct{ calls, failures uint32 }

// bucket is one minute of the history; minute is the Unix minute it holds
// (a bucket holding an older minute is cleared before it is reused).
type bucket struct {
	minute              int64
	validations, valid  uint32
	checks, invalid     uint32
	latency             [latencyBuckets]uint32
	issues              [typeLimit + 1]severities
	layers              [LayerLimit + 1]layerBucket
	outcomes            [statusCount + 1]uint32
	tools               [ToolLimit + 1]toolBucket
	anyCall, anyOutcome bool
}

// History is the ring of the last Window minutes. It is safe for
// concurrent use. Make one with [New].
type History struct {
	now func() time.Time
	// types is the index of each registered issue type; never changed
	// after New.
	types map[result.Type]int
	// Tools and Layers are the names told apart; the server's metrics
	// use the same Tools, so that both group the same tools as "other".
	Tools, Layers *Names

	mu sync.Mutex
	// last is the latest minute counted: an event whose clock reads
	// earlier (the clock stepped back) counts in it.
	last int64
	ring [Window]bucket
}

// New returns an empty History reading the time from now (nil:
// time.Now).
func New(now func() time.Time) *History {
	if now == nil {
		now = time.Now
	}
	h := &History{now: now, types: map[result.Type]int{}, Tools: NewNames(ToolLimit), Layers: NewNames(LayerLimit)}
	for i, ti := range result.Types() {
		if i < typeLimit {
			h.types[ti.Type] = i
		}
	}
	for i := range h.ring {
		h.ring[i].minute = math.MinInt64
	}
	return h
}

// Bytes is the memory the history's ring takes, fixed: the bound of its
// memory but for the names it tells apart (at most ToolLimit tool and
// LayerLimit layer names).
func Bytes() int { return int(unsafe.Sizeof(History{})) }

// minuteOf is the Unix minute of t.
func minuteOf(t time.Time) int64 {
	s := t.Unix()
	if s < 0 && s%60 != 0 {
		return s/60 - 1
	}
	return s / 60
}

// bucket returns the bucket of the current minute, cleared if it held an
// older one. h.mu must be held.
func (h *History) bucket() *bucket {
	m := minuteOf(h.now())
	if m < h.last {
		m = h.last
	}
	h.last = m
	b := &h.ring[((m%Window)+Window)%Window]
	if b.minute != m {
		*b = bucket{minute: m}
	}
	return b
}

// typeIndex is the index of t, typeLimit for a type not registered.
func (h *History) typeIndex(t result.Type) int {
	if i, ok := h.types[t]; ok {
		return i
	}
	return typeLimit
}

// latencyIndex is the latency bucket of d.
func latencyIndex(d time.Duration) int {
	ms := float64(d) / float64(time.Millisecond)
	if ms <= latencyBase {
		return 0
	}
	i := int(math.Ceil(2 * math.Log2(ms/latencyBase)))
	return min(max(i, 0), latencyBuckets-1)
}

// latencyBound is the upper bound of latency bucket i, in ms.
func latencyBound(i int) float64 { return latencyBase * math.Pow(2, float64(i)/2) }

// Validation counts one validation's result and its duration.
func (h *History) Validation(r *result.ValidationResult, d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.bucket()
	b.validations++
	if r.Valid {
		b.valid++
	}
	b.latency[latencyIndex(d)]++
	h.countIssues(b, r.Issues)
}

// Issues counts issues of a result that is no validation (a
// conversation's).
func (h *History) Issues(issues []result.Issue) {
	if len(issues) == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.countIssues(h.bucket(), issues)
}

func (h *History) countIssues(b *bucket, issues []result.Issue) {
	for i := range issues {
		b.issues[h.typeIndex(issues[i].Type)].add(issues[i].Severity)
	}
}

// Layer counts one layer run: its layer, how long it took, whether it
// failed and the issues it reported.
func (h *History) Layer(name string, d time.Duration, failed bool, issues []result.Issue) {
	i := h.Layers.Index(name)
	h.mu.Lock()
	defer h.mu.Unlock()
	l := &h.bucket().layers[i]
	l.runs++
	if failed {
		l.failed++
	}
	l.nanos += uint64(max(d, 0))
	for k := range issues {
		l.issues.add(issues[k].Severity)
	}
}

// Check counts one call checked before execution, valid or not, and the
// issues of its result.
func (h *History) Check(tool string, valid bool, issues []result.Issue) {
	i := h.Tools.Index(tool)
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.bucket()
	b.anyCall = true
	b.checks++
	b.tools[i].calls++
	if !valid {
		b.invalid++
		b.tools[i].failures++
	}
	h.countIssues(b, issues)
}

// Outcome counts one call's outcome, classified after execution, and the
// issues of its result.
func (h *History) Outcome(tool string, status toolcall.Status, issues []result.Issue) {
	i := h.Tools.Index(tool)
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.bucket()
	b.anyCall, b.anyOutcome = true, true
	s := statusCount
	for k, st := range statuses() {
		if st == status {
			s = k
		}
	}
	b.outcomes[s]++
	b.tools[i].calls++
	if status == toolcall.Failed {
		b.tools[i].failures++
	}
	h.countIssues(b, issues)
}

// Snapshot returns the window as it stands: every minute that counted
// something, and the totals.
func (h *History) Snapshot() api.Dashboard {
	h.mu.Lock()
	now := h.now()
	m := max(minuteOf(now), h.last)
	var ring []bucket
	for k := m - Window + 1; k <= m; k++ {
		b := &h.ring[((k%Window)+Window)%Window]
		if b.minute == k {
			ring = append(ring, *b)
		}
	}
	h.mu.Unlock()

	d := api.Dashboard{Now: now.UTC(), Start: time.Unix((m-Window+1)*60, 0).UTC(), Window: Window, ToolLimit: ToolLimit, Minutes: []api.Minute{}}
	var total bucket
	for i := range ring {
		b := &ring[i]
		c := h.counts(b)
		if c.Validations == 0 && c.Issues == nil && c.Layers == nil && c.Calls == nil {
			continue
		}
		d.Minutes = append(d.Minutes, api.Minute{Start: time.Unix(b.minute*60, 0).UTC(), Counts: c})
		total.add(b)
	}
	d.Totals = h.counts(&total)
	return d
}

// add adds the counts of o to b.
func (b *bucket) add(o *bucket) {
	b.validations += o.validations
	b.valid += o.valid
	b.checks += o.checks
	b.invalid += o.invalid
	b.anyCall = b.anyCall || o.anyCall
	b.anyOutcome = b.anyOutcome || o.anyOutcome
	for i := range b.latency {
		b.latency[i] += o.latency[i]
	}
	for i := range b.issues {
		for k := range b.issues[i] {
			b.issues[i][k] += o.issues[i][k]
		}
	}
	for i := range b.layers {
		l, ol := &b.layers[i], &o.layers[i]
		l.runs += ol.runs
		l.failed += ol.failed
		l.nanos += ol.nanos
		for k := range l.issues {
			l.issues[k] += ol.issues[k]
		}
	}
	for i := range b.outcomes {
		b.outcomes[i] += o.outcomes[i]
	}
	for i := range b.tools {
		b.tools[i].calls += o.tools[i].calls
		b.tools[i].failures += o.tools[i].failures
	}
}

// counts turns a bucket into its API form.
func (h *History) counts(b *bucket) api.Counts {
	c := api.Counts{Validations: int(b.validations), Valid: int(b.valid)}
	if b.validations > 0 {
		share := float64(b.valid) / float64(b.validations)
		c.ValidShare = &share
		c.LatencyMS = &api.Percentiles{P50: percentile(&b.latency, 0.50), P95: percentile(&b.latency, 0.95), P99: percentile(&b.latency, 0.99)}
	}
	types := result.Types()
	for i, s := range b.issues {
		if s == (severities{}) {
			continue
		}
		name := Other
		if i < len(types) && i < typeLimit {
			name = string(types[i].Type)
		}
		if c.Issues == nil {
			c.Issues = map[string]api.Severities{}
		}
		c.Issues[name] = s.api()
	}
	for i, l := range b.layers {
		if l.runs == 0 {
			continue
		}
		if c.Layers == nil {
			c.Layers = map[string]api.LayerCounts{}
		}
		c.Layers[h.Layers.Name(i)] = api.LayerCounts{Runs: int(l.runs), Failed: int(l.failed),
			MeanMS: float64(l.nanos) / float64(l.runs) / float64(time.Millisecond), Severities: l.issues.api()}
	}
	if b.anyCall {
		cc := &api.CallCounts{Checks: int(b.checks), Invalid: int(b.invalid)}
		for i, st := range statuses() {
			if n := b.outcomes[i]; n > 0 {
				if cc.Outcomes == nil {
					cc.Outcomes = map[string]int{}
				}
				cc.Outcomes[string(st)] = int(n)
			}
		}
		if n := b.outcomes[statusCount]; n > 0 {
			if cc.Outcomes == nil {
				cc.Outcomes = map[string]int{}
			}
			cc.Outcomes[Other] = int(n)
		}
		for i, t := range b.tools {
			if t.calls > 0 {
				cc.Tools = append(cc.Tools, api.ToolCounts{Tool: h.Tools.Name(i), Calls: int(t.calls), Failures: int(t.failures)})
			}
		}
		sort.SliceStable(cc.Tools, func(i, j int) bool {
			a, b := cc.Tools[i], cc.Tools[j]
			if a.Failures != b.Failures {
				return a.Failures > b.Failures
			}
			if a.Calls != b.Calls {
				return a.Calls > b.Calls
			}
			return a.Tool < b.Tool
		})
		c.Calls = cc
	}
	return c
}

// percentile is the q-quantile of the histogram h, in ms: the bound
// below which a share q of the counts falls, interpolated linearly within
// its bucket.
func percentile(h *[latencyBuckets]uint32, q float64) float64 {
	var n uint64
	for _, c := range h {
		n += uint64(c)
	}
	if n == 0 {
		return 0
	}
	rank := q * float64(n)
	var seen float64
	for i, c := range h {
		if c == 0 {
			continue
		}
		if seen+float64(c) >= rank {
			lo := 0.0
			if i > 0 {
				lo = latencyBound(i - 1)
			}
			hi := latencyBound(i)
			v := lo + (hi-lo)*(rank-seen)/float64(c)
			return math.Round(v*1000) / 1000
		}
		seen += float64(c)
	}
	return latencyBound(latencyBuckets - 1)
}
