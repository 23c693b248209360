package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestRepeatedYear: a year alone that the sentence gives again in a
// fuller date the sources leave undecided is undecided; one given only
// alone, or again in a date the sources contradict, stays flagged. The
// sentences are written for this test.
func TestRepeatedYear(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "Tolby Fair: Thursday 18 October, Corlan Hall.\n" +
		"The Tolby Fair was first held in 1990."})
	tests := []verdictCase{
		{"It opened on 18 October 2018 as part of the 2018 Tolby Fair.", source.Undecided},
		{"It opened as part of the 2018 Tolby Fair.", flagged},
		{"It opened on 19 November 2018 as part of the 2018 Tolby Fair.", flagged},
	}
	checkVerdicts(t, ix, tests, bareYear, nil)
}

// bareYear picks a sentence's first year standing alone.
func bareYear(cs []claim.Claim) *claim.Claim {
	for i := range cs {
		if d, ok := claim.ParseDate(cs[i].Value); cs[i].Kind == claim.Date && ok && d.Year != 0 && d.Month == 0 && d.Period == 0 {
			return &cs[i]
		}
	}
	return nil
}
