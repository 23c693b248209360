package executor_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentjudge/judge/executor"
	"github.com/agentjudge/judge/manifest"
)

// mcptest builds the test MCP server (testdata/mcpserver) once per test
// process and returns its path. Building lazily keeps fuzz workers, which
// run no MCP test, from building it.
var mcptest = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "mcptest")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "mcptest")
	out, err := exec.Command("go", "build", "-o", bin, "./testdata/mcpserver").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building the test MCP server: %v\n%s", err, out)
	}
	return bin, nil
})

func mcptestBin(t testing.TB) string {
	t.Helper()
	bin, err := mcptest()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// fixture copies testdata/tools (and the test MCP server beside its
// manifests) into a temporary directory and returns it.
func fixture(t testing.TB) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir("testdata/tools", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("testdata/tools", p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, _ := d.Info()
		return os.WriteFile(target, data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(mcptestBin(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, "mcptest"), bin, 0o755); err != nil {
		t.Fatal(err)
	}
	return dst
}

// env is a parent environment for the tests: the real PATH and HOME, a
// secret no manifest declares, and what the manifests reference.
func env(extra map[string]string) func(string) (string, bool) {
	m := map[string]string{
		"PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME"),
		"JUDGE_TEST_SECRET":   "s3cret-never-passed",
		"JUDGE_TEST_DECLARED": "declared-value",
		"MCPTEST_DELAY":       "0s",
		"ITEMS_HOST":          "127.0.0.1:1",
		"ITEMS_KEY":           "key-123",
	}
	for k, v := range extra {
		m[k] = v
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func newRunner(t *testing.T, dir string, opts ...executor.Option) *executor.Runner {
	t.Helper()
	ctx := context.Background()
	reg, err := manifest.LoadDirs(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := executor.New(ctx, reg, append([]executor.Option{executor.WithLookupEnv(env(nil))}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := r.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return r
}

func call(t *testing.T, r *executor.Runner, name, args string) *executor.Result {
	t.Helper()
	res, err := r.Call(context.Background(), name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("Call(%s, %s): %v", name, args, err)
	}
	return res
}

// alive reports whether the process pid exists (and is not a zombie).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state is the field after the command's closing parenthesis.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// waitGone waits, up to 5 s, for pid to end: a process killed with its
// group may take a moment to die, and it need not be the test's child, so
// it is waited on through a pidfd, which becomes readable when the process
// exits (Linux 5.3).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return // gone and reaped
	}
	if err != nil {
		t.Fatalf("pidfd_open %d: %v", pid, err)
	}
	defer unix.Close(fd)
	for {
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 5000)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			t.Fatalf("poll pidfd of %d: %v", pid, err)
		}
		if n == 0 || alive(pid) {
			t.Fatalf("process %d is still running", pid)
		}
		return
	}
}

func TestFixtureLintsClean(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	reg, err := manifest.LoadDirs(ctx, "testdata/tools")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := manifest.Lint(ctx, reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range rep.Keys() {
		for _, is := range rep.Results[k].Issues {
			t.Errorf("%s: %s %s at %s: %s", k, is.Severity, is.Type, is.Location, is.Message)
		}
	}
}

func TestScripts(t *testing.T) {
	t.Parallel()
	r := newRunner(t, fixture(t))
	tests := []struct {
		name, tool, args string
		exit             int
		isError          bool
		value            string // the Value as JSON
		stderr           string
	}{
		{name: "python, JSON on stdin and out", tool: "stats", args: `{"numbers": [1, 2, 3.5]}`,
			value: `{"cwd":"stats","mean":2.1666666666666665,"sum":6.5}`},
		{name: "python, non-zero exit", tool: "stats", args: `{"numbers": []}`, exit: 3, isError: true,
			value: `"no numbers given"`, stderr: "no numbers given\n"},
		{name: "bash, parameters as arguments", tool: "greet", args: `{"name": "Ada; rm -rf / $(id)"}`,
			value: `"hello, Ada; rm -rf / $(id)\n"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, r, tc.tool, tc.args)
			got, _ := json.Marshal(res.Value)
			if string(got) != tc.value || res.ExitCode != tc.exit || res.IsError != tc.isError || res.Stderr != tc.stderr {
				t.Errorf("got value %s exit %d isError %v stderr %q; want %s %d %v %q", got, res.ExitCode, res.IsError, res.Stderr,
					tc.value, tc.exit, tc.isError, tc.stderr)
			}
			if res.Duration <= 0 {
				t.Errorf("Duration %v", res.Duration)
			}
		})
	}
}

func TestEnvAllowlist(t *testing.T) {
	t.Parallel()
	r := newRunner(t, fixture(t))
	res := call(t, r, "envdump", `{}`)
	got, _ := res.Value.(map[string]any)
	if got == nil {
		t.Fatalf("value %v", res.Value)
	}
	want := map[string]any{"JUDGE_TEST_SECRET": nil, "DECLARED_TOKEN": "declared-value", "FIXED": "plain value",
		"HOME": os.Getenv("HOME"), "JUDGE_TEST_DECLARED": nil}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %v, want %v", k, got[k], w)
		}
	}
	// An allowlist without HOME: the child does not get it.
	r2 := newRunner(t, fixture(t), executor.WithEnvAllowlist([]string{"PATH"}))
	res = call(t, r2, "envdump", `{}`)
	if m, _ := res.Value.(map[string]any); m == nil || m["HOME"] != nil || m["DECLARED_TOKEN"] != "declared-value" {
		t.Errorf("HOME reached the child without being allowed, or the declared variable did not: %v", res.Value)
	}
}

func TestTimeoutKillsTheGroup(t *testing.T) {
	t.Parallel()
	dir := fixture(t)
	r := newRunner(t, dir)
	pidfile := filepath.Join(t.TempDir(), "pids")
	start := time.Now()
	_, err := r.Call(context.Background(), "hang", json.RawMessage(fmt.Sprintf(`{"pidfile": %q}`, pidfile)))
	if !errors.Is(err, executor.ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the call took %v with a 1 s timeout", d)
	}
	data, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	pids := strings.Fields(string(data))
	if len(pids) != 2 {
		t.Fatalf("pid file holds %q, want a child and a grandchild", data)
	}
	for _, p := range pids {
		pid, _ := strconv.Atoi(p)
		waitGone(t, pid)
	}
}

func TestOutputCap(t *testing.T) {
	t.Parallel()
	r := newRunner(t, fixture(t), executor.WithLimits(executor.Limits{MaxOutput: 100 << 10}))
	res := call(t, r, "flood", `{}`)
	if !res.Truncated || !res.IsError {
		t.Fatalf("Truncated %v IsError %v", res.Truncated, res.IsError)
	}
	if n := len(res.Text); n < 100<<10 || n > 100<<10+200 {
		t.Errorf("text of %d bytes, want the 100 KiB cap and a note", n)
	}
	if !strings.Contains(res.Text, "output cut") {
		t.Errorf("no note of the cut at the end: %q", res.Text[len(res.Text)-100:])
	}
}

func TestUnknownTool(t *testing.T) {
	t.Parallel()
	r := newRunner(t, "testdata/tools")
	if _, err := r.Call(context.Background(), "nope", nil); !errors.Is(err, executor.ErrUnknownTool) {
		t.Errorf("err = %v, want ErrUnknownTool", err)
	}
}
