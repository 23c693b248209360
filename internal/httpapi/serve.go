package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// MaxHeaderBytes is the largest request header block a server reads.
const MaxHeaderBytes = 64 << 10

// ServeOptions configure [Serve].
type ServeOptions struct {
	// ReadTimeout bounds the reading of a request's header and body;
	// WriteTimeout and IdleTimeout are those of http.Server (0: none).
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// ShutdownTimeout bounds how long in-flight requests may finish once
	// the context is done.
	ShutdownTimeout time.Duration
	// Logger receives the serving and shutdown lines and the http.Server's
	// own errors.
	Logger *slog.Logger
	// Ready, when not nil, is set true while serving and false once
	// shutting down (for a readiness route).
	Ready *atomic.Bool
	// Procs, when not nil, follows the connections' states to run the
	// process on one processor while it answers one client at a time.
	Procs *ProcsAdapter
	// ConnContext, when not nil, makes the context of a connection's
	// requests from the one http.Server gives (telemetry's, which saves
	// each request's span the search for a parent above it).
	ConnContext func(context.Context) context.Context
}

// Serve serves h on ln until ctx is done, then shuts down gracefully: Ready
// turns false, the listener closes, and in-flight requests get up to
// ShutdownTimeout to finish, after which their contexts are cancelled with
// the cause [ErrShuttingDown] and their connections closed. Serve closes
// ln. It returns nil after a clean shutdown, an error wrapping
// context.DeadlineExceeded when requests had to be cut off, or the error
// that stopped serving.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, opts ServeOptions) error {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ready := opts.Ready
	if ready == nil {
		ready = new(atomic.Bool)
	}
	base, abort := context.WithCancelCause(context.WithoutCancel(ctx))
	defer abort(nil)
	srv := &http.Server{
		Handler:           h,
		ReadTimeout:       opts.ReadTimeout,
		ReadHeaderTimeout: opts.ReadTimeout,
		WriteTimeout:      opts.WriteTimeout,
		IdleTimeout:       opts.IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return base },
	}
	if opts.Procs != nil {
		srv.ConnState = opts.Procs.ConnState
	}
	if cc := opts.ConnContext; cc != nil {
		srv.ConnContext = func(ctx context.Context, _ net.Conn) context.Context { return cc(ctx) }
	}
	ready.Store(true)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("serving", "addr", ln.Addr().String())

	select {
	case err := <-errc:
		ready.Store(false)
		return err
	case <-ctx.Done():
	}
	ready.Store(false)
	log.Info("shutting down", "timeout", opts.ShutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), opts.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		abort(ErrShuttingDown)
		_ = srv.Close()
		<-errc
		return fmt.Errorf("in-flight requests cut off after %v: %w", opts.ShutdownTimeout, err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("shut down")
	return nil
}
