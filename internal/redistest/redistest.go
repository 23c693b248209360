// Package redistest starts a real redis-server for tests, on a free loopback
// port, with no persistence, and stops it when the test ends.
package redistest

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// startTimeout bounds how long Start waits for the server to answer PING.
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
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		msg := "redis-server is not on PATH: install the Debian package redis-server (scripts/test does, as root) to run the Redis session store tests"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	// The port is free when we ask; another process may take it before
	// redis-server binds it, so a failed start is tried again on a new one.
	var lastErr error
	for range 3 {
		s, err := start(t, bin)
		if err == nil {
			return s
		}
		lastErr = err
	}
	t.Fatalf("redistest: %v", lastErr)
	return nil
}

// start starts one redis-server and waits for its PING; on failure the
// process is gone.
func start(t testing.TB, bin string) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	out := &syncBuffer{}
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", t.TempDir(), "--daemonize", "no", "--logfile", "")
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
	s := &Server{Addr: addr}
	t.Cleanup(stop)
	return s, nil
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

// syncBuffer is a bytes.Buffer safe for the writes of a process and the
// reads of a failing test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
