package source

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
)

// Words a passage puts before a number to give a bound or an estimate
// rather than the number itself, each ending where the number begins.
var (
	// lowerBoundRE: "over 100", "more than $5 million", "at least 30".
	lowerBoundRE = regexp.MustCompile(`(?i)\b(?:over|more than|at least|in excess of|upwards of|above|exceeding|greater than|no fewer than|no less than|a minimum of)\s+$`)
	// upperBoundRE: "under 100", "fewer than 30", "up to 5 million"
	// ("nearly" and "almost" give an estimate: "nearly $1.8 billion" is
	// not said of $1.5 billion).
	upperBoundRE = regexp.MustCompile(`(?i)\b(?:under|less than|fewer than|below|up to|at most|no more than|a maximum of)\s+$`)
	// estimateRE: "about 12,000", "an estimated 300", "roughly 5%".
	estimateRE = regexp.MustCompile(`(?i)\b(?:about|around|approximately|approx\.|roughly|some|circa|c\.|ca\.|an estimated|estimated|nearly|almost|close to|an approximate)\s+$`)
)

// maxEstimateGap is how far, relatively, a number may lie from a number a
// source gives as an estimate ("about 12,000") and still be one the
// estimate may stand for.
const maxEstimateGap = 0.1

// maxBoundFactor is how many times a bound a number may be, or how small
// a part of it, and still be one the bound is said of: "over 100" is
// said of 150, not of 1,000.
const maxBoundFactor = 2

// bounded decides a number claim that a passage about the same thing
// (sharing as many words with its sentence as a contradiction needs)
// gives only as a bound or an estimate the claimed number keeps to: "the
// film grossed $105 million" against "grossed over $100 million", "fewer
// than 30 staff" for 25, "about 12,000 residents" for 12,345. The source
// neither states the exact number nor contradicts it, so the claim is
// undecided, with Why quoting the bound. A number beyond the bound, more
// than maxBoundFactor from it, or further than maxEstimateGap from an
// estimate, is decided as before, and so is a claim that is itself a
// bound or an estimate ("over 150" is not implied by "over 100").
func (ix *Index) bounded(c claim.Claim, q query) (Verdict, bool) {
	if ablate.Off(ablate.Bounds) || c.Kind != claim.Number || c.Num == 0 {
		return Verdict{}, false
	}
	if i := strings.Index(c.Sentence, c.Text); i >= 0 {
		// A claim that is itself a bound or an estimate ("over 150")
		// is not implied by another bound ("over 100").
		own := c.Sentence[:i]
		if lowerBoundRE.MatchString(own) || upperBoundRE.MatchString(own) || estimateRE.MatchString(own) {
			return ix.ownBound(c, q, own)
		}
	}
	need := contradictionOverlap(q)
	for _, cand := range ix.candidates(q) {
		if cand.score < need {
			break
		}
		p := cand.p
		for _, s := range p.Claims {
			if s.Kind != claim.Number || s.Start < 0 || s.Start > len(p.Text) || s.Num == 0 ||
				c.Unit != "" && s.Unit != "" && !sameUnit(c.Unit, s.Unit) {
				continue
			}
			before := p.Text[:s.Start]
			var ok bool
			var w string
			switch {
			case c.Num > s.Num && c.Num <= maxBoundFactor*s.Num && lowerBoundRE.MatchString(before):
				ok, w = true, lowerBoundRE.FindString(before)
			case c.Num < s.Num && c.Num*maxBoundFactor >= s.Num && upperBoundRE.MatchString(before):
				ok, w = true, upperBoundRE.FindString(before)
			case estimateRE.MatchString(before) && closeEnough(c.Num, s.Num, maxEstimateGap):
				ok, w = true, estimateRE.FindString(before)
			}
			if ok {
				return Verdict{Status: Undecided, Evidence: p, Found: s,
					Why: fmt.Sprintf("the source gives %q, a bound or an estimate, not the number itself", strings.TrimSpace(w)+" "+s.Text)}, true
			}
		}
	}
	return Verdict{}, false
}

// ownBound decides a number claim that is itself a bound or an estimate
// (own is its sentence up to the number): "over 100 countries", "more
// than 5,000 people", "about 12,000 residents", "nearly $46 million". A
// passage about the same thing (as for a contradiction: the same
// attribute or the same unit counted) giving an exact number the bound
// holds of states it: "over 100 countries" is said of 112, within
// maxBoundFactor as a source's bound is read, and "about 12,000" of 12,345,
// within maxEstimateGap. Such a number had contradicted the claim, which
// says no more than the source. A number the bound does not hold of, or
// that the source gives as a bound or an estimate itself, decides
// nothing here.
func (ix *Index) ownBound(c claim.Claim, q query, own string) (Verdict, bool) {
	if ablate.Off(ablate.ClaimBound) {
		return Verdict{}, false
	}
	lower, upper := lowerBoundRE.MatchString(own), upperBoundRE.MatchString(own)
	p := ix.plainFigure(c, q, func(s claim.Claim) bool {
		switch {
		case s.Num <= 0 || c.Num <= 0:
			return false
		case lower:
			return s.Num > c.Num && s.Num <= maxBoundFactor*c.Num
		case upper:
			return s.Num < c.Num && s.Num*maxBoundFactor >= c.Num
		}
		return closeEnough(c.Num, s.Num, maxEstimateGap)
	})
	if p == nil {
		return Verdict{}, false
	}
	return Verdict{Status: Supported, Evidence: p}, true
}

// rounded decides a number claim written rounded, with two significant
// digits or more ("grossed $45 million", "12,000 residents"), that a
// passage about the same thing (as for a contradiction) gives more
// precisely, rounding to it: $45.3 million, 12,345. The claim says the
// source's number at its own precision, so it is stated; it had been a
// near miss. A number that does not round to the claim's ("$45 million"
// for $45.6 million), one of one significant digit ("1,000" for 1,400:
// too loose a rounding to say), a claim that is a bound ("under 12,000"
// for 12,345), and a source's number as round as the claim's or rounder
// decide nothing here.
func (ix *Index) rounded(c claim.Claim, q query) (Verdict, bool) {
	step, digits := claim.Rounding(c)
	if ablate.Off(ablate.Rounded) || digits < 2 || step <= 0 {
		return Verdict{}, false
	}
	if i := strings.Index(c.Sentence, c.Text); i >= 0 {
		// A bound ("under 12,000") is no rounding: ownBound reads it.
		own := c.Sentence[:i]
		if lowerBoundRE.MatchString(own) || upperBoundRE.MatchString(own) {
			return Verdict{}, false
		}
	}
	p := ix.plainFigure(c, q, func(s claim.Claim) bool {
		sstep, _ := claim.Rounding(s)
		return sstep > 0 && sstep < step && math.Abs(s.Num-c.Num) <= step/2
	})
	if p == nil {
		return Verdict{}, false
	}
	return Verdict{Status: Supported, Evidence: p}, true
}

// plainFigure returns the first passage about the same thing as c (as for
// a contradiction: candidates sharing enough of q) giving a number c
// conflicts with, not as a bound or an estimate, that holds accepts; nil
// when none does.
func (ix *Index) plainFigure(c claim.Claim, q query, holds func(s claim.Claim) bool) *Passage {
	need := contradictionOverlap(q)
	for _, cand := range ix.candidates(q) {
		if cand.score < need {
			break
		}
		p := cand.p
		for _, s := range p.Claims {
			if _, ok := conflicts(c, s); !ok || s.Start < 0 || s.Start > len(p.Text) {
				continue
			}
			before := p.Text[:s.Start]
			if lowerBoundRE.MatchString(before) || upperBoundRE.MatchString(before) || estimateRE.MatchString(before) {
				continue
			}
			if holds(s) {
				return p
			}
		}
	}
	return nil
}
