package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGatewayBadInput: judge gateway refuses to start, with exit status 2
// and a message naming the problem, on a missing registry, a broken pin
// file and a malformed Redis URL.
func TestGatewayBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	badPins := filepath.Join(dir, "pins.json")
	if err := os.WriteFile(badPins, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(*gatewayParams)
		want string
	}{
		{"no tools", func(p *gatewayParams) {}, "--tools"},
		{"tools absent", func(p *gatewayParams) { p.tools = []string{filepath.Join(dir, "none")} }, "none"},
		{"bad pin file", func(p *gatewayParams) { p.tools = []string{dir}; p.pins = badPins }, "not a pin file"},
		{"bad redis url", func(p *gatewayParams) {
			p.tools = []string{dir}
			p.getenv = func(k string) string {
				if k == RedisURLEnv {
					return "http://nope"
				}
				return ""
			}
		}, RedisURLEnv},
		{"negative budget", func(p *gatewayParams) { p.tools, p.compactBudget, p.budgetGiven = []string{dir}, -1, true }, "--compact-budget -1 is negative"},
		{"negative budget in the config file", func(p *gatewayParams) {
			p.tools, p.config = []string{dir}, writeConfig(t, "gateway:\n  compact_budget: -5\n", 0o600)
		}, "judge.yaml:2:19: gateway.compact_budget -5 is not a non-negative integer"},
		{"half a model in the config file", func(p *gatewayParams) {
			p.tools, p.config = []string{dir}, writeConfig(t, "llm:\n  base_url: http://127.0.0.1:9/v1\n", 0o600)
		}, "judge.yaml:2:13: llm.base_url is set, but no model is"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newGatewayParams()
			p.getenv = func(string) string { return "" }
			tc.edit(&p)
			var logs bytes.Buffer
			err := runGateway(context.Background(), p, nil, &logs)
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != exitBadInput || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want exit %d naming %q", err, exitBadInput, tc.want)
			}
		})
	}
}
