package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestOwnValue checks that a passage's value that the claim's own sentence
// gives to another of its parts does not contradict the claim (it is
// unsupported where no passage states it), and that each counterpart
// without that other part, where the passage's value is the only one of
// its kind, is still contradicted. The sentences are written for this
// test.
func TestOwnValue(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "Ada Lenk led the Tolby choir from 1997 to 2003.\n" +
		"Pell Rook was cited for his actions on 26 December 1944 near Tolby.\n" +
		"The Orsa fleet lost five ships in the storm.\n" +
		"The Harrow fair moved to Kelt in May."})
	tests := []struct {
		verdictCase
		pick func([]claim.Claim) *claim.Claim
	}{
		{verdictCase{"After Ona Vey retired in 1996, Ada Lenk led the Tolby choir from 1997 to 2003.", source.Unsupported}, firstOf(claim.Date)},
		{verdictCase{"Ada Lenk took over the Tolby choir in 1996.", source.Contradicted}, firstOf(claim.Date)},
		{verdictCase{"In 1999, Pell Rook was awarded the medal for his actions on December 26, 1944, near Tolby.", source.Unsupported}, firstOf(claim.Date)},
		{verdictCase{"In 1999, Pell Rook was awarded the medal for his actions near Tolby.", source.Contradicted}, firstOf(claim.Date)},
		{verdictCase{"The Orsa fleet lost three ships in the storm rather than five.", source.Unsupported}, firstOf(claim.Number)},
		{verdictCase{"The Orsa fleet lost three ships in the storm.", source.Contradicted}, firstOf(claim.Number)},
		// The sentence's other value agrees with the passage's in part
		// ("May 2018" and "May"): it is still the sentence's own.
		{verdictCase{"The Harrow fair moved to Kelt in May 2018 and back to Tolby in November.", source.Unsupported}, lastOf(claim.Date)},
		{verdictCase{"The Harrow fair moved back to Kelt in November.", source.Contradicted}, firstOf(claim.Date)},
	}
	for _, tt := range tests {
		checkVerdicts(t, ix, []verdictCase{tt.verdictCase}, tt.pick, nil)
	}
}

// lastOf picks a sentence's last claim of kind.
func lastOf(kind claim.Kind) func([]claim.Claim) *claim.Claim {
	return func(cs []claim.Claim) *claim.Claim {
		for i := len(cs) - 1; i >= 0; i-- {
			if cs[i].Kind == kind {
				return &cs[i]
			}
		}
		return nil
	}
}
