package source_test

import (
	"github.com/agentjudge/judge/internal/claim"
	"testing"

	"github.com/agentjudge/judge/internal/source"
)

// TestNameDotVerdicts: a name with a middle initial is stated by a
// passage naming the person with or without the initial, and one with an
// abbreviated title by a passage naming the person with the title written
// out or without it; another person stays flagged. The sentences are
// written for this test.
func TestNameDotVerdicts(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "The prize went to Ada Lenk of Tolby in 2011.\n" +
		"General Ona Vey landed at Corlan in 1944.\n" +
		"Senator Ira Dosk voted against the bill.\n" +
		"The gallery is named for Orin Pell."})
	tests := []verdictCase{
		{"The prize went to Ada F. Lenk in 2011.", source.Supported},
		{"Gen. Ona Vey landed at Corlan in 1944.", source.Supported},
		{"The bill was opposed by Sen. Ira Dosk.", source.Supported},
		{"The gallery is named for Orin T. Pell.", source.Supported},
		{"The prize went to Ada F. Morrow in 2011.", flagged},
		{"Gen. Ona Bright landed at Corlan in 1944.", flagged},
		{"The bill was opposed by Sen. Ira Vell.", flagged},
	}
	checkVerdicts(t, ix, tests, longestName, nil)
}

// TestTitleDotNoStrayName: an abbreviated title before a name leaves no
// name of its own to be flagged ("Gen" not found in sources) where the
// sources write the title out; the sentences are written for this test.
func TestTitleDotNoStrayName(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "General Ona Vey landed at Corlan in 1944.\n" +
		"Senator Ira Dosk voted against the bill.\nThe choir sang at Saint Tolby Church."})
	for _, text := range []string{
		"Gen. Ona Vey landed at Corlan in 1944.",
		"The bill was opposed by Sen. Ira Dosk.",
		"The choir sang at St. Tolby Church.",
	} {
		for _, c := range claim.Extract(text, "").Claims {
			if v := ix.Check(c); c.Kind == claim.Name && v.Status != source.Supported {
				t.Errorf("%q: %q is %s", text, c.Text, v.Status)
			}
		}
	}
}
