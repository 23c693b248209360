package claim

import (
	"strings"

	"github.com/agentjudge/judge/internal/ablate"
)

// placeTypes are the words that name what kind of place a name is ("Shizuoka
// Prefecture", "City of Milwaukee"): texts name the place with them or
// without them.
var placeTypes = setOf(`prefecture province county district region oblast governorate canton municipality township borough parish
department territory city town village`)

// countryForms are the ways a text writes the same country, each list one
// country: a name of several words, its dotted and plain abbreviations.
var countryForms = [][]string{
	{"United States", "U.S.", "US", "USA", "U.S.A."},
	{"United Kingdom", "U.K.", "UK"},
	{"United Arab Emirates", "U.A.E.", "UAE"},
	{"European Union", "E.U.", "EU"},
	{"Soviet Union", "U.S.S.R.", "USSR"},
}

// NameForms returns other ways of writing the name text that state the
// same name, best first: without a word naming the kind of place it is
// ("Shizuoka Prefecture" is "Shizuoka", "City of Milwaukee" is
// "Milwaukee"), and with a country written in another of its forms
// ("United States National Film Registry" is "U.S. National Film
// Registry"). Each form keeps at least one word of the name; nil when there
// is no other form.
func NameForms(text string) []string {
	if ablate.Off(ablate.NameForms) {
		return nil
	}
	words := strings.Fields(text)
	out := newForms(text)
	if n := len(words); n >= 2 && placeTypes[strings.ToLower(words[n-1])] {
		out.add(words[:n-1])
	}
	if len(words) >= 3 && placeTypes[strings.ToLower(words[0])] && strings.EqualFold(words[1], "of") {
		out.add(words[2:])
	}
	for _, forms := range countryForms {
		for _, f := range forms {
			i := indexWords(words, strings.Fields(f))
			if i < 0 {
				continue
			}
			n := len(strings.Fields(f))
			for _, g := range forms {
				if g != f {
					out.add(append(append(append([]string{}, words[:i]...), strings.Fields(g)...), words[i+n:]...))
				}
			}
			break
		}
	}
	return out.list
}

// indexWords returns where sub starts in words, comparing words without a
// final dot ("U.S." and "U.S" are one word) and case-sensitively otherwise,
// or -1.
func indexWords(words, sub []string) int {
	for i := 0; i+len(sub) <= len(words); i++ {
		match := true
		for j, w := range sub {
			if strings.TrimSuffix(words[i+j], ".") != strings.TrimSuffix(w, ".") {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

// Alternatives returns the claims that state what c states in other words,
// best first: for a name, one per [NameForms], then one per [WordForms]; nil for other kinds. A
// checker that finds no evidence for c takes the verdict of the first
// alternative a source states.
func (c Claim) Alternatives() []Claim {
	if c.Kind != Name {
		return nil
	}
	var out []Claim
	for _, f := range append(NameForms(c.Text), WordForms(c.Text)...) {
		alt := c
		alt.Text, alt.Value = f, strings.ToLower(f)
		out = append(out, alt)
	}
	return out
}

// forms collects the other forms of a text in order, each once and
// never the text itself.
type forms struct {
	list []string
	seen map[string]bool
}

// newForms returns the forms of text, none yet.
func newForms(text string) *forms {
	return &forms{seen: map[string]bool{text: true}}
}

// add adds the form of words ws, unless there are none or it is known.
func (f *forms) add(ws []string) {
	s := strings.Join(ws, " ")
	if len(ws) > 0 && !f.seen[s] {
		f.seen[s] = true
		f.list = append(f.list, s)
	}
}
