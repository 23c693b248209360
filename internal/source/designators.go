package source

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/lexicon"
)

// designatorKinds are the kinds of ISO 3166-2 subdivision English writes
// as a word beside the name ("Shizuoka Prefecture", "County Cork",
// "Province of Sichuan", "New York State"). Kinds that are not such a word
// ("authority", "council", "area", "unit") are left out.
var designatorKinds = map[string]bool{"province": true, "prefecture": true, "county": true, "state": true,
	"district": true, "region": true, "department": true, "governorate": true, "municipality": true,
	"parish": true, "canton": true, "borough": true, "territory": true, "oblast": true, "emirate": true,
	"voivodship": true, "rayon": true, "commune": true, "republic": true}

// prefixOnly are the kinds whose word names another thing when it
// follows a place: "Ohio State" is a university, "Kent County" a county
// of Delaware or Michigan that ISO 3166-2 does not list; "State of Ohio"
// and "County Cork" are the subdivisions.
var prefixOnly = map[string]bool{"state": true, "county": true}

// subdivisionKinds maps the name of each subdivision of ISO 3166-2,
// lower-cased and without accents ("bihar"), to its kinds. It is built
// once, on first use, and never changed after.
var subdivisionKinds = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, s := range lexicon.Subdivisions() {
		if !designatorKinds[s.Kind] {
			continue
		}
		k := fold(strings.ToLower(s.Name))
		if !slices.Contains(m[k], s.Kind) {
			m[k] = append(m[k], s.Kind)
		}
	}
	return m
})

// designated returns the subdivision a name of a country's subdivision
// with its kind's word names, and true: "Shizuoka" for "Shizuoka
// Prefecture", "Cork" for "County Cork", "Sichuan" for "Province of
// Sichuan". The kind must be one ISO 3166-2 gives a subdivision of that
// name: "Shizuoka County" and "Kent Prefecture" are no such name; a
// state's or county's word goes before it (prefixOnly).
func designated(text string) (string, bool) {
	words := strings.Fields(text)
	if len(words) < 2 {
		return "", false
	}
	var place, kind string
	switch first, last := strings.ToLower(words[0]), strings.ToLower(words[len(words)-1]); {
	case designatorKinds[last] && !prefixOnly[last] && capitalized(words[len(words)-1]):
		place, kind = strings.Join(words[:len(words)-1], " "), last
	case designatorKinds[first] && capitalized(words[0]):
		rest := words[1:]
		if len(rest) > 1 && rest[0] == "of" {
			rest = rest[1:]
		}
		place, kind = strings.Join(rest, " "), first
	default:
		return "", false
	}
	if !capitalized(place) || !slices.Contains(subdivisionKinds()[fold(strings.ToLower(place))], kind) {
		return "", false
	}
	return place, true
}

// findDesignated returns a passage that names the subdivision the name c
// names with its kind's word, by its name alone ("Shizuoka" for
// "Shizuoka Prefecture", "Bihār" for "State of Bihar"; designated), or
// nil. The name must stand alone in the passage, not before another
// capitalized word ("Shizuoka University" names the university): the
// sources then name the place, of which the kind's word only says what it
// is.
func (ix *Index) findDesignated(c claim.Claim) *Passage {
	if ablate.Off(ablate.Designator) || c.Kind != claim.Name {
		return nil
	}
	place, ok := designated(c.Text)
	if !ok {
		return nil
	}
	stems := claim.ContentWords(place)
	if len(stems) == 0 {
		return nil
	}
	for _, part := range ix.parts {
		ids := slices.Concat(part.words[stems[0]], part.folded[fold(stems[0])])
		slices.Sort(ids)
		for _, id := range slices.Compact(ids) {
			// With other accents too: "State of Bihar" by "Bihār".
			if p := &part.passages[id]; standsAlone(p.Text, place) || standsAlone(fold(p.Text), fold(place)) {
				return p
			}
		}
	}
	return nil
}

// standsAlone reports whether text writes name as whole words, at least
// once not right before another capitalized word.
func standsAlone(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		at := i + j
		i = at + len(name)
		if at > 0 {
			if r, _ := utf8.DecodeLastRuneInString(text[:at]); unicode.IsLetter(r) || unicode.IsDigit(r) {
				continue
			}
		}
		rest := text[i:]
		if r, _ := utf8.DecodeRuneInString(rest); unicode.IsLetter(r) || unicode.IsDigit(r) {
			continue // part of a longer word
		}
		next := strings.TrimLeft(rest, " \t")
		if len(next) < len(rest) && next != "" && capitalized(next) {
			continue // part of a longer name
		}
		return true
	}
}
