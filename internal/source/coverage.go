package source

import (
	"regexp"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
)

// Coverage is how much of a sentence's wording the sources hold: the
// distinct content words of the sentence (numbers aside) and how many of
// them some passage holds, as written or in another of their forms (a
// part of a hyphenated word, other accents).
type Coverage struct {
	Words, Found int
	// Missing are the sentence's content words no passage holds, as
	// written, in order.
	Missing []string
}

// Minimum sentence length and share of its words for Uncovered.
const (
	minCoverageWords = 6
	// coverageShare: a sentence of which the sources hold less than one
	// word in coverageShare is about something they do not speak of.
	coverageShare = 4
)

// Uncovered returns the coverage of sentence when the sources hold less
// than a quarter of its content words (of six or more): a sentence the
// sources share so little wording with is about something they do not
// speak of, whatever its specifics, and a paraphrase of a passage rarely
// replaces three words in four. A sentence about the source itself ("The
// document is a transcript of…", "The speakers are playing a game…")
// describes it in words of its own, and is left alone (aboutSource). It returns false otherwise. Words are
// looked up in every passage of every source at once, so a sentence whose
// wording the sources spread over several passages is covered.
//
// prev is the sentence before it in the same text, or "": a sentence that
// starts with a pronoun ("It also includes…") after one about the source
// is about the source too.
func (ix *Index) Uncovered(sentence, prev string) (Coverage, bool) {
	if ablate.Off(ablate.Coverage) || aboutSource(sentence) || pronounRE.MatchString(sentence) && aboutSource(prev) {
		return Coverage{}, false
	}
	var cv Coverage
	seen := map[string]bool{}
	claim.WordsFunc(sentence, func(w string, start, end int) {
		if claim.IsStopword(w) || len(w) < 3 || isNumeric(w) {
			return
		}
		st := claim.Stem(w)
		if seen[st] {
			return
		}
		seen[st] = true
		cv.Words++
		if ix.holds(st) {
			cv.Found++
		} else {
			cv.Missing = append(cv.Missing, sentence[start:end])
		}
	})
	if cv.Words < minCoverageWords || cv.Found*coverageShare >= cv.Words {
		return Coverage{}, false
	}
	return cv, true
}

// holds reports whether a passage holds stem w, as a word, a part of a
// hyphenated word, or with other accents.
func (ix *Index) holds(w string) bool {
	f := fold(w)
	fs := foldedStem(f)
	for _, part := range ix.parts {
		if len(part.words[w]) > 0 || len(part.hyph[w]) > 0 || len(part.folded[f]) > 0 || len(part.words[f]) > 0 ||
			fs != f && (len(part.words[fs]) > 0 || len(part.folded[fs]) > 0) {
			return true
		}
	}
	return false
}

// sourceSubjectRE finds a sentence whose subject is the source or the
// people speaking in it: "The document …", "In the article, …", "The
// speakers …", "This episode …".
var sourceSubjectRE = regexp.MustCompile(`(?i)^\W*(?:in\s+)?(?:the|this|that|these|their)\s+(?:\w+\s+)?(?:document|article|text|transcript|passage|report|story|post|paper|page|summary|conversation|dialogue|discussion|chat|exchange|podcast|episode|show|interview|video|speakers?|authors?|writers?|hosts?|narrators?|participants?)\b`)

// aboutSource reports whether sentence is about the source itself rather
// than about what the source is about.
func aboutSource(sentence string) bool { return sourceSubjectRE.MatchString(sentence) }

// pronounRE finds a sentence whose subject is a pronoun.
var pronounRE = regexp.MustCompile(`(?i)^\W*(?:it|they|he|she|this|these)\b`)
