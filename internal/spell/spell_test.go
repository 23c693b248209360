package spell_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/spell"
)

func TestDistance(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", spell.MaxLen+1)
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"email", "email", 3, 0},
		{"emial", "email", 3, 2},
		{"emal", "email", 3, 1},
		{"kitten", "sitting", 10, 3},
		{"kitten", "sitting", 2, 2}, // capped at the limit
		{"", "abc", 10, 3},
		{"café", "cafe", 3, 1}, // one character, not two bytes
		{"naïve", "naive", 3, 1},
		{long, long, 5, 5}, // too long to compare
		{"abc", "xyz", 64, 3},
	}
	for _, tt := range tests {
		if got := spell.Distance(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}

// FuzzDistance checks the metric's laws on any pair: symmetric, zero only
// for equal names, never over the limit or the longer length, and the
// triangle inequality through the empty string.
func FuzzDistance(f *testing.F) {
	for _, s := range [][2]string{{"email", "emial"}, {"", "x"}, {"café", "cafe"}, {"a\u200db", "ab"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ra, rb := []rune(a), []rune(b)
		if len(ra) > spell.MaxLen || len(rb) > spell.MaxLen {
			return
		}
		const limit = 1000
		d := spell.Distance(a, b, limit)
		if d != spell.Distance(b, a, limit) {
			t.Fatalf("Distance(%q, %q) is not symmetric", a, b)
		}
		if (d == 0) != (string(ra) == string(rb)) {
			t.Fatalf("Distance(%q, %q) = %d", a, b, d)
		}
		if d > max(len(ra), len(rb)) || d < abs(len(ra)-len(rb)) {
			t.Fatalf("Distance(%q, %q) = %d out of its bounds", a, b, d)
		}
		if c := spell.Distance(a, b, 2); c != min(d, 2) {
			t.Fatalf("Distance(%q, %q, 2) = %d, want %d", a, b, c, min(d, 2))
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
