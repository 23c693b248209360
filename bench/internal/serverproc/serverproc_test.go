package serverproc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain serves HTTP on loopback when SERVERPROC_TEST_SERVE is set: the
// test binary is then the server the tests start.
func TestMain(m *testing.M) {
	switch os.Getenv("SERVERPROC_TEST_SERVE") {
	case "":
		os.Exit(m.Run())
	case "exit":
		fmt.Fprintln(os.Stderr, "refusing to start")
		os.Exit(3)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		os.Exit(2)
	}
	fmt.Fprintf(os.Stderr, `{"level":"INFO","msg":"judge serve listening","url":"http://%s"}`+"\n", ln.Addr())
	_ = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") }))
}

func TestStartJudgeStop(t *testing.T) {
	t.Setenv("SERVERPROC_TEST_SERVE", "1")
	p, err := StartJudge(context.Background(), os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(p.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ok" {
		t.Fatalf("answer %q", body)
	}
	st, err := p.ReadStatus()
	if err != nil || st.RSS <= 0 || st.PeakRSS < st.RSS || st.Threads < 1 {
		t.Fatalf("status %+v, %v", st, err)
	}
	pid := p.PID()
	p.Stop()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("process %d still there after Stop: %v", pid, err)
	}
}

func TestStartExits(t *testing.T) {
	t.Setenv("SERVERPROC_TEST_SERVE", "exit")
	_, err := Start(context.Background(), 30*time.Second, JudgeReady, os.Args[0])
	if err == nil {
		t.Fatal("a server that exits: want an error")
	}
	if got := err.Error(); !strings.Contains(got, "exited before it was ready") || !strings.Contains(got, "refusing to start") {
		t.Fatalf("error %q does not say it exited and what it printed", got)
	}
}

func TestJudgeReady(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line string
		url  string
		ok   bool
	}{
		{`{"time":"x","level":"INFO","msg":"judge serve listening","url":"http://127.0.0.1:5","addr":"127.0.0.1:5"}`, "http://127.0.0.1:5", true},
		{`{"msg":"tool-call sessions","url":"http://127.0.0.1:5"}`, "", false},
		{`judge serve listening`, "", false},
	} {
		if u, ok := JudgeReady(tc.line); u != tc.url || ok != tc.ok {
			t.Errorf("JudgeReady(%s) = %q, %v", tc.line, u, ok)
		}
	}
}
