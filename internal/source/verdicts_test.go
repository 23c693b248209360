package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// flagged, as a case's want, is Contradicted or Unsupported.
const flagged source.Status = -1

// verdictCase is a sentence written for a test and the verdict its claim
// must get.
type verdictCase struct {
	text   string
	status source.Status // or flagged
}

// firstOf picks a sentence's first claim of kind.
func firstOf(kind claim.Kind) func([]claim.Claim) *claim.Claim {
	return func(cs []claim.Claim) *claim.Claim {
		for i := range cs {
			if cs[i].Kind == kind {
				return &cs[i]
			}
		}
		return nil
	}
}

// longestName picks the longest name of a sentence: the one about a
// thing, not its holder.
func longestName(cs []claim.Claim) *claim.Claim {
	var c *claim.Claim
	for i := range cs {
		if cs[i].Kind == claim.Name && (c == nil || len(cs[i].Text) > len(c.Text)) {
			c = &cs[i]
		}
	}
	return c
}

// checkVerdicts checks the claim pick chooses of each case's sentence
// against ix: a flagged case must be Contradicted or Unsupported, any
// other must have its status, and then wrong, when given, says what else
// is wrong with the verdict ("" for nothing).
func checkVerdicts(t *testing.T, ix *source.Index, tests []verdictCase, pick func([]claim.Claim) *claim.Claim, wrong func(verdictCase, source.Verdict) string) {
	t.Helper()
	for _, tt := range tests {
		c := pick(claim.Extract(tt.text, "").Claims)
		if c == nil {
			t.Errorf("%q: no claim of the kind tested", tt.text)
			continue
		}
		v := ix.Check(*c)
		switch {
		case tt.status == flagged:
			if v.Status != source.Contradicted && v.Status != source.Unsupported {
				t.Errorf("%q: %q is %s (%s), want it flagged", tt.text, c.Text, v.Status, v.Why)
			}
		case v.Status != tt.status:
			t.Errorf("%q: %q is %s (%s), want %s", tt.text, c.Text, v.Status, v.Why, tt.status)
		case wrong != nil:
			if msg := wrong(tt, v); msg != "" {
				t.Errorf("%q: %q: %s", tt.text, c.Text, msg)
			}
		}
	}
}
