package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestGenerational checks that a person's name written with "Jr." or
// "Sr." after it is stated by the name without it, which it had been
// contradicted by, and that another name, or a surname alone with the
// suffix, stays flagged. The sentences are written for this test.
func TestGenerational(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "tolby.txt", Content: "The Tolby choir was founded by Ona Vey in 1999."})
	tests := []struct {
		text, name string
		status     source.Status // or flagged
	}{
		{"The Tolby choir was founded by Ona Vey Jr. in 1999.", "Ona Vey Jr", source.Supported},
		{"The Tolby choir was founded by Ona Vey Sr. in 1999.", "Ona Vey Sr", source.Supported},
		{"The Tolby choir was founded by Ona Lenk Jr. in 1999.", "Ona Lenk Jr", flagged},
	}
	for _, tt := range tests {
		cs := claim.Extract(tt.text, "").Claims
		if nameWritten(tt.name)(cs) == nil {
			t.Fatalf("%q: no name %q among %v", tt.text, tt.name, cs)
		}
		checkVerdicts(t, ix, []verdictCase{{tt.text, tt.status}}, nameWritten(tt.name), nil)
	}
}
