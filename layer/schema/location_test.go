package schema_test

import (
	"testing"

	"github.com/agentjudge/judge/layer/schema"
)

func TestLocation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		doc    string
		tokens []string
		want   string
	}{
		{"root", `{}`, nil, "root"},
		{"keys", `{}`, []string{"user", "profile", "email"}, "user.profile.email"},
		{"index", `{"tasks": [0, 1, {"status": 1}]}`, []string{"tasks", "2", "status"}, "tasks[2].status"},
		{"index at root", `[[1]]`, []string{"0", "0"}, "[0][0]"},
		{"numeric key of an object", `{"2024": {"q1": 1}}`, []string{"2024", "q1"}, `["2024"].q1`},
		{"key with a dot", `{}`, []string{"a", "b.c"}, `a["b.c"]`},
		{"key with a space first", `{}`, []string{"weird key", "x"}, `["weird key"].x`},
		{"key with quotes", `{}`, []string{`say "hi"`}, `["say \"hi\""]`},
		{"empty key", `{}`, []string{""}, `[""]`},
		{"html characters stay", `{}`, []string{"<a>"}, `["<a>"]`},
		{"unicode identifier", `{}`, []string{"größe", "_id2"}, "größe._id2"},
		{"index out of range is still an index", `{"a": []}`, []string{"a", "3"}, "a[3]"},
		{"leading zero is a key", `{"a": []}`, []string{"a", "01"}, `a["01"]`},
		{"past the value", `{"a": 1}`, []string{"a", "0"}, `a["0"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := schema.InstanceLocation(decode(t, tt.doc), tt.tokens); got != tt.want {
				t.Errorf("InstanceLocation(%s, %q) = %s, want %s", tt.doc, tt.tokens, got, tt.want)
			}
		})
	}
	if got := schema.Location([]string{"a", "0"}, nil); got != `a["0"]` {
		t.Errorf("Location without isIndex = %s", got)
	}
	if got := schema.Location([]string{"a", "0"}, func(i int) bool { return i == 1 }); got != "a[0]" {
		t.Errorf("Location with isIndex = %s", got)
	}
}
