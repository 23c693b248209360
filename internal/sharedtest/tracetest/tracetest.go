// Package tracetest builds the trace values tests share: the checker of
// tau-bench's airline tools with the example policy rules. It sits beside
// sharedtest and tooltest for the same reason as tooltest: importing trace
// here makes no cycle for packages below it.
package tracetest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest/tooltest"
	"github.com/agentjudge/judge/trace"
)

// AirlineChecker returns the checker of tau-bench's airline tools (shared
// test data, tb skipped when absent) with the rules of
// examples/traces/airline.rules.json, and those rules. It reads the rules
// relative to the working directory, so it serves the tests of a package
// at the top of the module; tb fails on any error.
func AirlineChecker(tb testing.TB) (*trace.Checker, *trace.Rules) {
	tb.Helper()
	ts := tooltest.SharedToolset(tb, "agent-traces", "tau-bench-airline-tools.json")
	rulesRaw, err := os.ReadFile(filepath.Join("..", "examples", "traces", "airline.rules.json"))
	if err != nil {
		tb.Fatal(err)
	}
	rs, err := trace.ParseRules(rulesRaw)
	if err != nil {
		tb.Fatal(err)
	}
	ch, err := trace.New(ts, rs)
	if err != nil {
		tb.Fatal(err)
	}
	return ch, rs
}
