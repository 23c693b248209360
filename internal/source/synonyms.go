package source

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/lexicon"
)

// findSynonym returns a passage that names c by another name WordNet
// gives the one thing c names (lexicon.Synonyms: "World War I" for "the
// Great War", "PhD" for "Ph.D."), or nil. The synonym must stand alone in
// the passage, as WordNet writes it (a name of one word in that case, one
// of several in any case), with no capitalized word but a function word
// right before or after it: "Philip" in "Philip Roth" names someone else
// than the Duke of Edinburgh. A synonym made only of the name's own words
// ("Lincoln" for "Abraham Lincoln") is not taken: that is the name given
// bare, which may name another thing of that name.
func (ix *Index) findSynonym(c claim.Claim) *Passage {
	if ablate.Off(ablate.Synonym) || c.Kind != claim.Name {
		return nil
	}
	own := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(c.Text)) {
		own[w] = true
	}
	for _, s := range lexicon.Synonyms(c.Text) {
		words := claim.ContentWords(s)
		if len(words) == 0 {
			continue
		}
		mine := true
		for _, w := range strings.Fields(strings.ToLower(s)) {
			mine = mine && own[w]
		}
		if mine {
			continue
		}
		for _, part := range ix.parts {
			for _, id := range intersect(part, words) {
				if p := &part.passages[id]; namesAlone(p.Text, s) {
					return p
				}
			}
		}
	}
	return nil
}

// namesAlone reports whether text holds name from a word's start to a
// word's end, in the same case when name is one word and in any case
// otherwise, with neither the word before it nor the word after it
// capitalized unless it is a function word ("The Great War ended" names
// the Great War; "the Great War Memorial" names the memorial).
func namesAlone(text, name string) bool {
	hay, needle := text, name
	if strings.Contains(name, " ") {
		hay, needle = strings.ToLower(text), strings.ToLower(name)
		if len(hay) != len(text) {
			return false // a case change altered the byte offsets
		}
	}
	for i := 0; ; {
		j := strings.Index(hay[i:], needle)
		if j < 0 {
			return false
		}
		s, e := i+j, i+j+len(needle)
		i = s + 1
		if s > 0 {
			if r, _ := utf8.DecodeLastRuneInString(text[:s]); unicode.IsLetter(r) || unicode.IsDigit(r) {
				continue
			}
		}
		if e < len(text) {
			if r, _ := utf8.DecodeRuneInString(text[e:]); unicode.IsLetter(r) || unicode.IsDigit(r) {
				continue
			}
		}
		if w := lastWordBefore(text[:s]); properWord(w) {
			continue
		}
		if w := firstWordAfter(text[e:]); properWord(w) {
			continue
		}
		return true
	}
}

// properWord reports whether w is capitalized and not a function word
// ("The" at a sentence's start).
func properWord(w string) bool {
	return w != "" && capitalized(w) && len(claim.ContentWords(w)) > 0
}

// firstWordAfter returns the word right after the start of s, on the same
// sentence, or "".
func firstWordAfter(s string) string {
	t := strings.TrimLeft(s, " \t")
	if t == "" || len(t) == len(s) {
		return ""
	}
	end := strings.IndexFunc(t, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '\'' || r == '’' || r == '-')
	})
	if end < 0 {
		end = len(t)
	}
	return strings.TrimRight(t[:end], ".")
}
