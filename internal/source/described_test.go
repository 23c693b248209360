package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestDescribedName checks that a name a participle joins by a hyphen
// ("Merlin-powered", "London-based") is read apart from the name it
// describes: each is stated by a page naming it in its own words, which
// had left the whole unsupported, and an invented one of the two stays
// flagged. The sentences are written for this test.
func TestDescribedName(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "tolby.txt", Content: "A Tolby Sea Hawk, powered by a Merlin engine, flew at the show.\n" +
		"Tolby Records, based in London, signed Ona Vey in 1999."})
	tests := []struct {
		text, name string
		status     source.Status // or flagged
	}{
		{"A Merlin-powered Tolby Sea Hawk flew at the show.", "Tolby Sea Hawk", source.Supported},
		{"A Merlin-powered Tolby Sea Hawk flew at the show.", "Merlin", source.Supported},
		{"The London-based Tolby Records signed Ona Vey in 1999.", "Tolby Records", source.Supported},
		{"The London-based Tolby Records signed Ona Vey in 1999.", "London", source.Supported},
		{"A Griffon-powered Tolby Sea Hawk flew at the show.", "Griffon", flagged},
		{"The Paris-based Tolby Records signed Ona Vey in 1999.", "Paris", flagged},
		{"The London-based Marlow Records signed Ona Vey in 1999.", "Marlow Records", flagged},
	}
	for _, tt := range tests {
		cs := claim.Extract(tt.text, "").Claims
		if nameWritten(tt.name)(cs) == nil {
			t.Fatalf("%q: no name %q among %v", tt.text, tt.name, cs)
		}
		checkVerdicts(t, ix, []verdictCase{{tt.text, tt.status}}, nameWritten(tt.name), nil)
	}
}
