package source_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestBounded checks that a number a passage about the same thing gives
// only as a bound or an estimate the claimed number keeps to is
// undecided, not contradicted, and that each changed counterpart (beyond
// the bound, far from it, far from the estimate, a claim that is itself a
// bound) is still flagged. The sentences are written for this test.
func TestBounded(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "The film Grey Harbour grossed over $100 million worldwide.\n" +
		"The Lisk ferry carries fewer than 300 passengers a day.\n" +
		"The town of Avra had about 12,000 residents in 2010.\n" +
		"The Dorne fund moved nearly $1.8 billion to traders."})
	tests := []verdictCase{
		{"The film Grey Harbour grossed $105 million worldwide.", source.Undecided},
		{"The film Grey Harbour grossed $95 million worldwide.", flagged},
		{"The film Grey Harbour grossed $900 million worldwide.", flagged},
		{"The film Grey Harbour grossed over $150 million worldwide.", flagged},
		{"The Lisk ferry carries 250 passengers a day.", source.Undecided},
		{"The Lisk ferry carries 350 passengers a day.", flagged},
		{"The town of Avra had 12,345 residents in 2010.", source.Undecided},
		{"The town of Avra had 15,000 residents in 2010.", flagged},
		{"The Dorne fund moved $1.75 billion to traders.", source.Undecided},
		{"The Dorne fund moved $1.5 billion to traders.", flagged},
		{"The Dorne fund moved $1.8 million to traders.", flagged},
	}
	checkVerdicts(t, ix, tests, firstOf(claim.Number), func(_ verdictCase, v source.Verdict) string {
		if v.Evidence == nil || !strings.Contains(v.Why, "bound or an estimate") {
			return "undecided without the bound quoted: Why " + v.Why
		}
		return ""
	})
}
