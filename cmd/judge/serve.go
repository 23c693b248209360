package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/console"
	"github.com/agentjudge/judge/internal/accesslog"
	"github.com/agentjudge/judge/internal/config"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/server"
	"github.com/agentjudge/judge/server/history"
	"github.com/agentjudge/judge/toolcall"
)

// accessLogDelay is how long judge serve may hold access-log lines before
// writing them.
const accessLogDelay = 100 * time.Millisecond

// DefaultTokenEnv names the environment variable judge serve reads its
// bearer token from unless --token-env names another.
const DefaultTokenEnv = "JUDGE_API_TOKEN"

// serveParams are the flags of judge serve.
type serveParams struct {
	addr         string        // --addr: TCP address to listen on
	schemasDir   string        // --schemas: directory of schemas for $ref
	sourcesDir   string        // --sources: directory trusted_sources resolve against
	tokenEnv     string        // --token-env: variable holding the bearer token
	logLevel     *enumFlag     // --log-level
	timeout      time.Duration // --timeout: each layer's deadline; 0 = default
	maxBodyBytes int64         // --max-body-bytes; 0 = server default
	maxInFlight  int           // --max-in-flight; 0 = server default
	// --max-in-flight-bytes, --cache-bytes, --read-timeout; 0 = default
	maxInFlightBytes int64
	cacheBytes       int64
	readTimeout      time.Duration
	tools            []string // --tools: tool manifest directories for /v1/calls/*
	defs             string   // --defs: tool definitions file for /v1/calls/*
	config           string   // --config: the config file; "" = JUDGE_CONFIG or the default
	adaptProcs       bool     // --adapt-procs: one processor while one client at a time
	noUI             bool     // --no-ui: serve the API only, no console pages
	// changed holds the flags given on the command line, which the config
	// file's serve section does not override.
	changed  map[string]bool
	addrFrom string // what set addr, for errors: "--addr" or the file's key
	getenv   func(string) string
}

func newServeParams() serveParams {
	return serveParams{
		addr:       ":8080",
		tokenEnv:   DefaultTokenEnv,
		logLevel:   newEnumFlag("info", "debug", "info", "warn", "error"),
		getenv:     os.Getenv,
		adaptProcs: true,
	}
}

func initServe(root *cobra.Command) {
	params := newServeParams()
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the HTTP API",
		Long: `Serve the HTTP API: POST /validate (alias /v1/validate) answers a
ValidationResult; POST /v1/calls/check and /v1/calls/outcome check tool calls
before and after they run, against the tools of the request or of --tools DIR
and --defs FILE; GET /healthz, /readyz, /metrics, /openapi.json and
/capabilities describe the service, GET /v1/dashboard what it has seen in
the last 6 hours. The web console's pages are served at / (the playground),
/dashboard and /traces (docs/console.md), without the token since they hold
no data: they ask for the token when the API answers 401; --no-ui turns
them off.

Every route except /healthz and /readyz requires "Authorization: Bearer
<token>" when the environment variable named by --token-env (default
JUDGE_API_TOKEN) is set; the token is never a flag, so that it does not show
in the process list. Tool-call sessions are kept in memory, or in Redis when
JUDGE_REDIS_URL (redis://host:port/db, or
redis+cluster://host:port?addr=host:port for a Redis Cluster) is set, shared by every replica; the server must answer at
start. Plain-language criteria are judged by the model that
JUDGE_LLM_BASE_URL and JUDGE_LLM_MODEL name (JUDGE_LLM_API_KEY if it needs
a key), or the llm section of the config file (--config), and reported as
not checked without one. The file's serve section gives --addr, --schemas,
--sources and --tools, and the limits under load (cache_bytes,
max_in_flight, max_in_flight_bytes, max_body_bytes, read_timeout) and no_ui, when they
are not given; its registry section declares
tool types, primitives and fields for --tools and POST /v1/tools/lint. Logs are JSON lines on
stderr. With OTEL_EXPORTER_OTLP_ENDPOINT (and the other OTEL_* variables)
every request is a span, continuing its traceparent header's trace, exported
over OTLP (docs/observability.md). SIGINT or SIGTERM shuts
the server down gracefully and exits 0.`,
		Example: `  JUDGE_API_TOKEN=s3cret judge serve --addr 127.0.0.1:8080 --schemas examples/schemas
  curl -H 'Authorization: Bearer s3cret' -H 'Content-Type: application/json' --data @examples/request.json http://127.0.0.1:8080/validate`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			params.config = configFlagValue(cmd)
			params.changed = changedFlags(cmd, "addr", "schemas", "sources", "tools",
				"cache-bytes", "max-in-flight", "max-in-flight-bytes", "max-body-bytes", "read-timeout", "no-ui")
			return runServe(ctx, params, args, cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&params.addr, "addr", params.addr, "TCP address to listen on (port 0 picks a free port)")
	f.StringVar(&params.schemasDir, "schemas", "", "directory of *.json schemas, by $id, that $ref may name")
	f.StringVar(&params.sourcesDir, "sources", "", "directory of .txt/.md/.json documents that trusted_sources resolve against (by path, URL or file name); read once")
	f.StringVar(&params.tokenEnv, "token-env", params.tokenEnv, "environment variable holding the bearer token; unset or empty leaves the API open")
	f.Var(params.logLevel, "log-level", "least level logged: debug, info, warn or error")
	f.BoolVar(&params.adaptProcs, "adapt-procs", params.adaptProcs, "run on one processor while at most one connection has a request in flight, on all as soon as two have (a set GOMAXPROCS variable wins)")
	f.DurationVar(&params.timeout, "timeout", 0, fmt.Sprintf("deadline of each validation layer (default %v; %v with a model)", judge.DefaultLayerTimeout, judge.LLMLayerTimeout))
	f.IntVar(&params.maxInFlight, "max-in-flight", 0, fmt.Sprintf("POST requests answered at once, counted once their body is read; more get 503 (default %d)", server.DefaultMaxInFlight))
	f.Int64Var(&params.maxInFlightBytes, "max-in-flight-bytes", 0, "bytes of the bodies of the POST requests answered at once; more get 503 (default twice --max-body-bytes)")
	f.Int64Var(&params.maxBodyBytes, "max-body-bytes", 0, fmt.Sprintf("largest request body in bytes (default %s)", sizeString(server.DefaultMaxBodyBytes)))
	f.Int64Var(&params.cacheBytes, "cache-bytes", 0, fmt.Sprintf("byte budget of the engine's caches of compiled schemas, rules and source indexes (default %s)", sizeString(layer.DefaultCacheBytes)))
	f.DurationVar(&params.readTimeout, "read-timeout", 0, fmt.Sprintf("time to read a request's header and body; a body still arriving then gets 408 (default %v)", server.DefaultReadTimeout))
	f.StringArrayVar(&params.tools, "tools", nil, "directory of tool manifests whose calls /v1/calls/check and /v1/calls/outcome check when a request gives no tools (repeatable)")
	f.BoolVar(&params.noUI, "no-ui", false, "serve the API only: no web console (its playground at /, /dashboard, /traces)")
	f.StringVar(&params.defs, "defs", "", "JSON file of tool definitions (MCP tools, OpenAI functions, a tools/list answer) for /v1/calls/*")
	root.AddCommand(cmd)
}

// runServe serves the HTTP API until ctx is done, then shuts down
// gracefully and returns nil. Logs, starting with the address listened on,
// go to logOut as JSON lines.
func runServe(ctx context.Context, params serveParams, _ []string, logOut io.Writer) error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(params.logLevel.value)); err != nil {
		return badInputf("--log-level: %v", err)
	}
	logBuf := accesslog.NewBuffer(logOut, accessLogDelay)
	defer logBuf.Flush()
	tel, logger, flush, err := startTelemetry(ctx, accesslog.NewHandler(logBuf, level))
	if err != nil {
		return err
	}
	defer flush()
	var opts []judge.Option
	if tel.Enabled() {
		opts = append(opts, judge.WithTracerProvider(tel.TracerProvider))
	}
	if err := params.checkLimits(); err != nil {
		return err
	}
	cfg, err := loadConfig(params.config, params.getenv, nil)
	if err != nil {
		return err
	}
	for _, w := range configWarnings(cfg, params.getenv) {
		logger.Warn(w)
	}
	params.applyConfig(cfg)
	conv, err := registryConventions(cfg)
	if err != nil {
		return err
	}
	engine, nschemas, err := newServeEngine(params, cfg, opts)
	if err != nil {
		return err
	}
	defer func() {
		// The workers end with the server; a layer that ignores its
		// deadline is not waited for longer than one deadline.
		cctx, cancel := context.WithTimeout(context.Background(), judge.DefaultLayerTimeout)
		defer cancel()
		_ = engine.Close(cctx)
	}()
	getenv := params.getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	token := ""
	if params.tokenEnv != "" {
		token = strings.TrimSpace(getenv(params.tokenEnv))
	}

	store, err := sessionStore(getenv)
	if err != nil {
		return err
	}
	defer store.close()
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	err = store.ping(pingCtx)
	cancel()
	if err != nil {
		return err
	}

	ln, err := params.listen(ctx)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String()
	modelName := engine.Model()
	if modelName == "" {
		modelName = result.Deterministic // as /capabilities and every result say
	}
	logger.Info("judge serve listening", "url", url, "addr", ln.Addr().String(),
		"version", versionString(), "auth", token != "", "schemas", nschemas, "sources", engine.SourceDocs(), "model", modelName)
	if token == "" {
		logger.Warn("no API token: every route is open to anyone who can reach the address; set " + params.tokenEnv + " to require a bearer token")
	}
	logger.Info("tool-call sessions", "store", store.String())
	callModel, err := callModelOptions(cfg, params.getenv)
	if err != nil {
		return err
	}
	calls, tools, err := serveTools(ctx, params, conv, append(store.options(), callModel...)...)
	if err != nil {
		return err
	}
	hist := history.New(nil)
	mounts, err := consoleMounts(params, engine, hist, calls, tools)
	if err != nil {
		return err
	}
	srv := server.New(engine, server.Options{Logger: logger, Token: token, MaxBodyBytes: params.maxBodyBytes, MaxInFlight: params.maxInFlight,
		MaxInFlightBytes: params.maxInFlightBytes, ReadTimeout: params.readTimeout, Version: versionString(),
		Calls: calls, Tools: tools, Registry: &conv, Telemetry: tel, AdaptProcs: params.adaptProcs, History: hist}, mounts...)
	return srv.Serve(ctx, ln)
}

// checkLimits refuses a negative deadline or limit.
func (params serveParams) checkLimits() error {
	if params.timeout < 0 {
		return badInputf("--timeout %v is negative", params.timeout)
	}
	if params.maxInFlight < 0 {
		return badInputf("--max-in-flight %d is negative", params.maxInFlight)
	}
	if params.maxBodyBytes < 0 {
		return badInputf("--max-body-bytes %d is negative", params.maxBodyBytes)
	}
	if params.maxInFlightBytes < 0 || params.cacheBytes < 0 || params.readTimeout < 0 {
		return badInputf("--max-in-flight-bytes, --cache-bytes and --read-timeout must not be negative")
	}
	return nil
}

// newServeEngine makes the engine judge serve answers with, from opts and
// the flags and config file, and says how many schemas --schemas gave it.
func newServeEngine(params serveParams, cfg *config.File, opts []judge.Option) (*judge.Engine, int, error) {
	if params.cacheBytes > 0 {
		opts = append(opts, judge.WithCacheBytes(params.cacheBytes))
	}
	if params.timeout > 0 {
		opts = append(opts, judge.WithLayerTimeout(params.timeout))
	}
	model, err := modelOption(cfg, params.getenv)
	if err != nil {
		return nil, 0, err
	}
	if model != nil {
		opts = append(opts, model)
	}
	nschemas := 0
	if params.schemasDir != "" {
		schemas, err := judge.LoadSchemaDir(params.schemasDir)
		if err != nil {
			return nil, 0, badInput(err)
		}
		nschemas = len(schemas)
		opts = append(opts, judge.WithSchemas(schemas))
	}
	if params.sourcesDir != "" {
		opts = append(opts, judge.WithSourceDir(params.sourcesDir))
	}
	engine, err := judge.New(opts...)
	if err != nil {
		if params.sourcesDir != "" {
			return nil, 0, badInput(err)
		}
		return nil, 0, err
	}
	return engine, nschemas, nil
}

// listen listens on --addr (or the config file's address), naming what
// set it when it cannot.
func (params serveParams) listen(ctx context.Context) (net.Listener, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", params.addr)
	if err != nil {
		from := params.addrFrom
		if from == "" {
			from = "--addr"
		}
		return nil, badInputf("%s %s: %v", from, params.addr, err)
	}
	return ln, nil
}

// consoleMounts are the web console's pages judge serve mounts beside the
// API, none with --no-ui. They are public (served without the token):
// they hold no data, and every API call they make carries the token.
//
// The dashboard's panels (from hist, the server's history) and the trace
// viewer's uploads (checked with calls, or against tools when an upload
// has no definitions) are data: they require the token like the API.
func consoleMounts(params serveParams, engine *judge.Engine, hist *history.History, calls *toolcall.Checker, tools *toolcall.Toolset) ([]server.Mount, error) {
	if params.noUI {
		return nil, nil
	}
	maxBody := params.maxBodyBytes
	if maxBody == 0 {
		maxBody = server.DefaultMaxBodyBytes
	}
	play, err := console.Playground(console.PlaygroundOptions{Types: engine.Types(), MaxBodyBytes: maxBody})
	if err != nil {
		return nil, err
	}
	dash, panels, err := console.Dashboard(console.DashboardOptions{Snapshot: hist.Snapshot})
	if err != nil {
		return nil, err
	}
	traces, upload, err := console.Traces(console.TracesOptions{MaxBytes: maxBody, Calls: calls, Tools: tools})
	if err != nil {
		return nil, err
	}
	return []server.Mount{
		{Pattern: "GET /{$}", Handler: play, Public: true},
		{Pattern: "GET /dashboard", Handler: dash, Public: true},
		{Pattern: "GET /dashboard/panels", Handler: panels},
		{Pattern: "GET /traces", Handler: traces, Public: true},
		{Pattern: "POST /traces", Handler: upload},
	}, nil
}
