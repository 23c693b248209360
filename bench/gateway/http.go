package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/executor"
	"github.com/agentjudge/judge/gateway"
	"github.com/agentjudge/judge/manifest"
)

// benchHTTP measures the gateway over streamable HTTP: the test upstream
// serves streamable HTTP (UPSTREAM_HTTP), judge gateway --http reaches it
// as a streamable-http mcp_server, and the same go-sdk client calls "add"
// directly and through the gateway in alternating blocks. With against
// (another judge build), a second gateway of that build runs in the same
// blocks, so that the two builds meet the same load.
func benchHTTP(ctx context.Context, dir, judgeBin, against, upBin string, n, block, warmup int, cpuFile string) error {
	upURL, hdir, stopUp, err := startHTTPUpstream(upBin, dir)
	if err != nil {
		return err
	}
	defer stopUp()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	direct, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: upURL}, nil)
	if err != nil {
		return err
	}
	defer direct.Close()
	gwURL, stop, err := startHTTPGateway(judgeBin, hdir)
	if err != nil {
		return err
	}
	defer stop()
	through, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: gwURL}, nil)
	if err != nil {
		return err
	}
	defer through.Close()
	paths := []httpPath{{"direct", direct, false, nil}, {"gateway", through, true, nil}}
	if against != "" {
		peerURL, stopPeer, err := startHTTPGateway(against, hdir)
		if err != nil {
			return err
		}
		defer stopPeer()
		peer, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: peerURL}, nil)
		if err != nil {
			return err
		}
		defer peer.Close()
		paths = append(paths, httpPath{"against", peer, true, nil})
	}
	c := &caller{ctx: ctx}
	if err := c.measureHTTP(paths, n, block, warmup); err != nil {
		return err
	}
	reportHTTP(paths, n, against)
	if cpuFile != "" {
		return profileHTTP(ctx, hdir, cpuFile, n)
	}
	return nil
}

// startHTTPUpstream starts the test upstream serving streamable HTTP on a
// free loopback port and writes its registry into dir/http: it returns
// the upstream's URL, that registry directory, and how to stop it.
func startHTTPUpstream(upBin, dir string) (upURL, hdir string, stop func(), err error) {
	up := exec.Command(upBin)
	up.Env = append(os.Environ(), "UPSTREAM_HTTP=127.0.0.1:0")
	out, err := up.StdoutPipe()
	if err != nil {
		return "", "", nil, err
	}
	if err := up.Start(); err != nil {
		return "", "", nil, err
	}
	stop = func() { _ = up.Process.Kill(); _ = up.Wait() }
	fail := func(err error) (string, string, func(), error) {
		stop()
		return "", "", nil, err
	}
	upURL, err = bufio.NewReader(out).ReadString('\n')
	if err != nil {
		return fail(fmt.Errorf("the upstream's URL: %w", err))
	}
	upURL = upURL[:len(upURL)-1]
	hdir = filepath.Join(dir, "http")
	if err := os.MkdirAll(hdir, 0o700); err != nil {
		return fail(err)
	}
	reg := fmt.Sprintf("tool_id: up\ntool_type: mcp_server\nversion: \"1.0.0\"\nexecutor: http_client\ndescription: The benchmark's upstream MCP server over streamable HTTP\nconfig:\n  transport: streamable-http\n  url: %s\n  startup_timeout: 60\n", upURL)
	if err := os.WriteFile(filepath.Join(hdir, "up.yaml"), []byte(reg), 0o600); err != nil {
		return fail(err)
	}
	return upURL, hdir, stop, nil
}

// httpPath is one path of the HTTP comparison and its measured durations.
type httpPath struct {
	name  string
	cs    *mcp.ClientSession
	judge bool // a gateway: its answers carry the outcome
	ds    []time.Duration
}

// measureHTTP warms every path up, then measures n calls on each, in
// alternating blocks; paths[1] is the gateway.
func (c *caller) measureHTTP(paths []httpPath, n, block, warmup int) error {
	for _, p := range paths {
		if err := c.call(p.name, p.cs, warmup, nil, p.judge); err != nil {
			return err
		}
	}
	for len(paths[1].ds) < n {
		k := min(block, n-len(paths[1].ds))
		for i := range paths {
			if err := c.call(paths[i].name, paths[i].cs, k, &paths[i].ds, paths[i].judge); err != nil {
				return err
			}
		}
	}
	return nil
}

// reportHTTP prints the percentiles of the paths and their differences,
// then the figures as one JSON line; against names the other judge build,
// measured as paths[2] when there are three.
func reportHTTP(paths []httpPath, n int, against string) {
	dd, gd := paths[0].ds, paths[1].ds
	dp50, dp99, gp50, gp99 := pct(dd, 50), pct(dd, 99), pct(gd, 50), pct(gd, 99)
	fmt.Printf("calls per path: %d (streamable HTTP upstream tool 'add'; client to judge gateway --http, which calls the upstream over streamable HTTP)\n", n)
	fmt.Printf("direct:  p50 %8s  p99 %8s\n", us(dp50), us(dp99))
	fmt.Printf("gateway: p50 %8s  p99 %8s\n", us(gp50), us(gp99))
	fmt.Printf("added:   p50 %8s  p99 %8s\n", us(gp50-dp50), us(gp99-dp99))
	summary := map[string]any{"transport": "streamable-http", "n": n, "direct_p50_us": dp50.Microseconds(), "direct_p99_us": dp99.Microseconds(),
		"gateway_p50_us": gp50.Microseconds(), "gateway_p99_us": gp99.Microseconds(), "added_p50_us": (gp50 - dp50).Microseconds(), "added_p99_us": (gp99 - dp99).Microseconds()}
	if len(paths) > 2 {
		pd := paths[2].ds
		pp50, pp99 := pct(pd, 50), pct(pd, 99)
		fmt.Printf("against: p50 %8s  p99 %8s  added p50 %s p99 %s (%s)\n", us(pp50), us(pp99), us(pp50-dp50), us(pp99-dp99), against)
		summary["against_added_p50_us"], summary["against_added_p99_us"] = (pp50 - dp50).Microseconds(), (pp99 - dp99).Microseconds()
	}
	b, _ := json.Marshal(summary)
	fmt.Println(string(b))
}

// startHTTPGateway starts bin as judge gateway --http on a free loopback
// port over the registry hdir, and returns the URL it listens at and how
// to stop it. GATEWAY_ENV_<bin's base name> (KEY=VALUE,…) adds to its
// environment, for experiments (GOMAXPROCS=1).
func startHTTPGateway(bin, hdir string) (string, func(), error) {
	gw := exec.Command(bin, "gateway", "--tools", hdir, "--http", "127.0.0.1:0", "--allow-loopback", "--log-level", "info")
	gw.Env = os.Environ()
	if extra := os.Getenv("GATEWAY_ENV_" + filepath.Base(bin)); extra != "" {
		gw.Env = append(gw.Env, strings.Split(extra, ",")...)
	}
	logs, err := gw.StderrPipe()
	if err != nil {
		return "", nil, err
	}
	if err := gw.Start(); err != nil {
		return "", nil, err
	}
	stop := func() { _ = gw.Process.Signal(os.Interrupt); _ = gw.Wait() }
	gwURL := ""
	sc := bufio.NewScanner(logs)
	for gwURL == "" && sc.Scan() {
		var line struct{ Msg, URL string }
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "listening" {
			gwURL = line.URL
		}
	}
	if gwURL == "" {
		stop()
		return "", nil, fmt.Errorf("%s gateway --http did not say where it listens", bin)
	}
	go func() { // keep draining the log
		for sc.Scan() {
		}
	}()
	return gwURL, stop, nil
}

// profileHTTP runs the gateway in this process, served over streamable
// HTTP on loopback in front of the upstream at upURL, and calls it n
// times under the CPU profiler (written to cpuFile).
func profileHTTP(ctx context.Context, hdir, cpuFile string, n int) error {
	reg, err := manifest.LoadDirs(ctx, hdir)
	if err != nil {
		return err
	}
	runner, err := executor.New(ctx, reg, executor.WithAllowLoopback(true))
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: g.HTTPHandler(gateway.HTTPOptions{Loopback: true})}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + gateway.HTTPPath}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	for i := range 200 {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": i, "b": 1}}); err != nil {
			return err
		}
	}
	stop, err := startCPUProfile(cpuFile)
	if err != nil {
		return err
	}
	defer stop()
	start := time.Now()
	for i := range n {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": i, "b": 1}}); err != nil {
			return err
		}
	}
	fmt.Printf("in-process gateway over HTTP (profiled, client and upstream client in this process): %s per call\n", us(time.Since(start)/time.Duration(n)))
	return nil
}
