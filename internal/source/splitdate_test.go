package source_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestSplitDate checks that a full date a page writes in two parts (its
// day and month without a year in one line, its year bare in the passage
// about the event) is undecided, and that each changed counterpart (an
// invented day, another month, another year, the day and month in another
// document, a passage that dates the event in another month) is still
// flagged. The sentences are written for this test.
func TestSplitDate(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t,
		source.Doc{ID: "day.txt", Content: "# Why March 14th Matters in Folk History\n" +
			"It's Mar. 14 and here are the reasons this day matters.\n" +
			"In 1987, the Tolby Weavers released their first single to college radio stations across the north.\n" +
			"In May 1987, the Kelt trio released its first single to college radio stations in the west."},
		source.Doc{ID: "band.txt", Content: "In 1987, the Orsa band released its first single to college radio stations in the south."})
	tests := []verdictCase{
		{"On March 14, 1987, the Tolby Weavers released their first single to college radio.", source.Undecided},
		{"On 14 March 1987, the Tolby Weavers released their first single to college radio.", source.Undecided},
		{"On March 15, 1987, the Tolby Weavers released their first single to college radio.", flagged},
		{"On April 14, 1987, the Tolby Weavers released their first single to college radio.", flagged},
		{"On March 14, 1988, the Tolby Weavers released their first single to college radio.", flagged},
		{"On March 14, 1987, the Orsa band released its first single to college radio.", flagged},
		{"On March 14, 1987, the Kelt trio released its first single to college radio.", flagged},
	}
	checkVerdicts(t, ix, tests, firstOf(claim.Date), func(tt verdictCase, v source.Verdict) string {
		if tt.status == source.Undecided && (v.Evidence == nil || !strings.Contains(v.Why, "without a year, and 1987 apart")) {
			return "undecided without the two parts named: Why " + v.Why
		}
		return ""
	})
}
