// Package lexicon holds the word relations grounding needs without a
// model: the antonym pairs of WordNet 3.0, extracted from Debian's
// wordnet-base by a go generate step into antonyms.txt and embedded, so
// nothing is installed or read at run time.
//
// WordNet 3.0 is © Princeton University, under the WordNet licence
// (LICENSE.wordnet beside this file).
package lexicon

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/agentjudge/judge/internal/claim"
)

//go:generate go run ./gen -dict /usr/share/wordnet -o antonyms.txt

//go:embed antonyms.txt
var antonymsTxt string

// antonyms maps a word's stem (see claim.Stem) to the stems of its
// antonyms. It is built once, on first use, and never changed after.
var antonyms = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, line := range strings.Split(antonymsTxt, "\n") {
		a, b, ok := strings.Cut(line, " ")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		sa, sb := claim.Stem(a), claim.Stem(b)
		if sa == sb {
			continue
		}
		if !contains(m[sa], sb) {
			m[sa] = append(m[sa], sb)
		}
	}
	return m
})

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Antonyms returns the stems of the antonyms of the word whose stem is
// stem ("increas" gives "decreas"), or nil. The slice must not be
// modified.
func Antonyms(stem string) []string { return antonyms()[stem] }

// Pairs returns the number of words that have an antonym.
func Pairs() int { return len(antonyms()) }
