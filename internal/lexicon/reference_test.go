package lexicon_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/lexicon"
)

// TestSubdivisions: ISO 3166-2's subdivisions with their kinds, a name in
// the country's language without its type's word too.
func TestSubdivisions(t *testing.T) {
	t.Parallel()
	want := map[lexicon.Subdivision]bool{{Name: "Shizuoka", Kind: "prefecture"}: false, {Name: "Cork", Kind: "county"}: false,
		{Name: "Anhui", Kind: "province"}: false, {Name: "New York", Kind: "state"}: false}
	all := lexicon.Subdivisions()
	for _, s := range all {
		if _, ok := want[s]; ok {
			want[s] = true
		}
		if s.Name == "" || s.Kind == "" {
			t.Errorf("subdivision %+v has an empty field", s)
		}
	}
	for s, found := range want {
		if !found {
			t.Errorf("Subdivisions() lacks %+v", s)
		}
	}
	if len(all) < 5000 {
		t.Errorf("Subdivisions() has %d, want ISO 3166-2's (about 5400)", len(all))
	}
}
