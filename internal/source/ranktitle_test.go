package source_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/source"
)

// TestRankTitle checks that a title of rank the sentence gives a person
// the page names ("Prince Harry, Duke of Sussex"; "Tom Kell was
// appointed Knight Commander of …" where the page says he was knighted)
// is undecided with Why saying so, and that each changed counterpart
// stays flagged: a person the page does not name ("Prince Edwin"), a
// title given to nobody in the sentence ("visited the Duke of Sussex"),
// a name that is no title of rank ("the Order of Lutes"), and a title
// the page gives the same person another of ("Prince Harry, Duke of
// Sussex" on the page for "Duke of Cornwall" in the claim). The
// sentences are written for this test.
func TestRankTitle(t *testing.T) {
	t.Parallel()
	page := source.Doc{ID: "page.txt", Content: "Prince Harry visited Leeds in 2019 with his cousin.\n" +
		"Tom Kell, C.B.E., was knighted in 2001 for services to music.\n" +
		"The Duke of Kent opened the hall in 1990."}
	titled := source.Doc{ID: "titled.txt", Content: "Prince Harry, Duke of Sussex, visited Leeds in 2019 with his cousin."}
	why := func(_ verdictCase, v source.Verdict) string {
		if !strings.Contains(v.Why, "but not the title") {
			return "undecided without saying why: Why " + v.Why
		}
		return ""
	}
	checkVerdicts(t, mustIndex(t, page), []verdictCase{
		{"Prince Harry, Duke of Sussex, visited Leeds in 2019.", source.Undecided},
		{"Prince Harry, the Duke of Sussex, visited Leeds in 2019.", source.Undecided},
		{"In 2001 Tom Kell was appointed Knight Commander of the Order of Lutes.", source.Undecided},
		{"Prince Edwin, Duke of Sussex, visited Leeds in 2019.", flagged},
		{"Prince Harry visited the Duke of Sussex in Leeds in 2019.", flagged},
		{"In 2001 Tom Kell was appointed to the Order of Lutes.", flagged},
	}, nameWith(" of "), why)
	checkVerdicts(t, mustIndex(t, titled), []verdictCase{
		{"Prince Harry, Duke of Cornwall, visited Leeds in 2019.", flagged},
	}, nameWith(" of "), why)
}
