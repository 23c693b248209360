package source_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/source"
)

// TestBareHead checks that a name of three words or more whose last words
// a page names bare ("on Harvest Day") is undecided, with Why naming
// them, and that each changed counterpart is still flagged: a head the
// page gives after other capitalized words (another thing of that kind),
// a head the page never gives, and a name of two words. The sentences are
// written for this test.
func TestBareHead(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "The record reached shops on Harvest Day, October 3.\n" +
		"Ona Vey won the Northern Grand Prix in 2001.\n" +
		"They sailed on the Night Ferry to Lund.\n" +
		"Ida Roe won the “Western Rowing Trophy” in 1999 and the «Eastern Relay Race» in 2003."})
	tests := []verdictCase{
		{"The record came out on the Tolby County Harvest Day.", source.Undecided},
		{"The record came out on the Tolby County Planting Day.", flagged},
		{"Ona Vey won the Southern Grand Prix in 2001.", flagged},
		{"They sailed on the Baltic Night Ferry to Lund.", source.Undecided},
		{"They sailed on the Baltic Day Ferry to Lund.", flagged},
		{"They sailed on the Baltic Ferry to Lund.", flagged},
		// The qualifier after an opening quote that is not ASCII is
		// still a capitalized word before the head.
		{"Ida Roe won the Southern Rowing Trophy in 1999.", flagged},
		{"Ida Roe won the Coastal Relay Race in 2003.", flagged},
	}
	checkVerdicts(t, ix, tests, longestName, func(_ verdictCase, v source.Verdict) string {
		if v.Evidence == nil || !strings.Contains(v.Why, "without") {
			return "undecided without the head named: Why " + v.Why
		}
		return ""
	})
}
