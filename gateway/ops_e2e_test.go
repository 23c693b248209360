//lint:file-ignore SA1019 the test reads the gateway's log notifications, deprecated in protocol 2026-07-28 but what clients of earlier versions get

package gateway_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/toolcall"
)

// opsRegistry writes a registry holding the test upstream with its
// "gate" and "crash" tools, under the id ops with the extra config lines
// given (a timeout), and returns its directory and the upstream's call log.
func opsRegistry(t *testing.T, extra string) (dir, calls string) {
	t.Helper()
	dir, calls = registry(t)
	m := strings.Replace(upstreamManifest, "tool_id: up", "tool_id: ops", 1)
	m = strings.Replace(m, "  env:\n", "  env:\n    UPSTREAM_OPS: \"1\"\n", 1) + extra
	if err := os.Remove(filepath.Join(dir, "up.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ops.yaml"), []byte(m), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, calls
}

// fifo makes a named pipe the upstream's gate waits on; open releases it.
func fifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "gate")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// release opens the FIFO for writing, which lets the gate waiting on it
// return.
func release(t *testing.T, p string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// await polls the upstream's call log until it holds a call of tool, or
// fails after a minute: the upstream writes it when the event happens.
func await(t *testing.T, calls, tool string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		for _, c := range upstreamCalls(t, calls) {
			if strings.Contains(c, `"tool":"`+tool+`"`) {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the upstream never recorded %s: %v", tool, upstreamCalls(t, calls))
}

// A call that outlives its timeout (the mcp_server manifest's, else
// --timeout) is answered FAILED with a text that says so, and the upstream
// receives notifications/cancelled (its handler's context ends), over
// stdio (the fast path) and streamable HTTP (the SDK's path).
func TestGatewayTimeoutCancelsUpstream(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, extra string
		args        []string
		want        string
	}{
		{name: "manifest/stdio", extra: "  timeout: 1\n", want: "timeout of 1s"},
		{name: "manifest/http", extra: "  timeout: 1\n", args: []string{"http"}, want: "timeout of 1s"},
		{name: "flag/stdio", args: []string{"--timeout", "700ms"}, want: "timeout of 700ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir, calls := opsRegistry(t, tc.extra)
			var cs *mcp.ClientSession
			if len(tc.args) > 0 && tc.args[0] == "http" {
				cs = connectHTTP(t, gatewayCmd(dir, calls, nil))
			} else {
				cs, _ = connectStdio(t, gatewayCmd(dir, calls, nil, tc.args...))
			}
			res, meta := call(t, cs, "gate", map[string]any{"fifo": fifo(t)})
			if !res.IsError || meta.Status != toolcall.Failed || !strings.Contains(text(res), tc.want) || !strings.Contains(text(res), "cancelled the call upstream") {
				t.Errorf("a call past its timeout: isError %v, status %q, %q", res.IsError, meta.Status, text(res))
			}
			await(t, calls, "cancelled")
		})
	}
}

// rawGateway starts judge gateway with its stdin and stdout as pipes and
// initializes a session by hand.
type rawGateway struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	logs *sharedtest.SyncBuffer
}

func startRawGateway(t *testing.T, dir, calls string) *rawGateway {
	t.Helper()
	g := &rawGateway{cmd: gatewayCmd(dir, calls, nil), logs: &sharedtest.SyncBuffer{}}
	g.cmd.Stderr = g.logs
	var err error
	if g.in, err = g.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := g.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	g.out = bufio.NewReader(out)
	if err := g.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		g.in.Close()
		_ = g.cmd.Process.Kill()
		_ = g.cmd.Wait()
	})
	g.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := g.read(t); m["result"] == nil {
		t.Fatalf("initialize: %v\n%s", m, g.logs)
	}
	g.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return g
}

func (g *rawGateway) send(t *testing.T, msgs ...string) {
	t.Helper()
	for _, m := range msgs {
		if _, err := io.WriteString(g.in, m+"\n"); err != nil {
			t.Fatal(err)
		}
	}
}

func (g *rawGateway) read(t *testing.T) map[string]any {
	t.Helper()
	line, err := g.out.ReadString('\n')
	if err != nil {
		t.Fatalf("reading the gateway's answer: %v\n%s", err, g.logs)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return m
}

// awaitLog waits until the gateway has logged a record whose msg is msg.
func (g *rawGateway) awaitLog(t *testing.T, msg string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if strings.Contains(g.logs.String(), `"msg":"`+msg+`"`) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the gateway never logged %q:\n%s", msg, g.logs)
}

func released(m map[string]any) bool {
	res, _ := m["result"].(map[string]any)
	c, _ := res["content"].([]any)
	if len(c) == 0 {
		return false
	}
	first, _ := c[0].(map[string]any)
	return first["text"] == "released" && res["isError"] != true
}

// A call in flight when stdin ends, or when judge gets SIGTERM, is still
// answered before judge exits, and judge exits 0.
func TestGatewayDrain(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"eof", "sigterm"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			dir, calls := opsRegistry(t, "")
			g := startRawGateway(t, dir, calls)
			gate := fifo(t)
			g.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"gate","arguments":{"fifo":%q}}}`, gate))
			await(t, calls, "gate")
			if how == "eof" {
				g.in.Close()
			} else {
				if err := g.cmd.Process.Signal(syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
				g.awaitLog(t, "stopping: answering the calls in flight")
			}
			release(t, gate)
			if m := g.read(t); m["id"] != 7.0 || !released(m) {
				t.Fatalf("the call in flight: %v\n%s", m, g.logs)
			}
			if err := g.cmd.Wait(); err != nil {
				t.Fatalf("judge gateway exited with %v\n%s", err, g.logs)
			}
		})
	}
}

// A request the client cancels gets no answer, and its upstream call is
// cancelled.
func TestGatewayCancelledGetsNoAnswer(t *testing.T) {
	t.Parallel()
	dir, calls := opsRegistry(t, "")
	g := startRawGateway(t, dir, calls)
	g.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"gate","arguments":{"fifo":%q}}}`, fifo(t)))
	await(t, calls, "gate")
	g.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"the user gave up"}}`)
	await(t, calls, "cancelled")
	g.send(t, `{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	if m := g.read(t); m["id"] != 6.0 {
		t.Fatalf("after cancelling request 5: %v, want the answer to ping 6 and none to 5", m)
	}
}

// An upstream's stderr goes to judge's log with the server's id, never
// into the error text a model reads.
func TestGatewayUpstreamStderr(t *testing.T) {
	t.Parallel()
	dir, calls := opsRegistry(t, "")
	cs, logs := connectStdio(t, gatewayCmd(dir, calls, nil))
	res, _ := call(t, cs, "crash", map[string]any{})
	if !res.IsError || strings.Contains(text(res), "SECRET-STDERR-LINE") {
		t.Errorf("a crashed upstream's answer: isError %v, %q", res.IsError, text(res))
	}
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(logs.String(), `"msg":"MCP server stderr","server":"ops","line":"upstream internal trace: SECRET-STDERR-LINE`) {
		if time.Now().After(deadline) {
			t.Fatalf("the upstream's stderr line is not in judge's log:\n%s", logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// An upstream that fails to start is counted in "gateway ready", logged
// once while it keeps failing, told to a client that sets a log level,
// and retried: once it starts, its tools are offered and the client gets
// notifications/tools/list_changed.
func TestGatewayBrokenUpstream(t *testing.T) {
	t.Parallel()
	dir, calls := opsRegistry(t, "")
	m, err := os.ReadFile(filepath.Join(dir, "ops.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ops.yaml"), []byte(strings.Replace(string(m), "command: ./upstream", "command: ./flaky", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	ready := filepath.Join(dir, "ready")
	script := "#!/bin/sh\nif [ -e ready ]; then exec ./upstream; fi\necho 'flaky: not ready yet' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(dir, "flaky"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	logs := &sharedtest.SyncBuffer{}
	cmd := gatewayCmd(dir, calls, nil, "--log-level", "debug")
	cmd.Stderr = logs
	messages := make(chan *mcp.LoggingMessageParams, 8)
	changed := make(chan struct{}, 8)
	client := mcp.NewClient(&mcp.Implementation{Name: "gateway-test", Version: "1"}, &mcp.ClientOptions{
		LoggingMessageHandler:  func(_ context.Context, r *mcp.LoggingMessageRequest) { messages <- r.Params },
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, logs)
	}
	defer cs.Close()
	var line struct {
		Failed         int               `json:"upstreams_failed"`
		Why            map[string]string `json:"failed"`
		Tools, LeftOut int
	}
	// The log reaches the test through a pipe that may lag behind the
	// answer to initialize: wait for the line.
	for deadline := time.Now().Add(time.Minute); !strings.Contains(logs.String(), `"msg":"gateway ready"`) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	for l := range strings.Lines(logs.String()) {
		if strings.Contains(l, `"msg":"gateway ready"`) {
			_ = json.Unmarshal([]byte(l), &line)
		}
	}
	if line.Failed != 1 || !strings.Contains(line.Why["ops"], "MCP server ops exited (exit status 1)") {
		t.Fatalf("gateway ready: %+v\n%s", line, logs.String())
	}
	if tools := toolNames(t, cs); len(tools) != 0 {
		t.Fatalf("tools offered while the upstream fails: %v", tools)
	}
	if ir := cs.InitializeResult(); ir.Capabilities.Logging == nil {
		t.Error("the gateway does not advertise logging while its one upstream failed to start: a client would not ask for the failure's log message (decision 57)")
	}
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "warning"}); err != nil {
		t.Fatal(err)
	}
	select {
	case msg := <-messages:
		data, _ := msg.Data.(map[string]any)
		if msg.Level != "error" || msg.Logger != "judge" || data["server"] != "ops" || data["state"] != "failed" {
			t.Errorf("the log notification: %+v", msg)
		}
	case <-ctx.Done():
		t.Fatal("no log notification of the failed upstream")
	}
	// Two retries fail the same way: the failure is logged once.
	deadline := time.Now().Add(time.Minute)
	for strings.Count(logs.String(), `"msg":"retrying failed upstreams"`) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("no two retries:\n%s", logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := strings.Count(logs.String(), `"msg":"MCP server left out"`); n != 1 {
		t.Errorf("the failure was logged %d times, want once:\n%s", n, logs)
	}
	if err := os.WriteFile(ready, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatalf("no tools/list_changed after the upstream started:\n%s", logs)
	}
	if tools := toolNames(t, cs); tools["echo"] == nil {
		t.Fatalf("the upstream's tools after it started: %v", tools)
	}
}

// --http serves /mcp (and / as before) behind the API token and the
// Origin check: no or a wrong token gets 401 with a challenge, a foreign
// Origin 403, a loopback Origin and the right token 200.
func TestGatewayHTTPAuthOrigin(t *testing.T) {
	t.Parallel()
	dir, calls := registry(t)
	url := startHTTP(t, gatewayCmd(dir, calls, []string{"JUDGE_API_TOKEN=s3cret"}, "--http", "127.0.0.1:0", "--allow-origin", "https://app.example.com"))
	if !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("listening at %q", url)
	}
	root := strings.TrimSuffix(url, "mcp")
	initBody := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	for _, tc := range []struct {
		name, url, auth, origin string
		status                  int
		challenge               string
	}{
		{name: "no token", url: url, status: 401, challenge: `Bearer realm="judge"`},
		{name: "wrong token", url: url, auth: "Bearer nope", status: 401, challenge: `error="invalid_token"`},
		{name: "right token", url: url, auth: "Bearer s3cret", status: 200},
		{name: "the old path", url: root, auth: "Bearer s3cret", status: 200},
		{name: "foreign origin", url: url, auth: "Bearer s3cret", origin: "http://evil.example", status: 403},
		{name: "foreign origin, no token", url: url, origin: "http://evil.example", status: 403},
		{name: "loopback origin", url: url, auth: "Bearer s3cret", origin: "http://localhost:6274", status: 200},
		{name: "allowed origin", url: url, auth: "Bearer s3cret", origin: "https://app.example.com", status: 200},
	} {
		req, _ := http.NewRequest("POST", tc.url, strings.NewReader(initBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(resp.Header.Get("WWW-Authenticate"), tc.challenge) {
			t.Errorf("%s: %d %q %s, want %d %q", tc.name, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body, tc.status, tc.challenge)
		}
	}
	// An SDK client with the token calls a tool at /mcp.
	hc := &http.Client{Transport: bearerTransport{"s3cret"}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gateway-test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if res, meta := call(t, cs, "echo", map[string]any{"message": "hi"}); res.IsError || meta.Status != toolcall.Satisfied {
		t.Errorf("echo with the token: %q %q", text(res), meta.Status)
	}
}

type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// The example docs/gateway.md opens with: its manifests lint clean with
// judge tools lint, and judge gateway runs its server-everything manifest
// as it is written (npx finds the package scripts/test installs, through a
// node_modules beside the manifest, so nothing is downloaded) and answers
// a call of its echo tool.
func TestGatewayExample(t *testing.T) {
	t.Parallel()
	lint := exec.Command(judgeBin, "tools", "lint", "../examples/gateway", "--format", "json")
	out, err := lint.Output()
	if err != nil {
		t.Fatalf("judge tools lint examples/gateway: %v\n%s", err, out)
	}
	var rep struct {
		Summary struct{ Tools, Valid, Errors, Warnings int }
	}
	if err := json.Unmarshal(out, &rep); err != nil || rep.Summary.Tools != 2 || rep.Summary.Valid != 2 || rep.Summary.Errors+rep.Summary.Warnings != 0 {
		t.Fatalf("judge tools lint examples/gateway: %+v (%v)\n%s", rep.Summary, err, out)
	}
	mods, _ := filepath.Abs("../executor/testdata/node/node_modules")
	if _, err := os.Stat(filepath.Join(mods, "@modelcontextprotocol/server-everything")); err != nil {
		t.Skipf("@modelcontextprotocol/server-everything is not installed (scripts/test runs npm ci in executor/testdata/node): %v", err)
	}
	if _, err := exec.LookPath("npx"); err != nil {
		t.Skip("npx is not installed")
	}
	dir := t.TempDir()
	m, err := os.ReadFile("../examples/gateway/everything.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "everything.yaml"), m, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(mods, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	cs, logs := connectStdio(t, exec.Command(judgeBin, "gateway", "--tools", dir))
	if tools := toolNames(t, cs); tools["echo"] == nil {
		t.Fatalf("the example's tools: %d, no echo\n%s", len(tools), logs)
	}
	res, meta := call(t, cs, "echo", map[string]any{"message": "from the example"})
	if res.IsError || !strings.Contains(text(res), "from the example") || meta.Status != toolcall.Satisfied {
		t.Errorf("echo: isError %v %q status %q", res.IsError, text(res), meta.Status)
	}
}

// startHTTP starts judge gateway --http (cmd) and returns the URL its log
// says it listens at; the process is stopped at the test's end.
func startHTTP(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	return startListening(t, cmd, nil, listeningURL)
}

// listeningURL is the URL of judge gateway's "listening" log line, or "".
func listeningURL(line []byte) string {
	var l struct{ Msg, URL string }
	if json.Unmarshal(line, &l) == nil && l.Msg == "listening" {
		return l.URL
	}
	return ""
}

// httpPost posts a JSON-RPC body to the streamable HTTP endpoint url, in
// session sid when it is not empty, and returns the response (its body
// to close).
func httpPost(t *testing.T, url, sid, body string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	return http.DefaultClient.Do(req)
}

// httpSession initializes a session with the gateway at url, as a client
// without an SDK, and returns its id.
func httpSession(t *testing.T, url string) string {
	t.Helper()
	return httpSessionWith(t, url, `{}`)
}

// httpSessionWith is httpSession for a client with the capabilities caps
// (a JSON object).
func httpSessionWith(t *testing.T, url, caps string) string {
	t.Helper()
	resp, err := httpPost(t, url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":`+caps+`,"clientInfo":{"name":"raw","version":"1"}}}`)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || sid == "" || !strings.Contains(string(body), `"result"`) {
		t.Fatalf("initialize: %d, session %q: %s", resp.StatusCode, sid, body)
	}
	resp, err = httpPost(t, url, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d", resp.StatusCode)
	}
	return sid
}

// Over streamable HTTP too, a request the client cancels gets no answer:
// its POST's event stream ends without one, and its upstream call is
// cancelled; the session goes on.
func TestGatewayHTTPCancelledGetsNoAnswer(t *testing.T) {
	t.Parallel()
	dir, calls := opsRegistry(t, "")
	url := startHTTP(t, gatewayCmd(dir, calls, nil, "--http", "127.0.0.1:0"))
	sid := httpSession(t, url)
	answer := make(chan string, 1)
	go func() {
		resp, err := httpPost(t, url, sid, fmt.Sprintf(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"gate","arguments":{"fifo":%q}}}`, fifo(t)))
		if err != nil {
			answer <- "error: " + err.Error()
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		answer <- string(body)
	}()
	await(t, calls, "gate")
	resp, err := httpPost(t, url, sid, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"the user gave up"}}`)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	await(t, calls, "cancelled")
	select {
	case body := <-answer:
		if strings.Contains(body, `"id":5`) || strings.HasPrefix(body, "error: ") {
			t.Errorf("the cancelled request's stream: %q, want it to end without an answer", body)
		}
	case <-time.After(time.Minute):
		t.Fatal("the cancelled request's stream did not end")
	}
	resp, err = httpPost(t, url, sid, `{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `"id":6`) {
		t.Errorf("ping after the cancellation: %d %s", resp.StatusCode, body)
	}
}

// Stopping judge gateway --http ends a client's open GET event stream at
// once: the gateway exits as soon as the POSTs in flight are answered,
// not at the end of the drain bound (the longest call timeout, here 60 s,
// plus 5 s) that the open stream held it to.
func TestGatewayHTTPShutdownEndsStreams(t *testing.T) {
	t.Parallel()
	dir, calls := registry(t)
	cmd := gatewayCmd(dir, calls, nil, "--http", "127.0.0.1:0", "--timeout", "60s")
	url := startHTTP(t, cmd)
	sid := httpSession(t, url)
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("GET: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { _, err := io.Copy(io.Discard, resp.Body); ended <- err }()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for _, w := range []struct {
		what string
		ch   chan error
	}{{"the GET stream", ended}, {"judge gateway", exited}} {
		select {
		case err := <-w.ch:
			if err != nil {
				t.Errorf("%s ended with %v", w.what, err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s did not end within 30 s of SIGTERM (the drain bound is 65 s)", w.what)
		}
	}
	t.Logf("SIGTERM to exit with a GET stream open: %s", time.Since(start).Round(time.Millisecond))
}

// durations are the duration_ms members of ValidationResults' metadata.
var durations = regexp.MustCompile(`"duration_ms":[0-9.eE+-]+`)

// The streamable HTTP transport's fast path for tools/call (a session
// whose client cannot be asked for sampling or elicitation, a call without
// a progressToken) answers as the SDK's path does (a client with sampling):
// the same event stream, the same result, the same judge block but for the
// session's id; for a valid call, an invalid one (refused, the upstream
// never called) and one the upstream fails.
func TestGatewayHTTPFastPathAsTheSDK(t *testing.T) {
	t.Parallel()
	dir, calls := registry(t)
	logs := &sharedtest.SyncBuffer{}
	url := startListening(t, gatewayCmd(dir, calls, nil, "--http", "127.0.0.1:0", "--log-level", "debug"), logs, listeningURL)
	fast := httpSession(t, url)
	sdk := httpSessionWith(t, url, `{"sampling":{}}`)
	answer := func(sid, params string) (string, map[string]any) {
		resp, err := httpPost(t, url, sid, `{"jsonrpc":"2.0","id":"c-1","method":"tools/call","params":`+params+`}`)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		data, ok := strings.CutPrefix(string(body), "event: message\ndata: ")
		if !ok || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("%s: %s %q", params, resp.Header.Get("Content-Type"), body)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(strings.TrimSpace(data)), &m); err != nil {
			t.Fatalf("%s: %v in %q", params, err, body)
		}
		res, _ := m["result"].(map[string]any)
		meta, _ := res["_meta"].(map[string]any)
		judge, _ := meta["judge"].(map[string]any)
		if judge["session"] != "mcp:"+sid {
			t.Errorf("%s: the judge block's session %v, want mcp:%s", params, judge["session"], sid)
		}
		delete(judge, "session")
		b, _ := json.Marshal(m)
		// How long judge's checks took differs from call to call.
		return durations.ReplaceAllString(string(b), `"duration_ms":0`), judge
	}
	for _, params := range []string{
		`{"name":"add","arguments":{"a":2,"b":3}}`,
		`{"name":"add","arguments":{"a":"two"}}`,
		`{"name":"fail","arguments":{}}`,
	} {
		f, fj := answer(fast, params)
		s, _ := answer(sdk, params)
		if f != s {
			t.Errorf("%s:\n fast path %s\n SDK path  %s", params, f, s)
		}
		if fj["status"] == nil && fj["check"] == nil {
			t.Errorf("%s: no judge block: %s", params, f)
		}
	}
	// The log says which path answered (its lines reach logs through a
	// pipe: wait for them).
	for deadline := time.Now().Add(time.Minute); strings.Count(logs.String(), "tools/call on the HTTP fast path") < 3 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if n := strings.Count(logs.String(), "tools/call on the HTTP fast path"); n != 3 {
		t.Errorf("%d calls on the fast path, want the 3 of the session without sampling:\n%s", n, logs)
	}
	if n := len(upstreamCalls(t, calls)); n != 4 {
		t.Errorf("the upstream recorded %d calls, want 4 (two of add, two of fail; the invalid ones never reach it)", n)
	}
}
