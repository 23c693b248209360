package executor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
)

// Errors a [Runner.Call] wraps; test them with errors.Is.
var (
	// ErrUnknownTool: no runnable tool has the name.
	ErrUnknownTool = errors.New("unknown tool")
	// ErrTimeout: the call ran past its timeout and was stopped (a
	// process with its whole group).
	ErrTimeout = errors.New("timed out")
	// ErrRefusedAddress: a request would reach a loopback, link-local or
	// private address that the configuration does not allow.
	ErrRefusedAddress = errors.New("address refused")
	// ErrClosed: the Runner is closed.
	ErrClosed = errors.New("executor closed")
)

// Tool is one runnable tool as a client would list it.
type Tool struct {
	// Name is the name a model calls: the registry tool_id, or an upstream
	// tool's name (prefixed "<server_id>__" only when it collides with
	// another tool's name).
	Name        string
	Description string
	// InputSchema is the JSON Schema of the arguments; {"type":"object"}
	// when the manifest (or the upstream) declares none.
	InputSchema json.RawMessage
	// OutputSchema is the JSON Schema of the structured result; nil when
	// unknown.
	OutputSchema json.RawMessage
	// Server is the mcp_server tool_id the tool comes from: the upstream of
	// an mcp_tool manifest or of an upstream tool; "" for scripts and api
	// tools.
	Server string
	// Upstream is the upstream's own name of the tool (what is pinned);
	// "" for scripts and api tools.
	Upstream string
	// Kind is the manifest tool_type that runs it: script, api, mcp_tool,
	// or mcp_server for a tool listed by an upstream server.
	Kind manifest.ToolType
	// Raw is an upstream tool's definition as the JSON the server sent,
	// members the SDK does not know (execution, …) kept, for a tool a
	// stdio server listed; as the SDK decoded it (title, annotations,
	// icons, _meta, outputSchema) for one listed over HTTP. nil for
	// registry tools.
	Raw json.RawMessage
}

// Skip is a tool left out of [Runner.Tools], and why.
type Skip struct {
	Tool   string
	Reason string
}

// Result is what one call returned.
type Result struct {
	// Value is the answer as a JSON value: stdout parsed as JSON when it
	// is JSON, else its text; the HTTP body (parsed when JSON) after
	// response_transform; MCP structuredContent, else the text content.
	Value any
	// Text is the answer as text (for a failed subprocess with no stdout,
	// its stderr).
	Text string
	// IsError: the tool itself failed: a non-zero exit, an HTTP status of
	// 400 or more after retries, MCP isError, or output over the cap.
	IsError bool
	// Truncated: stdout or the HTTP body was cut at the output cap (the
	// process was stopped there).
	Truncated bool
	// ExitCode is the process's exit status (subprocess only).
	ExitCode int
	// Stderr is the process's standard error, capped (subprocess only).
	Stderr string
	// Status is the final HTTP status (http_client only).
	Status int
	// Attempts is how many HTTP requests were sent (http_client only).
	Attempts int
	// Duration is the call's wall time.
	Duration time.Duration

	mcpResult *mcp.CallToolResult // the upstream's own answer (MCP only)
}

// MCPResult returns the result as an MCP tools/call answer: the upstream's
// own answer for an MCP call (content of every kind kept), otherwise the
// text as one text content, Value as structuredContent when it is a JSON
// object, and isError.
func (r *Result) MCPResult() *mcp.CallToolResult {
	if r.mcpResult != nil {
		return r.mcpResult
	}
	out := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: r.Text}}, IsError: r.IsError}
	if m, ok := r.Value.(map[string]any); ok {
		out.StructuredContent = m
	}
	return out
}

// Limits bound every call. A zero field takes its default.
type Limits struct {
	// Timeout is a call's timeout when its manifest gives none
	// (config.timeout of the tool, else of its runtime). Default 30 s.
	Timeout time.Duration
	// StartupTimeout bounds starting and initializing an MCP server when
	// its manifest gives no startup_timeout. Default 30 s.
	StartupTimeout time.Duration
	// MaxOutput caps a process's stdout and its stderr (each) and an HTTP
	// response body, in bytes. Default 1 MiB.
	MaxOutput int64
	// Retries is how many times an HTTP request is retried after a 429 or
	// 5xx answer. Default 2; negative means none.
	Retries int
	// MaxRetryWait is the longest wait before a retry (Retry-After or the
	// backoff); an answer asking for a longer wait is returned as it is.
	// Default 10 s.
	MaxRetryWait time.Duration
}

func (l Limits) withDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = 30 * time.Second
	}
	if l.StartupTimeout <= 0 {
		l.StartupTimeout = 30 * time.Second
	}
	if l.MaxOutput <= 0 {
		l.MaxOutput = 1 << 20
	}
	if l.Retries == 0 {
		l.Retries = 2
	} else if l.Retries < 0 {
		l.Retries = 0
	}
	if l.MaxRetryWait <= 0 {
		l.MaxRetryWait = 10 * time.Second
	}
	return l
}

// DefaultEnvAllowlist is the parent environment a child process gets: the
// variables a program needs to find itself and its locale, nothing that
// usually holds a secret. A manifest adds the variables it declares in
// config.env.
func DefaultEnvAllowlist() []string {
	return []string{"PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "TERM", "SYSTEMROOT"}
}

// Option configures a [Runner].
type Option func(*config)

type config struct {
	allowPrivate  bool
	allowLoopback bool
	envAllow      []string
	limits        Limits
	logger        *slog.Logger
	toolsChanged  func(server string)
	getenv        func(string) (string, bool)
}

// WithAllowPrivate lets HTTP requests (api tools, MCP servers reached by
// URL) reach private and link-local addresses (10/8, 172.16/12,
// 192.168/16, 169.254/16, fc00::/7, fe80::/10). Refused by default.
func WithAllowPrivate(allow bool) Option { return func(c *config) { c.allowPrivate = allow } }

// WithAllowLoopback lets HTTP requests reach loopback addresses
// (127/8, ::1). Refused by default.
func WithAllowLoopback(allow bool) Option { return func(c *config) { c.allowLoopback = allow } }

// WithEnvAllowlist replaces [DefaultEnvAllowlist]: the names of the parent
// environment variables every child process gets.
func WithEnvAllowlist(names []string) Option {
	return func(c *config) { c.envAllow = slices.Clone(names) }
}

// WithLimits sets the limits of every call.
func WithLimits(l Limits) Option { return func(c *config) { c.limits = l } }

// WithLogger logs starts, restarts, retries and stops (never the values
// of environment variables). Default: no logs.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithToolsChanged is called, with the mcp_server's tool_id, when an
// upstream sends notifications/tools/list_changed (after the Runner has
// dropped its cached list of that server's tools).
func WithToolsChanged(fn func(server string)) Option { return func(c *config) { c.toolsChanged = fn } }

// WithLookupEnv replaces os.LookupEnv as the parent environment that
// ${VAR} references and the allowlist read (for tests and embedding).
func WithLookupEnv(fn func(string) (string, bool)) Option { return func(c *config) { c.getenv = fn } }

// runnable is a registry tool the Runner can run.
type runnable struct {
	tool    *manifest.Tool
	runtime *manifest.Tool // a script's runtime
	server  *upstream      // an mcp_tool's server
	schema  json.RawMessage
	path    *jsonPath // an api tool's response_transform
}

// Runner runs the tools of a registry: scripts through their runtime and
// the subprocess primitive, api tools through http_client, and the tools of
// MCP servers through the official MCP client. A Runner is safe for
// concurrent use; Close stops every child process it started.
type Runner struct {
	cfg      config
	reg      *manifest.Registry
	http     *http.Client
	tools    map[string]*runnable // registry tools by tool_id
	order    []string             // tool_ids, sorted
	servers  map[string]*upstream // mcp_server tools by tool_id
	sorder   []string
	skipped  []Skip // registry tools left out at New
	mu       sync.Mutex
	byName   map[string]upstreamTool // last listed upstream tools by exposed name
	upSkips  []Skip                  // upstreams that failed at the last Tools
	closed   bool
	proxy    proxyState
	closeCtx context.Context
	cancel   context.CancelFunc
}

// upstreamTool is one tool an upstream listed.
type upstreamTool struct {
	server *upstream
	def    *mcp.Tool
}

// New lints the registry (manifest.Lint) and prepares every tool it can
// run: scripts, api tools, mcp_tool tools, and the mcp_server tools whose
// upstream tools it lists. A tool whose manifest (or executor) has lint
// errors, or that needs what the executor does not do, is left out with
// its reason ([Runner.Skipped]). No process is started and no connection
// made until a tool is listed or called. New returns an error only when
// ctx is done.
func New(ctx context.Context, reg *manifest.Registry, opts ...Option) (*Runner, error) {
	cfg := config{envAllow: DefaultEnvAllowlist(), logger: slog.New(slog.NewTextHandler(io.Discard, nil)), getenv: lookupEnv}
	for _, o := range opts {
		o(&cfg)
	}
	cfg.limits = cfg.limits.withDefaults()
	rep, err := manifest.Lint(ctx, reg)
	if err != nil {
		return nil, fmt.Errorf("executor: %w", err)
	}
	// The Runner's own life, not New's ctx: upstream sessions outlive the
	// call that starts the Runner, and Close ends them.
	closeCtx, cancel := context.WithCancel(context.Background())
	r := &Runner{cfg: cfg, reg: reg, tools: map[string]*runnable{}, servers: map[string]*upstream{},
		closeCtx: closeCtx, cancel: cancel}
	r.http = newHTTPClient(cfg)
	lintErr := func(t *manifest.Tool) string {
		res, ok := rep.Results[t.ID]
		if !ok {
			return "its tool_id is missing or shared with another tool"
		}
		for _, is := range res.Issues {
			if is.Severity == result.Error {
				return fmt.Sprintf("its manifest has lint errors, the first at %s: %s", is.Location, is.Message)
			}
		}
		return ""
	}
	for _, t := range reg.Tools() {
		if t.Kind() != manifest.MCPServer {
			continue
		}
		if why := lintErr(t); why != "" {
			r.skipped = append(r.skipped, Skip{Tool: t.ID, Reason: why})
			continue
		}
		if tr := transport(t.Config); tr != "stdio" && tr != "streamable-http" && tr != "sse" {
			r.skipped = append(r.skipped, Skip{Tool: t.ID, Reason: fmt.Sprintf("MCP server transport %v is not run: the executor speaks stdio, streamable-http and sse", t.Config["transport"])})
			continue
		}
		r.servers[t.ID] = newUpstream(r, t)
		r.sorder = append(r.sorder, t.ID)
	}
	for _, t := range reg.Tools() {
		if k := t.Kind(); k != manifest.Script && k != manifest.API && k != manifest.MCPTool {
			continue
		}
		if why := lintErr(t); why != "" {
			r.skipped = append(r.skipped, Skip{Tool: t.ID, Reason: why})
			continue
		}
		rn, why := r.prepare(t, lintErr)
		if why != "" {
			r.skipped = append(r.skipped, Skip{Tool: t.ID, Reason: why})
			continue
		}
		r.tools[t.ID] = rn
		r.order = append(r.order, t.ID)
	}
	slices.Sort(r.order)
	slices.Sort(r.sorder)
	return r, nil
}

// prepare resolves a lint-clean tool's executor (lint has checked that
// the chain ends in a primitive and that each link has the type it needs)
// and what running it requires.
func (r *Runner) prepare(t *manifest.Tool, lintErr func(*manifest.Tool) string) (*runnable, string) {
	rn := &runnable{tool: t}
	var err error
	if rn.schema, err = t.SchemaJSON(); err != nil {
		return nil, err.Error()
	}
	if t.Schema() == nil {
		rn.schema = json.RawMessage(`{"type":"object"}`)
	}
	ex, ok := r.reg.Lookup(t.Executor)
	if !ok {
		return nil, fmt.Sprintf("its executor %s is not in the registry", t.Executor)
	}
	switch t.Kind() {
	case manifest.Script:
		if why := lintErr(ex); why != "" && ex.Form != manifest.FormBuiltin {
			return nil, fmt.Sprintf("its runtime %s cannot run: %s", ex.ID, why)
		}
		if ex.Executor != manifest.Subprocess {
			return nil, fmt.Sprintf("its runtime %s runs over %s; the executor runs runtimes as processes (subprocess) only", ex.ID, ex.Executor)
		}
		if s, _ := ex.Config["command"].(string); s == "" {
			return nil, fmt.Sprintf("its runtime %s has no config.command", ex.ID)
		}
		rn.runtime = ex
	case manifest.API:
		if s, _ := t.Config["response_transform"].(string); s != "" {
			p, err := compileJSONPath(s)
			if err != nil {
				return nil, fmt.Sprintf("its response_transform cannot be evaluated: %v", err)
			}
			rn.path = p
		}
	case manifest.MCPTool:
		up, ok := r.servers[ex.ID]
		if !ok {
			return nil, fmt.Sprintf("its MCP server %s cannot run (see its own entry)", ex.ID)
		}
		rn.server = up
	}
	return rn, ""
}

// LongestTimeout is the longest timeout any call of the Runner's tools
// may have: Limits.Timeout or a larger config.timeout of a tool, its
// runtime or its MCP server. A server draining its calls waits this long.
func (r *Runner) LongestTimeout() time.Duration {
	d := r.cfg.limits.Timeout
	for _, t := range r.reg.Tools() {
		if s, ok := seconds(t.Config["timeout"]); ok {
			d = max(d, s)
		}
	}
	return d
}

// Failed returns the MCP servers that failed to start or list at the last
// [Runner.Tools], and why (a subset of [Runner.Skipped]).
func (r *Runner) Failed() []Skip {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.upSkips)
}

// Skipped returns the tools left out of [Runner.Tools] and why: registry
// tools that cannot run, and MCP servers that failed to start or list at
// the last Tools.
func (r *Runner) Skipped() []Skip {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append(slices.Clone(r.skipped), r.upSkips...)
}

// Tools returns the runnable tools: the registry's scripts, api tools and
// mcp_tool tools (by tool_id, sorted), then the tools every MCP server
// lists, in its order. Listing starts (or connects to) each MCP server; one
// that fails is left out with its reason in [Runner.Skipped], and Tools
// still answers. An upstream tool whose name is taken by another tool is
// named "<server_id>__<name>". Tools returns an error only when ctx is
// done or the Runner is closed.
func (r *Runner) Tools(ctx context.Context) ([]Tool, error) {
	if err := r.live(); err != nil {
		return nil, err
	}
	var out []Tool
	taken := map[string]int{}
	for _, id := range r.order {
		rn := r.tools[id]
		t := Tool{Name: id, Description: rn.tool.Description, InputSchema: rn.schema, Kind: rn.tool.Type}
		if rn.server != nil {
			t.Server, t.Upstream = rn.server.tool.ID, mcpToolName(rn.tool)
		}
		out = append(out, t)
		taken[id]++
	}
	type listed struct {
		up   *upstream
		defs []*mcp.Tool
		raws []json.RawMessage
	}
	var lists []listed
	var skips []Skip
	for _, id := range r.sorder {
		up := r.servers[id]
		defs, raws, err := up.list(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("executor: tools: %w", ctx.Err())
			}
			up.noteState(err)
			skips = append(skips, Skip{Tool: id, Reason: err.Error()})
			continue
		}
		up.noteState(nil)
		lists = append(lists, listed{up, defs, raws})
		for _, d := range defs {
			taken[d.Name]++
		}
	}
	byName := map[string]upstreamTool{}
	for _, l := range lists {
		for i, d := range l.defs {
			name := d.Name
			if taken[name] > 1 {
				name = l.up.tool.ID + "__" + d.Name
			}
			t := Tool{Name: name, Description: d.Description, Server: l.up.tool.ID, Upstream: d.Name, Kind: manifest.MCPServer}
			if i < len(l.raws) {
				t.Raw = l.raws[i]
			} else if b, err := json.Marshal(d); err == nil {
				t.Raw = b
			}
			t.InputSchema = schemaJSON(d.InputSchema, `{"type":"object"}`)
			t.OutputSchema = schemaJSON(d.OutputSchema, "")
			out = append(out, t)
			byName[name] = upstreamTool{server: l.up, def: d}
		}
	}
	// An mcp_tool without its own parameters takes the upstream's schema.
	for i := range out {
		rn := r.tools[out[i].Name]
		if rn == nil || rn.server == nil || rn.tool.Schema() != nil {
			continue
		}
		for _, l := range lists {
			if l.up != rn.server {
				continue
			}
			for _, d := range l.defs {
				if d.Name == out[i].Upstream {
					out[i].InputSchema = schemaJSON(d.InputSchema, `{"type":"object"}`)
					out[i].OutputSchema = schemaJSON(d.OutputSchema, "")
				}
			}
		}
	}
	r.mu.Lock()
	r.byName, r.upSkips = byName, skips
	r.mu.Unlock()
	return out, nil
}

// schemaJSON encodes an upstream schema; def when there is none.
func schemaJSON(s any, def string) json.RawMessage {
	if s == nil {
		if def == "" {
			return nil
		}
		return json.RawMessage(def)
	}
	b, err := json.Marshal(s)
	if err != nil || string(b) == "null" {
		if def == "" {
			return nil
		}
		return json.RawMessage(def)
	}
	return b
}

func mcpToolName(t *manifest.Tool) string {
	s, _ := t.Config["mcp_tool_name"].(string)
	return s
}

func (r *Runner) live() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return ErrClosed
	}
	return nil
}

// Call runs the tool name with the arguments args (a JSON object; empty
// means {}). The arguments are not checked here: check them first
// (package toolcall), as judge tools run and the gateway do.
//
// Call returns an error only when the call could not be made: an unknown
// tool (ErrUnknownTool), a refused address (ErrRefusedAddress), a process
// or server that could not start, a timeout (ErrTimeout, the process
// group killed), a closed Runner. A tool that ran and failed is a Result
// with IsError.
func (r *Runner) Call(ctx context.Context, name string, args json.RawMessage) (*Result, error) {
	if err := r.live(); err != nil {
		return nil, err
	}
	start := time.Now()
	argv, err := decodeArgs(args)
	if err != nil {
		return nil, fmt.Errorf("executor: %s: %w", name, err)
	}
	var res *Result
	rn, ok := r.tools[name]
	switch {
	case ok && rn.tool.Kind() == manifest.Script:
		res, err = r.runScript(ctx, rn, argv)
	case ok && rn.tool.Kind() == manifest.API:
		res, err = r.runAPI(ctx, rn, argv)
	default:
		srv, tool, timeout, found := r.mcpTarget(ctx, name)
		if !found {
			return nil, fmt.Errorf("executor: %w %q", ErrUnknownTool, name)
		}
		res, err = srv.call(ctx, tool, argv, timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("executor: %s: %w", name, err)
	}
	res.Duration = time.Since(start)
	return res, nil
}

// CallMCP runs the tool called name as Call does and returns its answer as
// the JSON of an MCP tools/call result, what a gateway forwards. The tool
// of a stdio MCP server is called around the SDK's decoding: its answer
// comes back as the server sent it (an object; unknown members kept),
// without being decoded and encoded again. Any other tool's Result is
// encoded as Result.MCPResult.
func (r *Runner) CallMCP(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	if err := r.live(); err != nil {
		return nil, err
	}
	if rn, ok := r.tools[name]; !ok || rn.tool.Kind() == manifest.MCPTool {
		if srv, tool, timeout, found := r.mcpTarget(ctx, name); found && srv.rawable() {
			obj, err := argsObject(args)
			if err != nil {
				return nil, fmt.Errorf("executor: %s: %w", name, err)
			}
			raw, err := srv.callRaw(ctx, tool, obj, timeout)
			switch {
			case err == nil:
				return raw, nil
			case !errors.Is(err, errNoRaw):
				return nil, fmt.Errorf("executor: %s: %w", name, err)
			}
		}
	}
	res, err := r.Call(ctx, name, args)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(res.MCPResult())
	if err != nil {
		return nil, fmt.Errorf("executor: %s: %w", name, err)
	}
	return raw, nil
}

// mcpTarget finds the upstream server, its name of the tool and the call's
// timeout for name: an mcp_tool of the registry (its config.timeout, else
// its server's) or a tool an upstream lists (its server's config.timeout),
// else Limits.Timeout.
func (r *Runner) mcpTarget(ctx context.Context, name string) (*upstream, string, time.Duration, bool) {
	if rn, ok := r.tools[name]; ok {
		if rn.tool.Kind() != manifest.MCPTool {
			return nil, "", 0, false
		}
		return rn.server, mcpToolName(rn.tool), toolTimeout(rn.tool.Config, rn.server.tool.Config, r.cfg.limits.Timeout), true
	}
	ut, ok := r.upstreamTool(ctx, name)
	if !ok {
		return nil, "", 0, false
	}
	return ut.server, ut.def.Name, toolTimeout(ut.server.tool.Config, nil, r.cfg.limits.Timeout), true
}

// argsObject checks that args is a JSON object (absent or null is {}),
// without decoding it.
func argsObject(args json.RawMessage) (json.RawMessage, error) {
	t := bytes.TrimSpace(args)
	if len(t) == 0 || string(t) == "null" {
		return json.RawMessage("{}"), nil
	}
	if t[0] != '{' || !json.Valid(t) {
		return nil, errors.New("the arguments are not a JSON object")
	}
	return t, nil
}

// upstreamTool finds an upstream tool by its exposed name, listing the
// upstreams when it is not known yet.
func (r *Runner) upstreamTool(ctx context.Context, name string) (upstreamTool, bool) {
	r.mu.Lock()
	ut, ok := r.byName[name]
	r.mu.Unlock()
	if ok || len(r.servers) == 0 {
		return ut, ok
	}
	if _, err := r.Tools(ctx); err != nil {
		return upstreamTool{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	ut, ok = r.byName[name]
	return ut, ok
}

// decodeArgs reads the arguments: absent or null is {}; anything but an
// object is an error.
func decodeArgs(args json.RawMessage) (map[string]any, error) {
	if len(strings.TrimSpace(string(args))) == 0 || strings.TrimSpace(string(args)) == "null" {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(strings.NewReader(string(args)))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("the arguments are not a JSON object: %w", err)
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// toolTimeout is config.timeout (seconds) of the tool, else of its
// runtime, else def.
func toolTimeout(cfg, runtime map[string]any, def time.Duration) time.Duration {
	for _, c := range []map[string]any{cfg, runtime} {
		if d, ok := seconds(c["timeout"]); ok {
			return d
		}
	}
	return def
}

// seconds reads a positive number of seconds.
func seconds(v any) (time.Duration, bool) {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case json.Number:
		var err error
		if f, err = x.Float64(); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	if f <= 0 || f > 24*3600 {
		return 0, false
	}
	return time.Duration(f * float64(time.Second)), true
}

// Close stops every MCP server the Runner started (closing its stdin, then
// killing its process group) and ends every upstream session. Calls after
// Close fail with ErrClosed. Close is idempotent.
func (r *Runner) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	r.mu.Unlock()
	r.cancel()
	var errs []error
	var wg sync.WaitGroup
	var emu sync.Mutex
	for _, id := range r.sorder {
		up := r.servers[id]
		wg.Go(func() {
			if err := up.stop(); err != nil {
				emu.Lock()
				errs = append(errs, fmt.Errorf("executor: stopping %s: %w", id, err))
				emu.Unlock()
			}
		})
	}
	wg.Wait()
	r.http.CloseIdleConnections()
	return errors.Join(errs...)
}
