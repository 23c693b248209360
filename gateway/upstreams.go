//lint:file-ignore SA1019 the gateway tells clients of failed upstreams with notifications/message: deprecated in protocol 2026-07-28, still the way for the versions clients speak

package gateway

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FailureReporter is implemented by a Backend that can tell which of its
// upstream servers failed to start or list at its last Tools (the
// executor's does): the gateway counts them, tells clients, and retries
// them ([Gateway.RetryUpstreams]).
type FailureReporter interface {
	// Failed returns the servers that failed, with Server and Reason set.
	Failed() []Skip
}

// LogName is the logger name of the gateway's own log notifications
// (notifications/message) to its clients.
const LogName = "judge"

// FailedUpstreams returns the upstream servers that failed to start or
// list at the last refresh, and why.
func (g *Gateway) FailedUpstreams() []Skip {
	g.failedMu.Lock()
	defer g.failedMu.Unlock()
	out := make([]Skip, 0, len(g.failed))
	for _, s := range slices.Sorted(maps.Keys(g.failed)) {
		out = append(out, Skip{Server: s, Reason: g.failed[s]})
	}
	return out
}

// noteUpstreams records the backend's failed upstreams after a listing
// and tells every client session of each change: a server that failed at
// level error, one that lists again at level notice. A server that keeps
// failing says nothing more.
func (g *Gateway) noteUpstreams(ctx context.Context) {
	fr, ok := g.backend.(FailureReporter)
	if !ok {
		return
	}
	now := map[string]string{}
	for _, s := range fr.Failed() {
		now[s.Server] = s.Reason
	}
	g.failedMu.Lock()
	was := g.failed
	g.failed = now
	g.failedMu.Unlock()
	for _, s := range slices.Sorted(maps.Keys(now)) {
		if _, before := was[s]; !before {
			g.tellClients(ctx, nil, upstreamMessage(s, now[s]))
		}
	}
	for _, s := range slices.Sorted(maps.Keys(was)) {
		if _, still := now[s]; !still {
			g.tellClients(ctx, nil, upstreamMessage(s, ""))
		}
	}
	if len(now) > 0 {
		select {
		case g.retry <- struct{}{}:
		default:
		}
	}
}

// upstreamMessage is the log notification of an upstream's state: failed
// with reason, or listing again when reason is "".
func upstreamMessage(server, reason string) *mcp.LoggingMessageParams {
	if reason == "" {
		return &mcp.LoggingMessageParams{Level: "notice", Logger: LogName,
			Data: map[string]any{"server": server, "state": "ok", "message": "upstream MCP server " + server + " lists its tools again; they are offered"}}
	}
	return &mcp.LoggingMessageParams{Level: "error", Logger: LogName,
		Data: map[string]any{"server": server, "state": "failed", "reason": reason,
			"message": "upstream MCP server " + server + " failed, its tools are not offered; judge retries it: " + reason}}
}

// tellClients sends a log notification to one session (ss) or, when ss is
// nil, to every session; the SDK sends it to those whose client set a log
// level (logging/setLevel) at or below its level.
func (g *Gateway) tellClients(ctx context.Context, ss *mcp.ServerSession, msg *mcp.LoggingMessageParams) {
	send := func(ss *mcp.ServerSession) {
		if err := ss.Log(ctx, msg); err != nil {
			g.log.Debug("log notification to a client", "err", err)
		}
	}
	if ss != nil {
		send(ss)
		return
	}
	for ss := range g.server.Sessions() {
		send(ss)
	}
}

// tellFailures is receiving middleware: once a client sets its log level,
// it is told of the upstreams failing then, which may have failed before
// it connected.
func (g *Gateway) tellFailures(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method != "logging/setLevel" || err != nil {
			return res, err
		}
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if !ok {
			return res, err
		}
		for _, f := range g.FailedUpstreams() {
			g.tellClients(ctx, ss, upstreamMessage(f.Server, f.Reason))
		}
		return res, err
	}
}

// RetryUpstreams refreshes the tool list while an upstream is failing,
// with a backoff from first doubling up to max, each wait jittered by up
// to a fifth either way, until ctx ends: a server that lists again has
// its tools offered (the SDK sends clients notifications/tools/list_changed).
// A failure seen by a later refresh (after an upstream's list changed)
// starts the backoff again.
func (g *Gateway) RetryUpstreams(ctx context.Context, first, max time.Duration) {
	wait := first
	for {
		if len(g.FailedUpstreams()) == 0 {
			wait = first
			select {
			case <-ctx.Done():
				return
			case <-g.retry:
				continue
			}
		}
		d := time.Duration(float64(wait) * (0.8 + 0.4*rand.Float64()))
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		g.log.Debug("retrying failed upstreams", "failed", len(g.FailedUpstreams()), "waited", d.String())
		if err := g.Refresh(ctx); err != nil && ctx.Err() == nil {
			g.log.Warn("retrying failed upstreams", "err", err)
		}
		wait = min(2*wait, max)
	}
}
