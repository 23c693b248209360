// Package serverproc runs a server as a separate process in its own
// process group on loopback: it waits for the line that gives the
// server's URL, reads the process's memory and threads from /proc, and
// kills the whole group when done.
package serverproc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Proc is a started server.
type Proc struct {
	URL  string
	cmd  *exec.Cmd
	done chan struct{}
	mu   sync.Mutex
	tail []string // the last lines it printed, for errors
}

// Start starts name with args and waits up to timeout for a line of its
// output (either stream) from which ready extracts the server's base URL.
// The process is killed, with its group, when ctx is done or Stop is
// called.
func Start(ctx context.Context, timeout time.Duration, ready func(line string) (url string, ok bool), name string, args ...string) (*Proc, error) {
	return StartEnv(ctx, timeout, ready, nil, name, args...)
}

// StartEnv is Start with the process's environment: env, or this
// process's own when env is nil.
func StartEnv(ctx context.Context, timeout time.Duration, ready func(line string) (url string, ok bool), env []string, name string, args ...string) (*Proc, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("serverproc: start %s: %w", name, err)
	}
	p := &Proc{cmd: cmd, done: make(chan struct{})}
	urls := make(chan string, 2)
	var readers sync.WaitGroup
	for _, r := range []io.Reader{stdout, stderr} {
		readers.Go(func() {
			sc := bufio.NewScanner(r)
			sc.Buffer(make([]byte, 64<<10), 1<<20)
			for sc.Scan() {
				line := sc.Text()
				p.mu.Lock()
				if p.tail = append(p.tail, line); len(p.tail) > 20 {
					p.tail = p.tail[1:]
				}
				p.mu.Unlock()
				if u, ok := ready(line); ok {
					select {
					case urls <- u:
					default:
					}
				}
			}
		})
	}
	go func() {
		readers.Wait()
		_ = cmd.Wait()
		close(p.done)
	}()
	go func() {
		select {
		case <-ctx.Done():
			p.Stop()
		case <-p.done:
		}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case p.URL = <-urls:
		return p, nil
	case <-p.done:
		return nil, fmt.Errorf("serverproc: %s exited before it was ready: %s", filepath.Base(name), p.lastLines())
	case <-timer.C:
		p.Stop()
		return nil, fmt.Errorf("serverproc: %s was not ready within %v: %s", filepath.Base(name), timeout, p.lastLines())
	case <-ctx.Done():
		p.Stop()
		return nil, ctx.Err()
	}
}

func (p *Proc) lastLines() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.tail, " | ")
}

// PID returns the process id.
func (p *Proc) PID() int { return p.cmd.Process.Pid }

// Stop kills the process group and waits for the process to exit.
func (p *Proc) Stop() {
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.done
}

// Status holds what /proc/PID/status says of memory and threads.
type Status struct {
	RSS     int64 // VmRSS, bytes
	PeakRSS int64 // VmHWM, bytes: the highest RSS since the start
	Threads int
}

// ReadStatus reads /proc/PID/status of the process.
func (p *Proc) ReadStatus() (Status, error) { return ReadStatus(p.PID()) }

// ReadStatus reads /proc/PID/status of pid.
func ReadStatus(pid int) (Status, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return Status{}, err
	}
	return parseStatus(data)
}

// parseStatus reads VmRSS, VmHWM and Threads of a /proc/PID/status text.
func parseStatus(data []byte) (Status, error) {
	var s Status
	found := 0
	for line := range strings.SplitSeq(string(data), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		// Unsigned and at most 2^40 kB, so that no figure is negative
		// or overflows when shifted to bytes.
		u, err := strconv.ParseUint(f[0], 10, 40)
		if err != nil {
			continue
		}
		n := int64(u)
		switch k {
		case "VmRSS":
			s.RSS, found = n<<10, found+1
		case "VmHWM":
			s.PeakRSS, found = n<<10, found+1
		case "Threads":
			s.Threads, found = int(n), found+1
		}
	}
	if found < 3 {
		return s, errors.New("serverproc: /proc status lacks VmRSS, VmHWM or Threads")
	}
	return s, nil
}

// Build builds the Go command pkg (e.g. "./cmd/judge", from the
// repository root) into dir and returns the binary's path.
func Build(ctx context.Context, dir, pkg string) (string, error) {
	bin := filepath.Join(dir, filepath.Base(pkg))
	out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build %s (run from the repository root): %w\n%s", pkg, err, out)
	}
	return bin, nil
}

// JudgeReady reads judge serve's JSON log line "judge serve listening"
// and returns its url.
func JudgeReady(line string) (string, bool) {
	var l struct {
		Msg string `json:"msg"`
		URL string `json:"url"`
	}
	if json.Unmarshal([]byte(line), &l) != nil || l.Msg != "judge serve listening" || l.URL == "" {
		return "", false
	}
	return l.URL, true
}

// StartJudge starts `judge serve --addr 127.0.0.1:0` from the binary bin,
// with extra arguments, and waits up to a minute for it to listen.
func StartJudge(ctx context.Context, bin string, extra ...string) (*Proc, error) {
	return Start(ctx, time.Minute, JudgeReady, bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, extra...)...)
}

// StartJudgeEnv is StartJudge with the process's environment (nil: this
// process's own).
func StartJudgeEnv(ctx context.Context, bin string, env []string, extra ...string) (*Proc, error) {
	return StartEnv(ctx, time.Minute, JudgeReady, env, bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, extra...)...)
}

// clockTicks is the unit of /proc/PID/stat's CPU times (USER_HZ), 100 on
// every Linux architecture Go supports.
const clockTicks = 100

// CPUTime returns the CPU time (user + system, every thread) the process
// has used so far, from /proc/PID/stat, in steps of 10 ms.
func (p *Proc) CPUTime() (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.PID()))
	if err != nil {
		return 0, err
	}
	return parseStat(data)
}

// parseStat reads utime and stime (fields 14 and 15) of a /proc/PID/stat
// line; the command name (field 2) is in parentheses and may hold spaces
// and parentheses, so the fields are counted after its last ')'.
func parseStat(data []byte) (time.Duration, error) {
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, errors.New("serverproc: /proc stat has no command name")
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state): utime is field 14, f[11]; stime f[12].
	if len(f) < 13 {
		return 0, fmt.Errorf("serverproc: /proc stat has %d fields after the name, want at least 13", len(f))
	}
	var ticks uint64
	for _, v := range f[11:13] {
		n, err := strconv.ParseUint(v, 10, 40)
		if err != nil {
			return 0, fmt.Errorf("serverproc: /proc stat CPU time %q: %w", v, err)
		}
		ticks += n
	}
	// At most what a Duration holds (about 292 years of CPU).
	if ticks > uint64(math.MaxInt64/int64(time.Second/clockTicks)) {
		return 0, fmt.Errorf("serverproc: /proc stat CPU time of %d ticks is out of range", ticks)
	}
	return time.Duration(ticks) * (time.Second / clockTicks), nil
}
