package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/httpapi"
	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/server/history"
	"github.com/agentjudge/judge/telemetry"
	"github.com/agentjudge/judge/toolcall"
)

// Defaults of [Options].
const (
	DefaultMaxBodyBytes    = 10 << 20
	DefaultMaxDepth        = jsonvalue.DefaultMaxDepth
	DefaultReadTimeout     = 15 * time.Second
	DefaultWriteTimeout    = 60 * time.Second
	DefaultIdleTimeout     = 120 * time.Second
	DefaultShutdownTimeout = 10 * time.Second
	// MaxHeaderBytes is the largest request header block the server reads.
	MaxHeaderBytes = httpapi.MaxHeaderBytes
)

// Options configure a [Server]. The zero value is usable: every field has a
// default.
type Options struct {
	// Logger receives one line per request and every internal error; nil
	// discards.
	Logger *slog.Logger
	// Token, when not empty, is the bearer token every route except
	// /healthz and /readyz requires ("Authorization: Bearer <token>").
	Token string
	// MaxBodyBytes is the largest request body, in bytes; 0 means
	// DefaultMaxBodyBytes (10 MiB).
	MaxBodyBytes int64
	// MaxDepth is how deeply a request body may nest arrays and objects;
	// 0 means DefaultMaxDepth (256).
	MaxDepth int
	// ReadTimeout, WriteTimeout and IdleTimeout are those of http.Server;
	// 0 means 15s, 60s and 120s. ReadTimeout bounds the reading of a
	// request's header and body together: a body still arriving then is
	// answered 408 and its connection closed.
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// StreamIdleTimeout bounds how long POST /v1/validate/stream waits
	// for the next bytes of a body still arriving (its reading is not
	// bound by ReadTimeout); 0 means DefaultStreamIdleTimeout (10s).
	StreamIdleTimeout time.Duration
	// ShutdownTimeout bounds how long Serve waits for in-flight requests
	// once its context is done; 0 means DefaultShutdownTimeout (10s).
	ShutdownTimeout time.Duration
	// Version is reported by /capabilities; empty means the main module's
	// version from the build information.
	Version string
	// MaxInFlight bounds the requests with a body (every POST route)
	// answered at once; a request over it gets 503 with Retry-After at
	// once. A body is read before the request takes its slot, so a body
	// still arriving holds none. 0 means DefaultMaxInFlight.
	MaxInFlight int
	// MaxInFlightBytes bounds the bodies, in bytes, of the requests
	// answered at once, so that a few large requests (whose cost grows
	// with their size) cannot take the whole engine from small ones: a
	// request that would go over it gets 503 with Retry-After. A body
	// larger than the limit counts as the limit (it runs alone). 0 means
	// twice MaxBodyBytes.
	MaxInFlightBytes int64
	// Tools are the tools whose calls /v1/calls/check and
	// /v1/calls/outcome check when a request gives no "tools"; nil means
	// requests must give them.
	Tools *toolcall.Toolset
	// Calls compiles the tools of requests and keeps the sessions; nil
	// means a new toolcall.Checker with its defaults (sessions in memory).
	// Give the Checker that made Tools; for several replicas, one made
	// with toolcall.WithStore and a toolcall/redisstore Store, as judge
	// serve does when JUDGE_REDIS_URL is set.
	Calls *toolcall.Checker
	// Registry declares tool types, host primitives and extra fields for
	// every registry /v1/tools/lint reads, as judge's config file does;
	// a manifest.RegistryFile among a request's files adds to them, and
	// its declaration of a type wins. It must pass Conventions.Check; nil
	// declares nothing.
	Registry *manifest.Conventions
	// AdaptProcs runs the process on one processor while at most one
	// connection has a request in flight, and on the runtime's default
	// as soon as two have (see httpapi.ProcsAdapter): one client at a
	// time costs about a quarter less CPU a request. GOMAXPROCS is the
	// whole process's: set it only when the server owns its process, as
	// judge serve does. The GOMAXPROCS environment variable, when set,
	// wins.
	AdaptProcs bool
	// Telemetry, when it exports, gives every request a SERVER span
	// continuing the trace of its traceparent header; give the engine the
	// same provider (judge.WithTracerProvider) for the validation's spans
	// beneath it. nil starts no span.
	Telemetry *telemetry.Telemetry
	// History keeps the last 6 hours of what the server counts, minute
	// by minute, for GET /v1/dashboard and the console's dashboard; nil
	// means a new one on the wall clock.
	History *history.History
}

// Mount is a handler served beside the API routes (judge serve mounts
// the web console with them); the server knows nothing of what it
// serves. An API route wins over a mount whose pattern also matches its
// requests; a pattern that is not valid or that conflicts with a route or
// another mount makes Serve fail.
type Mount struct {
	// Pattern is an http.ServeMux pattern: "GET /traces", "/".
	Pattern string
	Handler http.Handler
	// Public serves the mount without the bearer token even when the
	// server has one: for a page that asks the person for the token and
	// sends it with its own API requests. A public mount must answer
	// nothing the token guards.
	Public bool
}

// DefaultMaxInFlight is the default of Options.MaxInFlight.
const DefaultMaxInFlight = 64

// Server is the HTTP API over one judge.Engine. It is safe for concurrent
// use. Make one with [New]; serve it with [Server.Serve], or mount
// [Server.Handler] in another server.
type Server struct {
	engine *judge.Engine
	// admission bounds the requests being answered and their bodies'
	// bytes (see admit).
	admission *httpapi.Admission
	opts      Options
	log       *slog.Logger
	metrics   *metrics
	openapi   []byte
	handler   http.Handler
	paths     map[string]bool // every routed path, for the route label
	ready     atomic.Bool
	// calls checks tool calls; nil, with callsErr, when it could not be
	// made.
	calls    *toolcall.Checker
	callsErr error
	// mux routes the API and the mounts; mounted are the mounts'
	// patterns (the route label of their requests), each true when
	// public. mountErr is why a mount could not be served.
	mux      *http.ServeMux
	mounted  map[string]bool
	mountErr error
	// history is Options.History; layerObserver counts each layer run of
	// a validation in the metrics and the history.
	history       *history.History
	layerObserver judge.LayerObserver
	// bufs keeps the buffers (*[]byte) of request bodies and encoded
	// answers for the next requests, once read (see keepBuf).
	bufs sync.Pool
}

// route is one route the server serves.
type route struct {
	method, path string
	handler      http.HandlerFunc
}

// New returns a Server answering with e, with opts' zero fields set to
// their defaults, that also serves mounts.
func New(e *judge.Engine, opts Options, mounts ...Mount) *Server {
	opts.MaxBodyBytes = httpapi.OrDefault(opts.MaxBodyBytes, DefaultMaxBodyBytes)
	opts.MaxDepth = httpapi.OrDefault(opts.MaxDepth, DefaultMaxDepth)
	opts.MaxInFlight = httpapi.OrDefault(opts.MaxInFlight, DefaultMaxInFlight)
	opts.MaxInFlightBytes = httpapi.OrDefault(opts.MaxInFlightBytes, 2*opts.MaxBodyBytes)
	opts.ReadTimeout = httpapi.OrDefault(opts.ReadTimeout, DefaultReadTimeout)
	opts.WriteTimeout = httpapi.OrDefault(opts.WriteTimeout, DefaultWriteTimeout)
	opts.IdleTimeout = httpapi.OrDefault(opts.IdleTimeout, DefaultIdleTimeout)
	opts.ShutdownTimeout = httpapi.OrDefault(opts.ShutdownTimeout, DefaultShutdownTimeout)
	opts.StreamIdleTimeout = httpapi.OrDefault(opts.StreamIdleTimeout, DefaultStreamIdleTimeout)
	if opts.Version == "" {
		opts.Version = buildVersion()
	}
	s := &Server{engine: e, opts: opts, log: opts.Logger, metrics: newMetrics(e.CacheStats), paths: map[string]bool{},
		admission: httpapi.NewAdmission(opts.MaxInFlight, opts.MaxInFlightBytes)}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.history = opts.History; s.history == nil {
		s.history = history.New(nil)
	}
	s.layerObserver = s.observeLayer
	if s.calls = opts.Calls; s.calls == nil {
		s.calls, s.callsErr = toolcall.New()
	}
	s.openapi = buildOpenAPI(opts)
	mux := http.NewServeMux()
	for _, rt := range s.routes() {
		mux.HandleFunc(rt.method+" "+rt.path, rt.handler)
		s.paths[rt.path] = true
	}
	s.mux, s.mounted = mux, map[string]bool{}
	for _, m := range mounts {
		m.Handler = s.admitMount(m.Handler)
		if err := handle(mux, m); err != nil {
			s.mountErr = errors.Join(s.mountErr, err)
			continue
		}
		s.mounted[m.Pattern] = m.Public
	}
	var spans httpapi.Spans // each request's SERVER span, in the same middleware as its access log
	if s.opts.Telemetry.Enabled() {
		spans = s.opts.Telemetry
	}
	s.handler = httpapi.ObserveSpans(s.log, s.routeLabel, s.metrics, spans,
		httpapi.Recover(s.log, s.authenticate(httpapi.ProblemMux(mux))))
	s.ready.Store(true)
	return s
}

// routes returns every route served. The OpenAPI document lists exactly
// these (a test checks it).
func (s *Server) routes() []route {
	return []route{
		{http.MethodPost, "/validate", s.handleValidate},
		{http.MethodPost, "/v1/validate", s.handleValidate},
		{http.MethodPost, "/v1/validate/stream", s.handleValidateStream},
		{http.MethodGet, "/healthz", s.handleHealthz},
		{http.MethodGet, "/readyz", s.handleReadyz},
		{http.MethodGet, "/metrics", s.metrics.handler.ServeHTTP},
		{http.MethodGet, "/openapi.json", s.handleOpenAPI},
		{http.MethodGet, "/capabilities", s.handleCapabilities},
		{http.MethodGet, "/v1/dashboard", s.handleDashboard},
		{http.MethodPost, "/v1/calls/check", s.handleCallCheck},
		{http.MethodPost, "/v1/calls/outcome", s.handleCallOutcome},
		{http.MethodPost, "/v1/traces/check", s.handleTraceCheck},
		{http.MethodPost, "/v1/tools/lint", s.handleToolsLint},
	}
}

// admitMount puts a mounted handler's requests with a body under the
// API's admission, as the API's own routes are: a request counts against
// --max-in-flight and its declared body length (the body limit when it
// declares none) against the in-flight bytes, so that an upload to the
// console (POST /traces) cannot go around the bounds of the API.
func (s *Server) admitMount(h http.Handler) http.Handler {
	if h == nil {
		return nil
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			h.ServeHTTP(w, r)
			return
		}
		weight := r.ContentLength
		if weight < 0 || weight > s.opts.MaxBodyBytes {
			weight = s.opts.MaxBodyBytes
		}
		release, err := s.admission.Admit(weight)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		defer release()
		h.ServeHTTP(w, r)
	})
}

// handle registers m on mux, with the panic of a pattern that is not
// valid or that conflicts turned into an error.
func handle(mux *http.ServeMux, m Mount) (err error) {
	if m.Handler == nil {
		return fmt.Errorf("server: mount %q has no handler", m.Pattern)
	}
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("server: mount %q: %v", m.Pattern, v)
		}
	}()
	mux.Handle(m.Pattern, m.Handler)
	return nil
}

// mountOf returns the pattern of the mount that serves r, if one does
// (an API route serves it otherwise), and whether that mount is public.
func (s *Server) mountOf(r *http.Request) (pattern string, public, ok bool) {
	if len(s.mounted) == 0 {
		return "", false, false
	}
	_, pattern = s.mux.Handler(r)
	public, ok = s.mounted[pattern]
	return pattern, public, ok
}

// Handler returns the server's handler: every route with its middleware.
func (s *Server) Handler() http.Handler { return s.handler }

// Serve serves on ln until ctx is done, then shuts down gracefully: /readyz
// turns 503, the listener closes, and in-flight requests get up to
// ShutdownTimeout to finish, after which they are cancelled and their
// connections closed. Serve closes ln. It returns nil after a clean
// shutdown, an error wrapping context.DeadlineExceeded when requests had
// to be cut off, or the error that stopped serving (at once: a mount that
// could not be served).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if s.mountErr != nil {
		_ = ln.Close()
		return s.mountErr
	}
	var procs *httpapi.ProcsAdapter
	if s.opts.AdaptProcs {
		procs = httpapi.NewProcsAdapter(os.Getenv)
	}
	err := httpapi.Serve(ctx, ln, s.handler, httpapi.ServeOptions{
		ReadTimeout:     s.opts.ReadTimeout,
		WriteTimeout:    s.opts.WriteTimeout,
		IdleTimeout:     s.opts.IdleTimeout,
		ShutdownTimeout: s.opts.ShutdownTimeout,
		Logger:          s.log,
		Ready:           &s.ready,
		Procs:           procs,
		ConnContext:     s.opts.Telemetry.ConnContext,
	})
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	return nil
}

// ListenAndServe listens on the TCP address addr and calls [Server.Serve].
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	return s.Serve(ctx, ln)
}

func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
