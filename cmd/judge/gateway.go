package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/executor"
	"github.com/agentjudge/judge/gateway"
	"github.com/agentjudge/judge/internal/config"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/telemetry"
	"github.com/agentjudge/judge/toolcall"
	"github.com/agentjudge/judge/toolpin"
)

// gatewayParams are the flags of judge gateway.
type gatewayParams struct {
	tools          []string      // --tools: manifest directories
	http           string        // --http: serve streamable HTTP on this address instead of stdio
	exposeJudge    bool          // --expose-judge: offer validate, check_call, lint_tools
	pins           string        // --pins: pin file; "" keeps pins in memory
	refuseChanged  bool          // --refuse-changed
	refusePoisoned bool          // --refuse-poisoned
	allowLoopback  bool          // --allow-loopback: HTTP requests may reach loopback addresses
	allowPrivate   bool          // --allow-private: HTTP requests may reach private and link-local addresses
	timeout        time.Duration // --timeout: a call's timeout when its manifests give none
	tokenEnv       string        // --token-env: the variable holding the --http bearer token
	allowOrigins   []string      // --allow-origin: origins --http accepts besides loopback ones
	logLevel       *enumFlag     // --log-level
	config         string        // --config: the config file; "" = JUDGE_CONFIG or the default
	compactBudget  int           // --compact-budget: 0 = results as the tools gave them
	budgetGiven    bool          // --compact-budget was given: it wins over gateway.compact_budget
	fullMeta       bool          // --full-meta: both ValidationResults in every answer's _meta.judge
	stdin          io.Reader
	stdout         io.Writer
	getenv         func(string) string
}

func newGatewayParams() gatewayParams {
	return gatewayParams{logLevel: newEnumFlag("info", "debug", "info", "warn", "error"), stdin: os.Stdin, stdout: os.Stdout, getenv: os.Getenv,
		timeout: 30 * time.Second, tokenEnv: DefaultTokenEnv}
}

func initGateway(root *cobra.Command) {
	params := newGatewayParams()
	cmd := &cobra.Command{
		Use:   "gateway --tools DIR [--http ADDR] [--expose-judge]",
		Short: "Serve the registry's tools as an MCP server with judge around every call",
		Long: `Serve the tools of the registry (scripts, api tools, mcp_tool manifests) and
every tool of its upstream MCP servers as one MCP server: over stdio by
default, over streamable HTTP with --http. Every tools/call is checked before
it runs (an invalid call is answered with repair feedback and never run),
runs with the normalized arguments, and its outcome (status, reason, facts,
suggestions, progress) is put in the result's _meta.judge, with the check's
and the outcome's ValidationResults when they report an issue (always, with
--full-meta). A session whose
progress verdict is stop gets a clear message instead of more calls. A goal
the client gives (_meta.judge.goal) that the rules cannot decide goes to the
model of the config file's llm section or JUDGE_LLM_*, if any; else it is
reported as not checked.

With --compact-budget N (or gateway.compact_budget in the config file), a
result whose JSON is over N characters reaches the model compacted by its
fields: long lists keep their first items and the entity the call asked
about, long texts their start, each cut says what it left out, and
_meta.judge.compacted says what was cut. Error results, text that is not
JSON and images are never cut. Off (0) by default.

Tool definitions are scanned for poisoning and upstream tools pinned
(--pins FILE, or Redis with JUDGE_REDIS_URL, keeps the pins across restarts); --refuse-poisoned and
--refuse-changed leave such tools out of tools/list. Sessions live in
memory, or in Redis when JUDGE_REDIS_URL is set. Logs go to stderr, the
stderr of stdio upstreams too (a record per line, with the server's id).

A call's timeout is its manifest's config.timeout (an mcp_tool's, else its
mcp_server's), else --timeout; a call past it is cancelled upstream
(notifications/cancelled) and answered as failed. An upstream that fails
to start or list is counted in the "gateway ready" log line, logged once
until its state changes, told to clients as a log notification
(notifications/message, logger "judge"), and retried with a backoff (1 s
doubling to 1 min, jittered); its tools are offered once it lists them.
A request the client cancels gets no answer. When stdin ends, or on
SIGTERM or SIGINT, the calls in flight are answered (within the longest
call timeout) before judge exits and stops the upstreams.

With --http, streamable HTTP is served at http://ADDR/mcp (and at /, as
before). When the variable --token-env names (default JUDGE_API_TOKEN) is
set, every request needs "Authorization: Bearer <token>" (401 otherwise),
as judge serve; a request whose Origin header is present and not allowed
gets 403 (DNS rebinding): loopback origins are allowed when ADDR is a
loopback address, others with --allow-origin.

With OTEL_EXPORTER_OTLP_ENDPOINT (and the other OTEL_* variables) every
tools/call is a span continuing the trace of the request's params._meta
traceparent, and the upstream call carries the gateway's context in its own
_meta (docs/observability.md).`,
		Example: `  judge gateway --tools .ai/tools
  judge gateway --tools .ai/tools --http 127.0.0.1:8090 --expose-judge --pins pins.json
  JUDGE_API_TOKEN=s3cret judge gateway --tools .ai/tools --http 0.0.0.0:8090 --allow-origin https://app.example.com
  judge gateway --tools .ai/tools --compact-budget 8000 --config judge.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			params.config = configFlagValue(cmd)
			params.budgetGiven = cmd.Flags().Changed("compact-budget")
			return runGateway(ctx, params, args, cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&params.tools, "tools", nil, "tool manifest directory (repeatable)")
	f.StringVar(&params.http, "http", "", "serve streamable HTTP on this address (e.g. 127.0.0.1:8090) instead of stdio")
	f.BoolVar(&params.exposeJudge, "expose-judge", false, "offer judge's own checks as tools: validate, check_call, lint_tools")
	f.StringVar(&params.pins, "pins", "", "file keeping the pins of upstream tool definitions across restarts (default: Redis with JUDGE_REDIS_URL, else memory)")
	f.BoolVar(&params.refuseChanged, "refuse-changed", false, "leave out an upstream tool whose definition differs from its pin")
	f.BoolVar(&params.refusePoisoned, "refuse-poisoned", false, "leave out a tool with an error-severity poisoning finding")
	f.BoolVar(&params.allowLoopback, "allow-loopback", false, "let HTTP requests (api tools, HTTP upstream MCP servers) reach loopback addresses (127.0.0.0/8, ::1)")
	f.BoolVar(&params.allowPrivate, "allow-private", false, "let HTTP requests (api tools, HTTP upstream MCP servers) reach private and link-local addresses")
	f.DurationVar(&params.timeout, "timeout", params.timeout, "a call's timeout when its manifests give none (config.timeout of the mcp_tool or mcp_server)")
	f.StringVar(&params.tokenEnv, "token-env", params.tokenEnv, "with --http: environment variable holding the bearer token every request needs; unset or empty leaves the endpoint open")
	f.StringArrayVar(&params.allowOrigins, "allow-origin", nil, "with --http: an origin (https://host:port) whose browser requests are accepted besides loopback ones (repeatable; * accepts any)")
	f.IntVar(&params.compactBudget, "compact-budget", 0, "character budget of the JSON a model reads of a result: a result over it is answered compacted by its fields (the entity asked about kept), with _meta.judge.compacted saying what was cut; 0 answers results whole (default 0, or gateway.compact_budget of the config file)")
	f.BoolVar(&params.fullMeta, "full-meta", false, "put the check's and the outcome's whole ValidationResults in _meta.judge of every answer, not only when they have an issue to report")
	f.Var(params.logLevel, "log-level", "log level")
	root.AddCommand(cmd)
}

// gatewayGCPercent is the garbage collector's target the gateway runs with
// when GOGC is not set. The go-sdk allocates a fresh 32 KB decoding buffer
// for every JSON value it unmarshals (its internal/json.Unmarshal goes
// through a segmentio json.Decoder), about 500 KB per proxied call, while
// the gateway's live heap is a few MB: at the default of 100 the heap goal
// is the runtime's 4 MB minimum and a collection ran every 7 or 8 calls,
// about a third of the gateway's CPU. At 400 the goal is 16 MB and a
// collection runs every 30 calls or so (docs/gateway.md, "Speed").
const gatewayGCPercent = 400

// gatewayProcs is how many processors (GOMAXPROCS) judge gateway runs
// with unless GOMAXPROCS is set. One client calls one tool at a time or a
// few at once, and the gateway's work per call is tens of microseconds of
// CPU between reads of a pipe or a socket: with one processor, a goroutine
// woken by a read (the request, the upstream's answer) runs on it at once,
// where with two its wake-up may go through another thread. Alternated
// against two processors on the 2-core bench machine, one gave the lower
// added p50 on stdio in 7 of 8 pairs (by 20–200 µs; decision 40), and over
// streamable HTTP by 43 and 104 µs (docs/gateway.md, "Speed"). A gateway
// serving many clients at once over HTTP sets GOMAXPROCS to use more
// cores.
const gatewayProcs = 1

// runGateway serves until ctx is done or the stdio client leaves. Logs go
// to logOut as JSON lines; with --http the first says where it listens.
func runGateway(ctx context.Context, params gatewayParams, _ []string, logOut io.Writer) error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(params.logLevel.value)); err != nil {
		return badInputf("--log-level: %v", err)
	}
	tel, logger, flush, err := startTelemetry(ctx, slog.NewJSONHandler(logOut, &slog.HandlerOptions{Level: level}))
	if err != nil {
		return err
	}
	defer flush()
	if len(params.tools) == 0 {
		return badInputf("give --tools DIR: the registry whose tools the gateway serves")
	}
	if params.timeout <= 0 {
		return badInputf("--timeout %s is not positive", params.timeout)
	}
	if params.getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(gatewayGCPercent))
	}
	cfg, err := loadConfig(params.config, params.getenv, nil)
	if err != nil {
		return err
	}
	for _, w := range configWarnings(cfg, params.getenv) {
		logger.Warn("config file", "warning", w)
	}
	budget, err := params.budget(cfg)
	if err != nil {
		return err
	}
	conv, err := registryConventions(cfg)
	if err != nil {
		return err
	}
	reg, err := manifest.LoadDirsWith(ctx, conv, params.tools...)
	if err != nil {
		return badInput(err)
	}
	store, err := sessionStore(params.getenv)
	if err != nil {
		return err
	}
	defer store.close()
	pinStore, pinsAt, closePins, err := params.pinStore(ctx, store)
	if err != nil {
		return err
	}
	defer closePins()
	pins, err := toolpin.New(ctx, pinStore)
	if err != nil {
		return badInput(err)
	}
	runner, changed, err := params.runner(ctx, reg, logger)
	if err != nil {
		return err
	}
	defer runner.Close()
	for _, s := range runner.Skipped() {
		logger.Warn("tool left out of tools/list", "tool", s.Tool, "reason", s.Reason)
	}
	callModel, err := callModelOptions(cfg, params.getenv)
	if err != nil {
		return err
	}
	opts := gateway.Options{Pins: pins, RefuseChanged: params.refuseChanged, RefusePoisoned: params.refusePoisoned, Logger: logger, Version: version,
		CallOptions: callModel, CompactBudget: budget, FullMeta: params.fullMeta, DrainTimeout: runner.LongestTimeout() + drainGrace, Telemetry: tel}
	if store.redis != nil {
		opts.Store = store.redis
	}
	gw, err := gateway.New(ctx, gateway.FromRunner(runner), opts)
	if err != nil {
		return err
	}
	if params.exposeJudge {
		closeEngine, err := exposeJudge(gw, tel)
		if err != nil {
			return err
		}
		defer closeEngine()
	}
	go refreshOnChange(ctx, gw, changed, logger)
	go gw.RetryUpstreams(ctx, time.Second, time.Minute)
	failed := gw.FailedUpstreams()
	why := map[string]string{}
	for _, f := range failed {
		why[f.Server] = f.Reason
	}
	logger.Info("gateway ready", "tools", len(gw.Offered()), "left_out", len(gw.Skipped()), "upstreams_failed", len(failed), "failed", why,
		"sessions", store.String(), "pins", pinsAt, "compact_budget", budget, "goal_model", len(callModel) > 0, "timeout", params.timeout.String())
	drain := opts.DrainTimeout
	if params.getenv("GOMAXPROCS") == "" && params.stdin == io.Reader(os.Stdin) { // the process itself, not a test calling runGateway
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(gatewayProcs))
	}
	if params.http == "" {
		return serveGatewayStdio(ctx, gw, params, logger, drain)
	}
	return serveGatewayHTTP(ctx, gw, params, logger, drain)
}

// drainGrace is added to the longest call timeout to bound a drain: the
// gateway's own work on an answer and its write.
const drainGrace = 5 * time.Second

// budget is the compaction budget: --compact-budget when given, else the
// config file's gateway.compact_budget, else 0 (off).
func (p gatewayParams) budget(cfg *config.File) (int, error) {
	if p.budgetGiven || cfg == nil || !cfg.Gateway.CompactBudget.Set() {
		if p.compactBudget < 0 {
			return 0, badInputf("--compact-budget %d is negative; give a number of characters, or 0 to answer results whole", p.compactBudget)
		}
		return p.compactBudget, nil
	}
	return int(min(cfg.Gateway.CompactBudget.Value, toolcall.MaxResultBytes)), nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// pollable returns r, when it is a pipe or a socket, as a file the Go
// runtime's poller reads: a blocking read of stdin holds a thread and its
// processor in the system call until the runtime takes the processor
// back, which delays the goroutines the read wakes by tens of
// microseconds a message. The read end of a pipe is the gateway's alone,
// so its O_NONBLOCK flag changes nothing for the client; restore clears
// it again. Anything else (a terminal, a file) is returned as it is.
func pollable(r io.Reader) (io.Reader, func()) {
	f, ok := r.(*os.File)
	if !ok {
		return r, func() {}
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return r, func() {}
	}
	fd := int(f.Fd())
	if err := syscall.SetNonblock(fd, true); err != nil {
		return r, func() {}
	}
	return os.NewFile(uintptr(fd), f.Name()), func() { _ = syscall.SetNonblock(fd, false) }
}

// pinStore opens the store of the gateway's tool pins: --pins FILE, else
// Redis when the sessions are kept there, else memory; at says which, for
// the log, and closeStore releases it.
func (params gatewayParams) pinStore(ctx context.Context, store sessions) (pins toolpin.Store, at string, closeStore func(), err error) {
	switch raw := params.getenv(RedisURLEnv); {
	case params.pins != "":
		return toolpin.File{Path: params.pins}, params.pins, func() {}, nil
	case raw != "" && store.redis != nil:
		r, err := toolpin.OpenRedis(ctx, raw)
		if err != nil {
			return nil, "", nil, badInputf("%s: %v (or give --pins FILE)", RedisURLEnv, err)
		}
		return r, "redis " + toolpin.DefaultRedisKey, func() { _ = r.Close() }, nil
	}
	return &toolpin.Memory{}, "memory", func() {}, nil
}

// serveGatewayStdio serves the one client on params.stdin and
// params.stdout until its input ends.
func serveGatewayStdio(ctx context.Context, gw *gateway.Gateway, params gatewayParams, logger *slog.Logger, drain time.Duration) error {
	in, restore := pollable(params.stdin)
	defer restore()
	// The session runs until its input ends; a signal (ctx) drains it
	// instead of cutting it: the calls in flight are answered, within
	// the drain timeout, then Run returns.
	runCtx, cancelRun := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelRun()
	tr := gw.StdioTransport(io.NopCloser(in), nopWriteCloser{params.stdout})
	stopWatch := context.AfterFunc(ctx, func() {
		logger.Info("stopping: answering the calls in flight", "drain_timeout", drain.String())
		if d, ok := tr.(interface{ Drain() }); ok {
			d.Drain()
		}
		time.AfterFunc(drain+drainGrace, cancelRun)
	})
	defer stopWatch()
	err := gw.Server().Run(runCtx, tr)
	if err != nil && runCtx.Err() == nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("gateway: %w", err)
	}
	return nil
}

// serveGatewayHTTP serves streamable HTTP on --http until ctx is done,
// then drains the calls in flight.
func serveGatewayHTTP(ctx context.Context, gw *gateway.Gateway, params gatewayParams, logger *slog.Logger, drain time.Duration) error {
	ln, err := net.Listen("tcp", params.http)
	if err != nil {
		return badInputf("--http: %v", err)
	}
	token := ""
	if params.tokenEnv != "" {
		token = strings.TrimSpace(params.getenv(params.tokenEnv))
	}
	loopback := false
	if ap, err := netip.ParseAddrPort(ln.Addr().String()); err == nil {
		loopback = ap.Addr().Unmap().IsLoopback()
	}
	// Shutdown ends the clients' open GET event streams at once (stopping);
	// it waits only for the POSTs in flight.
	stopping, endStreams := context.WithCancel(context.Background())
	defer endStreams()
	srv := gw.HTTPServer(gateway.HTTPOptions{Token: token, AllowedOrigins: params.allowOrigins, Loopback: loopback, Stopping: stopping})
	srv.RegisterOnShutdown(endStreams)
	logger.Info("listening", "url", "http://"+ln.Addr().String()+gateway.HTTPPath, "auth", token != "", "loopback_origins", loopback, "allowed_origins", params.allowOrigins)
	if token == "" && !loopback {
		logger.Warn("no API token: the MCP endpoint is open to anyone who can reach the address; set " + params.tokenEnv + " to require a bearer token")
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("gateway: %w", err)
	case <-ctx.Done():
	}
	// Shutdown stops accepting and waits for the requests in flight (a
	// call's POST is answered in its request; the GET streams end at
	// once), within the drain timeout.
	logger.Info("stopping: answering the calls in flight", "drain_timeout", drain.String())
	sctx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	_ = srv.Shutdown(sctx)
	return nil
}

// exposeJudge offers judge's own validation as tools of gw (--expose-judge),
// from an engine that closeEngine closes.
func exposeJudge(gw *gateway.Gateway, tel *telemetry.Telemetry) (closeEngine func(), err error) {
	var eopts []judge.Option
	if tel.Enabled() {
		eopts = append(eopts, judge.WithTracerProvider(tel.TracerProvider))
	}
	engine, err := judge.New(eopts...)
	if err != nil {
		return nil, err
	}
	gw.ExposeJudge(engine)
	return func() {
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = engine.Close(cctx)
	}, nil
}

// refreshOnChange refreshes gw's tools each time an upstream says its
// tool list changed (the server's name comes on changed), until ctx is
// done.
func refreshOnChange(ctx context.Context, gw *gateway.Gateway, changed <-chan string, logger *slog.Logger) {
	for {
		select {
		case <-ctx.Done():
			return
		case s := <-changed:
			logger.Info("upstream tool list changed", "server", s)
			if err := gw.Refresh(ctx); err != nil {
				logger.Error("refresh after tools/list_changed", "server", s, "err", err)
			}
		}
	}
}

// runner makes the executor that runs reg's tools for the gateway; the
// name of an upstream server whose tool list changed comes on changed.
func (params gatewayParams) runner(ctx context.Context, reg *manifest.Registry, logger *slog.Logger) (*executor.Runner, <-chan string, error) {
	changed := make(chan string, 16)
	runner, err := executor.New(ctx, reg, executor.WithLogger(logger), executor.WithAllowLoopback(params.allowLoopback),
		executor.WithAllowPrivate(params.allowPrivate), executor.WithLimits(executor.Limits{Timeout: params.timeout}),
		executor.WithToolsChanged(func(server string) {
			select {
			case changed <- server:
			default:
			}
		}))
	if err != nil {
		return nil, nil, badInput(err)
	}
	return runner, changed, nil
}
