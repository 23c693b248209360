package executor_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentjudge/judge/executor"
	"github.com/agentjudge/judge/manifest"
)

// benchRunner is a Runner over a copy of the fixture registry.
func benchRunner(b *testing.B) *executor.Runner {
	b.Helper()
	ctx := context.Background()
	reg, err := manifest.LoadDirs(ctx, fixture(b))
	if err != nil {
		b.Fatal(err)
	}
	r, err := executor.New(ctx, reg, executor.WithLookupEnv(env(nil)))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = r.Close() })
	return r
}

func benchCall(b *testing.B, tool, args string) {
	r := benchRunner(b)
	ctx := context.Background()
	raw := json.RawMessage(args)
	if _, err := r.Call(ctx, tool, raw); err != nil { // starts an MCP server once
		b.Fatal(err)
	}
	for b.Loop() {
		res, err := r.Call(ctx, tool, raw)
		if err != nil || res.IsError {
			b.Fatalf("%v %+v", err, res)
		}
	}
}

// BenchmarkSubprocessCall is one call of a Bash script: a process group
// started, fed, waited for and killed per call.
func BenchmarkSubprocessCall(b *testing.B) { benchCall(b, "greet", `{"name": "Ada"}`) }

// BenchmarkPythonCall is one call of a Python script (interpreter start
// included).
func BenchmarkPythonCall(b *testing.B) { benchCall(b, "stats", `{"numbers": [1, 2, 3]}`) }

// BenchmarkMCPCall is one tools/call on a running stdio MCP server.
func BenchmarkMCPCall(b *testing.B) { benchCall(b, "test_echo", `{"message": "hi"}`) }
