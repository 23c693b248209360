package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentjudge/judge/bench/internal/corpus"
	"github.com/agentjudge/judge/bench/internal/load"
	"github.com/agentjudge/judge/bench/internal/serverproc"
)

// nodeReady reads bench/ajv-server.mjs's "listening URL" line.
func nodeReady(line string) (string, bool) {
	u, ok := strings.CutPrefix(line, "listening ")
	return u, ok
}

// runLoad runs bench/load against url and returns its report.
func (e *env) runLoad(ctx context.Context, loadBin, url, bodies string, conns int, d time.Duration) (*load.Report, error) {
	out, err := output(ctx, loadBin, "-url", url, "-path", "/validate", "-bodies", bodies, "-conns", fmt.Sprint(conns), "-duration", d.String())
	if err != nil {
		return nil, err
	}
	var rep load.Report
	if err := json.Unmarshal(out, &rep); err != nil {
		return nil, fmt.Errorf("bench/load printed %q: %w", out, err)
	}
	if rep.Requests == 0 {
		return nil, fmt.Errorf("bench/load: no request answered (%d without an answer)", rep.Errors)
	}
	return &rep, nil
}

// medianFigure formats the median requests/s, p50 and p99 of rounds,
// and every answer that was not a 200.
func medianFigure(rounds []*load.Report) string {
	var rps, p50, p99 []float64
	all := &load.Report{Status: map[int]int{}}
	for _, r := range rounds {
		rps, p50, p99 = append(rps, r.PerSecond), append(p50, float64(r.P50)), append(p99, float64(r.P99))
		all.Requests += r.Requests
		all.Errors += r.Errors
		for c, n := range r.Status {
			all.Status[c] += n
		}
	}
	s := fmt.Sprintf("%s, p50 %s, p99 %s", perSec(median(rps)), dur(median(p50)), dur(median(p99)))
	if n := all.Requests - all.Status[200]; n > 0 || all.Errors > 0 {
		s += fmt.Sprintf(" (not 200: %s)", all.StatusLine())
	}
	return s
}

// median returns the median of xs (the mean of the middle two for an
// even count).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// writeBodies writes the http row's request bodies to path, one a line:
// each tool's valid arguments, then its invalid ones, in the corpus's
// order (bench/wrk.sh reads the same file, and the verdicts from the line
// numbers: odd lines valid, even lines invalid).
func writeBodies(e *env, path string) error {
	var buf bytes.Buffer
	for _, c := range e.corpus.Cases {
		buf.Write(corpus.ValidateBody(c.Schema, c.Valid))
		buf.WriteByte('\n')
		buf.Write(corpus.ValidateBody(c.Schema, c.Invalid))
		buf.WriteByte('\n')
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// httpRows: POST /validate at 1, 16 and 64 connections, judge serve
// against Ajv behind Node's http module, the load from bench/load.
func httpRows(ctx context.Context, e *env) ([]row, error) {
	judgeBin, err := e.bin(ctx, "./cmd/judge")
	if err != nil {
		return nil, err
	}
	loadBin, err := e.bin(ctx, "./bench/load")
	if err != nil {
		return nil, err
	}
	if err := ensureAjv(ctx); err != nil {
		return nil, err
	}
	bodies := filepath.Join(e.dir, "validate-bodies.jsonl")
	if err := writeBodies(e, bodies); err != nil {
		return nil, err
	}
	j, err := serverproc.StartJudge(ctx, judgeBin)
	if err != nil {
		return nil, err
	}
	defer j.Stop()
	n, err := serverproc.Start(ctx, 30*time.Second, nodeReady, "node", "bench/ajv-server.mjs")
	if err != nil {
		return nil, err
	}
	defer n.Stop()
	// A first pass compiles every schema on both servers.
	for _, u := range []string{j.URL, n.URL} {
		if _, err := e.runLoad(ctx, loadBin, u, bodies, 4, time.Second); err != nil {
			return nil, err
		}
	}
	// Each load point alternates judge and Node in rounds, and takes the
	// median of each side's rounds and of the rounds' ratios, so that a
	// change in the machine's load hits both sides alike.
	rounds := 5
	if e.quick {
		rounds = 3
	}
	var rows []row
	for _, conns := range []int{1, 16, 64} {
		var jrs, nrs []*load.Report
		var ratios []float64
		for range rounds {
			jr, err := e.runLoad(ctx, loadBin, j.URL, bodies, conns, e.httpD/time.Duration(rounds))
			if err != nil {
				return nil, err
			}
			nr, err := e.runLoad(ctx, loadBin, n.URL, bodies, conns, e.httpD/time.Duration(rounds))
			if err != nil {
				return nil, err
			}
			jrs, nrs, ratios = append(jrs, jr), append(nrs, nr), append(ratios, nr.PerSecond/jr.PerSecond)
		}
		rows = append(rows, row{workload: fmt.Sprintf("POST /validate, %d connection(s): the 234 tool-argument documents against their schemas, load from a separate process", conns),
			judge: "judge serve: " + medianFigure(jrs), peer: "Ajv 8 behind Node's http: " + medianFigure(nrs), ratio: ratio(median(ratios)),
			meaning: fmt.Sprintf("Node's requests/s / judge's = judge's time per request / the peer's (below 1: judge faster); median of %d alternating rounds", rounds),
			command: "go run ./bench/run" + e.flag() + " -row http"})
	}
	return rows, nil
}

// gatewayRows: bench/gateway's calls through judge gateway against the
// same calls made directly.
func gatewayRows(ctx context.Context, e *env) ([]row, error) {
	bin, err := e.bin(ctx, "./bench/gateway")
	if err != nil {
		return nil, err
	}
	out, err := output(ctx, bin, "-n", fmt.Sprint(e.gwN), "-warmup", fmt.Sprint(min(200, e.gwN/4)))
	if err != nil {
		return nil, err
	}
	var s struct {
		DirectP50  float64 `json:"direct_p50_us"`
		DirectP99  float64 `json:"direct_p99_us"`
		GatewayP50 float64 `json:"gateway_p50_us"`
		GatewayP99 float64 `json:"gateway_p99_us"`
		AddedP50   float64 `json:"added_p50_us"`
		PerSecond  float64 `json:"gateway_calls_per_s"`
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	found := false
	for _, l := range lines {
		if strings.HasPrefix(l, "{") && json.Unmarshal([]byte(l), &s) == nil {
			found = true
		}
	}
	if !found || s.DirectP50 == 0 {
		return nil, fmt.Errorf("bench/gateway printed no summary: %s", out)
	}
	return []row{{workload: fmt.Sprintf("one tool call through judge gateway (stdio, schema check + outcome), %d calls a path", e.gwN),
		judge: fmt.Sprintf("p50 %s, p99 %s (added p50 %s; %s sequential)", dur(s.GatewayP50*1e3), dur(s.GatewayP99*1e3), dur(s.AddedP50*1e3), perSec(s.PerSecond)),
		peer:  fmt.Sprintf("the same call made directly: p50 %s, p99 %s", dur(s.DirectP50*1e3), dur(s.DirectP99*1e3)),
		ratio: ratio(s.GatewayP50 / s.DirectP50), meaning: "p50 through the gateway / direct (1 = no overhead)",
		command: fmt.Sprintf("go run ./bench/gateway -n %d", e.gwN)}}, nil
}
