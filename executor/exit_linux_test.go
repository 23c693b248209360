package executor

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestAwaitExit: the wait for a child's exit is parked on the poller, not
// blocked in a system call, while the child runs (a garbage collection can
// stop the world meanwhile), and it ends when the child does; a child that
// has already exited is not waited for.
func TestAwaitExit(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	done := make(chan struct{})
	go func() { awaitExit(cmd.Process); close(done) }()

	// Find the waiting goroutine in a dump of all goroutines, and read its
	// state: "IO wait" (parked on the poller), never "syscall".
	var state string
	for deadline := time.Now().Add(10 * time.Second); state == "" && time.Now().Before(deadline); {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "executor.awaitExit(") && strings.Contains(g, "runtime_pollWait") {
				state = g[strings.Index(g, "[")+1 : strings.Index(g, "]")]
			}
		}
		runtime.Gosched()
	}
	if !strings.HasPrefix(state, "IO wait") {
		t.Errorf("the wait for the child is in state %q, want IO wait", state)
	}
	select {
	case <-done:
		t.Fatal("awaitExit returned while the child runs")
	default:
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("awaitExit did not return after the child was killed")
	}
	if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Wait after awaitExit = %v, want the kill", err)
	}

	// A child that has already exited: awaitExit returns, and Wait reaps it.
	exited := exec.Command("true")
	if err := exited.Start(); err != nil {
		t.Fatal(err)
	}
	awaitExit(exited.Process)
	awaitExit(exited.Process) // a zombie's pidfd reads ready at once
	if err := exited.Wait(); err != nil {
		t.Fatal(err)
	}
}
