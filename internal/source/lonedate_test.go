package source_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestLoneDate checks that a date no passage states or contradicts is
// undecided where every other specific of its sentence is stated (one at
// least), no passage about the same thing gives another date, and the
// sources give a year somewhere; and that each counterpart stays flagged:
// a date beside an unsupported name, a date a passage contradicts, a
// date that is its sentence's only specific, a date against sources that
// give no year, and a weekday the
// sentence itself gives the passage's other weekday for ("on Sunday
// rather than Saturday"). The sentences are
// written for this test.
func TestLoneDate(t *testing.T) {
	t.Parallel()
	page := "Ada Lenk founded the Harrow Quilt Guild in Tolby.\n" +
		"The Kelt bridge opened to traffic in 1990.\n" +
		"Ona Vey holds the Orsa reed workshop on Saturday."
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: page})
	tests := []verdictCase{
		{"Ada Lenk founded the Harrow Quilt Guild in Tolby in 1987.", source.Undecided},
		{"Ada Lenk founded the Harrow Quilt Guild in Tolby on May 3.", source.Undecided},
		{"Ada Lenk founded the Harrow Quilt Guild in Kelby in 1987.", flagged},
		{"The Kelt bridge opened to traffic in 1992.", source.Contradicted},
		{"In 1987 the guild was founded.", flagged},
		{"Ona Vey holds the Orsa reed workshop on Sunday rather than Saturday.", flagged},
	}
	checkVerdicts(t, ix, tests, firstOf(claim.Date), func(tt verdictCase, v source.Verdict) string {
		if tt.status == source.Undecided && !strings.Contains(v.Why, "only specific of its sentence") {
			return "undecided without saying why: " + v.Why
		}
		return ""
	})
	// Sources that give no year. (A page that gives its own date is not a
	// counterpart here: this form of the rule leaves the date undecided
	// there too, which TestPageDated and TestFalseFlagClasses reject.)
	for _, other := range []string{
		"Ada Lenk founded the Harrow Quilt Guild in Tolby.\nThe guild meets on Mondays.",
	} {
		checkVerdicts(t, mustIndex(t, source.Doc{ID: "other.txt", Content: other}), []verdictCase{
			{"Ada Lenk founded the Harrow Quilt Guild in Tolby in 1987.", flagged},
		}, firstOf(claim.Date), nil)
	}
}
