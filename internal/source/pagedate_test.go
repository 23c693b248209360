package source_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestPageDated checks that a month or day a page gives without a year
// takes the year nearest the page's own date (its dateline), and that a
// weekday near that date leaves a day falling on it undecided; each
// changed counterpart (another year, another month, a day that is not
// that weekday, a day more than a week from the page's date, a page
// without a dateline) is still flagged. The sentences are written for
// this test.
func TestPageDated(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "Posted July 19, 2019\n" +
		"# Lineup of the Orla Critics' Week\n" +
		"The fest runs from Aug. 28 to Sept. 7.\n" +
		"The Tamsin Rowing Conference of marine biologists will start Sunday in Perth."})
	tests := []verdictCase{
		{"The film premieres at the Orla festival in August 2019.", source.Supported},
		{"The film premieres at the Orla festival in August 2018.", flagged},
		{"The film premieres at the Orla festival in October 2019.", flagged},
		// July 21, 2019 was a Sunday, two days after the page's date.
		{"They flew to Perth for the Tamsin Rowing Conference of marine biologists, starting on 21 July.", source.Undecided},
		{"They flew to Perth for the Tamsin Rowing Conference of marine biologists, starting on 22 July.", flagged},
		{"They flew to Perth for the Tamsin Rowing Conference of marine biologists, starting on 11 August.", flagged},
	}
	checkVerdicts(t, ix, tests, firstOf(claim.Date), func(tt verdictCase, v source.Verdict) string {
		if tt.status == source.Undecided && (v.Evidence == nil || !strings.Contains(v.Why, "in a page dated July 19, 2019")) {
			return "undecided without the weekday and the page's date: Why " + v.Why
		}
		return ""
	})
	// A page dated January names a December 30 of the year before.
	jan := mustIndex(t, source.Doc{ID: "jan.txt", Content: "January 4, 2019\nThe harbour board said the ferry strike began on Dec. 30."})
	checkVerdicts(t, jan, []verdictCase{
		{"Workers walked out in December 2018.", source.Supported},
		{"Workers walked out in December 2019.", flagged},
	}, firstOf(claim.Date), nil)
	// A full date in a sentence near the top dates what the sentence
	// tells, not the page.
	told := mustIndex(t, source.Doc{ID: "told.txt", Content: "The harbour council met on 26 November 2015 to agree the plan for the ferries and the quay.\n" +
		"The fest runs from Aug. 28 to Sept. 7."})
	checkVerdicts(t, told, []verdictCase{
		{"The film premieres at the Orla festival in August 2015.", flagged},
	}, firstOf(claim.Date), nil)
	// Without a dateline the same passages decide nothing.
	bare := mustIndex(t, source.Doc{ID: "page.txt", Content: "# Lineup of the Orla Critics' Week\n" +
		"The fest runs from Aug. 28 to Sept. 7.\n" +
		"The Tamsin Rowing Conference of marine biologists will start Sunday in Perth."})
	checkVerdicts(t, bare, []verdictCase{
		{"The film premieres at the Orla festival in August 2019.", flagged},
		{"They flew to Perth for the Tamsin Rowing Conference of marine biologists, starting on 21 July.", flagged},
	}, firstOf(claim.Date), nil)
}
