package result_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentjudge/judge/result"
)

func TestTokenUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		add   [][2]int64
		want  *result.TokenUsage
		field bool // whether metadata.token_usage is in the JSON
	}{
		{"no model call", nil, nil, false},
		{"summed over calls", [][2]int64{{412, 31}, {398, 29}}, &result.TokenUsage{PromptTokens: 810, CompletionTokens: 60, TotalTokens: 870}, true},
		{"negative counts ignored", [][2]int64{{-5, 7}}, &result.TokenUsage{CompletionTokens: 7, TotalTokens: 7}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := result.NewBuilder().Model("m")
			for _, a := range tt.add {
				b.Tokens(a[0], a[1])
			}
			r := b.Build()
			if (r.Metadata.TokenUsage == nil) != (tt.want == nil) || (tt.want != nil && *r.Metadata.TokenUsage != *tt.want) {
				t.Errorf("got %+v, want %+v", r.Metadata.TokenUsage, tt.want)
			}
			if err := result.Check(r); err != nil {
				t.Errorf("the result breaks the specification's schema: %v", err)
			}
			js, _ := json.Marshal(r)
			if strings.Contains(string(js), `"token_usage"`) != tt.field {
				t.Errorf("token_usage in %s: want %v", js, tt.field)
			}
		})
	}
}
