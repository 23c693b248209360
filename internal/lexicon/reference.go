package lexicon

import (
	_ "embed"
	"strings"
	"sync"
)

//go:generate go run ./refgen -dict /usr/share/wordnet -ranks ranks.txt -iso /usr/share/iso-codes/json/iso_3166-2.json -subdivisions subdivisions.txt

//go:embed ranks.txt
var ranksTxt string

//go:embed subdivisions.txt
var subdivisionsTxt string

// ranks holds the lines of ranks.txt. It is built once, on first use, and
// never changed after.
var ranks = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, line := range strings.Split(ranksTxt, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			m[line] = true
		}
	}
	return m
})

// Rank reports whether words, in any case, name a rank of nobility or
// honour: WordNet 3.0's "aristocrat" or a noun below it, of one or two
// words ("Duke", "Countess", "Knight", "Grand Duke"). A plural is not
// taken.
func Rank(words ...string) bool {
	return ranks()[strings.ToLower(strings.Join(words, " "))]
}

// Ranks returns the number of ranks Rank knows.
func Ranks() int { return len(ranks()) }

// Subdivision is a country's subdivision as ISO 3166-2 lists it.
type Subdivision struct {
	// Name is its name as the standard writes it ("Shizuoka",
	// "Bihār"), without the type's word in the country's language where
	// the list writes one ("Anhui" of "Anhui Sheng").
	Name string
	// Kind is the last word of its type, lower-cased: "prefecture",
	// "province", "county", "state".
	Kind string
}

// subdivisions holds subdivisions.txt parsed. It is built once, on first
// use, and never changed after.
var subdivisions = sync.OnceValue(func() []Subdivision {
	var out []Subdivision
	for _, line := range strings.Split(subdivisionsTxt, "\n") {
		name, kind, ok := strings.Cut(line, "|")
		if ok && !strings.HasPrefix(line, "#") && name != "" && kind != "" {
			out = append(out, Subdivision{Name: name, Kind: kind})
		}
	}
	return out
})

// Subdivisions returns the country subdivisions of ISO 3166-2, from
// Debian's iso-codes (5383: "Shizuoka", a prefecture; "Cork", a county).
// The slice is shared and must not be modified.
func Subdivisions() []Subdivision { return subdivisions() }
