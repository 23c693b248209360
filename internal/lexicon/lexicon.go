// Package lexicon holds the word relations grounding needs without a
// model: the antonym pairs of WordNet 3.0 and its nouns of several common
// words ("grand jury"), extracted from Debian's wordnet-base by a go
// generate step into antonyms.txt and terms.txt and embedded, so nothing
// is installed or read at run time.
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

//go:generate go run ./gen -dict /usr/share/wordnet -o antonyms.txt -terms terms.txt

//go:embed antonyms.txt
var antonymsTxt string

//go:embed terms.txt
var termsTxt string

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

// terms holds the terms of terms.txt. It is built once, on first use,
// and never changed after.
var terms = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, line := range strings.Split(termsTxt, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			m[line] = true
		}
	}
	return m
})

// Term reports whether the words, in any case, are a noun of English
// WordNet holds whole and not as an instance, made only of common words
// (words WordNet never capitalizes) with at most "of", "the" or "and"
// between, and headed by a noun of a person, an act, an event, a group
// or a time: "Grand Jury", "Bachelor of Arts", "Prime Ministers" (a
// plural's last word is taken as its singular). "Supreme Court" is not
// one ("Supreme" is also a name), nor "High Street" (a street is a
// place).
func Term(words []string) bool {
	if len(words) < 2 {
		return false
	}
	t := strings.ToLower(strings.Join(words, " "))
	m := terms()
	if m[t] {
		return true
	}
	for _, f := range []struct{ suffix, repl string }{{"ies", "y"}, {"es", ""}, {"s", ""}} {
		if s, ok := strings.CutSuffix(t, f.suffix); ok && m[s+f.repl] {
			return true
		}
	}
	return false
}

// Terms returns the number of terms Term knows.
func Terms() int { return len(terms()) }
