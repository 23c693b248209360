package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agentjudge/judge/bench/internal/serverproc"
)

// otlpSink is a minimal OTLP/HTTP receiver on loopback: it reads each
// export request whole, counts it, and answers 200 with an empty
// ExportTraceServiceResponse, as a collector that keeps nothing would.
type otlpSink struct {
	srv      *http.Server
	url      string
	requests atomic.Int64
	bytes    atomic.Int64
}

func startSink() (*otlpSink, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &otlpSink{url: "http://" + ln.Addr().String()}
	s.srv = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" {
			http.NotFound(w, r)
			return
		}
		n, _ := io.Copy(io.Discard, r.Body)
		s.requests.Add(1)
		s.bytes.Add(n)
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(http.StatusOK)
	})}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// otelEnv is this process's environment without any OTEL_ variable, plus
// extra.
func otelEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OTEL_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// otelRows: POST /validate to two judge serve processes, one exporting
// every span over OTLP http/protobuf to a loopback receiver and one with
// export off, the load alternating between them in rounds. On a shared
// machine, throughput moves with the neighbours; the server's own CPU
// time per request (from /proc) moves much less, so the row's ratio is
// that, with the throughput beside it.
func otelRows(ctx context.Context, e *env) ([]row, error) {
	judgeBin, err := e.bin(ctx, "./cmd/judge")
	if err != nil {
		return nil, err
	}
	loadBin, err := e.bin(ctx, "./bench/load")
	if err != nil {
		return nil, err
	}
	bodies := filepath.Join(e.dir, "otel-bodies.jsonl")
	if err := writeBodies(e, bodies); err != nil {
		return nil, err
	}
	sink, err := startSink()
	if err != nil {
		return nil, err
	}
	defer sink.srv.Close()
	on, err := serverproc.StartJudgeEnv(ctx, judgeBin, otelEnv("OTEL_EXPORTER_OTLP_ENDPOINT="+sink.url))
	if err != nil {
		return nil, err
	}
	defer on.Stop()
	off, err := serverproc.StartJudgeEnv(ctx, judgeBin, otelEnv())
	if err != nil {
		return nil, err
	}
	defer off.Stop()
	const conns = 4
	for _, p := range []*serverproc.Proc{on, off} { // compile every schema
		if _, err := e.runLoad(ctx, loadBin, p.URL, bodies, conns, time.Second); err != nil {
			return nil, err
		}
	}
	rounds, d := 5, 4*time.Second
	if e.quick {
		rounds, d = 3, 2*time.Second
	}
	type side struct{ cpu, rps []float64 }
	var sOn, sOff side
	var cpuRatios, rpsRatios []float64
	measureSide := func(p *serverproc.Proc, s *side) (float64, float64, error) {
		c0, err := p.CPUTime()
		if err != nil {
			return 0, 0, err
		}
		rep, err := e.runLoad(ctx, loadBin, p.URL, bodies, conns, d)
		if err != nil {
			return 0, 0, err
		}
		c1, err := p.CPUTime()
		if err != nil {
			return 0, 0, err
		}
		if n := rep.Requests - rep.Status[200]; n > 0 {
			return 0, 0, fmt.Errorf("%d answers were not 200: %s", n, rep.StatusLine())
		}
		cpu := float64((c1 - c0).Nanoseconds()) / float64(rep.Requests)
		s.cpu, s.rps = append(s.cpu, cpu), append(s.rps, rep.PerSecond)
		return cpu, rep.PerSecond, nil
	}
	for i := range rounds {
		first, second := [2]*serverproc.Proc{on, off}, [2]*side{&sOn, &sOff}
		if i%2 == 1 { // alternate which goes first
			first, second = [2]*serverproc.Proc{off, on}, [2]*side{&sOff, &sOn}
		}
		var cpu, rps [2]float64
		for k := range 2 {
			if cpu[k], rps[k], err = measureSide(first[k], second[k]); err != nil {
				return nil, err
			}
		}
		if first[0] == off {
			cpu[0], cpu[1], rps[0], rps[1] = cpu[1], cpu[0], rps[1], rps[0]
		}
		cpuRatios, rpsRatios = append(cpuRatios, cpu[0]/cpu[1]), append(rpsRatios, rps[1]/rps[0])
	}
	if sink.requests.Load() == 0 {
		return nil, errors.New("the exporting judge serve sent the OTLP receiver nothing")
	}
	return []row{{
		workload: fmt.Sprintf("POST /validate with span export on (OTLP http/protobuf to a loopback receiver: %d exports, %s) against off, %d connections: the 234 tool-argument documents, load from a separate process",
			sink.requests.Load(), bytesFigure(sink.bytes.Load()), conns),
		judge: fmt.Sprintf("export on: %s CPU/request, %s", dur(median(sOn.cpu)), perSec(median(sOn.rps))),
		peer:  fmt.Sprintf("export off: %s CPU/request, %s", dur(median(sOff.cpu)), perSec(median(sOff.rps))),
		ratio: ratio(median(cpuRatios)),
		meaning: fmt.Sprintf("judge serve's CPU per request on / off (the goal: at most 1.05×); requests/s off / on: %s; median of %d alternating rounds",
			ratio(median(rpsRatios)), rounds),
		command: "go run ./bench/run" + e.flag() + " -row otel",
	}}, nil
}

// bytesFigure formats a byte count in KB or MB.
func bytesFigure(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
}
