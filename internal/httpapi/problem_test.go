package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/server/api"
)

func TestProblemOf(t *testing.T) {
	t.Parallel()
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	shutting, abort := context.WithCancelCause(context.Background())
	abort(ErrShuttingDown)
	tests := []struct {
		name   string
		ctx    context.Context
		err    error
		status int
		code   api.Code
	}{
		{"request error", context.Background(), &judge.RequestError{Field: "output", Msg: "bad"}, 400, api.CodeInvalidRequest},
		{"wrapped request error", context.Background(), fmt.Errorf("x: %w", &judge.RequestError{Field: "f", Msg: "m"}), 400, api.CodeInvalidRequest},
		{"too large", context.Background(), &http.MaxBytesError{Limit: 10}, 413, api.CodeBodyTooLarge},
		{"media type", context.Background(), &MediaTypeError{"text/plain"}, 415, api.CodeUnsupportedMediaType},
		{"client went away", canceled, context.Canceled, 499, api.CodeClientClosedRequest},
		{"server read timeout", canceled, &BodyTimeoutError{Timeout: time.Second, Err: os.ErrDeadlineExceeded}, 408, api.CodeRequestTimeout},
		{"engine busy", context.Background(), fmt.Errorf("judge: the schema layer could not start: %w", judge.ErrBusy), 503, api.CodeUnavailable},
		{"engine busy, typed", context.Background(), fmt.Errorf("x: %w", &judge.BusyError{Layer: "schema", Wait: time.Second}), 503, api.CodeUnavailable},
		{"saturated", context.Background(), &BusyError{"full"}, 503, api.CodeUnavailable},
		{"shutting down", shutting, context.Canceled, 503, api.CodeUnavailable},
		{"deadline", context.Background(), context.DeadlineExceeded, 503, api.CodeUnavailable},
		{"upstream", context.Background(), &UpstreamError{Msg: "the upstream answered no SSE"}, 502, api.CodeBadGateway},
		{"other", context.Background(), errors.New("disk on fire at /var/secret"), 500, api.CodeInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := ProblemOf(tt.ctx, tt.err)
			if p.Status != tt.status || p.Code != tt.code {
				t.Errorf("ProblemOf = %d %s, want %d %s", p.Status, p.Code, tt.status, tt.code)
			}
			var be *judge.BusyError
			if errors.As(tt.err, &be) && p.Detail != "the output was not checked: the schema layer could not start within 1s: the engine was running its maximum number of layers; retry shortly" {
				t.Errorf("detail of a busy engine: %q", p.Detail)
			}
			if tt.status == 500 && strings.Contains(p.Detail, "secret") {
				t.Errorf("detail leaks the error: %q", p.Detail)
			}
		})
	}
}

// TestConcurrent fires many requests at one server at once.
