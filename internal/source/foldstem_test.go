package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/source"
)

// TestFoldStem checks that a name written with accents and the same name
// without them state each other where the stemmer cuts the plain word's
// last letter ("Jose" is stemmed "jos", "José" kept whole), both ways
// round, and that another name with the same plain letters but one more
// or one less stays flagged. The sentences are written for this test.
func TestFoldStem(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "team.txt", Content: "Goalkeeper Maxime Lagace was sent down to the Tolby Wolves.\n" +
		"Renée Corla and José Vey sang with Beyonce in Marrow."})
	tests := []struct {
		text, name string
		status     source.Status // or flagged
	}{
		{"The Tolby Wolves sent down goalkeeper Maxime Lagacé.", "Maxime Lagacé", source.Supported},
		{"In Marrow, Jose Vey sang with Renee Corla.", "Jose Vey", source.Supported},
		{"In Marrow, Jose Vey sang with Renee Corla.", "Renee Corla", source.Supported},
		{"In Marrow, Renée Corla sang with Beyoncé.", "Beyoncé", source.Supported},
		// Other names, not other accents.
		{"The Tolby Wolves sent down goalkeeper Maxime Lagacó.", "Maxime Lagacó", flagged},
		{"In Marrow, Josef Vey sang with Renee Corla.", "Josef Vey", flagged},
		{"In Marrow, Renée Corla sang with Beyon.", "Beyon", flagged},
	}
	for _, tt := range tests {
		checkVerdicts(t, ix, []verdictCase{{tt.text, tt.status}}, nameWritten(tt.name), nil)
	}
}
