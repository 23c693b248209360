// Command soak runs a bounded mixed load against `judge serve`, started as
// a separate process on loopback, and reports what it saw: requests and
// their status counts, answers that failed open, wrong verdicts, latency
// quantiles, and the server's goroutines and memory at the start, at the
// peak, at the end of the load and after it sat idle.
//
// The mix, round-robin on every connection: /validate with a valid and
// with an invalid argument document of github-mcp-server's tools (the
// shared benchmark corpus), /validate with a schema made unique by a
// $comment (so no compiled-schema cache helps), /validate of a tool output
// with CEL acceptance criteria, a malformed /validate body (400 expected),
// /v1/calls/check with a valid and an invalid call (the tool's definition
// inline), and /v1/tools/lint of a server and a tool with a unique id.
//
// A fail-open is a 200 whose result is valid although one of its layers
// could not start or did not finish (an engine.layer_failed issue), or
// whose confidence is 0. Soak exits 1 when there was any 5xx, fail-open,
// wrong verdict, unexpected status or request without an answer.
//
// Run from the repository root:
//
//	go run ./bench/soak -duration 3m -conns 16
//	go run ./bench/soak -duration 30s -conns 64 -serve-arg=--max-in-flight=4
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentjudge/judge/bench/internal/corpus"
	"github.com/agentjudge/judge/bench/internal/load"
	"github.com/agentjudge/judge/bench/internal/serverproc"
)

// multiFlag collects a repeatable flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, " ") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func main() {
	duration := flag.Duration("duration", 3*time.Minute, "how long to send load")
	conns := flag.Int("conns", 16, "concurrent connections")
	maxRequests := flag.Int("max-requests", 0, "stop after this many requests (0: only -duration bounds the run)")
	idle := flag.Duration("idle", 10*time.Second, "how long the server sits idle after the load before the last memory reading")
	judgeBin := flag.String("judge", "", "a judge binary to serve (default: build ./cmd/judge)")
	corpusPath := flag.String("corpus", corpus.DefaultPath, "the shared benchmark corpus")
	jsonOut := flag.String("json", "", "also write the report as JSON to this file")
	var serveArgs multiFlag
	flag.Var(&serveArgs, "serve-arg", "an extra argument for judge serve (repeatable)")
	flag.Parse()
	if *duration <= 0 || *duration > time.Hour {
		log.Fatal("soak: -duration must be between 0 and 1h")
	}
	ctx := context.Background()
	rep, err := soak(ctx, config{duration: *duration, conns: *conns, maxRequests: *maxRequests, idle: *idle,
		judge: *judgeBin, corpus: *corpusPath, serveArgs: serveArgs})
	if err != nil {
		log.Fatal(err)
	}
	rep.print(os.Stdout)
	if *jsonOut != "" {
		data, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(*jsonOut, data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	if !rep.ok() {
		os.Exit(1)
	}
}

type config struct {
	duration    time.Duration
	conns       int
	maxRequests int
	idle        time.Duration
	judge       string
	corpus      string
	serveArgs   []string
}

// sample is one reading of the server's state.
type sample struct {
	Goroutines int   `json:"goroutines"` // go_goroutines from /metrics
	Threads    int   `json:"threads"`    // Threads of /proc/PID/status
	RSS        int64 `json:"rss_bytes"`  // VmRSS
	HeapLive   int64 `json:"heap_bytes"` // go_memstats_heap_alloc_bytes from /metrics
}

// report is what soak prints.
type report struct {
	Duration time.Duration `json:"duration_ns"`
	Conns    int           `json:"conns"`
	Load     *load.Report  `json:"load"`
	Start    sample        `json:"start"`
	Peak     sample        `json:"peak"` // the largest of each field over the run, read once a second
	PeakRSS  int64         `json:"peak_rss_bytes"`
	End      sample        `json:"end"`
	After    sample        `json:"after"`
	Idle     time.Duration `json:"idle_ns"`
}

func (r *report) ok() bool {
	return r.Load.Count5xx() == 0 && r.Load.Errors == 0 && r.Load.Classes["fail-open"] == 0 &&
		r.Load.Classes["wrong-verdict"] == 0 && r.Load.Classes["unexpected-status"] == 0
}

func soak(ctx context.Context, cfg config) (*report, error) {
	c, err := corpus.Load(cfg.corpus)
	if err != nil {
		return nil, err
	}
	bin := cfg.judge
	if bin == "" {
		dir, err := os.MkdirTemp("", "bench-soak")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		if bin, err = serverproc.Build(ctx, dir, "./cmd/judge"); err != nil {
			return nil, err
		}
	}
	proc, err := serverproc.StartJudge(ctx, bin, cfg.serveArgs...)
	if err != nil {
		return nil, err
	}
	defer proc.Stop()
	read := func() sample { return readSample(proc) }

	rep := &report{Duration: cfg.duration, Conns: cfg.conns, Start: read(), Idle: cfg.idle}
	rep.Peak = rep.Start
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				rep.Peak = peak(rep.Peak, read())
			}
		}
	})
	mix := newMix(c)
	rep.Load, err = load.Run(ctx, load.Options{URL: proc.URL, Conns: cfg.conns, Duration: cfg.duration, MaxRequests: cfg.maxRequests, Next: mix.next})
	close(stop)
	sampler.Wait()
	if err != nil {
		return nil, err
	}
	rep.End = read()
	rep.Peak = peak(rep.Peak, rep.End)
	// The idle wait is part of what is measured (memory given back after
	// the load), not a stand-in for synchronisation.
	time.Sleep(cfg.idle)
	rep.After = read()
	if st, err := proc.ReadStatus(); err == nil {
		rep.PeakRSS = st.PeakRSS
	}
	return rep, nil
}

func peak(a, b sample) sample {
	return sample{Goroutines: max(a.Goroutines, b.Goroutines), Threads: max(a.Threads, b.Threads),
		RSS: max(a.RSS, b.RSS), HeapLive: max(a.HeapLive, b.HeapLive)}
}

// readSample reads /metrics and /proc; a field it cannot read stays 0.
func readSample(p *serverproc.Proc) sample {
	var s sample
	if st, err := p.ReadStatus(); err == nil {
		s.Threads, s.RSS = st.Threads, st.RSS
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(p.URL + "/metrics")
	if err != nil {
		return s
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for line := range strings.SplitSeq(string(body), "\n") {
		name, val, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil {
			continue
		}
		switch name {
		case "go_goroutines":
			s.Goroutines = int(f)
		case "go_memstats_heap_alloc_bytes":
			s.HeapLive = int64(f)
		}
	}
	return s
}

func (r *report) print(w io.Writer) {
	l := r.Load
	fmt.Fprintf(w, "soak: %v at %d connections against judge serve on loopback (a separate process)\n", r.Duration, r.Conns)
	fmt.Fprintf(w, "requests: %d (%.0f/s); by kind: %s\n", l.Requests, l.PerSecond, kinds(l.Kinds))
	fmt.Fprintf(w, "status: %s\n", l.StatusLine())
	fmt.Fprintf(w, "5xx: %d   fail-open: %d   wrong verdict: %d   unexpected status: %d   no answer: %d\n",
		l.Count5xx(), l.Classes["fail-open"], l.Classes["wrong-verdict"], l.Classes["unexpected-status"], l.Errors)
	fmt.Fprintf(w, "latency: p50 %v   p99 %v   max %v\n", l.P50.Round(time.Microsecond), l.P99.Round(time.Microsecond), l.Max.Round(time.Microsecond))
	fmt.Fprintf(w, "%-26s %10s %10s %10s %10s\n", "server", "start", "peak", "end", "after "+r.Idle.String())
	fmt.Fprintf(w, "%-26s %10d %10d %10d %10d\n", "goroutines (/metrics)", r.Start.Goroutines, r.Peak.Goroutines, r.End.Goroutines, r.After.Goroutines)
	fmt.Fprintf(w, "%-26s %10d %10d %10d %10d\n", "threads (/proc status)", r.Start.Threads, r.Peak.Threads, r.End.Threads, r.After.Threads)
	fmt.Fprintf(w, "%-26s %10s %10s %10s %10s\n", "RSS (/proc VmRSS)", mb(r.Start.RSS), mb(r.Peak.RSS), mb(r.End.RSS), mb(r.After.RSS))
	fmt.Fprintf(w, "%-26s %10s %10s %10s %10s\n", "Go heap in use (/metrics)", mb(r.Start.HeapLive), mb(r.Peak.HeapLive), mb(r.End.HeapLive), mb(r.After.HeapLive))
	fmt.Fprintf(w, "peak RSS over the whole run (VmHWM): %s\n", mb(r.PeakRSS))
	for class, s := range l.Samples {
		for _, x := range s {
			fmt.Fprintf(w, "  %s: %s\n", class, x)
		}
	}
	if r.ok() {
		fmt.Fprintln(w, "goal met: zero 5xx, zero fail-open, every verdict as expected")
	} else {
		fmt.Fprintln(w, "goal NOT met")
	}
}

func kinds(m map[string]int) string {
	var parts []string
	for _, k := range kindNames {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
		}
	}
	return strings.Join(parts, ", ")
}

func mb(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }
