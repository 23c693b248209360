package claim_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
)

// TestNameDots: a middle initial with its dot and an abbreviated title
// before a name are words of the name, not its end; a letter or title
// that does not stand before another word of a name stays as before. The
// sentences are written for this test.
func TestNameDots(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want string // the names, joined by "; "
	}{
		{"The prize went to Ada F. Lenk in Tolby.", "Ada F. Lenk; Tolby"},
		{"The novel was written by P. Q. R. Orwin in 1951.", "P. Q. R. Orwin"},
		{"It hangs in the Ona M. Vey Gallery.", "Ona M. Vey Gallery"},
		{"Gen. Ada Lenk landed there, said Sen. Ona Vey.", "Gen. Ada Lenk; Sen. Ona Vey"},
		{"The plan was backed by Lt. Col. Ona Vey.", "Lt. Col. Ona Vey"},
		{"They prayed at St. Tolby Church in town.", "St. Tolby Church"},
		{"In 1890, Dr. Ada Lenk rallied students.", "Dr. Ada Lenk"},
		// Not joined: the numeral "I" ends its sentence; a title after a
		// name ("Main St.") or before no name; a final letter.
		{"He served in World War I. Churchill said so.", "World War I; Churchill"},
		{"He lived on Tolby St. Police came.", "Tolby St; Police"},
		{"They took Vitamin D. It helped.", "Vitamin D"},
		{"He became a Dr. in 2005.", "Dr"},
	}
	for _, tt := range tests {
		if g := strings.Join(names(tt.text), "; "); g != tt.want {
			t.Errorf("%q: names %q, want %q", tt.text, g, tt.want)
		}
	}
}

// TestTitleDotSentences: an abbreviated title's dot before a capitalized
// word does not end the sentence; written in lower case, or before a
// word in lower case, it may.
func TestTitleDotSentences(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]int{
		"Gen. Ada Lenk spoke. Sen. Ona Vey left.": 2,
		"He asked the gen. Ona left.":             2,
		"He met the Gen. and left.":               2,
		"He was made Col. The next year he left.": 2,
	} {
		if got := len(claim.Sentences(text)); got != want {
			t.Errorf("%q: %d sentences, want %d", text, got, want)
		}
	}
}

// TestExtractDotsLinear holds that what Extract allocates grows with the
// text, not its square, on texts the session's readers join or look back
// across: a title or an initial repeated (joinDotted split every joined
// name into words again at each join) and dates in digits after a long
// word (numericDates lower-cased all of it looking for "version").
func TestExtractDotsLinear(t *testing.T) {
	alloc := func(text string) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		claim.Extract(text, "")
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	for _, unit := range []string{"Gen.\t", "Ada F.\t", "12/31/2009,X,"} {
		small, large := alloc(strings.Repeat(unit, 1000)), alloc(strings.Repeat(unit, 4000))
		if large > 8*small {
			t.Errorf("Extract of %q x4000 allocated %d bytes, x1000 %d: %.1f times, want at most 8", unit, large, small, float64(large)/float64(small))
		}
	}
}
