package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestRounded checks that a number written rounded, with two significant
// digits or more, is stated by a more precise number of a passage about
// the same thing that rounds to it, and stays flagged where it does not
// round to it, where the claim keeps one significant digit, or where the
// claim is the more precise. The sentences are written for this test.
func TestRounded(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "tolby.txt", Content: "The Tolby film grossed $45.3 million worldwide.\n" +
		"Tolby has a population of 12,345 residents.\n" +
		"The Marrow club has 1,400 members.\n" +
		"The Corla dam is 96 metres high."})
	tests := []struct {
		text   string
		status source.Status // or flagged
	}{
		{"The Tolby film grossed $45 million worldwide.", source.Supported},
		{"Tolby has a population of 12,000 residents.", source.Supported},
		{"Tolby has a population of 12,300 residents.", source.Supported},
		// Not its rounding, too loose a rounding, the claim more precise.
		{"The Tolby film grossed $46 million worldwide.", flagged},
		{"Tolby has a population of 13,000 residents.", flagged},
		{"The Marrow club has 1,000 members.", flagged},
		{"The Corla dam is 96.4 metres high.", flagged},
		{"Tolby has a population of under 12,000 residents.", flagged},
		{"Tolby has a population of over 12,400 residents.", flagged},
	}
	var cases []verdictCase
	for _, tt := range tests {
		cases = append(cases, verdictCase{tt.text, tt.status})
	}
	checkVerdicts(t, ix, cases, firstOf(claim.Number), nil)
}
