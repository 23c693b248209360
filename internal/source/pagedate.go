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

// pageDateLines is how far into a document its own date is looked for: a
// dateline ("Published 11:07 p.m. ET Jan. 27, 2019", "July 18, 2014")
// stands at the top of a page, and a full date further down is more often
// the date of something the page speaks of.
const pageDateLines = 10

// datelineRE finds the words that introduce a page's own date.
var datelineRE = regexp.MustCompile(`(?i)\b(?:published|posted|updated|written|datetime|dated?)\b`)

// datelineWords is the most words a line may hold to be taken for a
// dateline without saying so ("July 18, 2014", "By Ona Vey, March 5,
// 2003"); a longer sentence's date is that of what it tells.
const datelineWords = 12

// pageDate returns the day a document was written, when it gives one: the
// first full date (day, month and year) in its first pageDateLines lines,
// on a line that says it is the page's date ("Published", "Posted",
// "Updated") or holds little else.
func (x *DocIndex) pageDate() (time.Time, bool) {
	for i := range x.passages {
		p := &x.passages[i]
		if p.Line > pageDateLines {
			break
		}
		if len(strings.Fields(p.Text)) > datelineWords && !datelineRE.MatchString(p.Text) {
			continue
		}
		for _, s := range p.Claims {
			d, ok := claim.ParseDate(s.Value)
			if s.Kind != claim.Date || !ok || d.Period != 0 || d.Year == 0 || d.Month == 0 || d.Day == 0 {
				continue
			}
			return time.Date(d.Year, time.Month(d.Month), d.Day, 0, 0, 0, 0, time.UTC), true
		}
	}
	return time.Time{}, false
}

// nearestYear is the year that puts the day and month (day 0: the month's
// middle) nearest to day t: a page dated July 2019 that says "Aug. 28"
// means August 28, 2019; one dated January 2019 that says "December 30"
// means December 30, 2018.
func nearestYear(t time.Time, month, day int) int {
	if day == 0 {
		day = 15
	}
	best, bestGap := t.Year(), time.Duration(-1)
	for _, y := range []int{t.Year() - 1, t.Year(), t.Year() + 1} {
		gap := time.Date(y, time.Month(month), day, 0, 0, 0, 0, time.UTC).Sub(t).Abs()
		if bestGap < 0 || gap < bestGap {
			best, bestGap = y, gap
		}
	}
	return best
}

// pageDated decides a date claim no passage states as written, where the
// document's own date (pageDate) completes what a passage gives of it:
//
//   - a month, or a day and month, without a year ("The fest runs from
//     Aug. 28 to Sept. 7." in a page dated July 19, 2019) states the claim
//     ("August 2019") when the year nearest the page's date is the
//     claim's: a page writes the year of a date near its own day no more
//     than a letter does. For a claim without a year the passage must
//     share a word of its sentence, as for a lone month;
//   - a weekday alone, in the passage that best matches the claim's
//     sentence ("the 20th International AIDS Conference, which will start
//     Sunday" in a page dated Friday, July 18, 2014), leaves a day within a
//     week of the page's date that falls on that weekday ("starting on 20
//     July") undecided: the weekday names it, but whether the last or the
//     next is meant the passage does not say.
//
// The page's date is the first full date in its first lines, which an
// archive's crawl date or a related story's date may also be: a year or
// weekday it resolves to another day than the claim's decides nothing.
func (ix *Index) pageDated(c claim.Claim, q query) (Verdict, bool) {
	cd, ok := claim.ParseDate(c.Value)
	if ablate.Off(ablate.PageDate) || c.Kind != claim.Date || !ok || cd.Period != 0 || cd.Month == 0 {
		return Verdict{}, false
	}
	// Each document's date, read once: the weekday rule below weighs
	// every candidate passage, and reading its page's first lines again
	// for each would cost a 1 MB page of one line its passages squared.
	days := make(map[*DocIndex]time.Time, len(ix.parts))
	for _, part := range ix.parts {
		t, ok := part.pageDate()
		if !ok {
			continue
		}
		days[part] = t
		for _, id := range part.values["date:m:"+strconv.Itoa(cd.Month)] {
			p := &part.passages[id]
			if cd.Year == 0 && q.overlap(p) == 0 {
				continue
			}
			for _, s := range p.Claims {
				sd, ok := claim.ParseDate(s.Value)
				if s.Kind != claim.Date || !ok || sd.Year != 0 || sd.Period != 0 || sd.Month != cd.Month ||
					cd.Day != 0 && sd.Day != cd.Day {
					continue
				}
				if cd.Year == 0 || nearestYear(t, sd.Month, sd.Day) == cd.Year {
					return Verdict{Status: Supported, Evidence: p}, true
				}
			}
		}
	}
	if cd.Day == 0 {
		return Verdict{}, false
	}
	cands := ix.candidates(q)
	need := max(minRelativeOverlap, (2*len(q.attr)+len(q.ctx)+3)/4)
	for _, cand := range cands {
		if cand.score < need {
			break
		}
		t, ok := days[ix.partOf(cand.p)]
		if !ok {
			continue
		}
		y := cd.Year
		if y == 0 {
			y = nearestYear(t, cd.Month, cd.Day)
		}
		day := time.Date(y, time.Month(cd.Month), cd.Day, 0, 0, 0, 0, time.UTC)
		if day.Sub(t).Abs() > 7*24*time.Hour {
			continue
		}
		for _, s := range cand.p.Claims {
			sd, ok := claim.ParseDate(s.Value)
			if s.Kind != claim.Date || !ok || sd.Weekday == "" || sd.Weekday != lowerWeekday(day.Weekday()) {
				continue
			}
			return Verdict{Status: Undecided, Evidence: cand.p, Found: s,
				Why: fmt.Sprintf("the source gives %s in a page dated %s, which may be the %s before or after it", s.Quoted(), t.Format("January 2, 2006"), day.Weekday())}, true
		}
	}
	return Verdict{}, false
}

// partOf returns the document index holding passage p.
func (ix *Index) partOf(p *Passage) *DocIndex {
	for _, part := range ix.parts {
		if part.doc == p.Doc {
			return part
		}
	}
	return &DocIndex{}
}

// lowerWeekday is a weekday as a claim's value names it: "sunday".
func lowerWeekday(w time.Weekday) string {
	return [...]string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}[w]
}
