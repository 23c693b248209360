package source

import (
	"regexp"
	"strconv"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
)

// claimAgeRE finds a number a sentence gives as someone's age: "at the
// age of 78", "aged 78", "at age 78", ", at 31," (a parenthetical after a
// name), "a 31-year-old".
var claimAgeRE = regexp.MustCompile(`(?i)(?:\bat the age of|\baged|\bat age|,\s*at)\s+(\d{1,3})\b|\b(\d{1,3})[- ]years?[- ]old\b`)

// sourceAgeRE finds a number a passage gives as someone's age: the forms
// of claimAgeRE but the parenthetical one, and "dies at 78", "died at 78".
var sourceAgeRE = regexp.MustCompile(`(?i)(?:\bat the age of|\baged|\bat age|\b(?:dies|died|dead|retires|retired)\s+at)\s+(\d{1,3})\b|\b(\d{1,3})[- ]years?[- ]old\b`)

// ages returns the numbers text gives as ages by re, in order.
func ages(re *regexp.Regexp, text string) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		for _, g := range m[1:] {
			if g != "" {
				out = append(out, g)
			}
		}
	}
	return out
}

// age decides a number its sentence gives as an age ("Winslet, at 31,
// became …", "died … at the age of 78"): any passage giving the same
// number as an age ("The 31-year-old has …", "dies at 78") states it,
// whatever else it shares with the sentence. An age is stated where the
// person is introduced or in a headline, rarely in the sentence a claim
// paraphrases, and a number given as an age rarely matches by chance.
func (ix *Index) age(c claim.Claim) (Verdict, bool) {
	if ablate.Off(ablate.Age) || c.Kind != claim.Number || c.Unit != "" && !timeUnits[claim.Stem(c.Unit)] {
		return Verdict{}, false
	}
	n := strconv.FormatFloat(c.Num, 'g', 12, 64)
	isAge := false
	for _, a := range ages(claimAgeRE, c.Sentence) {
		if a == n && a == c.Text {
			isAge = true
		}
	}
	if !isAge {
		return Verdict{}, false
	}
	for _, part := range ix.parts {
		for _, id := range part.values["number:"+n] {
			p := &part.passages[id]
			for _, a := range ages(sourceAgeRE, p.Text) {
				if a == n {
					return Verdict{Status: Supported, Evidence: p}, true
				}
			}
		}
	}
	return Verdict{}, false
}
