package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestDateWeekday checks that a weekday written before a full date is
// stated by a passage stating that date when the calendar puts the date on
// that weekday (October 6, 1995 was a Friday), and that each changed
// counterpart (another weekday, a date the sources do not state, a
// weekday alone) is still flagged. The sentences are written for this
// test.
func TestDateWeekday(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "The Tolby fair opened on October 6, 1995 on the green.\n" +
		"The Harrow mill burned in 1990."})
	tests := []verdictCase{
		{"The Tolby fair opened on Friday, October 6, 1995.", source.Supported},
		{"The Tolby fair opened on Friday 6 October 1995.", source.Supported},
		{"The Tolby fair opened on Monday, October 6, 1995.", flagged},
		{"The Tolby fair opened on Friday, October 13, 1995.", flagged},
		{"The Tolby fair opened on Friday.", flagged},
		{"The Harrow mill burned on Friday, October 6, 1990.", flagged},
	}
	checkVerdicts(t, ix, tests, firstOf(claim.Date), func(verdictCase, source.Verdict) string { return "" })
}
