package claim_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
)

// TestNameRuns: a run of capitalized words is read as the names it
// holds. A sentence's first word that is a common word before "the" is
// no word of the name after it; a run joined across "the" that two
// capitalized words follow is two names; a name's span ends at its own
// last word, not at an earlier word that starts with it; a name that a
// participle joins by a hyphen ("Merlin-powered") describes the name
// after it, and ends there. Each is beside
// a name of the same shape that stays whole. The sentences are written
// for this test.
func TestNameRuns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want string // the names as written, joined by "; "
	}{
		// A common word capitalized at the sentence's start.
		{"Nicknamed the Tolby Giant, the tower stood for years.", "Tolby Giant"},
		{"Following the Siege of Marlow, the town was rebuilt.", "Siege of Marlow"},
		{"Unlike the Ona Vey Trust, the fund paid out.", "Ona Vey Trust"},
		{"Eventually the Tolby Harriers folded.", "Tolby Harriers"},
		// Kept: a given name before an epithet, a participle the text
		// capitalizes mid-sentence, "the" not after the first word.
		{"Alfred the Great ruled Wessex.", "Alfred the Great; Wessex"},
		{"Mildred the Bold sailed west.", "Mildred the Bold"},
		{"Tolby Rising the Musical opened.", "Tolby Rising the Musical"},
		{"Following the Band toured, and fans of Following the Band came.", "Following the Band; Following the Band"},
		// Two names joined across "the".
		{"In Tolby the Marlow Flying Club owns two gliders.", "Tolby; Marlow Flying Club"},
		{"On Sunday the Prime Minister spoke.", "Prime Minister"},
		// Kept: an epithet of one word, a capitalized "The".
		{"Ona the Younger wrote it.", "Ona the Younger"},
		{"He joined Rage Against the Machine early.", "Rage Against the Machine"},
		{"They met Ada Lenk The Second.", "Ada Lenk The Second"},
		// A last word that an earlier word of the name starts with.
		{"He served in the United States Army Rifle Unit for years.", "United States Army Rifle Unit"},
		{"She coached Tolby Town and Tolby.", "Tolby Town; Tolby"},
		// A last word whose letters start the particle after it.
		{"Then Ma MaY go home.", "Ma"},
		{"Then Ko Ma Ma May go home.", "Ko Ma Ma"},
		// A name a participle or a word of its kind joins by a hyphen
		// describes the name after it (described-name).
		{"A Merlin-powered Tolby Sea Hawk flew at the show.", "Merlin; Tolby Sea Hawk"},
		{"The London-based Tolby Records signed Ona Vey.", "London; Tolby Records; Ona Vey"},
		{"The Emmy-nominated Tolby Show aired in May.", "Emmy; Tolby Show"},
		// Kept whole: a capitalized part after the hyphen, a lower-case
		// part that describes nothing, a hyphenated last word.
		{"Ona Vey drove a Rolls-Royce Phantom to Stratford-upon-Avon Hall.", "Ona Vey; Rolls-Royce Phantom; Stratford-upon-Avon Hall"},
		{"Then Kim Jong-un Stadium opened.", "Kim Jong-un Stadium"},
		{"Ona Vey joined a Tolby-based band.", "Ona Vey; Tolby"},
	}
	for _, tt := range tests {
		if g := strings.Join(names(tt.text), "; "); g != tt.want {
			t.Errorf("%q: names %q, want %q", tt.text, g, tt.want)
		}
	}
}

// TestWordsApostrophe: a word with a typographic apostrophe is the word
// with a straight one, and a possessive of either kind is left out.
func TestWordsApostrophe(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"Ona O’Brien’s visit to Côte d’Ivoire": "ona o'brien visit to côte d'ivoire",
		"Ona O'Brien's visit to Côte d'Ivoire": "ona o'brien visit to côte d'ivoire",
		"it’s Tolby’s":                         "it tolby",
		"rock ’n’ roll":                        "rock n roll",
	} {
		if got := strings.Join(claim.Words(text), " "); got != want {
			t.Errorf("Words(%q) = %q, want %q", text, got, want)
		}
	}
}

// FuzzWords checks that the words of any text are each non-empty and
// never hold a typographic apostrophe.
func FuzzWords(f *testing.F) {
	for _, s := range []string{"O’Brien’s", "d’’Ivoire", "’’", "a’b’c’s", "É’S", "x’\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, w := range claim.Words(s) {
			if w == "" || strings.Contains(w, "’") {
				t.Fatalf("Words(%q) gives %q", s, w)
			}
		}
	})
}

// TestOrdinalWording: a message names an ordinal as one ("Ordinal
// 32nd"), not as a count of its suffix ("Number of nd 32"); a count keeps
// its unit. The sentences are written for this test.
func TestOrdinalWording(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"It won at the 32nd Tolby Awards.":       "Ordinal 32nd",
		"She was the club's forty-fourth chair.": "Ordinal forty-fourth",
		"Ona Vey ran 12 laps.":                   "Number of lap 12",
	} {
		var got string
		for _, c := range claim.Extract(text, "").Claims {
			if c.Kind == claim.Number {
				got = c.Subject() + " " + c.Quoted()
			}
		}
		if got != want {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
}
