package config_test

import (
	"fmt"

	"github.com/agentjudge/judge/internal/config"
)

func ExampleDecode() {
	src := []byte(`llm:
  base_url: http://127.0.0.1:11434/v1
  model: qwen2.5:7b
  timeout: 30s
`)
	f, err := config.Decode("judge.yaml", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	// JUDGE_LLM_MODEL in the environment overrides the file's model.
	getenv := func(k string) string {
		if k == "JUDGE_LLM_MODEL" {
			return "llama3.1:8b"
		}
		return ""
	}
	cfg, ok, err := f.LLMConfig(getenv)
	fmt.Println(cfg.BaseURL, cfg.Model, cfg.CallTimeout, ok, err)

	_, err = config.Decode("judge.yaml", []byte("llm:\n  modle: m\n"))
	fmt.Println(err)
	// Output:
	// http://127.0.0.1:11434/v1 llama3.1:8b 30s true <nil>
	// judge.yaml:2:3: unknown key "modle" in llm; the keys are api_key, api_key_env, base_url, cache_dir, model, timeout
}
