package source

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
)

// ageNum is a number as an age is written: digits, or number words
// ("thirty-one").
const ageNum = `(\d{1,3}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|four|five|six|seven|eight|nine))?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|a hundred|one hundred)`

// claimAgeRE finds a number a sentence gives as someone's age: "at the
// age of 78", "aged 78", "at age 78", ", at 31," (a parenthetical after a
// name), "a 31-year-old".
var claimAgeRE = regexp.MustCompile(`(?i)(?:\bat the age of|\baged|\bat age|,\s*at)\s+` + ageNum + `\b|\b` + ageNum + `[- ]years?[- ]old\b`)

// sourceAgeRE finds a number a passage gives as someone's age: the forms
// of claimAgeRE but the parenthetical one, and "dies at 78", "died at 78".
var sourceAgeRE = regexp.MustCompile(`(?i)(?:\bat the age of|\baged|\bat age|\b(?:dies|died|dead|retires|retired)\s+at)\s+` + ageNum + `\b|\b` + ageNum + `[- ]years?[- ]old\b`)

// decadeAgeRE finds an age given as a decade of life, in digits: "in his
// 40s", "in her late 40s" (the whole decade either way).
var decadeAgeRE = regexp.MustCompile(`(?i)\bin (?:his|her|their) (?:early |mid-?|late )?([1-9])0s\b`)

// ages returns the numbers text gives as ages by re, as written, in
// order.
func ages(re *regexp.Regexp, text string) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		for _, g := range m[1:] {
			if g != "" {
				out = append(out, strings.ToLower(g))
			}
		}
	}
	return out
}

// age decides a number its sentence gives as an age ("Winslet, at 31,
// became …", "died … at the age of 78", "in her 40s"): any passage giving
// a number in that range as an age ("The 31-year-old has …", "dies at
// 78", "the 45-year-old") states it, whatever else it shares with the
// sentence. An age is given where a person is introduced or in a
// headline, rarely in the sentence a claim paraphrases, and a number
// given as an age rarely matches by chance.
func (ix *Index) age(c claim.Claim) (Verdict, bool) {
	if ablate.Off(ablate.Age) || c.Kind != claim.Number || c.Unit != "" && !timeUnits[claim.Stem(c.Unit)] {
		return Verdict{}, false
	}
	lo, hi := 0, -1
	for _, a := range ages(claimAgeRE, c.Sentence) {
		if a == strings.ToLower(c.Text) {
			lo, hi = int(c.Num), int(c.Num)
		}
	}
	for _, m := range decadeAgeRE.FindAllStringSubmatch(c.Sentence, -1) {
		if d, _ := strconv.Atoi(m[1]); d*10 == int(c.Num) && c.Text == m[1]+"0" {
			lo, hi = d*10, d*10+9
		}
	}
	for n := lo; n <= hi; n++ {
		for _, part := range ix.parts {
			for _, id := range part.values["number:"+strconv.Itoa(n)] {
				p := &part.passages[id]
				given := ages(sourceAgeRE, p.Text)
				for _, s := range p.Claims {
					if s.Kind == claim.Number && s.Num == float64(n) && slices.Contains(given, strings.ToLower(s.Text)) {
						return Verdict{Status: Supported, Evidence: p}, true
					}
				}
			}
		}
	}
	return Verdict{}, false
}
