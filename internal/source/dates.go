package source

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
)

// datedWeekday decides a full date ("March 1, 2017") no passage states,
// where a passage about the same thing (two words of the claim's sentence)
// gives its weekday alone ("Wednesday evening") and the same document
// gives a full date within the six days after it ("March 2, 2017", the
// day the page was written): a page names the days of its own week by
// weekday, so that weekday is the claimed date.
func (ix *Index) datedWeekday(c claim.Claim, q query) (Verdict, bool) {
	cd, ok := claim.ParseDate(c.Value)
	if ablate.Off(ablate.DatedWeekday) || c.Kind != claim.Date || !ok || cd.Period != 0 || cd.Year == 0 || cd.Month == 0 || cd.Day == 0 {
		return Verdict{}, false
	}
	day := time.Date(cd.Year, time.Month(cd.Month), cd.Day, 0, 0, 0, 0, time.UTC)
	if day.Month() != time.Month(cd.Month) || day.Day() != cd.Day {
		return Verdict{}, false // no such day
	}
	wd := strings.ToLower(day.Weekday().String())
	if cd.Weekday != "" && cd.Weekday != wd {
		return Verdict{}, false
	}
	for _, part := range ix.parts {
		if !part.dated {
			continue
		}
		for _, id := range part.values["date:w:"+wd] {
			p := &part.passages[id]
			// The document's dates are read last: only for a passage
			// about the same thing that gives the weekday alone.
			if q.overlap(p) >= 2 && weekdayAlone(p, wd) && part.datedWithin(day, 6) {
				return Verdict{Status: Supported, Evidence: p}, true
			}
		}
	}
	return Verdict{}, false
}

// weekdayAlone reports whether passage p gives weekday wd with no month,
// day or year ("Wednesday evening").
func weekdayAlone(p *Passage, wd string) bool {
	for _, s := range p.Claims {
		sd, ok := claim.ParseDate(s.Value)
		if s.Kind == claim.Date && ok && sd.Weekday == wd && sd.Year == 0 && sd.Month == 0 && sd.Day == 0 {
			return true
		}
	}
	return false
}

// datedWithin reports whether the document gives a full date from day to
// n days after it.
func (x *DocIndex) datedWithin(day time.Time, n int) bool {
	last := day.AddDate(0, 0, n)
	for y := day.Year(); y <= last.Year(); y++ {
		for _, id := range x.values["date:y:"+strconv.Itoa(y)] {
			for _, s := range x.passages[id].Claims {
				sd, ok := claim.ParseDate(s.Value)
				if s.Kind != claim.Date || !ok || sd.Period != 0 || sd.Month == 0 || sd.Day == 0 || sd.Year == 0 {
					continue
				}
				t := time.Date(sd.Year, time.Month(sd.Month), sd.Day, 0, 0, 0, 0, time.UTC)
				if !t.Before(day) && !t.After(last) {
					return true
				}
			}
		}
	}
	return false
}

// dateParts decides a full date ("October 6, 1995") no passage states or
// contradicts, where a passage gives its day and month without a year
// ("Why October 6th matters") and the sources give its year apart ("In
// 1995 …"): the parts agree, but nothing joins them, so the claim is
// undecided, with Why saying so.
func (ix *Index) dateParts(c claim.Claim) (Verdict, bool) {
	cd, ok := claim.ParseDate(c.Value)
	if ablate.Off(ablate.DateParts) || c.Kind != claim.Date || !ok || cd.Period != 0 || cd.Year == 0 || cd.Month == 0 || cd.Day == 0 {
		return Verdict{}, false
	}
	year := strconv.Itoa(cd.Year)
	given := false
	for _, part := range ix.parts {
		given = given || len(part.values["date:y:"+year]) > 0 || len(part.values["number:"+year]) > 0
	}
	if !given {
		return Verdict{}, false
	}
	for _, part := range ix.parts {
		for _, id := range part.values["date:m:"+strconv.Itoa(cd.Month)] {
			p := &part.passages[id]
			for _, s := range p.Claims {
				sd, ok := claim.ParseDate(s.Value)
				if s.Kind == claim.Date && ok && sd.Period == 0 && sd.Year == 0 && sd.Month == cd.Month && sd.Day == cd.Day && cd.Agrees(sd) {
					return Verdict{Status: Undecided, Evidence: p, Found: s,
						Why: fmt.Sprintf("the source gives %s without a year, and %s apart from it", s.Quoted(), year)}, true
				}
			}
		}
	}
	return Verdict{}, false
}

// contextYearRE finds a sentence dating something by a year it does not
// give: "in April of the same year", "later that year".
var contextYearRE = regexp.MustCompile(`(?i)\b(?:that|the same|that same)\s+year\b`)

// contextYear decides a month alone ("in April of the same year") that no
// passage about the same thing states or contradicts, where the claim's
// sentence dates it by a year given elsewhere in the text and a source
// gives that month: the month may be the one the source gives, in the
// year the text meant, and nothing says which year that was, so the claim
// is undecided, with Why saying so. Where no source gives the month, it
// stays unsupported.
func (ix *Index) contextYear(c claim.Claim) (Verdict, bool) {
	cd, ok := claim.ParseDate(c.Value)
	if ablate.Off(ablate.ContextYear) || c.Kind != claim.Date || !ok || cd.Period != 0 || cd.Year != 0 || cd.Month == 0 || !contextYearRE.MatchString(c.Sentence) {
		return Verdict{}, false
	}
	for _, part := range ix.parts {
		for _, id := range part.values["date:m:"+strconv.Itoa(cd.Month)] {
			p := &part.passages[id]
			for _, s := range p.Claims {
				sd, ok := claim.ParseDate(s.Value)
				if s.Kind == claim.Date && ok && sd.Period == 0 && sd.Month == cd.Month && cd.Agrees(sd) {
					return Verdict{Status: Undecided, Evidence: p, Found: s,
						Why: fmt.Sprintf("the text dates %s by a year it gives elsewhere; the source gives %s", c.Quoted(), s.Quoted())}, true
				}
			}
		}
	}
	return Verdict{}, false
}
