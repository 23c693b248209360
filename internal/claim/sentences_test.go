package claim_test

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
)

// sentences returns the texts of the sentences of text.
func sentences(text string) []string {
	var out []string
	for _, sp := range claim.Sentences(text) {
		out = append(out, text[sp.Start:sp.End])
	}
	return out
}

// TestSentencesInitialism holds where an abbreviation written with its
// initials ends a sentence: only where a capitalized function word
// follows its dot.
func TestSentencesInitialism(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"initialism inside a name", `Ann Lenk of "The A.V. Club" praised it.`,
			[]string{`Ann Lenk of "The A.V. Club" praised it.`}},
		{"initialism before a capitalized word", "He moved to Washington, D.C. Metro lines were new.",
			[]string{"He moved to Washington, D.C. Metro lines were new."}},
		{"initialism before a function word", "He moved to Washington, D.C. The city was new.",
			[]string{"He moved to Washington, D.C.", "The city was new."}},
		{"listed abbreviation before a function word", "She moved to the U.S. In 2001 she left.",
			[]string{"She moved to the U.S.", "In 2001 she left."}},
		{"listed abbreviation before a name", "She moved to the U.S. Navy base.",
			[]string{"She moved to the U.S. Navy base."}},
		{"initialism at the end", "It was made by J.R.R. Tolkien's son in the U.K.",
			[]string{"It was made by J.R.R. Tolkien's son in the U.K."}},
		{"a word with a dot is no initialism", "It was made in 1990 by Lenk.Co. The firm shut.",
			[]string{"It was made in 1990 by Lenk.Co.", "The firm shut."}},
		{"an initial of one letter", "Ann B. Lenk wrote. She left.",
			[]string{"Ann B. Lenk wrote.", "She left."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sentences(tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("Sentences(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

// TestSentencesInitialismsLinear holds that the word after an
// initialism's dot is read up to the next space, tab or line break only,
// not to the next space: "U.S.\t" repeated made each dot read (and
// lower-case a copy of) the rest of the text, quadratic in its length.
func TestSentencesInitialismsLinear(t *testing.T) {
	for _, unit := range []string{"U.S.\t", "U.S.\n", "D.C. \t"} {
		text := strings.Repeat(unit, 4000)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		claim.Sentences(text)
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > uint64(64*len(text)) {
			t.Errorf("Sentences of %q x4000 (%d bytes) allocated %d bytes, want at most %d", unit, len(text), got, 64*len(text))
		}
	}
}

// FuzzSentences checks that the sentences of any text are in order,
// disjoint, inside it, not empty and trimmed of spaces, tabs and line
// breaks.
func FuzzSentences(f *testing.F) {
	for _, s := range []string{
		`Ann Lenk of "The A.V. Club" praised it.`, "to the U.S. The D.C. office", "A.B.C. D. E.F.", "U.S.\tThe X.Y.",
		"D.C. In", "A.V.", "a.b.c. the", ". . .", "", "x.Y. The\n", "Q.E.D. He said. And? Yes!",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		end := 0
		for _, sp := range claim.Sentences(s) {
			if sp.Start < end || sp.End <= sp.Start || sp.End > len(s) {
				t.Fatalf("span %+v after %d in %q", sp, end, s)
			}
			if txt := s[sp.Start:sp.End]; strings.Trim(txt, " \t\n\r") != txt {
				t.Fatalf("sentence %q not trimmed", txt)
			}
			end = sp.End
		}
	})
}
