package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestUndotted checks that a name of initials written with dots ("U.S.",
// "U.K.", "D.C.") is stated by a passage writing the same capitals
// without them, which had left it unsupported, and that the capitals in
// lower case ("us"), inside a longer word ("UKIP") or among words in
// capitals (a heading, "TELL US MORE") state nothing. The sentences are
// written for this test.
func TestUndotted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		source, text, name string
		status             source.Status // or flagged
	}{
		{"Ona Vey moved to the US in 1999.", "Ona Vey moved to the U.S. in 1999.", "U.S", source.Supported},
		{"Some 8 million US adults have Tolby fever.", "Nearly 8 million U.S. adults have Tolby fever.", "U.S", source.Supported},
		{"Ona Vey moved to the UK in 1999.", "Ona Vey moved to the U.K. in 1999.", "U.K", source.Supported},
		{"Ona Vey moved to Washington, DC, in 1999.", "Ona Vey moved to Washington, D.C. in 1999.", "D.C", source.Supported},
		{"Ona Vey told us in 1999 that she had moved.", "Ona Vey moved to the U.S. in 1999.", "U.S", flagged},
		{"Ona Vey joined UKIP in 1999.", "Ona Vey moved to the U.K. in 1999.", "U.K", flagged},
		{"ONA VEY: TELL US MORE, 1999", "Ona Vey moved to the U.S. in 1999.", "U.S", flagged},
		{"Ona Vey moved to the UK in 1999.", "Ona Vey moved to the U.S. in 1999.", "U.S", flagged},
	}
	for _, tt := range tests {
		ix := mustIndex(t, source.Doc{ID: "tolby.txt", Content: tt.source})
		cs := claim.Extract(tt.text, "").Claims
		if nameWritten(tt.name)(cs) == nil {
			t.Fatalf("%q: no name %q among %v", tt.text, tt.name, cs)
		}
		checkVerdicts(t, ix, []verdictCase{{tt.text, tt.status}}, nameWritten(tt.name), nil)
	}
}
