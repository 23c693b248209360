package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agentjudge/judge/bench/internal/serverproc"
)

// measure runs op (given the op's number) for a fifth of d to warm up,
// then for d, and returns the mean time per op in nanoseconds. An op
// slower than d runs once after one warm-up op. It stops at op's first
// error. The measured ops read the clock once a batch, not once an op, as
// the peers' scripts read it once a round of documents: the batch doubles
// while it takes less than a thousandth of d, so that a clock reading
// (26–40 ns on the session machine) is not charged to an op of a
// microsecond. d is overshot by at most the last batch: about two
// thousandths of d for an op whose time holds, k times that for one that
// turns k times slower within the batch (the clock is not read inside it).
func measure(d time.Duration, op func(i int) error) (float64, error) {
	t0 := time.Now()
	return measureClock(d, op, func() time.Duration { return time.Since(t0) })
}

// measureClock is measure reading the time from clock, a monotonic
// duration since some fixed instant.
func measureClock(d time.Duration, op func(i int) error, clock func() time.Duration) (float64, error) {
	i := 0
	// run runs ops from the i-th in doubling batches until they have taken
	// at least limit, and returns how many ran and how long they took.
	run := func(limit time.Duration) (int, time.Duration, error) {
		n, batch := 0, 1
		t0 := clock()
		last := time.Duration(0)
		for {
			for range batch {
				if err := op(i); err != nil {
					return 0, 0, err
				}
				i++
				n++
			}
			took := clock() - t0
			if took >= limit {
				return n, took, nil
			}
			if took-last < d/1000 {
				batch *= 2
			}
			last = took
		}
	}
	if _, _, err := run(d / 5); err != nil {
		return 0, err
	}
	n, took, err := run(d)
	if err != nil {
		return 0, err
	}
	return float64(took.Nanoseconds()) / float64(n), nil
}

// dur formats nanoseconds with 3 significant digits and a unit.
func dur(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.3g s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.3g ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.3g µs", ns/1e3)
	}
	return fmt.Sprintf("%.3g ns", ns)
}

// perSec formats a rate with thousands separators.
func perSec(x float64) string { return thousands(int64(x+0.5)) + "/s" }

func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func ratio(x float64) string { return fmt.Sprintf("%.2f×", x) }

// bin builds the Go command pkg once and returns its path.
func (e *env) bin(ctx context.Context, pkg string) (string, error) {
	if p, ok := e.bins[pkg]; ok {
		return p, nil
	}
	dir := filepath.Join(e.dir, strings.NewReplacer("/", "_", ".", "_").Replace(pkg))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	p, err := serverproc.Build(ctx, dir, pkg)
	if err != nil {
		return "", err
	}
	e.bins[pkg] = p
	return p, nil
}

// ensureAjv installs bench/package.json's Ajv into bench/node_modules
// when it is missing.
func ensureAjv(ctx context.Context) error {
	if _, err := exec.LookPath("node"); err != nil {
		return fmt.Errorf("node is not installed: the Ajv peer needs Node.js: %w", err)
	}
	if _, err := os.Stat("bench/node_modules/ajv"); err == nil {
		return nil
	}
	cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--silent")
	cmd.Dir = "bench"
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci in bench: %w\n%s", err, out)
	}
	return nil
}

// output runs a command from the repository root and returns its
// standard output; the error carries its standard error.
func output(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// secsArg is a duration as seconds for the peers' scripts.
func secsArg(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) }

// ajvSchema returns bench/ajv-schema.mjs's figures by workload:
// large/valid, large/invalid, tool-arguments, tool-arguments-valid (ns per
// document), from the schema row's rounds when it ran, else from one run
// of e.secs a workload.
func (e *env) ajvSchema(ctx context.Context) (map[string]float64, error) {
	if e.ajv != nil {
		return e.ajv, nil
	}
	m, err := e.runAjvSchema(ctx, e.secs)
	if err != nil {
		return nil, err
	}
	e.ajv = m
	return m, nil
}

// runAjvSchema runs bench/ajv-schema.mjs once, measuring each workload for
// d, and returns its figures by workload.
func (e *env) runAjvSchema(ctx context.Context, d time.Duration) (map[string]float64, error) {
	if err := ensureAjv(ctx); err != nil {
		return nil, err
	}
	out, err := output(ctx, "node", "bench/ajv-schema.mjs", corpusPath, secsArg(d))
	if err != nil {
		return nil, err
	}
	return nameValues(out)
}

// nameValues reads lines "name value …" into a map of the first value.
func nameValues(out []byte) (map[string]float64, error) {
	m := map[string]float64{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		v, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			return nil, fmt.Errorf("reading %q: %w", line, err)
		}
		m[f[0]] = v
	}
	return m, nil
}
