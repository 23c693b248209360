package source_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/source"
)

// TestQualifier checks that a name the sentence gives only as background
// to a name the sources state (an office in apposition, a place's
// country or subdivision, the body a person writes for) is undecided,
// and that each changed counterpart stays flagged: a list of places, a
// place of the same rank, a qualified name the sources do not state, a
// body not in quotation marks. The sentences are written for this test.
func TestQualifier(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "Ona Vey opened the bridge in Tolby on Friday.\n" +
		"Ann Lenk wrote that the bridge was too narrow.\n" +
		"Later she toured Lyon and Osaka."})
	for _, tt := range []struct {
		name string
		verdictCase
	}{
		{"Warden", verdictCase{"Ona Vey, Warden of Tolby, opened the bridge.", source.Undecided}},
		{"Warden", verdictCase{"Eli Dorn, Warden of Tolby, opened the bridge.", flagged}},
		{"Ohio", verdictCase{"Ona Vey opened the bridge in Tolby, Ohio.", source.Undecided}},
		{"Ohio", verdictCase{"Ona Vey opened the bridge in Tolby, Ohio and Texas.", flagged}},
		{"Chicago", verdictCase{"Ona Vey opened the bridge in Tolby, Chicago.", flagged}},
		{"Star", verdictCase{`Ann Lenk of "The Tolby Star" wrote that the bridge was too narrow.`, source.Undecided}},
		{"Star", verdictCase{"Ann Lenk of Tolby Star wrote that the bridge was too narrow.", flagged}},
	} {
		checkVerdicts(t, ix, []verdictCase{tt.verdictCase}, nameWith(tt.name), nil)
	}
}
