package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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

func httpFigure(r *load.Report) string {
	s := fmt.Sprintf("%s, p50 %s, p99 %s", perSec(r.PerSecond), dur(float64(r.P50)), dur(float64(r.P99)))
	if n := r.Requests - r.Status[200]; n > 0 || r.Errors > 0 {
		s += fmt.Sprintf(" (not 200: %s)", r.StatusLine())
	}
	return s
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
	var buf bytes.Buffer
	for _, c := range e.corpus.Cases {
		buf.Write(corpus.ValidateBody(c.Schema, c.Valid))
		buf.WriteByte('\n')
		buf.Write(corpus.ValidateBody(c.Schema, c.Invalid))
		buf.WriteByte('\n')
	}
	bodies := filepath.Join(e.dir, "validate-bodies.jsonl")
	if err := os.WriteFile(bodies, buf.Bytes(), 0o644); err != nil {
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
	var rows []row
	for _, conns := range []int{1, 16, 64} {
		jr, err := e.runLoad(ctx, loadBin, j.URL, bodies, conns, e.httpD)
		if err != nil {
			return nil, err
		}
		nr, err := e.runLoad(ctx, loadBin, n.URL, bodies, conns, e.httpD)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row{workload: fmt.Sprintf("POST /validate, %d connection(s): the 234 tool-argument documents against their schemas, load from a separate process", conns),
			judge: "judge serve: " + httpFigure(jr), peer: "Ajv 8 behind Node's http: " + httpFigure(nr), ratio: ratio(nr.PerSecond / jr.PerSecond),
			meaning: "Node's requests/s / judge's = judge's time per request / the peer's (below 1: judge faster)", command: "go run ./bench/run" + e.flag() + " -row http"})
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
