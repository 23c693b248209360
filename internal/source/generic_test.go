package source_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/source"
)

// TestGenericName checks that a name that is a term of English made only
// of common words ("Bachelor of Arts", "Grand Jury") is undecided with Why
// saying so, and that each changed counterpart is still flagged: a word
// that is a proper noun ("Kessler", "Paris", "American") or a common word
// WordNet also capitalizes ("Smith"), a name that is no term ("Grand
// Street"), and a term the sources name a sibling of ("Prime Minister"
// for "Foreign Minister"). The sentences are written for this test.
func TestGenericName(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "Ona Vey studied literature in Leeds and graduated in 1998.\n" +
		"The case was heard in Leeds in 2003.\n" +
		"The Prime Minister visited Leeds in 2010."})
	tests := []verdictCase{
		{"Ona Vey graduated in Leeds as a Bachelor of Arts.", source.Undecided},
		{"Ona Vey graduated in Leeds as a Kessler Fellow.", flagged},
		{"Ona Vey graduated in Leeds as a Bachelor of Paris.", flagged},
		{"The Grand Jury heard the case in Leeds in 2003.", source.Undecided},
		{"The American Jury heard the case in Leeds in 2003.", flagged},
		{"The Smith Jury heard the case in Leeds in 2003.", flagged},
		{"The case was heard on Grand Street in Leeds in 2003.", flagged},
		{"The Foreign Minister visited Leeds in 2010.", flagged},
	}
	checkVerdicts(t, ix, tests, longestName, func(_ verdictCase, v source.Verdict) string {
		if !strings.Contains(v.Why, "term of English") {
			return "undecided without saying why: Why " + v.Why
		}
		return ""
	})
}
