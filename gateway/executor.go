package gateway

import (
	"context"
	"encoding/json"

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
		out[i] = Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Server: t.Server, Upstream: t.Upstream}
	}
	return out, nil
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
