// Command gateway measures what judge gateway adds to a tool call: the
// same go-sdk client calls the same upstream MCP server (the gateway
// tests' upstream, over stdio) directly and through `judge gateway` (also
// over stdio), in alternating blocks, and prints p50 and p99 of both, their
// difference, and the calls per second through the gateway. Every call
// through the gateway gets a schema check and an outcome. With
// -cpuprofile, the gateway also runs in this process (over pipes to the
// client, judge's stdio transport on its side) under the CPU profiler, to show where its time
// goes; it runs at GOGC=400, as judge gateway does unless GOGC is set.
//
// Run from the repository root:
//
//	go run ./bench/gateway -n 3000
//	go run ./bench/gateway -n 3000 -floor    # also a bare line-forwarding process (bench/gateway/forward)
//	go run ./bench/gateway -n 2000 -http     # over streamable HTTP: judge gateway --http in front of a streamable-HTTP upstream
//	go run ./bench/gateway -n 2000 -http -against /tmp/judge-main   # over HTTP, this build and another in the same blocks
//	go run ./bench/gateway -n 2000 -http -cpuprofile http.pprof && go tool pprof -top http.pprof
//	go run ./bench/gateway -n 3000 -against /tmp/judge-main   # also another judge build, in the same blocks
//	go run ./bench/gateway -n 3000 -cpuprofile gateway.pprof && go tool pprof -top gateway.pprof
//	go run ./bench/gateway -n 3000 -profile-only -memprofile mem.pprof && go tool pprof -sample_index=alloc_space -top mem.pprof
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/executor"
	"github.com/agentjudge/judge/gateway"
	"github.com/agentjudge/judge/manifest"
)

const registry = `tool_id: up
tool_type: mcp_server
version: "1.0.0"
executor: subprocess
description: The benchmark's upstream MCP server
config:
  transport: stdio
  command: ./upstream
  startup_timeout: 60
`

func main() {
	n := flag.Int("n", 2000, "calls measured on each path")
	block := flag.Int("block", 100, "calls per block; the paths alternate block by block")
	warmup := flag.Int("warmup", 200, "calls on each path before measuring")
	cpuprofile := flag.String("cpuprofile", "", "also run the gateway in this process under the CPU profiler and write the profile here")
	memprofile := flag.String("memprofile", "", "also run the gateway in this process and write its allocation profile here")
	profileOnly := flag.Bool("profile-only", false, "skip the measured comparison; only run the in-process profile")
	against := flag.String("against", "", "also measure this judge binary (another build, e.g. of main) as a second gateway in the same alternating blocks, so that two builds are compared under the same load")
	fullMeta := flag.Bool("full-meta", false, "run the gateways with --full-meta: both ValidationResults in every answer's _meta.judge")
	floor := flag.Bool("floor", false, "also measure a bare process forwarding lines to the same upstream (the floor of any out-of-process gateway), in the same alternating blocks")
	overHTTP := flag.Bool("http", false, "measure over streamable HTTP instead: the client calls the upstream (serving streamable HTTP) directly and through judge gateway --http")
	flag.Parse()
	ctx := context.Background()

	dir, err := os.MkdirTemp("", "bench-gateway")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	judgeBin, upBin, fwdBin := filepath.Join(dir, "judge"), filepath.Join(dir, "upstream"), filepath.Join(dir, "forward")
	build(dir, judgeBin, upBin, fwdBin)

	if *overHTTP {
		if err := benchHTTP(ctx, dir, judgeBin, *against, upBin, *n, *block, *warmup, *cpuprofile); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *profileOnly {
		if err := profile(ctx, dir, *cpuprofile, *memprofile, *n); err != nil {
			log.Fatal(err)
		}
		return
	}
	gwArgs := []string{"gateway", "--tools", dir, "--log-level", "warn"}
	if *fullMeta {
		gwArgs = append(gwArgs, "--full-meta")
	}
	s, closeAll := connectStdio(ctx, upBin, fwdBin, exec.Command(judgeBin, gwArgs...), *against, gwArgs, *floor)
	defer closeAll()
	c := &caller{ctx: ctx, progress: true, fullMeta: *fullMeta}
	m := c.measure(s, *n, *block, *warmup)
	m.report(*n, *against)

	if *cpuprofile != "" || *memprofile != "" {
		if err := profile(ctx, dir, *cpuprofile, *memprofile, *n); err != nil {
			log.Fatal(err)
		}
	}
}

// build builds judge, the test upstream and the bare forwarder into their
// paths, and writes the upstream's registry into dir.
func build(dir, judgeBin, upBin, fwdBin string) {
	for _, b := range [][2]string{{judgeBin, "./cmd/judge"}, {upBin, "./gateway/testdata/upstream"}, {fwdBin, "./bench/gateway/forward"}} {
		if out, err := exec.Command("go", "build", "-o", b[0], b[1]).CombinedOutput(); err != nil {
			log.Fatalf("go build %s (run from the repository root): %v\n%s", b[1], err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "up.yaml"), []byte(registry), 0o600); err != nil {
		log.Fatal(err)
	}
}

// stdioSessions are the paths of the stdio comparison: the upstream
// directly, through the gateway, and, when asked for, through another
// judge build (peer) and through the bare forwarder (fwd).
type stdioSessions struct {
	direct, gw, peer, fwd *mcp.ClientSession
}

// connectStdio starts every path of the stdio comparison and connects the
// client to each; closeAll closes them, last opened first.
func connectStdio(ctx context.Context, upBin, fwdBin string, gwCmd *exec.Cmd, against string, gwArgs []string, floor bool) (s stdioSessions, closeAll func()) {
	var closers []func()
	closeAll = func() {
		for _, c := range slices.Backward(closers) {
			c()
		}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	connect := func(cmd *exec.Cmd) *mcp.ClientSession {
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			closeAll()
			log.Fatal(err)
		}
		closers = append(closers, func() { cs.Close() })
		return cs
	}
	s.direct = connect(exec.Command(upBin))
	s.gw = connect(gwCmd)
	if against != "" {
		s.peer = connect(exec.Command(against, gwArgs...))
	}
	if floor {
		s.fwd = connect(exec.Command(fwdBin, upBin))
	}
	return s, closeAll
}

// caller calls the upstream's tool "add", with a new first operand each
// call, for both comparisons.
type caller struct {
	ctx context.Context
	seq int
	// progress: a gateway's answer must carry the session's progress
	// (the stdio gateways); fullMeta: also both ValidationResults (the
	// gateways run with --full-meta).
	progress, fullMeta bool
}

// call makes count calls on cs, the path name, appending their durations
// to out when it is not nil, and returns the first failure; with
// checkMeta, each answer must carry the gateway's outcome.
func (c *caller) call(name string, cs *mcp.ClientSession, count int, out *[]time.Duration, checkMeta bool) error {
	for range count {
		c.seq++
		start := time.Now()
		res, err := cs.CallTool(c.ctx, &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": c.seq, "b": 1}})
		d := time.Since(start)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if res.IsError {
			var text string
			for _, ct := range res.Content {
				if tc, ok := ct.(*mcp.TextContent); ok {
					text += tc.Text
				}
			}
			meta, _ := json.Marshal(res.Meta)
			return fmt.Errorf("add failed on %s: %s (_meta %s)", name, text, meta)
		}
		if checkMeta {
			m, _ := res.Meta[gateway.MetaKey].(map[string]any)
			if m["status"] != "SATISFIED" || c.progress && m["progress"] == nil || c.fullMeta && (m["check"] == nil || m["outcome"] == nil) {
				return fmt.Errorf("the gateway's answer lacks the outcome or the progress: %v", res.Meta)
			}
		}
		if out != nil {
			*out = append(*out, d)
		}
	}
	return nil
}

// run is call, ending the program on a failure.
func (c *caller) run(name string, cs *mcp.ClientSession, count int, out *[]time.Duration, checkMeta bool) {
	if err := c.call(name, cs, count, out, checkMeta); err != nil {
		log.Fatal(err)
	}
}

// stdioTimes are the measured durations of each path of the stdio
// comparison, and the time the calls through the gateway took in all.
type stdioTimes struct {
	direct, gw, fwd, peer []time.Duration
	gwTime                time.Duration
	// floor and against are true when the forwarder and the other build
	// were measured.
	floor, against bool
}

// measure warms every path of s up, then measures n calls on each, in
// alternating blocks.
func (c *caller) measure(s stdioSessions, n, block, warmup int) stdioTimes {
	c.run("direct", s.direct, warmup, nil, false)
	c.run("gateway", s.gw, warmup, nil, true)
	if s.fwd != nil {
		c.run("forwarder", s.fwd, warmup, nil, false)
	}
	if s.peer != nil {
		c.run("against", s.peer, warmup, nil, true)
	}
	m := stdioTimes{floor: s.fwd != nil, against: s.peer != nil}
	for len(m.gw) < n {
		k := min(block, n-len(m.gw))
		c.run("direct", s.direct, k, &m.direct, false)
		t0 := time.Now()
		c.run("gateway", s.gw, k, &m.gw, true)
		m.gwTime += time.Since(t0)
		if s.fwd != nil {
			c.run("forwarder", s.fwd, k, &m.fwd, false)
		}
		if s.peer != nil {
			c.run("against", s.peer, k, &m.peer, true)
		}
	}
	return m
}

// report prints the percentiles of m and their differences, then the
// figures as one JSON line; against names the other judge build.
func (m stdioTimes) report(n int, against string) {
	dd, gd, fd, pd := m.direct, m.gw, m.fwd, m.peer
	dp50, dp99 := pct(dd, 50), pct(dd, 99)
	gp50, gp99 := pct(gd, 50), pct(gd, 99)
	fmt.Printf("calls per path: %d (stdio upstream tool 'add'; through the gateway: schema check + outcome + session progress on every call)\n", n)
	fmt.Printf("direct:  p50 %8s  p99 %8s\n", us(dp50), us(dp99))
	fmt.Printf("gateway: p50 %8s  p99 %8s\n", us(gp50), us(gp99))
	fmt.Printf("added:   p50 %8s  p99 %8s\n", us(gp50-dp50), us(gp99-dp99))
	fmt.Printf("through the gateway: %.0f calls/s (one client, sequential)\n", float64(len(gd))/m.gwTime.Seconds())
	extra := map[string]any{}
	if m.floor {
		fp50, fp99 := pct(fd, 50), pct(fd, 99)
		fmt.Printf("bare forwarder: p50 %8s  p99 %8s  added p50 %s (the floor of any out-of-process gateway)\n", us(fp50), us(fp99), us(fp50-dp50))
		fmt.Printf("judge's own:  p50 %s over the bare forwarder\n", us(gp50-fp50))
		extra["forward_p50_us"], extra["forward_added_p50_us"], extra["judge_over_forward_p50_us"] = fp50.Microseconds(), (fp50 - dp50).Microseconds(), (gp50 - fp50).Microseconds()
	}
	if m.against {
		pp50, pp99 := pct(pd, 50), pct(pd, 99)
		fmt.Printf("against: p50 %8s  p99 %8s  added p50 %s p99 %s (%s)\n", us(pp50), us(pp99), us(pp50-dp50), us(pp99-dp99), against)
		extra["against_added_p50_us"], extra["against_added_p99_us"] = (pp50 - dp50).Microseconds(), (pp99 - dp99).Microseconds()
	}
	summary, _ := json.Marshal(map[string]any{"n": n, "direct_p50_us": dp50.Microseconds(), "direct_p99_us": dp99.Microseconds(),
		"gateway_p50_us": gp50.Microseconds(), "gateway_p99_us": gp99.Microseconds(), "added_p50_us": (gp50 - dp50).Microseconds(),
		"added_p99_us": (gp99 - dp99).Microseconds(), "gateway_calls_per_s": float64(len(gd)) / m.gwTime.Seconds(), "floor": extra})
	fmt.Println(string(summary))
}

// profile runs the gateway in this process over the same registry, its
// client over pipes, under the CPU profiler (cpuFile) and
// with every allocation sampled (memFile), and prints the allocation and
// garbage collections per call.
func profile(ctx context.Context, dir, cpuFile, memFile string, n int) error {
	reg, err := manifest.LoadDirs(ctx, dir)
	if err != nil {
		return err
	}
	runner, err := executor.New(ctx, reg)
	if err != nil {
		return err
	}
	defer runner.Close()
	if os.Getenv("GOGC") == "" { // as judge gateway runs
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	g, err := gateway.New(ctx, gateway.FromRunner(runner), gateway.Options{})
	if err != nil {
		return err
	}
	// The gateway's side speaks judge's stdio transport, as judge gateway
	// does on stdin and stdout; the client's side the SDK's.
	toGW, fromClient := io.Pipe()
	toClient, fromGW := io.Pipe()
	st := g.StdioTransport(toGW, fromGW)
	ct := &mcp.IOTransport{Reader: toClient, Writer: fromClient}
	ss, err := g.Server().Connect(ctx, st, nil)
	if err != nil {
		return err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	for i := range 200 { // warm up, as the measured paths are
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": i, "b": 1}}); err != nil {
			return err
		}
	}
	if cpuFile != "" {
		stop, err := startCPUProfile(cpuFile)
		if err != nil {
			return err
		}
		defer stop()
	}
	if memFile != "" {
		runtime.MemProfileRate = 1
		defer func() { runtime.MemProfileRate = 512 * 1024 }()
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	for i := range n {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": i, "b": 1}}); err != nil {
			return err
		}
	}
	took := time.Since(start)
	runtime.ReadMemStats(&m1)
	fmt.Printf("in-process gateway (profiled): %d calls in %s, %s per call; %d KB and %d allocations per call (the bench's client included), %d garbage collections\n",
		n, took.Round(time.Millisecond), us(took/time.Duration(n)), (m1.TotalAlloc-m0.TotalAlloc)/uint64(n)/1024, (m1.Mallocs-m0.Mallocs)/uint64(n), m1.NumGC-m0.NumGC)
	if memFile != "" {
		f, err := os.Create(memFile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			return err
		}
	}
	return nil
}

// startCPUProfile starts the CPU profiler writing to file; stop ends it
// and closes the file.
func startCPUProfile(file string) (stop func(), err error) {
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[min(len(s)-1, len(s)*p/100)]
}

func us(d time.Duration) string { return fmt.Sprintf("%dµs", d.Microseconds()) }
