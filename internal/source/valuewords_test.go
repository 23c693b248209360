package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestOrdinalNameVerdicts: an ordinal in digits is stated by a passage
// giving it as one word about the same thing, and not by another ordinal,
// or by the word in a passage about something else. The
// sentences are written for this test.
func TestOrdinalNameVerdicts(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "fair.txt", Content: "The Tolby fair held its sixth edition in June.\n" +
		"Ada Lenk won the Marlow sculling race for the third time.\n" +
		"The seventh bus leaves at noon.\n" +
		"Ona Vey finished the Harwick track in the rain."})
	tests := []verdictCase{
		{"The Tolby fair held its 6th edition in June.", source.Supported},
		{"Ada Lenk won the Marlow sculling race for the 3rd time.", source.Supported},
		{"The Tolby fair held its 5th edition in June.", flagged},
		{"Ada Lenk won the Marlow sculling race for the 4th time.", flagged},
		{"Ona Vey finished 7th at the Harwick track.", flagged},
	}
	checkVerdicts(t, ix, tests, firstOf(claim.Number), nil)
}

// TestColorWordVerdicts: a colour is stated by a passage giving its word
// capitalized, which the reader takes for a name, about the same thing;
// not by another colour, nor by the word in a passage about something
// else. The sentences are written for this test.
func TestColorWordVerdicts(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "awards.txt", Content: "The Tolby bakery received the top Gold rating from the guild.\n" +
		"Ona Vey drives a car with Blue Marlow plates."})
	tests := []verdictCase{
		{"The Tolby bakery was placed in the gold category by the guild.", source.Supported},
		{"The Tolby bakery was placed in the silver category by the guild.", flagged},
		{"The Harwick mill painted its doors blue.", flagged},
	}
	checkVerdicts(t, ix, tests, firstOf(claim.Color), nil)
}
