package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/result"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden with the actual output")

// binDir holds the judge binary the tests run, built once by judgeBin.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "judge-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binDir = dir
	// The tests set the environment they mean: a model, a config file, a
	// Redis server or a token of the machine running them must not change
	// what judge does under test.
	for _, v := range []string{"JUDGE_CONFIG", "JUDGE_LLM_BASE_URL", "JUDGE_LLM_MODEL", "JUDGE_LLM_API_KEY", "JUDGE_LLM_CACHE_DIR", "JUDGE_REDIS_URL", "JUDGE_API_TOKEN"} {
		os.Unsetenv(v)
	}
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "no-config"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// judgeBin returns the path of the judge binary, building it on first use
// (so that fuzzing workers, which run TestMain too, do not build it).
func judgeBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		gotool, err := exec.LookPath("go")
		if err != nil {
			buildErr = fmt.Errorf("the go command is needed to build judge: %w", err)
			return
		}
		binPath = filepath.Join(binDir, "judge")
		cmd := exec.Command(gotool, "build", "-o", binPath, ".")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// repoRoot is the module's root, where the examples' paths start.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// run is one run of the judge binary.
type run struct {
	stdout, stderr string
	code           int
}

// runJudge runs the judge binary in the repository's root with args and
// stdin, and returns what it wrote and its exit status.
func runJudge(t *testing.T, stdin []byte, args ...string) run {
	t.Helper()
	return execJudge(t, stdin, nil, args...)
}

// execJudge runs the judge binary in the repository's root with args,
// stdin (none when nil) and the environment env (this process's when nil),
// and returns what it wrote and its exit status.
func execJudge(t *testing.T, stdin []byte, env []string, args ...string) run {
	t.Helper()
	// Build first: on a fresh machine building judge takes minutes, and
	// the minute is for the run alone.
	bin := judgeBin(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = repoRoot(t)
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("judge %s: %v", strings.Join(args, " "), err)
	}
	return run{stdout.String(), stderr.String(), code}
}

func TestBinaryExitStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		code int
		// stderr matches the whole of stderr.
		stderr string
	}{
		{"valid", []string{"validate", "examples/ticket-fixed.json", "--schema", "examples/ticket.schema.json", "--rules", "examples/ticket.rules.json"}, 0, `^$`},
		{"invalid", []string{"validate", "examples/ticket.json", "--schema", "examples/ticket.schema.json", "--rules", "examples/ticket.rules.json"}, 1, `^$`},
		{"malformed schema", []string{"validate", "examples/ticket.json", "--schema", "examples/broken.schema.json"},
			2, `^judge: examples/broken\.schema\.json:8:3: the schema file is not valid JSON: .*\n$`},
		{"missing file", []string{"validate", "examples/nope.json"}, 2, `^judge: examples/nope\.json: no such output file\n$`},
		{"unknown type", []string{"validate", "examples/ticket.json", "--types", "schema,spelling"}, 2, `^judge: --types: unknown validation type "spelling".*\n$`},
		{"bad flag value", []string{"validate", "examples/ticket.json", "--format", "xml"}, 2, `^judge: invalid argument "xml" for "--format" flag: "xml" is not one of json, text \(see 'judge validate --help'\)\n$`},
		{"unknown flag", []string{"validate", "--nope"}, 2, `^judge: unknown flag: --nope`},
		{"two files", []string{"validate", "a.json", "b.json"}, 2, `^judge: accepts at most 1 arg\(s\), received 2\n$`},
		{"unknown command", []string{"frobnicate"}, 2, `^judge: unknown command "frobnicate" for "judge"`},
		{"min quality out of range", []string{"validate", "examples/ticket.json", "--min-quality", "2"}, 2, `^judge: --min-quality 2 is not in \[0, 1\]\n$`},
		{"min quality met", []string{"validate", "examples/ticket-fixed.json", "--schema", "examples/ticket.schema.json", "--min-quality", "0.9"}, 0, `^$`},
		{"invalid below min quality", []string{"validate", "examples/ticket.json", "--schema", "examples/ticket.schema.json", "--min-quality", "0.9"}, 1, `^$`},
		{"version", []string{"version"}, 0, `^$`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := runJudge(t, nil, tc.args...)
			if r.code != tc.code {
				t.Errorf("exit status %d, want %d\nstderr: %s", r.code, tc.code, r.stderr)
			}
			if !regexp.MustCompile(tc.stderr).MatchString(r.stderr) {
				t.Errorf("stderr %q does not match %q", r.stderr, tc.stderr)
			}
		})
	}
}

func TestBinaryStdin(t *testing.T) {
	t.Parallel()
	fixed, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "ticket-fixed.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"validate", "-", "--schema", "examples/ticket.schema.json"},
		{"validate", "--schema", "examples/ticket.schema.json"}, // no FILE: stdin too
	} {
		r := runJudge(t, fixed, args...)
		if r.code != 0 {
			t.Errorf("judge %s < ticket-fixed.json: exit status %d, want 0\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
		if err := result.CheckJSON([]byte(r.stdout)); err != nil {
			t.Errorf("stdout is not a ValidationResult: %v", err)
		}
	}
	// Text on stdin is validated as a string.
	r := runJudge(t, []byte("just some words\n"), "validate", "-", "--schema", "examples/ticket.schema.json")
	if r.code != 1 || !strings.Contains(r.stdout, `"invalid_type"`) {
		t.Errorf("text on stdin: exit status %d, want 1 with an invalid_type issue\n%s", r.code, r.stdout)
	}
}

func TestBinaryJSONOutput(t *testing.T) {
	t.Parallel()
	// Not a terminal, so JSON is the default.
	r := runJudge(t, nil, "validate", "examples/ticket.json", "--schema", "examples/ticket.schema.json", "--rules", "examples/ticket.rules.json")
	if r.code != 1 {
		t.Fatalf("exit status %d, want 1\n%s", r.code, r.stderr)
	}
	if err := result.CheckJSON([]byte(r.stdout)); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	var res result.ValidationResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Valid || res.Metadata.ErrorCount == 0 || len(res.FailedCriteria) != 1 || len(res.PassedCriteria) != 1 {
		t.Errorf("want an invalid result with errors, one passed and one failed criterion; got %s", r.stdout)
	}
}

func TestBinaryFencedMarkdown(t *testing.T) {
	t.Parallel()
	r := runJudge(t, nil, "validate", "examples/answer.md", "--schema", "examples/ticket.schema.json")
	if r.code != 0 {
		t.Fatalf("exit status %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	var res result.ValidationResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	if !hasIssue(&res, result.OutputParsed, "fenced block at line 4") {
		t.Errorf("want a note that the fence at line 4 was parsed, got %+v", res.Issues)
	}
}

// TestBinaryTextGolden checks the text report of the README's main command
// against testdata/ticket.text.golden; run with -update to rewrite it.
func TestBinaryTextGolden(t *testing.T) {
	t.Parallel()
	r := runJudge(t, nil, "validate", "examples/ticket.json", "--schema", "examples/ticket.schema.json", "--rules", "examples/ticket.rules.json", "--format", "text")
	if r.code != 1 {
		t.Fatalf("exit status %d, want 1\n%s", r.code, r.stderr)
	}
	// The text report has no duration; drop one anyway should it appear.
	got := regexp.MustCompile(`(?m)^Duration: .*\n`).ReplaceAllString(r.stdout, "")
	checkGolden(t, filepath.Join("testdata", "ticket.text.golden"), got)
}

// checkGolden compares got with the golden file, or writes it there
// under -update.
func checkGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("text report differs from %s (run with -update to accept):\n%s", golden, lineDiff(string(want), got))
	}
}

// lineDiff is a minimal line diff: lines only in want with "-", only in got
// with "+", in order.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var sb strings.Builder
	i, j := 0, 0
	for i < len(w) || j < len(g) {
		switch {
		case i < len(w) && j < len(g) && w[i] == g[j]:
			fmt.Fprintf(&sb, "  %s\n", w[i])
			i++
			j++
		case i < len(w) && (j >= len(g) || !contains(g[j:], w[i])):
			fmt.Fprintf(&sb, "- %s\n", w[i])
			i++
		default:
			fmt.Fprintf(&sb, "+ %s\n", g[j])
			j++
		}
	}
	return sb.String()
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

func TestBinaryServe(t *testing.T) {
	t.Parallel()
	const token = "test-token-4f1c"
	cmd := exec.Command(judgeBin(t), "serve", "--addr", "127.0.0.1:0", "--schemas", "examples/schemas", "--log-level", "debug")
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "JUDGE_API_TOKEN="+token)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{}) // closed when the process has exited
	var waitErr error
	var logs sharedtest.SyncBuffer
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			fmt.Fprintln(&logs, sc.Text())
			var rec struct{ Msg, URL, Model string }
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.URL != "" {
				if rec.Model != result.Deterministic {
					t.Errorf("the start-up log says model %q, want %q as everywhere else: %s", rec.Model, result.Deterministic, sc.Text())
				}
				select {
				case urlc <- rec.URL:
				default:
				}
			}
		}
		waitErr = cmd.Wait()
		close(done)
	}()
	t.Cleanup(func() {
		select {
		case <-done:
		default:
			_ = cmd.Process.Kill()
			<-done
		}
	})

	var base string
	select {
	case base = <-urlc:
	case <-done:
		t.Fatalf("judge serve exited before listening: %v\n%s", waitErr, logs.String())
	case <-time.After(20 * time.Second):
		t.Fatalf("judge serve logged no address within 20s\n%s", logs.String())
	}
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("listening at %q, want http://127.0.0.1:<port>", base)
	}

	// The address is logged once the listener is bound: a connection made
	// now waits in its backlog until the server serves it, so one request
	// needs no retry; a server that exits instead fails it.
	client := &http.Client{Timeout: 20 * time.Second}
	resp, err := client.Get(base + "/healthz")
	if err != nil {
		t.Fatalf("/healthz: %v\n%s", err, logs.String())
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz: status %d, want 200\n%s", resp.StatusCode, logs.String())
	}

	body, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "request.json"))
	if err != nil {
		t.Fatal(err)
	}
	post := func(auth string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, base+"/validate", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(resp.Body); err != nil {
			t.Fatal(err)
		}
		return resp, buf.Bytes()
	}
	if resp, _ := post(""); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("POST /validate without a token: status %d, want 401", resp.StatusCode)
	}
	resp, got := post("Bearer " + token)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /validate: status %d, want 200\n%s", resp.StatusCode, got)
	}
	if err := result.CheckJSON(got); err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	var res result.ValidationResult
	if err := json.Unmarshal(got, &res); err != nil {
		t.Fatal(err)
	}
	// examples/request.json: the customer lacks an email (through the
	// $ref into --schemas) and a P1 ticket has an 8-hour SLA.
	if res.Valid || !hasIssue(&res, result.MissingField, "email") || len(res.FailedCriteria) != 1 {
		t.Errorf("want an invalid result with email missing and one failed criterion, got %s", got)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
		if waitErr != nil {
			t.Fatalf("judge serve after SIGTERM: %v, want exit status 0\n%s", waitErr, logs.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("judge serve still running 5s after SIGTERM\n%s", logs.String())
	}
}
