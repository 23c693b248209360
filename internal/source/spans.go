package source

import (
	"fmt"
	"regexp"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
)

// spanStartRE finds the words by which a passage gives a date as the
// start of something that goes on after it, right before that date:
// "since last October 26", "starting in March", "beginning 4 May".
var spanStartRE = regexp.MustCompile(`(?i)\b(?:since|starting(?: (?:on|in|from))?|beginning(?: (?:on|in))?|as of|ever since)\s+(?:(?:last|early|mid|late|mid-)\s*)?$`)

// spanStart decides a date claim that a passage about the same thing
// would contradict as a near miss, when the passage gives its date as the
// start of a span ("played in Bilbao since last October 26") and the
// claimed date falls on or after that start ("finished first in November
// 2015"): what went on since a day goes on after it, so the source
// neither states nor contradicts the later date. The claim is undecided,
// with Why quoting the span's start. A claimed date before the start, or
// of another year, stays contradicted.
func spanStart(c claim.Claim, p *Passage, s claim.Claim) (Verdict, bool) {
	if ablate.Off(ablate.SpanStart) || c.Kind != claim.Date || s.Start < 0 || s.Start > len(p.Text) {
		return Verdict{}, false
	}
	m := spanStartRE.FindString(p.Text[:s.Start])
	if m == "" {
		return Verdict{}, false
	}
	cd, ok1 := claim.ParseDate(c.Value)
	sd, ok2 := claim.ParseDate(s.Value)
	if !ok1 || !ok2 || cd.Period != 0 || sd.Period != 0 || !onOrAfter(cd, sd) {
		return Verdict{}, false
	}
	return Verdict{Status: Undecided, Evidence: p, Found: s,
		Why: fmt.Sprintf("the source gives %s as the start of what it speaks of (%q), and the claimed date comes after it", s.Quoted(), m+s.Text)}, true
}

// onOrAfter reports whether date c falls on or after date s in the parts
// both give, taking an unknown year as the same year.
func onOrAfter(c, s claim.DateValue) bool {
	if c.Year != 0 && s.Year != 0 && c.Year != s.Year {
		return c.Year > s.Year
	}
	if c.Month != s.Month {
		return c.Month > s.Month
	}
	return c.Day == 0 || s.Day == 0 || c.Day >= s.Day
}
