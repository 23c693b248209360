package lexicon_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/lexicon"
)

// TestRank: ranks of nobility and honour of one or two words, in any
// case; offices, forms of address and plurals are not ranks.
func TestRank(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		words []string
		want  bool
	}{
		{[]string{"Duke"}, true}, {[]string{"countess"}, true}, {[]string{"Knight"}, true},
		{[]string{"Grand", "Duke"}, true}, {[]string{"Earl"}, true}, {[]string{"Viscount"}, true},
		{[]string{"Minister"}, false}, {[]string{"Mister"}, false}, {[]string{"Dukes"}, false},
		{[]string{"Grand", "Jury"}, false}, {nil, false},
	} {
		if got := lexicon.Rank(tt.words...); got != tt.want {
			t.Errorf("Rank(%q) = %v, want %v", tt.words, got, tt.want)
		}
	}
	if n := lexicon.Ranks(); n < 50 {
		t.Errorf("Ranks() = %d, want the ranks of WordNet's aristocrat (about 90)", n)
	}
}

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
