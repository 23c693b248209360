package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestRelativeMonth: a month without a year whose best-matching passage
// dates the event relative to the page ("this week") is undecided; one
// whose passage gives no relative date stays flagged. The sentences are
// written for this test.
func TestRelativeMonth(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "Posted: Nov 14, 2018\n" +
		"The Tolby Arts Board said this week that the flag search was not open enough.\n" +
		"The Corlan choir sang at the town hall of Vey."})
	tests := []verdictCase{
		{"In November of that year the Tolby Arts Board said the flag search was not open enough.", source.Undecided},
		{"In March of that year the Corlan choir sang at the town hall of Vey.", flagged},
	}
	checkVerdicts(t, ix, tests, firstOf(claim.Date), nil)
}
