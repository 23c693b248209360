package gateway

//lint:file-ignore SA1019 logging is deprecated by protocol 2026-07-28 (SEP-2577) but lives in every earlier version, which a proxy must carry.

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/executor"
)

// FromRunner is the Backend of an executor: the registry's runnable tools
// and its upstream MCP servers' tools.
func FromRunner(r *executor.Runner) Backend { return runnerBackend{r} }

type runnerBackend struct{ r *executor.Runner }

func (b runnerBackend) Tools(ctx context.Context) ([]Tool, error) {
	ts, err := b.r.Tools(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Tool, len(ts))
	for i, t := range ts {
		out[i] = Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Server: t.Server, Upstream: t.Upstream, Raw: t.Raw}
	}
	return out, nil
}

// SetDownstream implements Proxy.
func (b runnerBackend) SetDownstream(d executor.Downstream, caps *mcp.ClientCapabilities) bool {
	return b.r.SetDownstream(d, caps)
}

// Servers implements Upstreams.
func (b runnerBackend) Servers() []string { return b.r.Servers() }

// Session implements Upstreams.
func (b runnerBackend) Session(ctx context.Context, server string) (*mcp.ClientSession, error) {
	return b.r.Session(ctx, server)
}

// CallRaw sends a request around the SDK's decoding (rawCaller).
func (b runnerBackend) CallRaw(ctx context.Context, server, method string, params json.RawMessage) (json.RawMessage, error) {
	return b.r.CallRaw(ctx, server, method, params)
}

// ProtocolVersion implements Proxy.
func (b runnerBackend) ProtocolVersion() string { return b.r.ProtocolVersion() }

// RootsChanged implements Proxy.
func (b runnerBackend) RootsChanged() { b.r.RootsChanged() }

// SetLogLevel implements Proxy.
func (b runnerBackend) SetLogLevel(ctx context.Context, level mcp.LoggingLevel) error {
	return b.r.SetLogLevel(ctx, level)
}

func (b runnerBackend) Call(ctx context.Context, name string, args json.RawMessage) (*Result, error) {
	raw, err := b.r.CallMCP(ctx, name, args)
	if err != nil {
		return nil, err
	}
	return &Result{Raw: raw}, nil
}

// Failed is the executor's upstream servers that failed to start or list
// at its last Tools (gateway.FailureReporter).
func (b runnerBackend) Failed() []Skip {
	fs := b.r.Failed()
	out := make([]Skip, len(fs))
	for i, f := range fs {
		out[i] = Skip{Server: f.Tool, Reason: f.Reason}
	}
	return out
}
