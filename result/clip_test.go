package result_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentjudge/judge/result"
)

// TestClip pins the module's one clip: at most n characters, a cut text
// ends at a word boundary (when one is past the middle) with "…", and
// ClipText first makes each run of white space one space.
func TestClip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		clip func(string, int) string
		s    string
		n    int
		want string
	}{
		{"short", result.Clip, "hello", 10, "hello"},
		{"at a word", result.Clip, "the quick brown fox jumps", 14, "the quick…"},
		{"no word past the middle", result.Clip, "abcdefghijklmnop qr", 10, "abcdefghi…"},
		{"characters, not bytes", result.Clip, "café crème brûlée", 12, "café crème…"},
		{"trailing punctuation dropped", result.Clip, "one, two, three, four", 10, "one, two…"},
		{"text: white space made one", result.ClipText, "a\n\n  b\tc", 10, "a b c"},
		{"text: then clipped", result.ClipText, "the   quick\nbrown fox jumps", 14, "the quick…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := tt.clip(tt.s, tt.n)
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if utf8.RuneCountInString(got) > tt.n || !utf8.ValidString(got) {
				t.Errorf("%q is over %d characters or not UTF-8", got, tt.n)
			}
			if utf8.RuneCountInString(strings.Join(strings.Fields(tt.s), " ")) > tt.n && !strings.HasSuffix(got, "…") {
				t.Errorf("%q is cut without an ellipsis", got)
			}
		})
	}
}
