// Package sharedtest finds the project's shared test data — the folder
// shared/testdata beside the module root, holding third-party data such as
// the JSON Schema Test Suite and real MCP tool definitions — and loads the
// benchmark corpus from it. Tests that need the data skip, with a clear
// message, when it is absent, and never otherwise.
package sharedtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the path of shared/testdata beside the module root, joined
// with elem, or skips tb when it is absent.
func Dir(tb testing.TB, elem ...string) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Skip("module root not found, so ../shared/testdata cannot be located")
		}
		dir = parent
	}
	path := filepath.Join(append([]string{dir, "..", "shared", "testdata"}, elem...)...)
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("shared test data absent (%s): run beside the shared/ folder", path)
	}
	return path
}

// BenchCorpus is mcp-tools/bench-corpus.json: the 117 github-mcp-server
// input schemas, each with one valid and one invalid argument document (as
// JSON text), and a ~110 KB array document with its schema.
type BenchCorpus struct {
	Cases []struct {
		Name    string          `json:"name"`
		Schema  json.RawMessage `json:"schema"`
		Valid   string          `json:"valid"`
		Invalid string          `json:"invalid"`
	} `json:"cases"`
	Large struct {
		Schema  json.RawMessage `json:"schema"`
		Valid   string          `json:"valid"`
		Invalid string          `json:"invalid"`
	} `json:"large"`
}

// LoadBenchCorpus reads the benchmark corpus, or skips tb when it is absent.
func LoadBenchCorpus(tb testing.TB) *BenchCorpus {
	tb.Helper()
	data, err := os.ReadFile(Dir(tb, "mcp-tools", "bench-corpus.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var c BenchCorpus
	if err := json.Unmarshal(data, &c); err != nil {
		tb.Fatal(err)
	}
	return &c
}
