package executor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agentjudge/judge/manifest"
)

// process is one run of the subprocess primitive: an argument array
// (never a shell string), a working directory, an environment, stdin, a
// timeout and output caps.
type process struct {
	Argv    []string
	Dir     string
	Env     []string
	Stdin   []byte
	Timeout time.Duration
	MaxOut  int64
}

// processResult is what a process left.
type processResult struct {
	Stdout, Stderr []byte
	ExitCode       int
	Truncated      bool // stdout or stderr passed MaxOut: the group was killed
	TimedOut       bool
}

// run starts p in its own process group, feeds it stdin, and waits for it
// under its timeout. When the process exits, times out, or writes more
// than MaxOut bytes to stdout or stderr, the whole group is killed, so no
// child or grandchild outlives the call. It returns an error only when the
// process cannot start.
func (p process) run(ctx context.Context) (*processResult, error) {
	if len(p.Argv) == 0 || p.Argv[0] == "" {
		return nil, errors.New("no program to run")
	}
	ctx, cancel := context.WithTimeout(ctx, p.Timeout)
	defer cancel()
	cmd := exec.Command(p.Argv[0], p.Argv[1:]...)
	cmd.Dir, cmd.Env = p.Dir, p.Env
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if p.Stdin != nil {
		cmd.Stdin = bytes.NewReader(p.Stdin)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	if err := cmd.Start(); err != nil {
		outR.Close()
		outW.Close()
		errR.Close()
		errW.Close()
		return nil, err
	}
	outW.Close()
	errW.Close()
	pgid := cmd.Process.Pid
	kill := func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) }

	res := &processResult{}
	var truncated sync.Once
	over := func() { truncated.Do(func() { res.Truncated = true; kill() }) }
	var wg sync.WaitGroup
	var stdout, stderr bytes.Buffer
	wg.Go(func() { capRead(outR, &stdout, p.MaxOut, over) })
	wg.Go(func() { capRead(errR, &stderr, p.MaxOut, over) })

	waited := make(chan error, 1)
	go func() { awaitExit(cmd.Process); waited <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-waited:
	case <-ctx.Done():
		res.TimedOut = true
		kill()
		werr = <-waited
	}
	// The leader is gone: end whatever it left in its group, so that the
	// pipes close and nothing outlives the call.
	kill()
	wg.Wait()
	outR.Close()
	errR.Close()
	res.Stdout, res.Stderr = stdout.Bytes(), stderr.Bytes()
	var ee *exec.ExitError
	switch {
	case werr == nil:
	case errors.As(werr, &ee):
		res.ExitCode = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.ExitCode = 128 + int(ws.Signal())
		}
	default:
		return nil, werr
	}
	return res, nil
}

// capRead copies r into buf up to max bytes; past it, over is called once
// and the rest is drained and dropped.
func capRead(r io.Reader, buf *bytes.Buffer, max int64, over func()) {
	n, _ := io.Copy(buf, io.LimitReader(r, max))
	if n < max {
		return
	}
	var one [1]byte
	if k, _ := r.Read(one[:]); k > 0 {
		over()
	}
	_, _ = io.Copy(io.Discard, r)
}

// runScript runs a script tool: the runtime's command and args, the
// entrypoint, then the script's own args; the arguments as one JSON object
// on stdin (runtime config.input: stdin, the default) or as arguments
// (input: args: the script's config.args with {name} filled, or else each
// declared parameter's value in order).
func (r *Runner) runScript(ctx context.Context, rn *runnable, args map[string]any) (*Result, error) {
	t, rt := rn.tool, rn.runtime
	dir, err := toolDir(t)
	if err != nil {
		return nil, err
	}
	work := dir
	if wd, _ := t.Config["working_dir"].(string); wd != "" {
		if work, err = inside(dir, wd); err != nil {
			return nil, fmt.Errorf("config.working_dir: %w", err)
		}
	}
	ep, _ := t.Config["entrypoint"].(string)
	if ep == "" {
		ep = filepath.Base(t.Path)
	}
	entry, err := inside(dir, ep)
	if err != nil {
		return nil, fmt.Errorf("config.entrypoint: %w", err)
	}
	cmdName, _ := rt.Config["command"].(string)
	argv := []string{cmdName}
	for _, a := range stringList(rt.Config["args"]) {
		v, err := expand(a, r.cfg.getenv, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("runtime %s config.args: %w", rt.ID, err)
		}
		argv = append(argv, v)
	}
	argv = append(argv, entry)
	input, _ := rt.Config["input"].(string)
	var stdin []byte
	scriptArgs := stringList(t.Config["args"])
	switch input {
	case "", "stdin":
		if stdin, err = json.Marshal(args); err != nil {
			return nil, err
		}
		for _, a := range scriptArgs {
			v, err := expand(a, r.cfg.getenv, paramLookup(args), nil)
			if err != nil {
				return nil, fmt.Errorf("config.args: %w", err)
			}
			argv = append(argv, v)
		}
	case "args":
		if len(scriptArgs) > 0 {
			for _, a := range scriptArgs {
				v, err := expand(a, r.cfg.getenv, paramLookup(args), nil)
				if err != nil {
					return nil, fmt.Errorf("config.args: %w", err)
				}
				argv = append(argv, v)
			}
		} else {
			for _, name := range paramOrder(t) {
				if v, ok := args[name]; ok {
					argv = append(argv, paramText(v))
				}
			}
		}
	default:
		return nil, fmt.Errorf("runtime %s: config.input %q is neither stdin nor args", rt.ID, input)
	}
	env, err := childEnv(r.cfg.envAllow, r.cfg.getenv, asMap(rt.Config["env"]), asMap(t.Config["env"]))
	if err != nil {
		return nil, err
	}
	timeout := toolTimeout(t.Config, rt.Config, r.cfg.limits.Timeout)
	r.cfg.logger.Debug("run", "tool", t.ID, "argv0", cmdName, "dir", work)
	pr, err := process{Argv: argv, Dir: work, Env: env, Stdin: stdin, Timeout: timeout, MaxOut: r.cfg.limits.MaxOutput}.run(ctx)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", cmdName, err)
	}
	if pr.TimedOut {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w after %s (process group killed)", ErrTimeout, timeout)
	}
	return processAnswer(pr, r.cfg.limits.MaxOutput), nil
}

// processAnswer makes a Result of a finished process.
func processAnswer(pr *processResult, max int64) *Result {
	res := &Result{ExitCode: pr.ExitCode, Stderr: string(pr.Stderr), Truncated: pr.Truncated}
	res.Text = string(pr.Stdout)
	res.IsError = pr.ExitCode != 0 || pr.Truncated
	if v, ok := jsonValue(pr.Stdout); ok && !pr.Truncated {
		res.Value = v
	} else {
		res.Value = res.Text
	}
	if pr.Truncated {
		res.Text = fmt.Sprintf("%s\n[output cut: the tool wrote more than %d bytes and was stopped]", res.Text, max)
		res.Value = res.Text
	}
	if res.IsError && strings.TrimSpace(res.Text) == "" {
		res.Text = strings.TrimSpace(res.Stderr)
		if res.Text == "" {
			res.Text = fmt.Sprintf("the tool exited with status %d", pr.ExitCode)
		}
		res.Value = res.Text
	}
	return res
}

// jsonValue parses b as one JSON value (numbers kept as json.Number).
func jsonValue(b []byte) (any, bool) {
	s := bytes.TrimSpace(b)
	if len(s) == 0 {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return v, true
}

// toolDir is the absolute directory of a script tool.
func toolDir(t *manifest.Tool) (string, error) {
	d, err := filepath.Abs(filepath.Dir(t.Path))
	if err != nil {
		return "", err
	}
	return d, nil
}

// inside joins rel to dir and refuses a result outside dir (an absolute
// rel, '..', or a symbolic link that leads out).
func inside(dir, rel string) (string, error) {
	if filepath.IsAbs(rel) {
		return "", fmt.Errorf("%q is absolute; it must be inside the tool's directory", rel)
	}
	p := filepath.Join(dir, rel)
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	if real != realDir && !strings.HasPrefix(real, realDir+string(filepath.Separator)) {
		return "", fmt.Errorf("%q leads outside the tool's directory", rel)
	}
	return real, nil
}

// paramOrder is the order of a tool's parameters: as the parameters list
// gives them, else the schema's properties sorted.
func paramOrder(t *manifest.Tool) []string {
	var out []string
	for _, p := range t.Parameters {
		out = append(out, p.Name)
	}
	if len(out) > 0 {
		return out
	}
	props, _ := t.Schema()["properties"].(map[string]any)
	for k := range props {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func stringList(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, x := range l {
		out = append(out, paramText(x))
	}
	return out
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
