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
	const flagged = -1
	tests := []struct {
		text   string
		status source.Status // or flagged: Contradicted or Unsupported
	}{
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
	for _, tt := range tests {
		var c *claim.Claim
		for _, x := range claim.Extract(tt.text, "").Claims {
			if x.Kind == claim.Number {
				c = &x
				break
			}
		}
		if c == nil {
			t.Errorf("%q: no number claim", tt.text)
			continue
		}
		v := ix.Check(*c)
		switch {
		case tt.status == flagged:
			if v.Status != source.Contradicted && v.Status != source.Unsupported {
				t.Errorf("%q: %q is %s (%s), want it flagged", tt.text, c.Text, v.Status, v.Why)
			}
		case v.Status != tt.status:
			t.Errorf("%q: %q is %s, want %s", tt.text, c.Text, v.Status, tt.status)
		case v.Evidence == nil || !strings.Contains(v.Why, "bound or an estimate"):
			t.Errorf("%q: undecided without the bound quoted: Why %q", tt.text, v.Why)
		}
	}
}
