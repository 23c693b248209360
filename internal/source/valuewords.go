package source

import (
	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
)

// ordinalNames are the ordinals written as one word, by their number:
// "sixth" is the "6th" of a claim.
var ordinalNames = [...]string{1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh",
	8: "eighth", 9: "ninth", 10: "tenth", 11: "eleventh", 12: "twelfth", 13: "thirteenth", 14: "fourteenth",
	15: "fifteenth", 16: "sixteenth", 17: "seventeenth", 18: "eighteenth", 19: "nineteenth", 20: "twentieth"}

// ordinalSuffixes are the endings an ordinal takes in digits.
var ordinalSuffixes = map[string]bool{"st": true, "nd": true, "rd": true, "th": true}

// valueWord returns the word a passage may give c's value as where the
// reader takes no claim of it, or "": an ordinal in digits ("the 6th
// edition") as the word for it ("the sixth edition"), which the reader
// does not take for a number (an ordinal of one word is too common a
// word, "first", "third", to be a specific of its own); a colour
// ("gold") capitalized ("the top Gold rating"), which the reader takes
// for a name.
func valueWord(c claim.Claim) string {
	switch {
	case c.Kind == claim.Number && ordinalSuffixes[c.Unit] && c.Num >= 1 && c.Num < float64(len(ordinalNames)) &&
		c.Num == float64(int(c.Num)) && !ablate.Off(ablate.OrdinalNames):
		return ordinalNames[int(c.Num)]
	case c.Kind == claim.Color && !ablate.Off(ablate.ColorWord):
		return c.Value
	}
	return ""
}

// valueInWords finds a passage giving c's value as the word valueWord
// names. As for a bare number, the passage must share a word with the
// claim's sentence or attribute.
func (ix *Index) valueInWords(c claim.Claim, q query) *Passage {
	w := valueWord(c)
	if w == "" {
		return nil
	}
	w = claim.Stem(w)
	var best *Passage
	bestScore := 0
	for _, part := range ix.parts {
		for _, id := range part.words[w] {
			p := &part.passages[id]
			if s := q.overlap(p); s > bestScore {
				best, bestScore = p, s
			}
		}
	}
	return best
}
