package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestNumericDateVerdicts: a date a source writes in digits states the
// same date written in words, and contradicts another day of it; the
// sentences are written for this test.
func TestNumericDateVerdicts(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "minutes.txt", Content: "Minutes of the board.\n" +
		"The Harwick lease was signed on 31.12.2009 by both parties.\n" +
		"The Orley lease was renewed on 11/23/2014 at the same rent."})
	tests := []verdictCase{
		{"The Harwick lease was signed on December 31, 2009.", source.Supported},
		{"The Orley lease was renewed on 23 November 2014.", source.Supported},
		{"The Harwick lease was signed on December 30, 2009.", flagged},
		{"The Orley lease was renewed on 23 October 2014.", flagged},
	}
	checkVerdicts(t, ix, tests, firstOf(claim.Date), nil)
}

// TestOrdinalWordVerdicts: an ordinal in words is stated by the same
// ordinal in digits and back, and contradicted by another; the sentences
// are written for this test.
func TestOrdinalWordVerdicts(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "club.txt", Content: "Ada Lenk became the club's 44th president in 2001.\n" +
		"The Tolby fair held its twenty-first edition in June."})
	tests := []verdictCase{
		{"Ada Lenk became the club's forty-fourth president.", source.Supported},
		{"The Tolby fair held its 21st edition in June.", source.Supported},
		{"Ada Lenk became the club's forty-third president.", flagged},
		{"The Tolby fair held its twenty-second edition in June.", flagged},
	}
	checkVerdicts(t, ix, tests, firstOf(claim.Number), nil)
}
