package source

import (
	"slices"
	"strings"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
)

// minQuotePart is the fewest letters and digits a part of a quotation
// (between ellipses) must hold to be looked for: a part of a word or two
// ("and", "sexy") says too little to be told from the source's own.
const minQuotePart = 8

// checkQuote decides a quotation ([claim.Quote]) word for word: it is
// supported where one document holds each of its parts (split at
// ellipses and bracketed insertions, [claim.QuoteParts]) with the same
// letters and digits in order, whatever the case, spacing, punctuation
// and accents. Quotation marks say the words are someone's own, so other
// words do not state them: a quotation no document holds any run of
// three of its words of is unsupported, as an invented name is. One a
// document gives in part (three words in a row or more, but not the
// whole) is undecided, with Why saying so: the quoting text may have cut
// or reworded it, or the source hold only part of it.
// The evidence is the passage where the first part, or the run given,
// begins. A quotation whose parts are all too short to look for is
// undecided.
func (ix *Index) checkQuote(c claim.Claim) Verdict {
	if ablate.Off(ablate.Quote) {
		return Verdict{}
	}
	var keys []string
	var grams []string
	for _, part := range claim.QuoteParts(c.Text) {
		if k := squeezeFolded(part); len(k) >= minQuotePart {
			keys = append(keys, k)
		}
		var words []string
		for _, w := range strings.Fields(part) {
			if k := squeezeFolded(w); k != "" {
				words = append(words, k)
			}
		}
		for i := 0; i+3 <= len(words); i++ {
			grams = append(grams, strings.Join(words[i:i+3], ""))
		}
	}
	if len(keys) == 0 {
		return Verdict{}
	}
	var partly *Passage
	for _, part := range ix.parts {
		var b strings.Builder
		starts := make([]int, len(part.passages))
		for i := range part.passages {
			starts[i] = b.Len()
			b.WriteString(squeezeFolded(part.passages[i].Text))
		}
		text := b.String()
		at := func(off int) *Passage {
			i := len(starts) - 1
			for i > 0 && starts[i] > off {
				i--
			}
			return &part.passages[i]
		}
		if first := strings.Index(text, keys[0]); first >= 0 && !slices.ContainsFunc(keys[1:], func(k string) bool { return !strings.Contains(text, k) }) {
			return Verdict{Status: Supported, Evidence: at(first)}
		}
		for _, g := range grams {
			if off := strings.Index(text, g); partly == nil && off >= 0 && len(g) >= minQuotePart {
				partly = at(off)
			}
		}
	}
	if partly != nil {
		return Verdict{Status: Undecided, Evidence: partly,
			Why: "the source gives some of its words in a row but not the whole quotation"}
	}
	return Verdict{Status: Unsupported}
}

// squeezeFolded returns the letters and digits of s, lower-cased, without
// the accents of Latin letters.
func squeezeFolded(s string) string { return fold(squeeze(s)) }
