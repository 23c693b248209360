// Command schemagc measures what the Go collector costs the small schema
// row (issue 27, decision 111): one engine, the 234 tool-argument
// documents of the shared corpus (117 github-mcp-server input schemas, a
// valid and an invalid document each) through Engine.Validate, round after
// round, as `go run ./bench/run -row schema` runs them.
//
// It prints the live heap once every schema is compiled (HeapInuse and the
// collector's scannable heap, /gc/scan/heap:bytes, after a forced cycle),
// then for the rounds: the bytes the collector scanned per document (each
// cycle's /gc/scan/total:bytes: a count the machine's load leaves alone),
// collector CPU per document (/cpu/classes/gc/total:cpu-seconds), cycles,
// bytes and objects
// allocated per document, and the process's CPU per document.
//
//	go run ./bench/schemagc [-rounds 2000] [-repeat 3] [-heapprofile FILE] [-ballast MB]
//
// Run it from the repository root, with ../shared beside it. -repeat runs
// the rounds several times in one process and prints each, so that the
// spread shows; -heapprofile writes the live heap after the warm-up at
// runtime.MemProfileRate 64 (go tool pprof -sample_index=inuse_space);
// -ballast keeps pointer-free bytes alive beside the engine, which the
// collector counts in the live heap that sets its next goal but does not
// scan (decision 111 checks its model of the cost by it).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/bench/internal/corpus"
)

func main() {
	rounds := flag.Int("rounds", 2000, "rounds of the 234 documents per measure")
	repeat := flag.Int("repeat", 3, "measures, one after another in this process")
	heapProfile := flag.String("heapprofile", "", "write the live heap after the warm-up to this file")
	ballast := flag.Int("ballast", 0, "keep this many MB of pointer-free bytes alive through the rounds (a model's check only: the collector's cost against the live heap's pointer density)")
	flag.Parse()
	keep := make([]byte, *ballast<<20)
	defer runtime.KeepAlive(keep)
	if *heapProfile != "" {
		runtime.MemProfileRate = 64
	}
	if err := run(context.Background(), *rounds, *repeat, *heapProfile); err != nil {
		fmt.Fprintln(os.Stderr, "schemagc:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, rounds, repeat int, heapProfile string) error {
	c, err := corpus.Load(corpus.DefaultPath)
	if err != nil {
		return err
	}
	var reqs []*judge.Request
	var want []bool
	for _, tc := range c.Cases {
		reqs = append(reqs,
			&judge.Request{Output: json.RawMessage(tc.Valid), ExpectedSchema: tc.Schema},
			&judge.Request{Output: json.RawMessage(tc.Invalid), ExpectedSchema: tc.Schema})
		want = append(want, true, false)
	}
	eng, err := judge.New()
	if err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	defer func() { _ = eng.Close(ctx) }()
	round := func() error {
		for i, r := range reqs {
			res, err := eng.Validate(ctx, r)
			if err != nil {
				return fmt.Errorf("document %d: %w", i, err)
			}
			if res.Valid != want[i] {
				return fmt.Errorf("document %d: valid = %v, want %v", i, res.Valid, want[i])
			}
		}
		return nil
	}
	for range 3 { // compile every schema; fill the fast path's kept texts
		if err := round(); err != nil {
			return err
		}
	}
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("after the warm-up: HeapInuse %.2f MB, HeapAlloc %.2f MB, heap objects %d, scannable heap %.2f MB, globals %.2f MB\n",
		mb(float64(ms.HeapInuse)), mb(float64(ms.HeapAlloc)), ms.HeapObjects, mb(read("/gc/scan/heap:bytes")), mb(read("/gc/scan/globals:bytes")))
	if heapProfile != "" {
		f, err := os.Create(heapProfile)
		if err != nil {
			return err
		}
		if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	docs := float64(rounds * len(reqs))
	for range repeat {
		runtime.GC()
		gc0, alloc0, objs0 := read("/cpu/classes/gc/total:cpu-seconds"), read("/gc/heap/allocs:bytes"), read("/gc/heap/allocs:objects")
		runtime.ReadMemStats(&ms)
		cyc0 := ms.NumGC
		cpu0, t0 := cpuTime(), time.Now()
		// The bytes the collector scanned: each cycle's scannable heap,
		// stacks and globals (runtime/metrics gives the last cycle's), read
		// after every round. A count the machine's load does not change.
		var scanned float64
		cycles := read("/gc/cycles/total:gc-cycles")
		for range rounds {
			if err := round(); err != nil {
				return err
			}
			if c := read("/gc/cycles/total:gc-cycles"); c != cycles {
				scanned += (c - cycles) * read("/gc/scan/total:bytes")
				cycles = c
			}
		}
		wall, cpu := time.Since(t0), cpuTime()-cpu0
		runtime.ReadMemStats(&ms)
		gc := read("/cpu/classes/gc/total:cpu-seconds") - gc0
		fmt.Printf("%d docs: scanned %.0f B/doc, GC CPU %.0f ns/doc, %d cycles, %.0f B and %.2f objects allocated/doc, process CPU %.0f ns/doc, wall %.0f ns/doc, live heap at the last cycle %.2f MB\n",
			int(docs), scanned/docs, gc*1e9/docs, ms.NumGC-cyc0, (read("/gc/heap/allocs:bytes")-alloc0)/docs,
			(read("/gc/heap/allocs:objects")-objs0)/docs, float64(cpu.Nanoseconds())/docs,
			float64(wall.Nanoseconds())/docs, mb(read("/gc/heap/live:bytes")))
	}
	return nil
}

// read returns one runtime metric as a float64.
func read(name string) float64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	switch s[0].Value.Kind() {
	case metrics.KindUint64:
		return float64(s[0].Value.Uint64())
	case metrics.KindFloat64:
		return s[0].Value.Float64()
	}
	return 0
}

// cpuTime is the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func mb(b float64) float64 { return b / 1e6 }
