package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/source"
)

// TestNameNumeral checks that a name's Roman numeral is a word of it: a
// page giving another numeral, or none, does not state the name ("World
// War I" against "World War II", "Elizabeth I" against "Elizabeth II",
// "Henry V" against "Henry VI", "World War II" against "WWI"), a page
// giving the same numeral does, also with a title before the name or a
// possessive after it, and a page giving another name of it (WordNet's
// "Great War") still does. A pronoun "I" after a name in the claim stays
// out of the name. The sentences are written for this test.
func TestNameNumeral(t *testing.T) {
	t.Parallel()
	other := mustIndex(t, source.Doc{ID: "page.txt", Content: "Ona Vey served as a nurse in World War II.\n" +
		"Elizabeth II opened the Tolby bridge.\n" +
		"Henry VI founded the Ely school."})
	checkVerdicts(t, other, []verdictCase{
		{"Ona Vey served as a nurse in World War I.", flagged},
		{"Ona Vey served as a nurse in World War II.", source.Supported},
		{"In 1958, Elizabeth I opened the Tolby bridge.", flagged},
		{"Henry V founded the Ely school.", flagged},
	}, longestName, nil)
	initials := mustIndex(t, source.Doc{ID: "page.txt", Content: "Ada Lenk wrote a history of WWI."})
	checkVerdicts(t, initials, []verdictCase{
		{"Ada Lenk wrote a history of World War II.", flagged},
		{"Ada Lenk wrote a history of World War I.", source.Supported},
	}, longestName, nil)
	same := mustIndex(t, source.Doc{ID: "page.txt", Content: "Ona Vey served as a nurse in World War I, then in Ely.\n" +
		"Queen Elizabeth I's barge was moored at Tolby.\n" +
		"Rook studied King Henry V at Ely."})
	checkVerdicts(t, same, []verdictCase{
		{"Ona Vey served as a nurse in World War I.", source.Supported},
		{"World War I took Ona Vey to Ely.", source.Supported},
		{"Ona Vey served as a nurse in World War II.", flagged},
		{"The barge of Elizabeth I was moored at Tolby.", source.Supported},
		{"Rook studied Henry V at Ely.", source.Supported},
		// The pronoun: the name is "Tolby", which the page gives.
		{"At Tolby I saw the barge.", source.Supported},
	}, longestName, nil)
	great := mustIndex(t, source.Doc{ID: "page.txt", Content: "Ona Vey served as a nurse in the Great War."})
	checkVerdicts(t, great, []verdictCase{
		{"Ona Vey served as a nurse in World War I.", source.Supported},
		{"World War I made Ona Vey a nurse.", source.Supported},
		{"Ona Vey served as a nurse in World War II.", flagged},
	}, longestName, nil)
}

// TestNameFinalLetter checks that a capital letter ending a name is a
// word of it, as a numeral is: a page giving another letter does not
// state the name ("Vitamin D" against "Vitamin C", "Plan B" against "Plan
// C", "Hepatitis B" against "Hepatitis A"), a page giving the same letter
// does, also with a possessive after it or the word before it in lower
// case. The sentences are written for this test.
func TestNameFinalLetter(t *testing.T) {
	t.Parallel()
	other := mustIndex(t, source.Doc{ID: "page.txt", Content: "Ona Vey sold Vitamin C at Tolby.\n" +
		"The Ely board backed Plan C in 1990.\n" +
		"Rook studied Hepatitis A at Ely."})
	checkVerdicts(t, other, []verdictCase{
		{"Ona Vey sold Vitamin D at Tolby.", flagged},
		{"Ona Vey sold Vitamin C at Tolby.", source.Supported},
		{"The Ely board backed Plan B in 1990.", flagged},
		{"The Ely board backed Plan C in 1990.", source.Supported},
		{"Rook studied Hepatitis B at Ely.", flagged},
		{"Rook studied Hepatitis A at Ely.", source.Supported}, // "A" is taken for the article, out of the name
	}, longestName, nil)
	same := mustIndex(t, source.Doc{ID: "page.txt", Content: "Ona Vey sold vitamin D at Tolby.\n" +
		"Rook studied Hepatitis B's spread at Ely."})
	checkVerdicts(t, same, []verdictCase{
		{"Ona Vey sold Vitamin D at Tolby.", source.Supported},
		{"Ona Vey sold Vitamin C at Tolby.", flagged},
		{"Rook studied Hepatitis B at Ely.", source.Supported},
		{"Rook studied Hepatitis C at Ely.", flagged},
	}, longestName, nil)
}
