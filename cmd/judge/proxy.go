package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentjudge/judge/proxy"
)

// proxyParams are the flags of judge proxy.
type proxyParams struct {
	upstream        string        // --upstream: base URL of the OpenAI-compatible server
	addr            string        // --addr: TCP address to listen on
	onViolation     *enumFlag     // --on-violation: pass, annotate or stop
	logLevel        *enumFlag     // --log-level
	maxBodyBytes    int64         // --max-body-bytes; 0 = proxy default
	maxInFlight     int           // --max-in-flight; 0 = proxy default
	upstreamTimeout time.Duration // --upstream-timeout; 0 = proxy default
	readTimeout     time.Duration // --read-timeout; 0 = proxy default
}

func newProxyParams() proxyParams {
	return proxyParams{
		addr:        ":8090",
		onViolation: newEnumFlag(string(proxy.Annotate), string(proxy.Pass), string(proxy.Annotate), string(proxy.Stop)),
		logLevel:    newEnumFlag("info", "debug", "info", "warn", "error"),
	}
}

func initProxy(root *cobra.Command) {
	params := newProxyParams()
	cmd := &cobra.Command{
		Use:   "proxy --upstream URL [--addr :8090] [--on-violation pass|annotate|stop]",
		Short: "Serve an OpenAI-compatible endpoint that checks the model's answers as they stream",
		Long: `Serve POST /v1/chat/completions and POST /v1/responses (OpenAI's Responses
API) in front of an OpenAI-compatible server (OpenAI, vLLM, Ollama,
llama.cpp), whose base URL --upstream gives (as an OpenAI client's base URL:
http://localhost:8000/v1). Each request is forwarded as it came, with the
client's Authorization header, to --upstream/chat/completions (or
--upstream/responses) and nowhere else (no redirect is followed).

For a request with response_format json_schema (or json_object), the content
of each choice is validated against the request's own schema; for a request
with tools, each tool call's arguments are checked against its tool's
parameters by the tool-call pipeline's pre-execution check (contracts,
normalization, repair). Streamed tool calls are assembled per choice and
index and checked as soon as each call is complete (the next call starts or
the choice finishes); the content when its choice finishes. Answers that
are not streamed get the same checks.

--on-violation says what a violation does: pass forwards the answer untouched
and only logs and counts the verdict; annotate (the default) forwards it and
adds judge's report (a last chunk before data: [DONE], or a "judge" member);
stop cancels the upstream's generation at the first violation, ends each
choice still generating with finish_reason "content_filter" and sends the
report with the repair text for the client's retry. GET /metrics (Prometheus),
/healthz and /readyz describe the proxy. Logs are JSON lines on stderr.
SIGINT or SIGTERM shuts it down gracefully. docs/proxy.md has the details.`,
		Example: `  judge proxy --upstream https://api.openai.com/v1 --on-violation stop --addr 127.0.0.1:8090
  # then point any OpenAI client at http://127.0.0.1:8090/v1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runProxy(ctx, params, cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&params.upstream, "upstream", "", "base URL of the OpenAI-compatible server (required), as http://localhost:8000/v1")
	f.StringVar(&params.addr, "addr", params.addr, "TCP address to listen on (port 0 picks a free port)")
	f.Var(params.onViolation, "on-violation", "what a violation does: pass, annotate or stop")
	f.Var(params.logLevel, "log-level", "least level logged: debug, info, warn or error")
	f.Int64Var(&params.maxBodyBytes, "max-body-bytes", 0, fmt.Sprintf("largest request body in bytes (default %s)", sizeString(proxy.DefaultMaxBodyBytes)))
	f.IntVar(&params.maxInFlight, "max-in-flight", 0, fmt.Sprintf("requests answered at once; more get 503 (default %d)", proxy.DefaultMaxInFlight))
	f.DurationVar(&params.upstreamTimeout, "upstream-timeout", 0, fmt.Sprintf("longest exchange with the upstream, the whole stream included (default %v)", proxy.DefaultUpstreamTimeout))
	f.DurationVar(&params.readTimeout, "read-timeout", 0, fmt.Sprintf("time to read a request's header and body (default %v)", proxy.DefaultReadTimeout))
	root.AddCommand(cmd)
}

// runProxy serves the proxy until ctx is done, then shuts down gracefully
// and returns nil. Logs, starting with the address listened on, go to
// logOut as JSON lines.
func runProxy(ctx context.Context, params proxyParams, logOut io.Writer) error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(params.logLevel.value)); err != nil {
		return badInputf("--log-level: %v", err)
	}
	if params.upstream == "" {
		return badInputf("--upstream is required: the base URL of the OpenAI-compatible server, as http://localhost:8000/v1")
	}
	if params.maxBodyBytes < 0 || params.maxInFlight < 0 || params.upstreamTimeout < 0 || params.readTimeout < 0 {
		return badInputf("--max-body-bytes, --max-in-flight, --upstream-timeout and --read-timeout must not be negative")
	}
	tel, logger, flush, err := startTelemetry(ctx, slog.NewJSONHandler(logOut, &slog.HandlerOptions{Level: level}))
	if err != nil {
		return err
	}
	defer flush()
	p, err := proxy.New(proxy.Options{Upstream: params.upstream, Mode: proxy.Mode(params.onViolation.value), Logger: logger,
		MaxBodyBytes: params.maxBodyBytes, MaxInFlight: params.maxInFlight, UpstreamTimeout: params.upstreamTimeout, ReadTimeout: params.readTimeout,
		Telemetry: tel})
	if err != nil {
		return badInput(err)
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = p.Close(cctx)
	}()
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", params.addr)
	if err != nil {
		return badInputf("--addr %s: %v", params.addr, err)
	}
	logger.Info("judge proxy listening", "url", "http://"+ln.Addr().String(), "addr", ln.Addr().String(),
		"upstream", params.upstream, "on_violation", params.onViolation.value, "version", versionString())
	return p.Serve(ctx, ln)
}
