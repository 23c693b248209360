package config

import (
	"errors"
	"strings"
	"testing"
)

// FuzzDecode checks that Decode never panics, and that it returns either
// a File or an *Error with a position inside the input.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		"",
		"llm:\n  base_url: http://127.0.0.1:11434/v1\n  model: m\n  api_key_env: K\n  timeout: 30s\n",
		"serve:\n  addr: :8080\n  tools: [a, b]\n  sources: s\n",
		"llm: {model: m, base_url: 'http://x/v1'}\n",
		"llm:\n  model: &a x\n",
		"llm:\n  modle: m\n",
		"- [[[\n",
		"llm:\n  timeout: -1s\n",
		"llm:\n  base_url: http://x/v1\n  model: m\n  cache_dir: .judge-cache\n",
		"llm:\n  cache_dir: [a]\n",
		"---\n---\nllm:\n",
		"registry:\n  primitives: [\"@lilux\"]\n  types:\n    mcp: {base: mcp_tool}\n    graph: {base: script, executor: required, requires: [start]}\n  fields: [env_config]\n",
		"registry:\n  types:\n    mcp: {executor: none}\n",
		"registry:\n  types: {a: {base: [x]}}\n",
		"gateway:\n  compact_budget: 8_000\n",
		"gateway:\n  compact_budget: -1\n",
		"serve:\n  no_ui: true\n",
		"serve:\n  no_ui: yes\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Decode("fuzz.yaml", data)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("got %T %v, want an *Error", err, err)
			}
			lines := strings.Count(string(data), "\n") + strings.Count(string(data), "\r") + 1
			if ce.Pos.Line < 1 || ce.Pos.Col < 1 || ce.Pos.Line > lines+1 {
				t.Fatalf("position %+v outside the input's %d lines: %v", ce.Pos, lines, err)
			}
			return
		}
		if cfg == nil {
			t.Fatal("nil File and no error")
		}
		if cfg.LLM.Timeout < 0 {
			t.Fatalf("negative timeout %v", cfg.LLM.Timeout)
		}
		_, _, _ = cfg.LLMConfig(func(string) string { return "" })
	})
}
