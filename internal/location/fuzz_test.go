package location

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/result"
)

// FuzzPath renders any path (its tokens split from the input at '/', the
// numeric ones read as indices or not) and checks that the location is
// one the specification accepts, that a path's prefix renders as a prefix
// of its location, that two paths that differ render differently, and
// that AppendKey writes keys as Append does.
func FuzzPath(f *testing.F) {
	for _, s := range []string{"user/profile/email", "tasks/2/status", "a/b.c", "2024", "", "/", "a//b", `x/"q"/[0]`, "é/ü1/_", "0/01/18446744073709551616", "q\u200d/\u202e/a\U000e0001"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, indices bool) {
		var tokens []string
		if s != "" {
			tokens = strings.Split(s, "/")
		}
		isIndex := func(int) bool { return indices }
		loc := Path(tokens, isIndex)
		if err := result.CheckLocation(loc); err != nil {
			t.Fatalf("Path(%q) = %q: %v", tokens, loc, err)
		}
		if !indices {
			// AppendKey writes keys as Append does, token by token.
			var b []byte
			for i, tok := range tokens {
				b = AppendKey(b, []byte(tok), i == 0)
			}
			if want := Append("", tokens, nil); string(b) != want {
				t.Fatalf("AppendKey of %q gives %q, Append %q", tokens, b, want)
			}
		}
		for n := 1; n < len(tokens); n++ {
			if p := Path(tokens[:n], isIndex); !strings.HasPrefix(loc, p) {
				t.Fatalf("Path(%q) = %q does not start with Path(%q) = %q", tokens, loc, tokens[:n], p)
			}
		}
		// Joining the last two tokens (with a '.') must change the location.
		if len(tokens) >= 2 {
			other := append(append([]string(nil), tokens[:len(tokens)-2]...), tokens[len(tokens)-2]+"."+tokens[len(tokens)-1])
			if o := Path(other, isIndex); o == loc {
				t.Fatalf("Path(%q) and Path(%q) are both %q", tokens, other, loc)
			}
		}
	})
}
