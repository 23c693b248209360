package lexicon

import (
	_ "embed"
	"strings"
	"sync"
)

//go:generate go run ./refgen -iso /usr/share/iso-codes/json/iso_3166-2.json -subdivisions subdivisions.txt

//go:embed subdivisions.txt
var subdivisionsTxt string

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
// Debian's iso-codes (5277 names: "Shizuoka", a prefecture; "Cork", a county).
// The slice is shared and must not be modified.
func Subdivisions() []Subdivision { return subdivisions() }
