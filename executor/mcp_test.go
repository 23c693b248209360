package executor_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentjudge/judge/executor"
	"github.com/agentjudge/judge/manifest"
)

func toolNames(ts []executor.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

func TestMCPStdio(t *testing.T) {
	t.Parallel()
	r := newRunner(t, fixture(t))
	ctx := context.Background()
	tools, err := r.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	names := toolNames(tools)
	for _, want := range []string{"stats", "greet", "items_api", "test_echo", "echo", "add", "fail", "crash", "spawn", "pid"} {
		if !slices.Contains(names, want) {
			t.Errorf("Tools lacks %s: %v", want, names)
		}
	}
	for _, tl := range tools {
		switch tl.Name {
		case "add":
			if tl.Server != "testmcp" || tl.Upstream != "add" || !strings.Contains(string(tl.InputSchema), `"a"`) || !strings.Contains(string(tl.OutputSchema), `"sum"`) {
				t.Errorf("add: %+v", tl)
			}
		case "test_echo":
			if tl.Server != "testmcp" || tl.Upstream != "echo" || tl.Kind != manifest.MCPTool || !strings.Contains(string(tl.InputSchema), `"message"`) {
				t.Errorf("test_echo: %+v", tl)
			}
		case "stats":
			if tl.Server != "" || !strings.Contains(string(tl.InputSchema), `"numbers"`) {
				t.Errorf("stats: %+v", tl)
			}
		}
	}

	t.Run("mcp_tool", func(t *testing.T) {
		res := call(t, r, "test_echo", `{"message": "through the manifest"}`)
		if res.IsError || res.Text != "through the manifest" || res.Value != "through the manifest" {
			t.Errorf("%+v", res)
		}
	})
	t.Run("structured content", func(t *testing.T) {
		res := call(t, r, "add", `{"a": 2, "b": 40}`)
		m, _ := res.Value.(map[string]any)
		if res.IsError || m == nil || m["sum"] != json.Number("42") {
			t.Errorf("%+v", res)
		}
		if mr := res.MCPResult(); mr.StructuredContent == nil {
			t.Errorf("MCPResult lost structuredContent: %+v", mr)
		}
	})
	t.Run("upstream error", func(t *testing.T) {
		res := call(t, r, "fail", `{}`)
		if !res.IsError || !strings.Contains(res.Text, "failed on purpose") {
			t.Errorf("%+v", res)
		}
	})
}

func TestMCPRestartAfterCrash(t *testing.T) {
	t.Parallel()
	r := newRunner(t, fixture(t))
	pid1, err := strconv.Atoi(call(t, r, "pid", `{}`).Text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Call(context.Background(), "crash", json.RawMessage(`{}`)); err == nil {
		t.Fatal("a call that crashed the server returned no error")
	}
	waitGone(t, pid1)
	pid2, err := strconv.Atoi(call(t, r, "pid", `{}`).Text)
	if err != nil {
		t.Fatal(err)
	}
	if pid2 == pid1 {
		t.Errorf("the server was not restarted: pid %d both times", pid1)
	}
	if res := call(t, r, "echo", `{"message": "back"}`); res.Text != "back" {
		t.Errorf("after restart: %+v", res)
	}
}

func TestMCPCloseKillsChildren(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	reg, err := manifest.LoadDirs(ctx, fixture(t))
	if err != nil {
		t.Fatal(err)
	}
	r, err := executor.New(ctx, reg, executor.WithLookupEnv(env(nil)))
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, r, "spawn", `{}`)
	m, _ := res.Value.(map[string]any)
	pid, _ := strconv.Atoi(fmt.Sprint(m["pid"]))
	child, _ := strconv.Atoi(fmt.Sprint(m["child_pid"]))
	if pid == 0 || child == 0 || !alive(pid) || !alive(child) {
		t.Fatalf("spawn: %+v", res)
	}
	if err := r.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	waitGone(t, pid)
	waitGone(t, child)
	if _, err := r.Call(ctx, "echo", json.RawMessage(`{"message":"x"}`)); !errors.Is(err, executor.ErrClosed) {
		t.Errorf("call after Close: %v, want ErrClosed", err)
	}
}

func TestMCPStartupTimeout(t *testing.T) {
	t.Parallel()
	dir := fixture(t)
	// The server sleeps 30 s before it answers; its manifest allows 1 s.
	manifestPath := filepath.Join(dir, "testmcp.yaml")
	data, _ := os.ReadFile(manifestPath)
	if err := os.WriteFile(manifestPath, []byte(strings.Replace(string(data), "startup_timeout: 20", "startup_timeout: 1", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	reg, err := manifest.LoadDirs(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := executor.New(ctx, reg, executor.WithLookupEnv(env(map[string]string{"MCPTEST_DELAY": "30s"})))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	start := time.Now()
	_, err = r.Call(ctx, "test_echo", json.RawMessage(`{"message": "x"}`))
	if !errors.Is(err, executor.ErrTimeout) || !strings.Contains(err.Error(), "startup_timeout") {
		t.Errorf("err = %v, want a startup timeout", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("gave up after %v with a 1 s startup_timeout", d)
	}
	// Tools still answers, leaving the server out with its reason.
	tools, err := r.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(toolNames(tools), "echo") {
		t.Error("the server that did not start lists tools")
	}
	var reason string
	for _, s := range r.Skipped() {
		if s.Tool == "testmcp" {
			reason = s.Reason
		}
	}
	if !strings.Contains(reason, "startup_timeout") {
		t.Errorf("Skipped: %+v", r.Skipped())
	}
}

// TestMCPOverHTTP runs an mcp_tool on the test server reached by URL, over
// each HTTP transport a manifest may name: streamable HTTP (also written
// "http") and the older HTTP+SSE transport. Loopback is refused unless
// allowed.
func TestMCPOverHTTP(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		transport string
		flags     []string
	}{
		{"streamable-http", nil},
		{"http", nil},
		{"sse", []string{"-sse"}},
	} {
		t.Run(tc.transport, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cmd := exec.CommandContext(ctx, mcptestBin(t), append([]string{"-http", "127.0.0.1:0"}, tc.flags...)...)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { cancel(); _ = cmd.Wait() }()
			line, err := bufio.NewReader(out).ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			url := strings.TrimSpace(strings.TrimPrefix(line, "listening on "))
			dir := t.TempDir()
			write := func(name, body string) {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("remote.yaml", fmt.Sprintf(`tool_id: remote
tool_type: mcp_server
version: "1.0.0"
executor: http_client
description: The test server over HTTP
config:
  transport: %s
  url: %q
`, tc.transport, url))
			write("remote_add.yaml", `tool_id: remote_add
tool_type: mcp_tool
version: "1.0.0"
executor: remote
description: Adds two numbers on the remote server
config:
  mcp_tool_name: add
`)
			r := newRunner(t, dir, executor.WithAllowLoopback(true))
			tools, err := r.Tools(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if names := toolNames(tools); !slices.Contains(names, "remote_add") || !slices.Contains(names, "echo") {
				t.Fatalf("tools %v, skipped %v", names, r.Skipped())
			}
			res := call(t, r, "remote_add", `{"a": 1.5, "b": 2}`)
			if m, _ := res.Value.(map[string]any); res.IsError || m["sum"] != json.Number("3.5") {
				t.Errorf("%+v", res)
			}

			refused := newRunner(t, dir)
			_, err = refused.Call(ctx, "remote_add", json.RawMessage(`{"a": 1, "b": 2}`))
			if !errors.Is(err, executor.ErrRefusedAddress) {
				t.Errorf("loopback not allowed: err = %v, want ErrRefusedAddress", err)
			}
		})
	}
}

// TestMCPToolsChanged: an upstream that adds a tool sends
// notifications/tools/list_changed; the Runner drops its cached list, calls
// WithToolsChanged, and lists the new tool.
func TestMCPToolsChanged(t *testing.T) {
	t.Parallel()
	changed := make(chan string, 4)
	r := newRunner(t, fixture(t), executor.WithToolsChanged(func(server string) { changed <- server }))
	ctx := context.Background()
	tools, err := r.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(toolNames(tools), "late") {
		t.Fatal("late listed before it exists")
	}
	call(t, r, "grow", `{}`)
	select {
	case s := <-changed:
		if s != "testmcp" {
			t.Errorf("changed server %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no tools/list_changed within 10 s")
	}
	if tools, err = r.Tools(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(toolNames(tools), "late") {
		t.Errorf("late not listed after the change: %v", toolNames(tools))
	}
	if res := call(t, r, "late", `{}`); res.Text != "late" {
		t.Errorf("%+v", res)
	}
}

// TestMCPNameCollision: an upstream tool whose name a registry tool has is
// listed as <server_id>__<name>, and both can be called.
func TestMCPNameCollision(t *testing.T) {
	t.Parallel()
	dir := fixture(t)
	if err := os.WriteFile(filepath.Join(dir, "pid.yaml"), []byte(`tool_id: pid
tool_type: mcp_tool
version: "1.0.0"
executor: testmcp
description: Echo under a name the server also uses
config:
  mcp_tool_name: echo
`), 0o644); err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, dir)
	tools, err := r.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	names := toolNames(tools)
	if !slices.Contains(names, "pid") || !slices.Contains(names, "testmcp__pid") || !slices.Contains(names, "echo") {
		t.Fatalf("names %v", names)
	}
	if res := call(t, r, "pid", `{"message": "registry"}`); res.Text != "registry" {
		t.Errorf("pid (the registry's): %+v", res)
	}
	if res := call(t, r, "testmcp__pid", `{}`); res.Text == "" || res.Text == "registry" {
		t.Errorf("testmcp__pid (the upstream's): %+v", res)
	}
}

// CallMCP answers a stdio server's tool around the SDK's decoding with
// what the server sent, the same result Call gives through the SDK (its
// content, structuredContent and isError); a crash is an error and the
// next call starts the server again, as with Call; a registry script's
// result is encoded as its MCPResult.
func TestCallMCP(t *testing.T) {
	t.Parallel()
	r := newRunner(t, fixture(t))
	ctx := context.Background()
	for _, c := range []struct{ tool, args string }{
		{"add", `{"a": 2, "b": 40}`},
		{"test_echo", `{"message": "through the manifest"}`},
		{"fail", `{}`},
		{"greet", `{"name": "Ada"}`},
	} {
		raw, err := r.CallMCP(ctx, c.tool, json.RawMessage(c.args))
		if err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
		var got, want map[string]any
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatalf("%s: %s: %v", c.tool, raw, err)
		}
		res, err := r.Call(ctx, c.tool, json.RawMessage(c.args))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res.MCPResult())
		_ = json.Unmarshal(b, &want)
		for _, k := range []string{"content", "structuredContent", "isError"} {
			if !reflect.DeepEqual(got[k], want[k]) {
				t.Errorf("%s: CallMCP's %s %v, Call's %v", c.tool, k, got[k], want[k])
			}
		}
	}
	if _, err := r.CallMCP(ctx, "add", json.RawMessage(`[1]`)); err == nil {
		t.Error("arguments that are not an object: no error")
	}
	pid1, _ := r.CallMCP(ctx, "pid", json.RawMessage(`{}`))
	if _, err := r.CallMCP(ctx, "crash", json.RawMessage(`{}`)); err == nil {
		t.Fatal("a call that crashed the server returned no error")
	}
	pid2, err := r.CallMCP(ctx, "pid", json.RawMessage(`{}`))
	if err != nil || string(pid1) == string(pid2) {
		t.Fatalf("after the crash: %s (%v), before %s: the server was not started again", pid2, err, pid1)
	}
}
