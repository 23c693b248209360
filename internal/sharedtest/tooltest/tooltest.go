// Package tooltest builds the toolcall values tests share: a toolset from
// definitions, the real airline and retail toolsets of tau-bench. It sits
// beside sharedtest, which packages below toolcall import in their own
// tests, so that importing toolcall here makes no cycle.
package tooltest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/toolcall"
)

// Toolset parses data, tool definitions read from file (a name for
// errors), and returns their toolset on a new checker; tb fails on any
// error.
func Toolset(tb testing.TB, data []byte, file string) *toolcall.Toolset {
	tb.Helper()
	defs, err := toolcall.ParseDefinitions(data, file)
	if err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	c, err := toolcall.New()
	if err != nil {
		tb.Fatal(err)
	}
	ts, err := c.NewToolset(defs...)
	if err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	return ts
}

// SharedToolset is [Toolset] of a file of the shared test data
// ("agent-traces", "tau-bench-airline-tools.json"); tb is skipped when
// the data is absent.
func SharedToolset(tb testing.TB, elem ...string) *toolcall.Toolset {
	tb.Helper()
	path := sharedtest.Dir(tb, elem...)
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return Toolset(tb, data, filepath.Base(path))
}
