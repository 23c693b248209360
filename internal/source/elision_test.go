package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestElision checks that a name's word written after an elided particle
// ("Ivoire" of "Côte d'Ivoire", "Arc" of "Tolby d'Arc") is stated by a
// page writing the same words, which had left it unsupported (the page's
// "d'Ivoire" was one word, the claim's name word "Ivoire"), and that
// another word after the particle, or "Brien" by "O'Brien", stays flagged.
// The sentences are written for this test.
func TestElision(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "tolby.txt", Content: "Ona Vey moved to Côte d'Ivoire in 1999.\n" +
		"The Tolby d’Arc choir sang for Ada O'Brien."})
	tests := []struct {
		text, name string
		status     source.Status // or flagged
	}{
		{"Ona Vey moved to Côte d'Ivoire in 1999.", "Ivoire", source.Supported},
		{"Ona Vey moved to Cote d’Ivoire in 1999.", "Ivoire", source.Supported},
		{"The Tolby d'Arc choir sang in 1999.", "Arc", source.Supported},
		{"Ona Vey moved to Côte d'Azur in 1999.", "Azur", flagged},
		{"The choir sang for Ada Brien.", "Ada Brien", flagged},
	}
	for _, tt := range tests {
		cs := claim.Extract(tt.text, "").Claims
		if nameWritten(tt.name)(cs) == nil {
			t.Fatalf("%q: no name %q among %v", tt.text, tt.name, cs)
		}
		checkVerdicts(t, ix, []verdictCase{{tt.text, tt.status}}, nameWritten(tt.name), nil)
	}
}
