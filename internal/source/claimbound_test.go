package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestClaimBound checks that a number the claim gives as a bound or an
// estimate is stated by an exact number of a passage about the same thing
// that the bound holds of, and stays flagged where it does not hold, is
// too far from it, or where the source's number is a bound itself. The
// sentences are written for this test.
func TestClaimBound(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "tolby.txt", Content: "The Tolby film grossed $45.3 million worldwide.\n" +
		"The Marrow museum has had visitors from 112 countries.\n" +
		"Tolby has a population of 12,345 residents.\n" +
		"The Corla firm employs over 5,000 people."})
	tests := []struct {
		text   string
		status source.Status // or flagged
	}{
		{"The Tolby film grossed over $45 million worldwide.", source.Supported},
		{"The Tolby film grossed at least $40 million worldwide.", source.Supported},
		{"The Tolby film grossed nearly $46 million worldwide.", source.Supported},
		{"The Marrow museum has had visitors from more than 100 countries.", source.Supported},
		{"Tolby has a population of about 12,000 residents.", source.Supported},
		{"Tolby has a population of fewer than 13,000 residents.", source.Supported},
		// The bound does not hold, is too loose, or the source's number
		// is itself a bound.
		{"The Tolby film grossed over $50 million worldwide.", flagged},
		{"The Tolby film grossed over $20 million worldwide.", flagged},
		{"Tolby has a population of under 12,000 residents.", flagged},
		{"Tolby has a population of about 10,000 residents.", flagged},
		{"The Corla firm employs more than 4,000 people.", flagged},
	}
	checkVerdicts(t, ix, func() []verdictCase {
		var out []verdictCase
		for _, tt := range tests {
			out = append(out, verdictCase{tt.text, tt.status})
		}
		return out
	}(), firstOf(claim.Number), nil)
}
