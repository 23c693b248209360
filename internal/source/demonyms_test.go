package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/source"
)

// TestDemonyms checks that a place in a name is stated by the adjective
// WordNet gives of it and back ("Cornish" by "Cornwall", "Florence" by
// "Florentine", "El Salvador" by "Salvadoran"), places the nationalities
// table does not hold, and that each changed counterpart (another place,
// another adjective) is still flagged. The sentences are written for this
// test.
func TestDemonyms(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "The last tin mine in Cornwall closed in 1998.\n" +
		"Florentine bankers lent the money to the pope.\n" +
		"Salvadoran farmers grew the coffee."})
	tests := []verdictCase{
		{"The last Cornish tin mine closed in 1998.", source.Supported},
		{"The last Welsh tin mine closed in 1998.", flagged},
		{"Bankers of Florence lent the money to the pope.", source.Supported},
		{"Bankers of Siena lent the money to the pope.", flagged},
		{"Farmers in El Salvador grew the coffee.", source.Supported},
		{"Farmers in El Dorado grew the coffee.", flagged},
	}
	checkVerdicts(t, ix, tests, longestName, nil)
}
