package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestWordForms checks that a name is stated by a page writing one of its
// words abbreviated or in full, or the name without its legal form (claim.WordForms),
// or hyphenated where the name is spaced, and that each changed counterpart (another
// name with the same kind of word) is still flagged. The sentences are
// written for this test.
func TestWordForms(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "The choir of St. Brenna's Church sang.\n" +
		"They climbed Mt. Tarrow in May.\n" +
		"He played for Corlan United for six years.\n" +
		"She edits Marie-Luce Weekly in Lyon."})
	tests := []verdictCase{
		{"The choir of Saint Brenna's Church sang.", source.Supported},
		{"The choir of Saint Aldo's Church sang.", flagged},
		{"They climbed Mount Tarrow in May.", source.Supported},
		{"They climbed Mount Kessel in May.", flagged},
		{"He played for Corlan United F.C. for six years.", source.Supported},
		{"He played for Corlan City F.C. for six years.", flagged},
		// A name spaced where the page hyphenates it.
		{"She edits Marie Luce Weekly in Lyon.", source.Supported},
		{"She edits Marie Lise Weekly in Lyon.", flagged},
	}
	checkVerdicts(t, ix, tests, firstOf(claim.Name), func(_ verdictCase, v source.Verdict) string {
		if v.Evidence == nil {
			return "no evidence"
		}
		return ""
	})
}
