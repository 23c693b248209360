package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestSpelling checks that a name written in British spelling is stated by
// a page writing it in American spelling and back ("Tolby Ministry of
// Defence", "Tolby Center"), which had left it unsupported, and that a
// name British spelling only looks like stays flagged ("Tolby Timbre" by
// "Tolby Timber", "Ona Grey" by "Ona Gray", "Fourth" by "Forth"). The
// sentences are written for this test.
func TestSpelling(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "tolby.txt", Content: "The Tolby Ministry of Defense released a video in 1999.\n" +
		"The Ona Vey Centre for Tolby Studies opened in 2001.\n" +
		"Ships moored in Tolby Harbor.\n" +
		"The Tolby Labor Organization met in Forth Tolby Hall.\n" +
		"The Tolby Timber Company was owned by Ona Gray."})
	tests := []struct {
		text, name string
		status     source.Status // or flagged
	}{
		{"In 1999 the Tolby Ministry of Defence released a video.", "Tolby Ministry of Defence", source.Supported},
		{"In 2001 the Ona Vey Center for Tolby Studies opened.", "Ona Vey Center", source.Supported},
		{"Ships moored in Tolby Harbour.", "Tolby Harbour", source.Supported},
		{"The Tolby Labour Organisation met.", "Tolby Labour Organisation", source.Supported},
		{"In 1999 the Tolby Ministry of Offence released a video.", "Tolby Ministry of Offence", flagged},
		{"The Tolby Timbre Company was owned by Ona Vey.", "Tolby Timbre Company", flagged},
		{"The Tolby Timber Company was owned by Ona Grey.", "Ona Grey", flagged},
		{"The Tolby Labor Organization met in Fourth Tolby Hall.", "Fourth Tolby Hall", flagged},
	}
	for _, tt := range tests {
		cs := claim.Extract(tt.text, "").Claims
		if nameWritten(tt.name)(cs) == nil {
			t.Fatalf("%q: no name %q among %v", tt.text, tt.name, cs)
		}
		checkVerdicts(t, ix, []verdictCase{{tt.text, tt.status}}, nameWritten(tt.name), nil)
	}
}
