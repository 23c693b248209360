package source

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
)

// yearSpanRE finds a span of years a passage gives: "1990–1995",
// "1990-95", "1990 to 1995", "1990 until 1995", "between 1990 and
// 1995", with an optional month, or month and day, before either year
// ("March 1990 to June 1995", "between March 3, 1871 and 1880"). Only a
// month's name stands there, so the span found is the span itself and
// not the word before it ("the 2016–17 season" gives "2016–17").
var yearSpanRE = regexp.MustCompile(`(?i)\b(?:(between)\s+)?(?:` + spanMonth + `\s+(?:\d{1,2},?\s+)?)?(1[0-9]{3}|20[0-9]{2})\s*(?:–|—|-|\bto\b|\buntil\b|\btill\b|\bthrough\b|\bthru\b|\band\b)\s*(?:` + spanMonth + `\s+(?:\d{1,2},?\s+)?)?(1[0-9]{3}|20[0-9]{2}|[0-9]{2})\b`)

// spanMonth is a month's name, in full or abbreviated with or without
// its dot, as a span of years may give it before a year.
const spanMonth = `(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b\.?`

// spansYear returns the first span of years in text that holds year y
// after its start, up to its end ("2016–17" holds 2017), as written, or
// "". A year a span ends on is as undecided as one inside it: "the
// 2016–17 season" is of 2016 and 2017 both, and where the end is written
// in full the passage states the year already. "and" joins a span only
// after "between" ("in 1990 and 1995" names two years), and a year and
// month followed by a day ("2004-09-15") is a date.
func spansYear(text string, y int) string {
	for _, ix := range yearSpanRE.FindAllStringSubmatchIndex(text, -1) {
		if rest := text[ix[1]:]; len(rest) >= 2 && rest[0] == '-' && rest[1] >= '0' && rest[1] <= '9' {
			continue // an ISO date ("2004-09-15"), not a span
		}
		m := make([]string, 4)
		for g := range m {
			if ix[2*g] >= 0 {
				m[g] = text[ix[2*g]:ix[2*g+1]]
			}
		}
		lo, _ := strconv.Atoi(m[2])
		hi, _ := strconv.Atoi(m[3])
		if len(m[3]) == 2 {
			hi += lo / 100 * 100
		}
		if m[1] == "" && andRE.MatchString(m[0]) {
			continue
		}
		if lo < y && (y < hi || y == hi && !ablate.Off(ablate.SpanEnd)) {
			return m[0]
		}
	}
	return ""
}

// yearInSpan decides a date claim with a year that a passage about the
// same thing (sharing as many words with its sentence as a contradiction
// needs) gives only as lying inside a span ("mayor from 1990 to 1995"
// for "mayor in 1993"): the span's ends do not contradict the year, and
// the passage does not say the claim's event fell in that year rather
// than another of the span, so the claim is undecided, with Why quoting
// the span.
func (ix *Index) yearInSpan(c claim.Claim, q query) (Verdict, bool) {
	cd, ok := claim.ParseDate(c.Value)
	if ablate.Off(ablate.YearSpan) || c.Kind != claim.Date || !ok || cd.Year == 0 || cd.Period != 0 {
		return Verdict{}, false
	}
	need := contradictionOverlap(q)
	for _, cand := range ix.candidates(q) {
		if cand.score < need {
			break
		}
		if sp := spansYear(cand.p.Text, cd.Year); sp != "" {
			return Verdict{Status: Undecided, Evidence: cand.p,
				Why: fmt.Sprintf("the source gives the span %q, which holds %d, without saying in which of its years", sp, cd.Year)}, true
		}
	}
	return Verdict{}, false
}

// andRE finds "and" as a word.
var andRE = regexp.MustCompile(`(?i)\band\b`)

// dayInSpan decides a date claim with a day that a passage about the same
// thing (sharing as many words with its sentence as a contradiction needs)
// gives only as lying inside a range of days of the same month ("The
// festival runs May 11-22" for "premiered on May 19"), in the claim's
// year or in none: the range's ends do not contradict the day, and the
// passage does not say which of its days the claim's event fell on, so
// the claim is undecided, with Why quoting the range. A day outside the
// range, or another month, is left to the contradiction.
func (ix *Index) dayInSpan(c claim.Claim, q query) (Verdict, bool) {
	cd, ok := claim.ParseDate(c.Value)
	if ablate.Off(ablate.DateRange) || c.Kind != claim.Date || !ok || cd.Day == 0 || cd.Month == 0 || cd.Period != 0 {
		return Verdict{}, false
	}
	need := contradictionOverlap(q)
	for _, cand := range ix.candidates(q) {
		if cand.score < need {
			break
		}
		for _, r := range claim.DayRanges(cand.p.Text) {
			if r.Month == cd.Month && r.From < cd.Day && cd.Day < r.To && (r.Year == 0 || cd.Year == 0 || r.Year == cd.Year) {
				return Verdict{Status: Undecided, Evidence: cand.p,
					Why: fmt.Sprintf("the source gives the range %q, which holds %s, without saying on which of its days", r.Text, cd.Human())}, true
			}
		}
	}
	return Verdict{}, false
}
