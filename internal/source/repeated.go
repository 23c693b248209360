package source

import (
	"fmt"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
)

// repeatedYear decides a year standing alone that the claim's own
// sentence also gives in a fuller date ("the 2018 festival" beside "on
// 18 October 2018"): one specific written twice, weighed once. The year
// takes the fuller date's verdict where that is supported, and is
// undecided where it is undecided, with the date's evidence: had the sources contradicted the year, the
// date holding it would have been flagged too. A year no other date of
// the sentence holds, or one whose fuller date is flagged, is left to the
// other rules.
func (ix *Index) repeatedYear(c claim.Claim) (Verdict, bool) {
	if c.Kind != claim.Date || c.Sentence == "" || ablate.Off(ablate.RepeatedYear) {
		return Verdict{}, false
	}
	cd, ok := claim.ParseDate(c.Value)
	if !ok || cd.Year == 0 || cd.Month != 0 || cd.Period != 0 || cd.Weekday != "" {
		return Verdict{}, false
	}
	for _, o := range claim.Extract(c.Sentence, "").Claims {
		od, ok := claim.ParseDate(o.Value)
		if o.Kind != claim.Date || !ok || od.Year != cd.Year || od.Month == 0 || od.Period != 0 {
			continue
		}
		v := ix.check(o)
		if v.Status != Supported && v.Status != Undecided {
			continue
		}
		if v.Status == Supported {
			return Verdict{Status: Supported, Evidence: v.Evidence}, true
		}
		why := fmt.Sprintf("the sentence gives %d again in %s, which could not be checked", cd.Year, o.Quoted())
		if v.Why != "" {
			why += ": " + v.Why
		}
		return Verdict{Status: Undecided, Evidence: v.Evidence, Why: why}, true
	}
	return Verdict{}, false
}
