package claim_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
)

// names returns the texts of the name claims of text.
func names(text string) []string {
	var out []string
	for _, c := range claim.Extract(text, "").Claims {
		if c.Kind == claim.Name {
			out = append(out, c.Text)
			if text[c.Start:c.End] != c.Text {
				out = append(out, "bad span "+c.Text)
			}
		}
	}
	return out
}

// shown joins with "; " what show makes of each claim of text, leaving
// out the claims it makes nothing of.
func shown(text string, show func(claim.Claim) string) string {
	var out []string
	for _, c := range claim.Extract(text, "").Claims {
		if s := show(c); s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "; ")
}

// kindText shows a claim as its kind and text ("date March 5").
func kindText(c claim.Claim) string { return string(c.Kind) + " " + c.Text }

// TestNameNumeral checks that a name's Roman numeral "I" is a word of the
// name where the grammar rules out the pronoun (nothing, punctuation or a
// word the pronoun never precedes follows it, or the name is its clause's
// subject), and that the pronoun stays out of a name (a verb only "I"
// takes follows it, a fronted phrase ends with the name, a contraction),
// also where a common word starts the sentence. The sentences are written
// for this test.
func TestNameNumeral(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want []string
	}{
		// The numeral.
		{"She served in World War I.", []string{"World War I"}},
		{"World War I ended in 1918.", []string{"World War I"}},
		{"Ona Vey nursed soldiers in World War I and in 1940.", []string{"Ona Vey", "World War I"}},
		{"Tam Rook met Charles I of Tolby.", []string{"Tam Rook", "Charles I of Tolby"}},
		{"In 1558 Elizabeth I became queen.", []string{"Elizabeth I"}},
		{"In 1603, Elizabeth I died at Richmond.", []string{"Elizabeth I", "Richmond"}},
		{"During World War I he served at Ypres.", []string{"World War I", "Ypres"}},
		{"The reign of Elizabeth I's father.", []string{"Elizabeth I"}},
		{"Veterans of World War I gathered.", []string{"Veterans of World War I"}},
		{"Tam Rook fought in World War I, then farmed.", []string{"Tam Rook", "World War I"}},
		// Other numerals were never dropped.
		{"Henry VIII married six times.", []string{"Henry VIII"}},
		{"Henry V won at Agincourt.", []string{"Henry V", "Agincourt"}},
		// The pronoun.
		{"In London I met Ada Lenk.", []string{"London", "Ada Lenk"}},
		{"After leaving Tolby I went home.", []string{"Tolby"}},
		{"In 1990 I moved to Paris.", []string{"Paris"}},
		{"In Python I would use a map.", []string{"Python"}},
		{"Ada Lenk I think was right.", []string{"Ada Lenk"}},
		{"Tolby I don't know well.", nil},
		{"In London I'm happy.", []string{"London"}},
		{"In London I’ve been happy.", []string{"London"}},
		{"I'm in Tolby. Then I'm gone, and I'd go.", []string{"Tolby"}},
		{"Finally I went home.", nil},
		{"Honestly I think so.", nil},
		{"Thanks Bob I will do that.", []string{"Thanks Bob"}},
		// A pronoun on its own is never a name.
		{"I moved to Tolby.", []string{"Tolby"}},
	}
	for _, tt := range tests {
		if got := names(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("%q: names %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestNumerals checks the keys that bind a numeral of one letter to the
// word before it, and RomanNumeral.
func TestNumerals(t *testing.T) {
	t.Parallel()
	for text, want := range map[string][]string{
		"World War I":                  {"war i"},
		"King Henry V's army":          {"henry v"},
		"Pius X and World War II":      {"pius x"},
		"In London I met him":          {"london i"},
		"London, I met him":            nil,
		"world war I":                  nil,
		"World War i":                  nil,
		"I am here. The I":             nil,
		"Vitamin C and Henry VIII":     nil,
		"Queen Elizabeth I\tand Tolby": {"elizabeth i"},
	} {
		if got := claim.Numerals(text); !slices.Equal(got, want) {
			t.Errorf("Numerals(%q) = %q, want %q", text, got, want)
		}
	}
	for w, want := range map[string]bool{"I": true, "II": true, "IV": true, "V": true, "VIII": true, "IX": true, "XIV": true,
		"XXXIX": true, "": false, "IIII": false, "VV": false, "XXXX": false, "IVI": false, "i": false, "Ivy": false, "L": false} {
		if got := claim.RomanNumeral(w); got != want {
			t.Errorf("RomanNumeral(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestLetters checks the keys that bind a capital letter standing alone to
// the word before it: FinalLetter's of a name, and Letters' of a passage,
// which hold Numerals' and FinalLetter's.
func TestLetters(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"Vitamin D":       "vitamin d",
		"Plan B":          "plan b",
		"Hepatitis B's":   "hepatitis b",
		"Group Fourteen":  "",
		"Vitamin":         "",
		"D":               "",
		"World War I":     "", // Numerals' key
		"Henry V":         "",
		"Tolby of D":      "",
		"Washington D.C.": "",
		"Vitamin d":       "",
	} {
		if got := claim.FinalLetter(name); got != want {
			t.Errorf("FinalLetter(%q) = %q, want %q", name, got, want)
		}
	}
	for text, want := range map[string][]string{
		"Ona took Vitamin D and Henry V's army": {"vitamin d", "henry v"},
		"vitamin D, World War I":                {"vitamin d", "war i"},
		"Plan B-rich":                           nil,
		"It is a D. The D":                      nil,
		"Vitamin DX and Vitamin d":              nil,
	} {
		if got := claim.Letters(text); !slices.Equal(got, want) {
			t.Errorf("Letters(%q) = %q, want %q", text, got, want)
		}
	}
}
