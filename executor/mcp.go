package executor

//lint:file-ignore SA1019 roots, sampling and logging are deprecated by protocol 2026-07-28 (SEP-2577) but live in every earlier version, which a proxy must carry (docs/gateway.md, "What MCP carries").

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/mcpstdio"
	"github.com/agentjudge/judge/manifest"
)

// stopGrace is how long a stdio server has to exit after its stdin is
// closed before its process group is killed.
const stopGrace = 2 * time.Second

// upstream is one mcp_server: a session to it, started (stdio) or
// connected (streamable HTTP) on first use, and started again on the next
// use after it crashed.
type upstream struct {
	r    *Runner
	tool *manifest.Tool

	mu      sync.Mutex // held while connecting and stopping
	sess    *mcp.ClientSession
	raw     rawCaller     // the session's transport, for calls around the SDK; nil for an SSE server
	proc    *exec.Cmd     // the stdio server process, nil over HTTP
	exited  chan struct{} // closed when proc has exited (or the HTTP session ended)
	stderr  *stderrLog
	failed  string            // why the last list failed; "" when it listed (or never ran)
	tmu     sync.Mutex        // guards tools, raws and failed (the list-changed handler runs while mu may be held)
	tools   []*mcp.Tool       // cached tools/list; nil when it must be asked again
	raws    []json.RawMessage // the cached tools as the server sent them (stdio, streamable HTTP), else nil
	starts  int
	stopped bool
}

func newUpstream(r *Runner, t *manifest.Tool) *upstream { return &upstream{r: r, tool: t} }

// session returns a live session, starting or connecting the server when
// there is none or when the last one ended (a crash).
func (u *upstream) session(ctx context.Context) (*mcp.ClientSession, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.stopped {
		return nil, ErrClosed
	}
	if u.sess != nil {
		select {
		case <-u.exited:
			u.r.cfg.logger.Warn("MCP server ended; restarting", "server", u.tool.ID, "stderr", u.stderr.lastLine())
			u.teardown()
		default:
			return u.sess, nil
		}
	}
	if err := u.connect(ctx); err != nil {
		return nil, err
	}
	return u.sess, nil
}

// connect starts or reaches the server under its startup timeout; u.mu is
// held.
func (u *upstream) connect(ctx context.Context) error {
	timeout := u.r.cfg.limits.StartupTimeout
	if d, ok := seconds(u.tool.Config["startup_timeout"]); ok {
		timeout = d
	}
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	id := u.tool.ID
	copts, setup := u.clientOptions(func() {
		u.setTools(nil)
		if fn := u.r.cfg.toolsChanged; fn != nil {
			fn(id)
		}
	})
	client := mcp.NewClient(&mcp.Implementation{Name: "judge", Version: "1"}, copts)
	setup(client)
	var tr mcp.Transport
	exited := make(chan struct{})
	switch transport(u.tool.Config) {
	case "stdio":
		cmd, err := u.command()
		if err != nil {
			return err
		}
		stdin, err := cmd.StdinPipe()
		if err != nil {
			return err
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return err
		}
		// The server's stderr goes to judge's log, never into an error
		// a model reads.
		u.stderr = &stderrLog{log: u.r.cfg.logger, server: id, max: u.r.cfg.limits.MaxOutput}
		cmd.Stderr = u.stderr
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("starting MCP server %s: %w", id, err)
		}
		go func() { awaitExit(cmd.Process); _ = cmd.Wait(); close(exited) }()
		u.proc, u.exited = cmd, exited
		st := &mcpstdio.Transport{Reader: stdout, Writer: stdin}
		u.raw, tr = st, st
		u.r.cfg.logger.Info("MCP server started", "server", id, "pid", cmd.Process.Pid)
	case "streamable-http", "sse":
		endpoint, err := expand(str(u.tool.Config["url"]), u.r.cfg.getenv, nil, nil)
		if err != nil {
			return fmt.Errorf("config.url: %w", err)
		}
		hdr := http.Header{}
		for k, v := range asMap(u.tool.Config["headers"]) {
			val, err := expand(paramText(v), u.r.cfg.getenv, nil, nil)
			if err != nil {
				return fmt.Errorf("config.headers.%s: %w", k, err)
			}
			hdr.Set(k, val)
		}
		base := headerTransport{base: u.r.http.Transport, hdr: hdr}
		if transport(u.tool.Config) == "sse" {
			hc := &http.Client{Transport: base}
			tr = outliving{Transport: &mcp.SSEClientTransport{Endpoint: endpoint, HTTPClient: hc, MaxEventSize: int(u.r.cfg.limits.MaxOutput)}, life: u.r.closeCtx}
		} else {
			rh := newRawHTTP(endpoint, base, u.r.cfg.limits.MaxOutput)
			u.raw, tr = rh, rh
		}
	}
	sess, err := client.Connect(sctx, tr, nil)
	if err != nil {
		proc := u.proc
		u.kill()
		u.proc, u.raw = nil, nil
		if ps := exitState(proc); ps != nil && ps.Exited() {
			// The server ended by itself: that is the cause, not the
			// broken pipe the client saw.
			return fmt.Errorf("MCP server %s exited (%s) before it answered initialize; its stderr is in judge's log", id, ps)
		}
		if sctx.Err() != nil && ctx.Err() == nil {
			return fmt.Errorf("MCP server %s did not start within its startup_timeout of %s: %w", id, timeout, ErrTimeout)
		}
		return fmt.Errorf("connecting to MCP server %s: %w", id, err)
	}
	if u.proc == nil {
		go func() { _ = sess.Wait(); close(exited) }()
	}
	u.sess, u.exited = sess, exited
	u.setTools(nil)
	u.starts++
	u.connected(ctx, client, sess)
	return nil
}

// command builds the stdio server's process: command and args (never a
// shell), in config.cwd inside the manifest's directory (else that
// directory), with the allowlisted environment and config.env, in its own
// process group.
func (u *upstream) command() (*exec.Cmd, error) {
	t := u.tool
	name := str(t.Config["command"])
	var args []string
	for _, a := range stringList(t.Config["args"]) {
		v, err := expand(a, u.r.cfg.getenv, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("config.args: %w", err)
		}
		args = append(args, v)
	}
	dir, err := filepath.Abs(filepath.Dir(t.Path))
	if err != nil {
		return nil, err
	}
	if cwd := str(t.Config["cwd"]); cwd != "" {
		if dir, err = inside(dir, cwd); err != nil {
			return nil, fmt.Errorf("config.cwd: %w", err)
		}
	}
	env, err := childEnv(u.r.cfg.envAllow, u.r.cfg.getenv, asMap(t.Config["env"]))
	if err != nil {
		return nil, err
	}
	// A relative program path (./server) is the manifest directory's.
	if strings.ContainsRune(name, filepath.Separator) && !filepath.IsAbs(name) {
		if name, err = inside(dir, name); err != nil {
			return nil, fmt.Errorf("config.command: %w", err)
		}
	}
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, nil
}

// kill ends the server's whole process group and waits for the leader;
// u.mu is held.
func (u *upstream) kill() {
	if u.proc == nil || u.proc.Process == nil {
		return
	}
	_ = syscall.Kill(-u.proc.Process.Pid, syscall.SIGKILL)
	if u.exited != nil {
		<-u.exited
	}
}

// teardown drops a session that ended; u.mu is held.
func (u *upstream) teardown() {
	if u.sess != nil {
		_ = u.sess.Close()
	}
	u.kill()
	u.sess, u.proc, u.raw = nil, nil, nil
	u.setTools(nil)
}

// drop tears sess down when it is still the current session and its
// connection is gone (the server crashed or hung up), so that the next use
// starts the server again. A session that still answers is kept: the
// failure was the request's.
func (u *upstream) drop(sess *mcp.ClientSession) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.sess != sess {
		return
	}
	// Detached cleanup: the request that failed may be cancelled already;
	// the ping asks only whether the session still answers.
	pctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := sess.Ping(pctx, nil); err == nil {
		return
	}
	u.r.cfg.logger.Warn("MCP session lost; the server starts again on next use", "server", u.tool.ID)
	u.teardown()
}

func (u *upstream) setTools(ts []*mcp.Tool) { u.setRaw(ts, nil) }

func (u *upstream) setRaw(ts []*mcp.Tool, raws []json.RawMessage) {
	u.tmu.Lock()
	u.tools, u.raws = ts, raws
	u.tmu.Unlock()
}

// stop ends the session: a stdio server's stdin is closed, it has
// stopGrace to exit, then its process group is killed.
func (u *upstream) stop() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.stopped = true
	if u.sess == nil {
		return nil
	}
	closed := make(chan error, 1)
	go func() { closed <- u.sess.Close() }()
	var err error
	select {
	case err = <-closed:
	case <-time.After(stopGrace):
	}
	if u.proc != nil {
		select {
		case <-u.exited:
		case <-time.After(stopGrace):
		}
		u.kill()
	}
	u.sess, u.proc, u.raw = nil, nil, nil
	if errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) {
		err = nil
	}
	if err != nil && u.exited != nil {
		// A server that exited as asked may leave a broken-pipe error.
		err = nil
	}
	return err
}

// list returns the server's tools, from the cache when it holds them,
// and, of a stdio or streamable-HTTP server, each as the JSON it sent
// (else nil).
func (u *upstream) list(ctx context.Context) ([]*mcp.Tool, []json.RawMessage, error) {
	sess, err := u.session(ctx)
	if err != nil {
		return nil, nil, err
	}
	u.tmu.Lock()
	cached, craws := u.tools, u.raws
	u.tmu.Unlock()
	if cached != nil {
		return cached, craws, nil
	}
	if u.rawable() {
		defs, raws, err := u.listRaw(ctx, sess)
		switch {
		case err == nil:
			u.setRaw(defs, raws)
			return defs, raws, nil
		case !errors.Is(err, errNoRaw):
			u.drop(sess)
			return nil, nil, fmt.Errorf("tools/list of MCP server %s: %w", u.tool.ID, err)
		}
	}
	var out []*mcp.Tool
	for t, err := range sess.Tools(ctx, nil) {
		if err != nil {
			u.drop(sess)
			return nil, nil, fmt.Errorf("tools/list of MCP server %s: %w", u.tool.ID, err)
		}
		out = append(out, t)
		if len(out) > 10000 {
			return nil, nil, fmt.Errorf("tools/list of MCP server %s: more than 10000 tools", u.tool.ID)
		}
	}
	u.setTools(out)
	return out, nil, nil
}

// call runs one upstream tool under timeout.
func (u *upstream) call(ctx context.Context, name string, args map[string]any, timeout time.Duration) (*Result, error) {
	sess, err := u.session(ctx)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	tok, release := u.r.proxy.progressToken(ctx)
	defer release()
	if tok != "" {
		params.SetProgressToken(tok)
	}
	for k, v := range requestMeta(ctx) {
		if params.Meta == nil {
			params.Meta = mcp.Meta{}
		}
		params.Meta[k] = v
	}
	res, err := sess.CallTool(cctx, params)
	if err != nil {
		if cctx.Err() != nil && ctx.Err() == nil {
			return nil, timeoutError(name, u.tool.ID, timeout)
		}
		u.drop(sess)
		return nil, fmt.Errorf("tools/call %s of MCP server %s: %w", name, u.tool.ID, err)
	}
	return mcpAnswer(res), nil
}

// errNoRaw: the call cannot go around the SDK; it takes the SDK's way.
var errNoRaw = errors.New("no raw call")

// rawable reports whether the server's requests can go around the SDK
// (callRaw): a stdio or a streamable-HTTP server, not an SSE one.
func (u *upstream) rawable() bool { return transport(u.tool.Config) != "sse" }

// callRaw runs one tool of a stdio or streamable-HTTP server under
// timeout, around the SDK's decoding (rawCaller), and returns the server's
// answer as it came, checked to be a JSON object. args is a JSON object.
func (u *upstream) callRaw(ctx context.Context, name string, args json.RawMessage, timeout time.Duration) (json.RawMessage, error) {
	sess, err := u.session(ctx)
	if err != nil {
		return nil, err
	}
	u.mu.Lock()
	tr := u.raw
	u.mu.Unlock()
	if tr == nil {
		return nil, fmt.Errorf("MCP server %s: %w", u.tool.ID, ErrClosed)
	}
	if ir := sess.InitializeResult(); ir != nil && ir.ProtocolVersion >= mcpstdio.SessionlessProtocol && !tr.RequestMeta() {
		// The sessionless protocol's per-request _meta is copied from
		// the SDK's own requests; none went out yet.
		return nil, errNoRaw
	}
	params := make([]byte, 0, len(name)+len(args)+32)
	params = append(params, `{"name":`...)
	q, _ := json.Marshal(name)
	params = append(append(append(params, q...), `,"arguments":`...), args...)
	tok, release := u.r.proxy.progressToken(ctx)
	defer release()
	extra := requestMeta(ctx)
	if tok != "" || len(extra) > 0 {
		if ir := sess.InitializeResult(); ir != nil && ir.ProtocolVersion >= mcpstdio.SessionlessProtocol {
			return nil, errNoRaw // the transport puts its own _meta in: the SDK's way merges both
		}
		params = append(params, `,"_meta":{`...)
		first := true
		if tok != "" {
			params = append(append(append(params, `"progressToken":"`...), tok...), '"')
			first = false
		}
		for _, k := range slices.Sorted(maps.Keys(extra)) {
			if !first {
				params = append(params, ',')
			}
			first = false
			params = jsonvalue.AppendString(append(jsonvalue.AppendString(params, k), ':'), extra[k])
		}
		params = append(params, '}')
	}
	params = append(params, '}')
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := tr.Call(cctx, "tools/call", params)
	if err != nil {
		var we *jsonrpc.Error
		switch {
		case cctx.Err() != nil && ctx.Err() == nil:
			return nil, timeoutError(name, u.tool.ID, timeout)
		case errors.As(err, &we):
			// The server answered with an error: the request's failure,
			// as the SDK client reports it.
			return nil, fmt.Errorf("tools/call %s of MCP server %s: %w", name, u.tool.ID, err)
		}
		u.drop(sess)
		return nil, fmt.Errorf("tools/call %s of MCP server %s: %w", name, u.tool.ID, err)
	}
	if t := bytes.TrimSpace(res); len(t) == 0 || t[0] != '{' {
		return nil, fmt.Errorf("tools/call %s of MCP server %s: the result is not a JSON object", name, u.tool.ID)
	}
	return res, nil
}

// mcpAnswer makes a Result of an MCP tools/call answer.
func mcpAnswer(res *mcp.CallToolResult) *Result {
	out := &Result{IsError: res.IsError, mcpResult: res}
	var texts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	out.Text = strings.Join(texts, "\n")
	switch {
	case res.StructuredContent != nil:
		out.Value = normalizeJSON(res.StructuredContent)
	case len(texts) == 1:
		if v, ok := jsonValue([]byte(texts[0])); ok {
			out.Value = v
		} else {
			out.Value = texts[0]
		}
	default:
		out.Value = out.Text
	}
	return out
}

// normalizeJSON re-decodes v so that numbers are json.Number, as in every
// other Value.
func normalizeJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	if n, ok := jsonValue(b); ok {
		return n
	}
	return v
}

// timeoutError is the error of a call that ran past its timeout: the
// context that ended it has sent the upstream notifications/cancelled.
func timeoutError(name, server string, timeout time.Duration) error {
	return fmt.Errorf("tools/call %s of MCP server %s: %w: no answer within its timeout of %s (config.timeout of the mcp_server manifest, else judge's --timeout); judge cancelled the call upstream",
		name, server, ErrTimeout, timeout)
}

// exitState is the state of a stdio server's process once it was
// waited for; nil when there is none.
func exitState(cmd *exec.Cmd) *os.ProcessState {
	if cmd == nil {
		return nil
	}
	return cmd.ProcessState
}

// noteState logs a change of the server's state at listing: a failure
// with its reason, once while it keeps failing, and the recovery.
func (u *upstream) noteState(err error) {
	why := ""
	if err != nil {
		why = err.Error()
	}
	u.tmu.Lock()
	was := u.failed
	u.failed = why
	u.tmu.Unlock()
	switch {
	case (why == "") == (was == ""):
		// No change of state: a server that keeps failing (each time
		// with its own wording of the broken pipe) is logged once.
	case why != "":
		u.r.cfg.logger.Warn("MCP server left out", "server", u.tool.ID, "err", why)
	default:
		u.r.cfg.logger.Info("MCP server listed its tools again", "server", u.tool.ID)
	}
}

// maxStderrLine is the longest stderr line logged whole; a longer one is
// logged in pieces of this size.
const maxStderrLine = 4096

// stderrLog writes a stdio server's stderr to judge's log, a record per
// line with the server's id, up to max bytes in all (a note says when
// more was dropped), and keeps the last line for the restart's log.
type stderrLog struct {
	log    *slog.Logger
	server string
	max    int64

	mu      sync.Mutex
	partial []byte
	logged  int64
	last    string
	dropped bool
}

func (s *stderrLog) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.partial = append(s.partial, p...)
			if len(s.partial) >= maxStderrLine {
				s.emit(s.partial[:maxStderrLine])
				s.partial = append(s.partial[:0], s.partial[maxStderrLine:]...)
			}
			break
		}
		s.partial = append(s.partial, p[:i]...)
		s.emit(s.partial)
		s.partial = s.partial[:0]
		p = p[i+1:]
	}
	return n, nil
}

// emit logs one line; s.mu is held.
func (s *stderrLog) emit(line []byte) {
	l := strings.TrimSpace(string(line))
	if l == "" {
		return
	}
	s.last = l
	if s.logged+int64(len(l)) > s.max {
		if !s.dropped {
			s.dropped = true
			s.log.Warn("MCP server stderr over the cap; later lines not logged", "server", s.server, "cap_bytes", s.max)
		}
		return
	}
	s.logged += int64(len(l))
	s.log.Info("MCP server stderr", "server", s.server, "line", l)
}

// lastLine is the last line the server wrote to stderr, at most 300
// bytes; "" when none.
func (s *stderrLog) lastLine() string {
	if s == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.last
	if len(l) > 300 {
		l = l[:300]
	}
	return l
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// headerTransport adds the manifest's headers to every request.
type headerTransport struct {
	base http.RoundTripper
	hdr  http.Header
}

func (h headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(h.hdr) > 0 {
		req = req.Clone(req.Context())
		for k, v := range h.hdr {
			req.Header[k] = v
		}
	}
	return h.base.RoundTrip(req)
}

// transport is an mcp_server's config.transport, "http" read as
// "streamable-http" as the manifest lint reads it.
func transport(config map[string]any) string {
	tr, _ := config["transport"].(string)
	if tr == "http" {
		return "streamable-http"
	}
	return tr
}

// outliving connects a transport whose connection lives as long as the
// context it was connected with, as the SSE client's event stream does,
// so that the stream outlives the startup timeout: the connection lives
// until life ends (the Runner closes) or the session is closed, while
// connecting still gives up when the Connect context ends first.
type outliving struct {
	mcp.Transport
	life context.Context
}

func (o outliving) Connect(ctx context.Context) (mcp.Connection, error) {
	lctx, cancel := context.WithCancel(o.life)
	stop := context.AfterFunc(ctx, cancel)
	conn, err := o.Transport.Connect(lctx)
	if !stop() {
		// ctx ended while connecting: lctx is cancelled too.
		if err == nil {
			_ = conn.Close()
		}
		return nil, fmt.Errorf("connecting: %w", context.Cause(ctx))
	}
	if err != nil {
		cancel()
		return nil, err
	}
	return cancelOnClose{Connection: conn, cancel: cancel}, nil
}

// cancelOnClose ends the connection's context when the session closes it.
type cancelOnClose struct {
	mcp.Connection
	cancel context.CancelFunc
}

func (c cancelOnClose) Close() error {
	defer c.cancel()
	return c.Connection.Close()
}
