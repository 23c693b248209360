//go:build hostile

package hostile

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// proc is a judge serve process of the suite.
type proc struct {
	url string
	pid int
	cmd *exec.Cmd
}

// judgeServe is the suite's judge serve, with the defaults of a fresh
// install; judgeBin is the judge it runs.
var (
	judgeServe *proc
	judgeBin   string
)

// TestMain builds judge, starts judge serve on a free loopback port,
// runs the suite against it, reports its peak RSS, and stops it (with its
// process group).
func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "hostile")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	judgeBin = filepath.Join(dir, "judge")
	build := exec.Command("go", "build", "-o", judgeBin, "./cmd/judge")
	build.Dir = filepath.Join("..", "..")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "hostile: go build:", err)
		return 1
	}
	judgeServe, err = serve()
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		return 1
	}
	defer judgeServe.stop()
	code := m.Run()
	if hwm, rss, err := memory(judgeServe.pid); err == nil {
		fmt.Printf("hostile: judge serve peak RSS (VmHWM) %d MB, RSS at the end %d MB\n", hwm>>10, rss>>10)
	} else {
		fmt.Println("hostile: peak RSS:", err)
	}
	return code
}

// serve starts judge serve on a free loopback port with the extra flags
// given, and returns once it listens.
func serve(flags ...string) (*proc, error) {
	cmd := exec.Command(judgeBin, append([]string{"serve", "--addr", "127.0.0.1:0"}, flags...)...)
	// An open API, sessions in memory, no model: the defaults of a
	// fresh install.
	cmd.Env = append(os.Environ(), "JUDGE_API_TOKEN=", "JUDGE_REDIS_URL=", "JUDGE_LLM_BASE_URL=")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("judge serve: %w", err)
	}
	p := &proc{pid: cmd.Process.Pid, cmd: cmd}
	lines := bufio.NewScanner(stderr)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	for lines.Scan() {
		var l struct{ Msg, URL string }
		if json.Unmarshal(lines.Bytes(), &l) == nil && l.Msg == "judge serve listening" {
			p.url = l.URL
			break
		}
	}
	if p.url == "" {
		p.stop()
		return nil, fmt.Errorf("judge serve exited before listening: %v", lines.Err())
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()
	return p, nil
}

// stop kills the process and its group, and waits for it.
func (p *proc) stop() {
	_ = syscall.Kill(-p.pid, syscall.SIGKILL)
	_ = p.cmd.Wait()
}

// memory reads the peak and current resident set of pid, in KiB.
func memory(pid int) (hwm, rss int64, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		var v int64
		if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &v); err == nil {
			hwm = v
		}
		if _, err := fmt.Sscanf(line, "VmRSS: %d kB", &v); err == nil {
			rss = v
		}
	}
	return hwm, rss, nil
}

// answer is a response read whole.
type answer struct {
	status int
	header http.Header
	body   string
}

// send posts body to path on judge serve and reads the whole answer.
func send(t *testing.T, path string, body io.Reader) answer {
	t.Helper()
	return sendTo(t, judgeServe, path, body)
}

// sendTo is send to the judge serve p.
func sendTo(t *testing.T, p *proc, path string, body io.Reader) answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("POST %s: reading the answer: %v", path, err)
	}
	return answer{resp.StatusCode, resp.Header, string(b)}
}

// stillServing checks that judge serve answers /healthz and an ordinary
// /validate correctly: an invalid output is found invalid, with its issue.
func stillServing(t *testing.T) {
	t.Helper()
	resp, err := http.Get(judgeServe.url + "/healthz")
	if err != nil {
		t.Fatalf("after the input, /healthz: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("after the input, /healthz answers %d", resp.StatusCode)
	}
	a := send(t, "/validate", strings.NewReader(`{"output": {"name": 7}, "expected_schema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name", "email"]}}`))
	if a.status != http.StatusOK || !strings.Contains(a.body, `"valid": false`) || !strings.Contains(a.body, `"type": "missing_field"`) || !strings.Contains(a.body, `"type": "invalid_type"`) {
		t.Fatalf("after the input, an ordinary /validate answers %d:\n%.2000s", a.status, a.body)
	}
}

// hostileCase is one input and what judge serve must answer.
type hostileCase struct {
	name   string
	path   string
	body   func() io.Reader
	status int      // 0: any (check decides)
	want   []string // substrings of the answer
	// check, when set, checks more of the answer.
	check func(t *testing.T, a answer)
}

// runCases sends each case, checks its answer, then that the server still
// serves.
func runCases(t *testing.T, cases []hostileCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			a := send(t, c.path, c.body())
			elapsed := time.Since(start)
			if c.status != 0 && a.status != c.status {
				t.Errorf("status %d, want %d; answer:\n%.1500s", a.status, c.status, a.body)
			}
			for _, w := range c.want {
				if !strings.Contains(a.body, w) {
					t.Errorf("the answer does not contain %q:\n%.1500s", w, a.body)
				}
			}
			if c.check != nil {
				c.check(t, a)
			}
			t.Logf("%s: %d in %v: %.200s", c.name, a.status, elapsed.Round(time.Millisecond), strings.Join(strings.Fields(a.body), " "))
			stillServing(t)
		})
	}
}

// str returns a body func of a fixed string.
func str(s string) func() io.Reader { return func() io.Reader { return strings.NewReader(s) } }

// quote returns s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// repeat is bytes.Repeat for strings, named for the tables.
func repeat(s string, n int) string { return string(bytes.Repeat([]byte(s), n)) }
