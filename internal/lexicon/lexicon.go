// Package lexicon holds the word relations grounding needs without a
// model: the antonym pairs of WordNet 3.0, its nouns of several common
// words ("grand jury"), its names of one thing by several names ("Great
// War", "World War I") and its adjectives of places ("Cornish"),
// extracted from Debian's wordnet-base by a go generate step into
// antonyms.txt, terms.txt, synonyms.txt and demonyms.txt and embedded, so
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

//go:generate go run ./gen -dict /usr/share/wordnet -o antonyms.txt -terms terms.txt -synonyms synonyms.txt -demonyms demonyms.txt

//go:embed antonyms.txt
var antonymsTxt string

//go:embed terms.txt
var termsTxt string

//go:embed synonyms.txt
var synonymsTxt string

//go:embed demonyms.txt
var demonymsTxt string

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

// synonyms maps each lemma of synonyms.txt, lower-cased, to its line's
// lemmas as WordNet writes them. It is built once, on first use, and never
// changed after.
var synonyms = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, line := range strings.Split(synonymsTxt, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lemmas := strings.Split(line, "|")
		for _, l := range lemmas {
			m[strings.ToLower(l)] = lemmas
		}
	}
	return m
})

// Synonyms returns the other names WordNet gives the one thing the name
// names, as WordNet writes them ("Great War" gives "World War I", "World
// War 1", "First World War", "War to End War"), or nil. The name is
// compared in lower case, whole; only a name of one noun sense in all of
// WordNet has synonyms, and only those of one sense are given ("Georgia",
// a state and a country, has none, and is no synonym of "Peach State"),
// outside the Latin names of animals and plants. The slice is new.
func Synonyms(name string) []string {
	lemmas := synonyms()[strings.ToLower(strings.TrimSpace(name))]
	var out []string
	for _, l := range lemmas {
		if !strings.EqualFold(l, strings.TrimSpace(name)) {
			out = append(out, l)
		}
	}
	return out
}

// SynonymSets returns the number of names Synonyms knows.
func SynonymSets() int { return len(synonyms()) }

// Demonym is an adjective of a place and the place, as WordNet writes
// them: {"Cornish", "Cornwall"}.
type Demonym struct{ Adjective, Place string }

// demonyms holds the pairs of demonyms.txt. It is built once, on first
// use, and never changed after.
var demonyms = sync.OnceValue(func() []Demonym {
	var out []Demonym
	for _, line := range strings.Split(demonymsTxt, "\n") {
		a, p, ok := strings.Cut(line, ":")
		if ok && !strings.HasPrefix(line, "#") {
			out = append(out, Demonym{a, p})
		}
	}
	return out
})

// Demonyms returns the adjectives of one word WordNet says pertain to a
// place, with the place ("Florentine" and "Florence", "British" and
// "Great Britain"). The slice must not be modified.
func Demonyms() []Demonym { return demonyms() }
