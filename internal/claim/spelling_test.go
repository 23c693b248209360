package claim

import "testing"

// TestStemSpelling checks that a word in British spelling and the same
// word in American spelling have one stem, and that words British
// spelling only looks like stay apart ("four" and "for", "timbre" and
// "timber", the surnames "Grey" and "Gray").
func TestStemSpelling(t *testing.T) {
	t.Parallel()
	same := [][2]string{
		{"colour", "color"}, {"colours", "colors"}, {"coloured", "colored"}, {"favourite", "favorite"},
		{"honourable", "honorable"}, {"behaviour", "behavior"}, {"neighbourhood", "neighborhood"}, {"harbour", "harbor"},
		{"centre", "center"}, {"centres", "centers"}, {"theatre", "theater"}, {"kilometres", "kilometers"},
		{"amphitheatre", "amphitheater"}, {"fibre", "fiber"},
		{"defence", "defense"}, {"licences", "licenses"}, {"programme", "program"}, {"catalogue", "catalog"},
		{"travelled", "traveled"}, {"paediatrician", "pediatrician"}, {"jewellery", "jewelry"},
		{"organisation", "organization"}, {"organised", "organized"}, {"privatisations", "privatizations"},
		{"recognising", "recognizing"}, {"criticised", "criticized"}, {"analysed", "analyzed"}, {"paralyse", "paralyze"},
	}
	for _, p := range same {
		if a, b := Stem(p[0]), Stem(p[1]); a != b {
			t.Errorf("Stem(%q) = %q, Stem(%q) = %q: want one stem", p[0], a, p[1], b)
		}
	}
	apart := [][2]string{
		{"four", "for"}, {"fourth", "forth"}, {"flour", "flor"}, {"hours", "hors"}, {"tour", "tor"},
		{"timbre", "timber"}, {"grey", "gray"}, {"petre", "peter"}, {"prise", "prize"}, {"raise", "raize"},
		{"crises", "crizes"}, {"journal", "jornal"}, {"resources", "resorces"},
	}
	for _, p := range apart {
		if a, b := Stem(p[0]), Stem(p[1]); a == b {
			t.Errorf("Stem(%q) = Stem(%q) = %q: want them apart", p[0], p[1], a)
		}
	}
}

// FuzzSpelling checks that american never panics, rewrites a word it
// gives no further (an American spelling is never rewritten, so a page and
// a claim each meet in it), and changes a word by a few letters at most.
func FuzzSpelling(f *testing.F) {
	for _, s := range []string{"colour", "favourites", "centred", "kilometres", "organisations", "analysed", "defences", "our", "is", "ys", "re", "res", "red", "four", "honourableness", "é’our", "\xffise", "travellers"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, w string) {
		a := american(w)
		if american(a) != a {
			t.Fatalf("american(%q) = %q, rewritten again to %q", w, a, american(a))
		}
		if d := len(a) - len(w); d < -3 || d > 3 {
			t.Fatalf("american(%q) = %q", w, a)
		}
		_ = Stem(w)
	})
}
