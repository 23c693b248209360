//go:build cgo

package code

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's CPU time, user and system, all threads.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loopCPU runs op in b.Loop and reports the process's CPU time per op
// beside the wall time: on a shared machine, waiting for a processor
// counts in the one and not the other.
func loopCPU(b *testing.B, op func()) {
	b.ReportAllocs()
	n := 0
	t0 := cpuTime(b)
	for b.Loop() {
		op()
		n++
	}
	b.ReportMetric(float64(cpuTime(b)-t0)/float64(n), "cpu-ns/op")
}

// BenchmarkPythonMetrics is the complexity row of bench/run in process:
// parsing CPython's _pydecimal.py (6,400 lines) and every function's
// complexity, and each of the two alone.
func BenchmarkPythonMetrics(b *testing.B) {
	libs, _ := filepath.Glob("/usr/lib/python3.*/_pydecimal.py")
	if len(libs) == 0 {
		b.Skip("no _pydecimal.py: install python3")
	}
	slices.Sort(libs)
	src, err := os.ReadFile(libs[len(libs)-1])
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.Run("parse+functions", func(b *testing.B) {
		loopCPU(b, func() {
			f, err := Parse(ctx, Python, src)
			if err != nil {
				b.Fatal(err)
			}
			if len(f.Functions()) == 0 {
				b.Fatal("no functions")
			}
		})
	})
	b.Run("parse", func(b *testing.B) {
		loopCPU(b, func() {
			if _, err := Parse(ctx, Python, src); err != nil {
				b.Fatal(err)
			}
		})
	})
	f, err := Parse(ctx, Python, src)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("functions", func(b *testing.B) {
		loopCPU(b, func() {
			if len(f.Functions()) == 0 {
				b.Fatal("no functions")
			}
		})
	})
}
