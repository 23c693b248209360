package main

import (
	"path/filepath"
	"testing"
)

// TestTraceOTLP runs judge trace on the OTLP/JSON files real
// instrumentation of the openai client exported (trace/testdata/otlp):
// with the tools of --defs, and with none given, when the tools come
// from the spans' own definitions (gen_ai.tool.definitions, llm.tools).
func TestTraceOTLP(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(repoRoot(t), "trace", "testdata", "otlp")
	defs := filepath.Join(dir, "tools.json")
	for _, tt := range []callCase{
		{name: "openinference with --defs", args: []string{"trace", "--format", "json", "--defs", defs, filepath.Join(dir, "openinference.jsonl")},
			code: 1, wantOut: []string{`"id": "weather-kelvin"`, `"invalid_calls": 1`, `"calls": 2`}},
		{name: "openllmetry, tools from the spans", args: []string{"trace", "--format", "json", filepath.Join(dir, "openllmetry.jsonl")},
			code: 1, wantOut: []string{`"invalid_calls": 1`, `"calls": 2`, `not one of the allowed values`}},
		{name: "openinference, tools from the spans", args: []string{"trace", "--format", "json", filepath.Join(dir, "openinference.jsonl")},
			code: 1, wantOut: []string{`"invalid_calls": 1`, `"calls": 2`}},
		{name: "a conversation file without tools still needs them", args: []string{"trace", filepath.Join(repoRoot(t), "examples", "traces", "airline-cancel.json")},
			code: 2, wantErr: "no tool definitions"},
	} {
		t.Run(tt.name, func(t *testing.T) { tt.run(t) })
	}
}
