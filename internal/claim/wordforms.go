package claim

import (
	"strings"

	"github.com/agentjudge/judge/internal/ablate"
)

// wordAbbrevs pairs words of names with the abbreviations texts write for
// them ("St. Mary's" and "Saint Mary's", "Mt. Everest" and "Mount
// Everest"), each "word:abbreviation" without the abbreviation's dot.
var wordAbbrevs = func() map[string]string {
	m := map[string]string{}
	for _, p := range strings.Fields(`saint:st mount:mt fort:ft junior:jr senior:sr company:co corporation:corp
incorporated:inc limited:ltd university:univ brothers:bros association:assn department:dept international:intl
national:natl avenue:ave street:st road:rd boulevard:blvd`) {
		w, a, _ := strings.Cut(p, ":")
		m[w] = a
		if _, ok := m[a]; !ok {
			m[a] = w
		}
	}
	return m
}()

// legalForms are the words at the end of a company's or a club's name that
// give its legal form, which texts as often leave out: "Manchester United
// F.C.", "Acme Inc.", "Rolls-Royce plc".
// generational are the suffixes after a person's name that tell a son
// from his father ("Jr.", "Sr."), which pages often leave out.
var generational = setOf(`jr sr`)

var legalForms = setOf(`fc f.c afc a.f.c cf c.f sc s.c inc ltd llc plc corp co gmbh ag sa s.a nv n.v bv b.v lp llp pty`)

// WordForms returns other ways of writing the name text word by word,
// best first: a word abbreviated or written out ("St. Mary" is "Saint
// Mary", "Mount Everest" is "Mt. Everest"), and the name without the legal form at its end ("Manchester United
// F.C." is "Manchester United"), and a person's name without "Jr." or
// "Sr." after it ("Martin Luther King Jr." is "Martin Luther King"). Each form keeps the name's other words;
// nil when there is none.
func WordForms(text string) []string {
	if ablate.Off(ablate.WordForms) {
		return nil
	}
	words := strings.Fields(text)
	var out []string
	seen := map[string]bool{text: true}
	add := func(ws []string) {
		f := strings.Join(ws, " ")
		if len(ws) > 0 && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	if n := len(words); n >= 2 && legalForms[strings.ToLower(strings.TrimRight(words[n-1], ".,"))] {
		add(words[:n-1])
	}
	if n := len(words); n >= 3 && generational[strings.ToLower(strings.TrimRight(words[n-1], ".,"))] && !ablate.Off(ablate.Generational) {
		// "Martin Luther King Jr." is the man a page calls "Martin
		// Luther King": the suffix tells him from his father, whom the
		// same page would name with "Sr.".
		add(words[:n-1])
	}
	for i, w := range words {
		low := strings.ToLower(strings.TrimSuffix(w, "."))
		alt, ok := wordAbbrevs[low]
		if !ok {
			continue
		}
		if w[0] >= 'A' && w[0] <= 'Z' {
			alt = strings.ToUpper(alt[:1]) + alt[1:]
		}
		add(append(append(append([]string{}, words[:i]...), alt), words[i+1:]...))
	}
	return out
}
