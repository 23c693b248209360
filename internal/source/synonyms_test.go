package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/source"
)

// TestSynonymName checks that a name is stated by a passage giving, alone,
// another name WordNet gives the same one thing ("the Great War" for
// "World War I", "Ph.D." for "PhD"), and that each changed counterpart is
// still flagged: another thing's name ("World War II", "MBA"), the
// synonym inside a longer name ("the Great War Memorial"), and the name
// given bare ("MacArthur" for "Douglas MacArthur"), which may name
// another thing of that name. The sentences are written for this test.
func TestSynonymName(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "Ona Vey served as a nurse in the Great War.\n" +
		"Rook earned a Ph.D. in botany at Ely.\n" +
		"MacArthur landed at Inchon with the marines."})
	tests := []verdictCase{
		{"Ona Vey served as a nurse in World War I.", source.Supported},
		{"Ona Vey served as a nurse in the First World War.", source.Supported},
		{"Ona Vey served as a nurse in World War II.", flagged},
		{"Ona Vey served as a nurse in the Second World War.", flagged},
		{"Rook earned a PhD in botany at Ely.", source.Supported},
		{"Rook earned an MBA in botany at Ely.", flagged},
		{"Douglas MacArthur landed at Inchon with the marines.", flagged},
	}
	checkVerdicts(t, ix, tests, longestName, nil)
	memorial := mustIndex(t, source.Doc{ID: "page.txt", Content: "Ida Roe restored the Great War Memorial in Derby."})
	checkVerdicts(t, memorial, []verdictCase{{"Ida Roe restored a World War I tank in Derby.", flagged}}, longestName, nil)
}
