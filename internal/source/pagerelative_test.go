package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestPageRelative checks that a month, or a day, the passage best
// matching the claim's sentence dates by days relative to its page's date
// is read on that date: stated when the days fall in the claim's month
// (and year) or are its day, undecided for a day among several, and
// flagged when they fall elsewhere or the page gives no date. The
// sentences are written for this test.
func TestPageRelative(t *testing.T) {
	t.Parallel()
	page := "Posted: Nov 14, 2018\n" +
		"The Tolby Arts Board said this week that the flag search was not open enough.\n" +
		"The Corlan choir sang yesterday at the town hall of Vey.\n" +
		"The Marrow council voted last month to close the public pool."
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: page})
	undated := mustIndex(t, source.Doc{ID: "undated.txt", Content: "The Tolby Arts Board said this week that the flag search was not open enough."})
	capitals := mustIndex(t, source.Doc{ID: "caps.txt", Content: "Posted: Nov 14, 2018\nWatch the Tolby Arts Board flag search on TODAY with Ona Vey."})
	tests := []struct {
		ix   *source.Index
		text string
		want source.Status // or flagged
	}{
		{ix, "In November of that year the Tolby Arts Board said the flag search was not open enough.", source.Supported},
		{ix, "In November 2018 the Tolby Arts Board said the flag search was not open enough.", source.Supported},
		{ix, "On November 13 the Corlan choir sang at the town hall of Vey.", source.Supported},
		{ix, "In October of that year the Marrow council voted to close the public pool.", source.Supported},
		{ix, "On November 13 the Tolby Arts Board said the flag search was not open enough.", source.Undecided},
		// Another month, another day, no page date, capitals.
		{ix, "In March of that year the Tolby Arts Board said the flag search was not open enough.", flagged},
		{ix, "On November 12 the Corlan choir sang at the town hall of Vey.", flagged},
		{ix, "In September of that year the Marrow council voted to close the public pool.", flagged},
		// A year the relative words do not resolve to is left as
		// relative-date leaves it.
		{ix, "In October 2017 the Marrow council voted to close the public pool.", source.Undecided},
		{undated, "In November of that year the Tolby Arts Board said the flag search was not open enough.", flagged},
		{capitals, "In November the Tolby Arts Board flag search was shown with Ona Vey.", flagged},
	}
	for _, tt := range tests {
		checkVerdicts(t, tt.ix, []verdictCase{{tt.text, tt.want}}, firstOf(claim.Date), nil)
	}
}
