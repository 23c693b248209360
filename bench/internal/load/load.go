// Package load sends a bounded HTTP load from a fixed number of
// connections and measures it: requests, status counts, the classes a
// caller's check gives answers, and latency quantiles.
package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agentjudge/judge/result"
)

// Request is one request to send. Check, when set, reads the answer and
// returns a class to count ("" counts nothing), such as "fail-open".
type Request struct {
	Method string // default POST
	Path   string
	Body   []byte
	Kind   string // counted in Report.Kinds; "" is "request"
	Check  func(status int, body []byte) string
}

// Options bound a run. The run stops at Duration or after MaxRequests,
// whichever comes first; at least one of them must be set.
type Options struct {
	URL         string        // base URL, e.g. http://127.0.0.1:8080
	Conns       int           // concurrent connections (default 1)
	Duration    time.Duration // how long to send
	MaxRequests int           // at most this many requests in all (0: no bound)
	// Next returns the i-th request of connection conn. It is called from
	// conn's goroutine only.
	Next func(conn, i int) Request
}

// Report is what a run measured. Latencies are from writing the request to
// reading the whole answer.
type Report struct {
	Requests  int            `json:"requests"`
	Errors    int            `json:"transport_errors"` // requests with no answer
	Status    map[int]int    `json:"status"`
	Classes   map[string]int `json:"classes,omitempty"`
	Kinds     map[string]int `json:"kinds"`
	Elapsed   time.Duration  `json:"elapsed_ns"`
	PerSecond float64        `json:"requests_per_s"`
	P50       time.Duration  `json:"p50_ns"`
	P99       time.Duration  `json:"p99_ns"`
	Max       time.Duration  `json:"max_ns"`
	// Samples holds up to 5 examples per class and per transport error.
	Samples map[string][]string `json:"samples,omitempty"`
}

// worker is one connection's tally, merged at the end.
type worker struct {
	lat     []time.Duration
	status  map[int]int
	classes map[string]int
	kinds   map[string]int
	errors  int
	samples map[string][]string
}

// Run sends the load and returns its report. It returns an error only
// when the options are unusable; failed requests are counted.
func Run(ctx context.Context, opts Options) (*Report, error) {
	if opts.Conns <= 0 {
		opts.Conns = 1
	}
	if opts.Duration <= 0 && opts.MaxRequests <= 0 {
		return nil, errors.New("load: set Duration or MaxRequests")
	}
	if opts.Next == nil || opts.URL == "" {
		return nil, errors.New("load: URL and Next are required")
	}
	if opts.Duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Duration)
		defer cancel()
	}
	tr := &http.Transport{MaxIdleConnsPerHost: opts.Conns, MaxConnsPerHost: opts.Conns, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 60 * time.Second}

	var mu sync.Mutex
	sent := 0
	take := func() bool { // one more request within MaxRequests?
		if opts.MaxRequests <= 0 {
			return true
		}
		mu.Lock()
		defer mu.Unlock()
		if sent >= opts.MaxRequests {
			return false
		}
		sent++
		return true
	}
	workers := make([]*worker, opts.Conns)
	var wg sync.WaitGroup
	start := time.Now()
	for c := range opts.Conns {
		w := &worker{status: map[int]int{}, classes: map[string]int{}, kinds: map[string]int{}, samples: map[string][]string{}}
		workers[c] = w
		wg.Go(func() {
			for i := 0; ctx.Err() == nil && take(); i++ {
				w.do(ctx, client, opts.URL, opts.Next(c, i))
			}
		})
	}
	wg.Wait()
	rep := merge(workers, time.Since(start))
	return rep, nil
}

// do sends r and records its answer. A request cut by the end of the run
// is not counted.
func (w *worker) do(ctx context.Context, client *http.Client, base string, r Request) {
	method := r.Method
	if method == "" {
		method = http.MethodPost
	}
	req, err := http.NewRequestWithContext(ctx, method, base+r.Path, bytes.NewReader(r.Body))
	if err != nil {
		w.errors++
		w.sample("transport", err.Error())
		return
	}
	req.Header.Set("Content-Type", "application/json")
	t0 := time.Now()
	resp, err := client.Do(req)
	var body []byte
	if err == nil {
		body, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	d := time.Since(t0)
	if err != nil {
		if ctx.Err() != nil {
			return // the run ended during this request
		}
		w.errors++
		w.sample("transport", err.Error())
		return
	}
	kind := r.Kind
	if kind == "" {
		kind = "request"
	}
	w.kinds[kind]++
	w.lat = append(w.lat, d)
	w.status[resp.StatusCode]++
	if r.Check != nil {
		if c := r.Check(resp.StatusCode, body); c != "" {
			w.classes[c]++
			w.sample(c, fmt.Sprintf("%s %s -> %d %s", kind, r.Path, resp.StatusCode, result.ClipText(string(body), 301)))
		}
	}
}

func (w *worker) sample(class, s string) {
	if len(w.samples[class]) < 5 {
		w.samples[class] = append(w.samples[class], s)
	}
}

func merge(ws []*worker, elapsed time.Duration) *Report {
	rep := &Report{Status: map[int]int{}, Classes: map[string]int{}, Kinds: map[string]int{}, Samples: map[string][]string{}, Elapsed: elapsed}
	var lat []time.Duration
	for _, w := range ws {
		lat = append(lat, w.lat...)
		rep.Errors += w.errors
		for k, v := range w.status {
			rep.Status[k] += v
		}
		for k, v := range w.classes {
			rep.Classes[k] += v
		}
		for k, v := range w.kinds {
			rep.Kinds[k] += v
		}
		for k, v := range w.samples {
			if room := 5 - len(rep.Samples[k]); room > 0 {
				rep.Samples[k] = append(rep.Samples[k], v[:min(room, len(v))]...)
			}
		}
	}
	rep.Requests = len(lat)
	if elapsed > 0 {
		rep.PerSecond = float64(len(lat)) / elapsed.Seconds()
	}
	slices.Sort(lat)
	rep.P50, rep.P99 = Quantile(lat, 0.50), Quantile(lat, 0.99)
	if len(lat) > 0 {
		rep.Max = lat[len(lat)-1]
	}
	return rep
}

// Quantile returns the q-quantile (0 < q <= 1) of sorted durations, the
// nearest rank; 0 for none.
func Quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.999999) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// StatusLine renders status counts in ascending order: "200: 1234, 400: 12".
func (r *Report) StatusLine() string {
	codes := make([]int, 0, len(r.Status))
	for c := range r.Status {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	var parts []string
	for _, c := range codes {
		parts = append(parts, fmt.Sprintf("%d: %d", c, r.Status[c]))
	}
	if r.Errors > 0 {
		parts = append(parts, fmt.Sprintf("no answer: %d", r.Errors))
	}
	return strings.Join(parts, ", ")
}

// Count5xx returns the number of answers with a 5xx status.
func (r *Report) Count5xx() int {
	n := 0
	for c, v := range r.Status {
		if c >= 500 {
			n += v
		}
	}
	return n
}
