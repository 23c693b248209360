package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/agentjudge/judge/telemetry"
)

// telemetryShutdownTimeout bounds the flush of the last spans on exit.
const telemetryShutdownTimeout = 5 * time.Second

// startTelemetry sets up tracing from the OTEL_* variables (see
// docs/observability.md) and wraps h so that log lines carry the active
// span's trace_id and span_id. The returned function flushes the spans
// not yet exported; call it last, once the work is done. A variable it
// cannot use is bad input.
func startTelemetry(ctx context.Context, h slog.Handler) (*telemetry.Telemetry, *slog.Logger, func(), error) {
	tel, err := telemetry.Setup(ctx)
	if err != nil {
		return nil, nil, nil, badInput(err)
	}
	logger := slog.New(telemetry.LogHandler(h))
	if tel.Enabled() {
		logger.Info("exporting traces", "exporter", tel.Exporter, "capture_content", tel.CaptureContent)
	}
	return tel, logger, func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), telemetryShutdownTimeout)
		defer cancel()
		if err := tel.Shutdown(sctx); err != nil {
			logger.Warn("traces not flushed", "err", err)
		}
	}, nil
}
