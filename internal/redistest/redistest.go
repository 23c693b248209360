// Package redistest starts a real redis-server, or a Redis Cluster of three,
// for tests, on free loopback ports, with no persistence, and stops it when
// the test ends.
package redistest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/sharedtest"
)

// startTimeout bounds how long Start waits for the server to answer PING,
// and StartCluster for the cluster to be formed.
const startTimeout = 15 * time.Second

// Server is a redis-server started by [Start].
type Server struct {
	// Addr is the server's host:port on the loopback interface.
	Addr string
}

// URL returns the server's URL for database db: redis://127.0.0.1:PORT/db.
func (s *Server) URL(db int) string { return fmt.Sprintf("redis://%s/%d", s.Addr, db) }

// Start finds redis-server on PATH, starts it on a free 127.0.0.1 port
// with --save "" --appendonly no, waits until it answers PING, and stops it
// (kills the process) when t ends. Without redis-server, t skips with a
// message, or fails when the environment variable CI is "true", so that CI
// never passes without running the test.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := lookPath(t, "redis-server")
	// The port is free when we ask; another process may take it before
	// redis-server binds it, so a failed start is tried again on a new one.
	var lastErr error
	for range 3 {
		port, err := freePort()
		if err != nil {
			t.Fatalf("redistest: %v", err)
		}
		p, err := launch(bin, t.TempDir(), port)
		if err == nil {
			t.Cleanup(p.stop)
			return &Server{Addr: p.addr}
		}
		lastErr = err
	}
	t.Fatalf("redistest: %v", lastErr)
	return nil
}

// Cluster is a Redis Cluster started by [StartCluster]: three masters on
// 127.0.0.1, no replicas, the 16,384 slots split between them.
type Cluster struct {
	// Addrs are the masters' host:port on the loopback interface.
	Addrs []string
}

// URL returns the cluster's URL as toolcall/redisstore takes it, naming
// every master: redis+cluster://127.0.0.1:P1?addr=127.0.0.1:P2&addr=127.0.0.1:P3.
func (c *Cluster) URL() string {
	return "redis+cluster://" + c.Addrs[0] + "?addr=" + strings.Join(c.Addrs[1:], "&addr=")
}

// StartCluster starts three redis-server processes with --cluster-enabled
// yes (and the flags of Start) on free 127.0.0.1 ports, joins them with
// redis-cli --cluster create, waits until every node reports
// cluster_state:ok, and stops them when t ends. It takes about 2 s, mostly
// Redis's own wait before a new master reports cluster_state:ok (forming
// the cluster by hand with CLUSTER ADDSLOTSRANGE and MEET is no faster),
// so a package starts one and runs its tests on it. It needs Redis 7 or
// later (--cluster-port).
// Without redis-server or redis-cli (Debian's redis-tools, which
// redis-server depends on), t skips or fails as in Start.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	bin := lookPath(t, "redis-server")
	cli := lookPath(t, "redis-cli")
	var lastErr error
	for range 3 {
		c, err := startCluster(t, bin, cli)
		if err == nil {
			return c
		}
		lastErr = err
	}
	t.Fatalf("redistest: %v", lastErr)
	return nil
}

// startCluster starts and joins one cluster; on failure its processes are
// gone.
func startCluster(t testing.TB, bin, cli string) (*Cluster, error) {
	const nodes = 3
	dir := t.TempDir()
	var procs []*process
	stopAll := func() {
		for _, p := range procs {
			p.stop()
		}
	}
	c := &Cluster{}
	for i := range nodes {
		// Two ports each: clients', and the cluster bus's (by default port
		// + 10000, which may be taken or past 65535).
		port, err := freePort()
		if err != nil {
			stopAll()
			return nil, err
		}
		bus, err := freePort()
		if err != nil {
			stopAll()
			return nil, err
		}
		p, err := launch(bin, dir, port, "--cluster-enabled", "yes", "--cluster-port", strconv.Itoa(bus),
			"--cluster-config-file", filepath.Join(dir, fmt.Sprintf("nodes-%d.conf", i)), "--cluster-node-timeout", "5000")
		if err != nil {
			stopAll()
			return nil, err
		}
		procs = append(procs, p)
		c.Addrs = append(c.Addrs, p.addr)
	}
	ctx, cancel := context.WithTimeout(t.Context(), startTimeout)
	defer cancel()
	args := append([]string{"--cluster", "create"}, c.Addrs...)
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	if out, err := exec.CommandContext(ctx, cli, args...).CombinedOutput(); err != nil {
		stopAll()
		return nil, fmt.Errorf("redis-cli --cluster create %s: %w\n%s", strings.Join(c.Addrs, " "), err, out)
	}
	for _, addr := range c.Addrs {
		host, port, _ := net.SplitHostPort(addr)
		for {
			out, err := exec.CommandContext(ctx, cli, "-h", host, "-p", port, "cluster", "info").Output()
			if err == nil && bytes.Contains(out, []byte("cluster_state:ok")) {
				break
			}
			if ctx.Err() != nil {
				stopAll()
				return nil, fmt.Errorf("the cluster node %s did not report cluster_state:ok within %v: %v\n%s", addr, startTimeout, err, out)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	t.Cleanup(stopAll)
	return c, nil
}

// lookPath finds name on PATH; without it, t skips, or fails on CI.
func lookPath(t testing.TB, name string) string {
	t.Helper()
	bin, err := exec.LookPath(name)
	if err != nil {
		msg := name + " is not on PATH: install the Debian package redis-server (scripts/test does, as root; redis-cli comes with it in redis-tools) to run the Redis session store tests"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return bin
}

// process is a running redis-server.
type process struct {
	addr string
	stop func() // kills it and waits for it to exit
}

// launch starts one redis-server on 127.0.0.1:port in dir, with the extra
// arguments, and waits for its PING; on failure the process is gone.
func launch(bin, dir string, port int, extra ...string) (*process, error) {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	out := &sharedtest.SyncBuffer{}
	args := append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no", "--logfile", ""}, extra...)
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	stop := func() {
		_ = cmd.Process.Kill()
		<-exited
	}
	deadline := time.Now().Add(startTimeout)
	for {
		select {
		case <-exited:
			return nil, fmt.Errorf("redis-server on %s exited before answering PING:\n%s", addr, out.String())
		default:
		}
		if err := ping(addr); err == nil {
			break
		} else if time.Now().After(deadline) {
			stop()
			return nil, fmt.Errorf("redis-server on %s did not answer PING within %v: %v\n%s", addr, startTimeout, err, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return &process{addr: addr, stop: stop}, nil
}

// freePort returns a TCP port free on 127.0.0.1 when asked.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// ping sends PING to addr and wants +PONG.
func ping(addr string) error {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.SetDeadline(time.Now().Add(time.Second)); err != nil {
		return err
	}
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if strings.TrimSpace(line) != "+PONG" {
		return fmt.Errorf("PING answered %q", strings.TrimSpace(line))
	}
	return nil
}
