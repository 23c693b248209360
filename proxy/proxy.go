package proxy

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/httpapi"
	"github.com/agentjudge/judge/server/api"
	"github.com/agentjudge/judge/telemetry"
	"github.com/agentjudge/judge/toolcall"
)

// Mode is what the proxy does with a violation (--on-violation).
type Mode string

// The modes.
const (
	// Pass forwards the answer untouched; the verdict is only logged and
	// counted in /metrics.
	Pass Mode = "pass"
	// Annotate forwards the answer and adds judge's [Report]: a last
	// chunk before [DONE] when streaming, a "judge" member otherwise.
	Annotate Mode = "annotate"
	// Stop ends the answer at the first violation: the upstream's request
	// is cancelled, every choice still generating ends with
	// finish_reason "content_filter", and a last chunk carries the
	// [Report] with the repair text.
	Stop Mode = "stop"
)

// ParseMode returns the mode named s.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case Pass, Annotate, Stop:
		return m, nil
	}
	return "", fmt.Errorf("proxy: mode %q is not pass, annotate or stop", s)
}

// Defaults of [Options].
const (
	DefaultMaxBodyBytes    = 10 << 20
	DefaultMaxInFlight     = 64
	DefaultReadTimeout     = 15 * time.Second
	DefaultIdleTimeout     = 120 * time.Second
	DefaultShutdownTimeout = 10 * time.Second
	// DefaultUpstreamTimeout bounds one exchange with the upstream, the
	// whole stream included.
	DefaultUpstreamTimeout = 10 * time.Minute
	// MaxResponseBytes bounds an answer that is not streamed, and an
	// upstream's error body.
	MaxResponseBytes = 32 << 20
)

// Options configure a [Proxy].
type Options struct {
	// Upstream is the base URL of the OpenAI-compatible server, as an
	// OpenAI client's base URL (https://api.openai.com/v1,
	// http://localhost:8000/v1): the proxy posts to Upstream +
	// "/chat/completions" and Upstream + "/responses", and nowhere else.
	// Required.
	Upstream string
	// Mode is what to do with a violation; "" means Annotate.
	Mode Mode
	// Logger receives one line per request, each verdict and every
	// internal error; nil discards.
	Logger *slog.Logger
	// MaxBodyBytes bounds a request body; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// MaxInFlight bounds the requests answered at once, MaxInFlightBytes
	// their bodies' bytes (0: DefaultMaxInFlight, twice MaxBodyBytes).
	MaxInFlight      int
	MaxInFlightBytes int64
	// ReadTimeout, IdleTimeout and ShutdownTimeout are those of the HTTP
	// server (0: the defaults). There is no write timeout: a stream lasts
	// as long as the model writes, within UpstreamTimeout.
	ReadTimeout, IdleTimeout, ShutdownTimeout time.Duration
	// UpstreamTimeout bounds one exchange with the upstream; 0 means
	// DefaultUpstreamTimeout.
	UpstreamTimeout time.Duration
	// Engine validates the content; nil means judge.New() with its
	// defaults.
	Engine *judge.Engine
	// Checker compiles the tools of requests; nil means toolcall.New().
	Checker *toolcall.Checker
	// Checkpoint makes the checkpoint of one request from its contracts;
	// nil means WholeDocuments. A streaming validator plugs in here.
	Checkpoint func(engine *judge.Engine, c Contracts) Checkpoint
	// Transport carries the requests to the upstream; nil means a
	// transport of its own (no proxy from the environment).
	Transport http.RoundTripper
	// Telemetry, when it exports, gives every request a SERVER span
	// continuing its traceparent header's trace, and the request to the
	// upstream carries that span's traceparent (docs/observability.md).
	// nil starts no span.
	Telemetry *telemetry.Telemetry
}

// Proxy is an OpenAI-compatible chat completions endpoint in front of an
// upstream one, which checks each answer against its request's own
// response schema and tools. It is safe for concurrent use.
type Proxy struct {
	opts      Options
	upstream  string
	log       *slog.Logger
	client    *http.Client
	admission *httpapi.Admission
	metrics   *metrics
	handler   http.Handler
	ready     atomic.Bool
	ownEngine bool
}

// New returns a Proxy for opts, or an error when the upstream URL is not
// an absolute http or https URL.
func New(opts Options) (*Proxy, error) {
	u, err := url.Parse(opts.Upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("proxy: the upstream %q is not an http or https base URL without credentials, query or fragment (as http://localhost:8000/v1)", opts.Upstream)
	}
	if opts.Mode == "" {
		opts.Mode = Annotate
	}
	if _, err := ParseMode(string(opts.Mode)); err != nil {
		return nil, err
	}
	opts.MaxBodyBytes = httpapi.OrDefault(opts.MaxBodyBytes, DefaultMaxBodyBytes)
	opts.MaxInFlight = httpapi.OrDefault(opts.MaxInFlight, DefaultMaxInFlight)
	opts.MaxInFlightBytes = httpapi.OrDefault(opts.MaxInFlightBytes, 2*opts.MaxBodyBytes)
	opts.ReadTimeout = httpapi.OrDefault(opts.ReadTimeout, DefaultReadTimeout)
	opts.IdleTimeout = httpapi.OrDefault(opts.IdleTimeout, DefaultIdleTimeout)
	opts.ShutdownTimeout = httpapi.OrDefault(opts.ShutdownTimeout, DefaultShutdownTimeout)
	opts.UpstreamTimeout = httpapi.OrDefault(opts.UpstreamTimeout, DefaultUpstreamTimeout)
	p := &Proxy{opts: opts, upstream: strings.TrimSuffix(u.String(), "/"), log: opts.Logger,
		admission: httpapi.NewAdmission(opts.MaxInFlight, opts.MaxInFlightBytes), metrics: newMetrics()}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	if p.opts.Engine == nil {
		if p.opts.Engine, err = judge.New(); err != nil {
			return nil, fmt.Errorf("proxy: %w", err)
		}
		p.ownEngine = true
	}
	if p.opts.Checker == nil {
		if p.opts.Checker, err = toolcall.New(); err != nil {
			return nil, fmt.Errorf("proxy: %w", err)
		}
	}
	if p.opts.Checkpoint == nil {
		p.opts.Checkpoint = WholeDocuments
	}
	transport := opts.Transport
	if transport == nil {
		transport = &http.Transport{
			DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			ForceAttemptHTTP2:     true,
			MaxIdleConnsPerHost:   opts.MaxInFlight,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   10 * time.Second,
			ExpectContinueTimeout: time.Second,
		}
	}
	// Redirects are not followed: the upstream is the configured URL
	// and nothing else, and the client's Authorization goes nowhere else.
	p.client = &http.Client{Transport: transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", p.handleChat)
	mux.HandleFunc("POST /chat/completions", p.handleChat)
	mux.HandleFunc("POST /v1/responses", p.handleResponses)
	mux.HandleFunc("POST /responses", p.handleResponses)
	mux.HandleFunc("GET /healthz", p.handleHealthz)
	mux.HandleFunc("GET /readyz", p.handleReadyz)
	mux.Handle("GET /metrics", p.metrics.handler)
	var spans httpapi.Spans // each request's SERVER span, in the same middleware as its access log (as judge serve's)
	if p.opts.Telemetry.Enabled() {
		spans = p.opts.Telemetry
	}
	p.handler = httpapi.ObserveSpans(p.log, routeLabel, p.metrics, spans, httpapi.Recover(p.log, httpapi.ProblemMux(mux)))
	p.ready.Store(true)
	return p, nil
}

// routeLabel bounds the route label of the metrics to the routes served.
func routeLabel(path string) string {
	switch path {
	case "/v1/chat/completions", "/chat/completions", "/v1/responses", "/responses", "/healthz", "/readyz", "/metrics":
		return path
	}
	return "unmatched"
}

// Handler returns the proxy's handler: every route with its middleware.
func (p *Proxy) Handler() http.Handler { return p.handler }

// Close releases the engine the proxy made for itself.
func (p *Proxy) Close(ctx context.Context) error {
	if p.ownEngine {
		return p.opts.Engine.Close(ctx)
	}
	return nil
}

// Serve serves on ln until ctx is done, then shuts down gracefully (see
// httpapi.Serve). It closes ln.
func (p *Proxy) Serve(ctx context.Context, ln net.Listener) error {
	err := httpapi.Serve(ctx, ln, p.handler, httpapi.ServeOptions{
		ReadTimeout:     p.opts.ReadTimeout,
		IdleTimeout:     p.opts.IdleTimeout,
		ShutdownTimeout: p.opts.ShutdownTimeout,
		Logger:          p.log,
		Ready:           &p.ready,
		ConnContext:     p.opts.Telemetry.ConnContext,
	})
	if err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	return nil
}

func (p *Proxy) handleHealthz(w http.ResponseWriter, r *http.Request) {
	httpapi.WriteJSON(w, http.StatusOK, api.MediaTypeJSON, api.Health{Status: "ok"})
}

func (p *Proxy) handleReadyz(w http.ResponseWriter, r *http.Request) {
	httpapi.Readiness(w, r, p.ready.Load(), "proxy", p.admission.Saturation)
}

// errStopped is the cause of the cancellation of an upstream request the
// stop mode ended.
var errStopped = errors.New("proxy: judge stopped the answer at a violation")
