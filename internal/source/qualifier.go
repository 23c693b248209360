package source

import (
	"fmt"
	"strings"
	"sync"
	"unicode"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/lexicon"
)

// openQuotes are the quotation marks a quoted name may open with.
const openQuotes = "\"“‘'"

// qualified returns the name the claim's sentence qualifies by c, and
// the form of the qualification, where c stands right after a name as
// background to it rather than as a thing the sentence says:
//   - "office": after a comma, a name holding "of" that a comma, a
//     closing bracket, a semicolon or the sentence's end closes ("Ona
//     Vey, Mayor of Tolby, said"): an office or title in apposition;
//   - "place": after a comma, a country or a subdivision ISO 3166-2
//     lists, after a name that is neither ("Tolby, Ohio"): where a
//     place is;
//   - "of": after "of", in quotation marks ("Ann Lenk of "The Tolby
//     Star""): the body a person writes or works for.
//
// The name qualified is the run of capitalized words (with
// expansionWords between) right before.
func qualified(c claim.Claim) (head, form string, ok bool) {
	if c.Kind != claim.Name || c.Text == "" {
		return "", "", false
	}
	for i := 0; ; {
		j := strings.Index(c.Sentence[i:], c.Text)
		if j < 0 {
			return "", "", false
		}
		at := i + j
		i = at + len(c.Text)
		before := c.Sentence[:at]
		quoted := false
		if t := strings.TrimSuffix(strings.TrimSuffix(before, "The "), "the "); len(t) < len(before) && strings.ContainsAny(t[max(len(t)-3, 0):], openQuotes) {
			before = t // "of "The Tolby Star"": the article inside the quotes
		}
		if t := strings.TrimRight(before, openQuotes); len(t) < len(before) {
			before, quoted = t, true
		}
		rest := c.Sentence[i:]
		switch {
		case strings.HasSuffix(before, ", ") && !quoted:
			head = nameBefore(before[:len(before)-2])
			if head == "" || !closesApposition(rest) {
				continue
			}
			if strings.Contains(c.Text, " of ") {
				return head, "office", true
			}
			if placeRank(c.Text) > placeRank(head) {
				return head, "place", true
			}
		case strings.HasSuffix(before, " of ") && quoted:
			if head = nameBefore(before[:len(before)-4]); head != "" {
				return head, "of", true
			}
		}
	}
}

// closesApposition reports whether rest, the text after an appositive,
// ends it: a comma, a closing bracket, a semicolon, or the sentence's
// end. "Paris, London and Berlin" is a list, not an apposition.
func closesApposition(rest string) bool {
	rest = strings.TrimLeft(rest, "\"”’'")
	return rest == "" || strings.IndexByte(",);.:", rest[0]) >= 0
}

// nameBefore returns the name that ends text: its last run of
// capitalized words, with expansionWords between them, possessive kept
// out; or "" when text does not end in a capitalized word.
func nameBefore(text string) string {
	text = strings.TrimRight(text, "\"”’'")
	words := strings.Fields(text)
	first := len(words)
	for k := len(words) - 1; k >= 0; k-- {
		w := words[k]
		if strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '.' && r != '-' && r != '\'' }) >= 0 {
			break
		}
		if !capitalized(w) && !(expansionWords[w] && first < len(words)) {
			break
		}
		first = k
	}
	for first < len(words) && !capitalized(words[first]) {
		first++
	}
	if first == len(words) {
		return ""
	}
	return strings.Join(words[first:], " ")
}

// placeRanks ranks places, by their names lower-cased and without
// accents: 2 for the countries and regions of the nationalities table
// and the places WordNet gives adjectives of, 1 for the subdivisions ISO
// 3166-2 lists (a name of both is 2). It is built on first use and
// never written after.
var placeRanks = sync.OnceValue(func() map[string]int {
	m := map[string]int{}
	for _, s := range lexicon.Subdivisions() {
		m[foldText(s.Name)] = 1
	}
	for _, d := range lexicon.Demonyms() {
		m[foldText(d.Place)] = 2
	}
	for _, line := range strings.Split(nationalities, "\n") {
		for _, entry := range splitEntries(line) {
			_, locs, _ := strings.Cut(entry, ":")
			for _, l := range strings.Split(locs, ",") {
				m[l] = 2
			}
		}
	}
	return m
})

// foldText is text lower-cased, each word folded.
func foldText(text string) string {
	words := strings.Fields(strings.ToLower(text))
	for i, w := range words {
		words[i] = fold(w)
	}
	return strings.Join(words, " ")
}

// placeRank is 2 for a country or region, 1 for a subdivision, 0 for
// any other name (placeRanks): a place is qualified only by a place of
// a higher rank ("Tolby, Ohio", "Tokyo, Japan", "Ohio, United States").
func placeRank(name string) int { return placeRanks()[foldText(name)] }

// qualifier decides a name no passage states that the claim's sentence
// gives only as background to a name the sources state (qualified): the
// sources say who or where the thing is, not the office, the place or
// the body the sentence adds, so the claim is undecided, with Why naming
// the name they state. Each form has its switch.
func (ix *Index) qualifier(c claim.Claim) (Verdict, bool) {
	head, form, ok := qualified(c)
	if !ok || ablate.Off("qualifier-"+form) {
		return Verdict{}, false
	}
	p := ix.findName(claim.Claim{Kind: claim.Name, Text: head, Value: strings.ToLower(head), Sentence: c.Sentence})
	if p == nil {
		return Verdict{}, false
	}
	return Verdict{Status: Undecided, Evidence: p,
		Why: fmt.Sprintf("the source names %q, to which the sentence adds %q, without saying so", head, c.Text)}, true
}
