package source_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// nameWith picks a sentence's first name holding s.
func nameWith(s string) func([]claim.Claim) *claim.Claim {
	return func(cs []claim.Claim) *claim.Claim {
		for i := range cs {
			if cs[i].Kind == claim.Name && strings.Contains(cs[i].Text, s) {
				return &cs[i]
			}
		}
		return nil
	}
}

// TestDesignatedPlace checks that a country's subdivision named with its
// kind's word ("Shizuoka Prefecture", "County Cork", "State of Bihar",
// "Anhui Province") is stated by a passage naming it alone, where ISO
// 3166-2 lists a subdivision of that name and kind, and that each changed
// counterpart stays flagged: another kind ("Shizuoka County", "Province
// of Shizuoka"), a state's or county's word after the name ("Bihar State"
// may be a university, "Cork County" a county ISO does not list), another place ("Osaka Prefecture"), a place the page
// names only inside a longer name ("Kyoto University" for "Kyoto
// Prefecture"), a made-up place ("Tolby Prefecture"), a part of a name
// ISO lists whole ("State of Andhra" for "Andhra Pradesh"). The sentences are
// written for this test.
func TestDesignatedPlace(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "Ona Vey was born in Shizuoka in 1961 and moved to Cork in 1990.\n" +
		"She later taught at Kyoto University and sang in Tolby.\n" +
		"Her brother farms in Bihar, and her sister in Anhui.\n" +
		"Her cousin lives in Gyeonggi, near Andhra.\n" +
		"Her aunt farms in Uttarākhand."})
	tests := []verdictCase{
		{"Ona Vey was born in Shizuoka Prefecture in 1961.", source.Supported},
		{"Ona Vey moved to County Cork in 1990.", source.Supported},
		{"Her brother farms in the State of Bihar.", source.Supported},
		{"Her brother studied at Bihar State.", flagged},
		{"Her sister farms in Anhui Province.", source.Supported},
		{"Ona Vey was born in Shizuoka County in 1961.", flagged},
		{"Ona Vey moved to Cork County in 1990.", flagged},
		{"Ona Vey was born in the Province of Shizuoka in 1961.", flagged},
		{"Ona Vey was born in Osaka Prefecture in 1961.", flagged},
		{"Ona Vey later taught in Kyoto Prefecture.", flagged},
		{"Ona Vey sang in Tolby Prefecture.", flagged},
		{"Her cousin lives in Gyeonggi Province.", source.Supported},
		{"Her cousin lives near the State of Andhra.", flagged},
		{"Her aunt farms in the State of Uttarakhand.", source.Supported},
	}
	for _, kind := range []string{"Prefecture", "County", "State", "Province"} {
		var some []verdictCase
		for _, tt := range tests {
			if strings.Contains(tt.text, kind) {
				some = append(some, tt)
			}
		}
		checkVerdicts(t, ix, some, nameWith(kind), nil)
	}
}
