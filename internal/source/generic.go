package source

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/lexicon"
)

// genericName decides a name of several words that no passage states and
// that is a term of English made only of common words: a noun WordNet
// holds whole, not as an instance, whose every word WordNet holds only in
// lower case, headed by a noun of a person, an act, an event, a group or
// a time ("Bachelor of Arts", "Grand Jury", "Prime Minister";
// lexicon.Term). Such a name is a description capitalized (a title, an
// office, a degree, a body) that the sources may give in other words, not
// a proper name they would have to hold: the claim is undecided, with Why
// saying so. It stays unsupported where it is no such term (a word of it
// is also or only a proper noun, "Supreme Court", "American Jury"; its
// head names a place or a thing, "High Street"; WordNet does not hold it
// whole), and where the sources name something sharing a word with it
// ("Prime Minister" for "Foreign Minister"): another thing of its kind,
// which it may misname.
func (ix *Index) genericName(c claim.Claim) (Verdict, bool) {
	if ablate.Off(ablate.GenericName) || c.Kind != claim.Name {
		return Verdict{}, false
	}
	words := strings.Fields(c.Text)
	for _, w := range words {
		if !allLetters(w) {
			return Verdict{}, false
		}
	}
	if !lexicon.Term(words) || ix.namesSibling(c) {
		return Verdict{}, false
	}
	return Verdict{Status: Undecided, Why: fmt.Sprintf("%q is a term of English made only of common words, so it may be a description capitalized (a title, an office, a body) that the sources give in other words", c.Text)}, true
}

// namesSibling reports whether a passage names something sharing a word
// with the name c ("Prime Minister" for "Foreign Minister"): the sources
// then name another thing of the kind c names, and c is more likely that
// thing misnamed than a description of it.
func (ix *Index) namesSibling(c claim.Claim) bool {
	words := map[string]bool{}
	for _, w := range claim.ContentWords(c.Text) {
		words[w] = true
	}
	for _, part := range ix.parts {
		for i := range part.passages {
			for _, s := range part.passages[i].Claims {
				if s.Kind != claim.Name {
					continue
				}
				for _, w := range claim.ContentWords(s.Text) {
					if words[w] {
						return true
					}
				}
			}
		}
	}
	return false
}

// allLetters reports whether w is letters only.
func allLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return w != ""
}
