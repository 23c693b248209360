package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestExampleFile checks that examples/judge.yaml is a valid config file
// whose paths resolve against its directory.
func TestExampleFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "..", "examples", "judge.yaml")
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.LLM.APIKey.Set() {
		t.Error("the example holds an API key")
	}
	cfg, ok, err := f.LLMConfig(func(k string) string {
		if k == "OLLAMA_API_KEY" {
			return "k"
		}
		return ""
	})
	if err != nil || !ok || cfg.Model != "qwen2.5:7b" || cfg.CallTimeout.String() != "30s" {
		t.Errorf("got %+v ok=%v err=%v", cfg, ok, err)
	}
	if want := filepath.Join("..", "..", "examples", "schemas"); f.Serve.Schemas.Value != want {
		t.Errorf("serve.schemas: got %q, want %q", f.Serve.Schemas.Value, want)
	}
	if _, err := os.Stat(f.Serve.Schemas.Value); err != nil {
		t.Errorf("serve.schemas names no directory: %v", err)
	}
	if f.Gateway.CompactBudget.Value != 8000 {
		t.Errorf("gateway.compact_budget: got %+v, want 8000", f.Gateway.CompactBudget)
	}
}
