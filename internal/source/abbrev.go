package source

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
)

// expansionWords are the lower-case words a name may hold between its
// capitalized words ("Order of the British Empire", "Space and Missile
// Systems").
var expansionWords = map[string]bool{"of": true, "the": true, "and": true, "for": true, "&": true, "de": true, "on": true, "in": true}

// definedBy returns the name the claim's own sentence defines the
// abbreviation c by, and true: the words right before c in parentheses
// ("Teaching Excellence Framework (TEF)", "Knight Commander of the Order
// of the British Empire (KBE)"), capitalized or of expansionWords, from
// the nearest word whose initial is c's first letter such that c's
// letters are, in order, initials of those capitalized words, the first
// and last among them. "Federal Security Service (KGB)" defines nothing.
func definedBy(c claim.Claim) (string, bool) {
	var letters []rune
	for _, r := range c.Text {
		switch {
		case r >= 'A' && r <= 'Z':
			letters = append(letters, r)
		case r != '.':
			return "", false
		}
	}
	if len(letters) < 2 || len(letters) > 8 {
		return "", false
	}
	at := strings.Index(c.Sentence, "("+c.Text)
	if at < 0 {
		return "", false
	}
	if rest := c.Sentence[at+1+len(c.Text):]; !strings.HasPrefix(rest, ")") && !strings.HasPrefix(rest, ".)") {
		return "", false
	}
	words := strings.Fields(c.Sentence[:at])
	first := len(words)
	for i := len(words) - 1; i >= 0 && len(words)-i <= 12; i-- {
		w := words[i]
		if strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' && r != '\'' && r != '&' }) >= 0 {
			break // punctuation ends the run
		}
		if !capitalized(w) && !expansionWords[w] {
			break
		}
		first = i
	}
	for s := len(words) - 1; s >= first; s-- {
		if !capitalized(words[s]) || rune(words[s][0]) != letters[0] {
			continue
		}
		var initials []rune
		for _, w := range words[s:] {
			if capitalized(w) {
				initials = append(initials, rune(w[0]))
			}
		}
		if initials[len(initials)-1] == letters[len(letters)-1] && subsequence(letters, initials) {
			return strings.Join(words[s:], " "), true
		}
	}
	return "", false
}

// subsequence reports whether a's runes stand in b in order, the first
// of a on b's first.
func subsequence(a, b []rune) bool {
	if len(a) == 0 || len(b) == 0 || a[0] != b[0] {
		return false
	}
	i := 1
	for _, r := range b[1:] {
		if i < len(a) && r == a[i] {
			i++
		}
	}
	return i == len(a)
}

// definedAbbreviation decides an abbreviation no passage states that the
// claim's sentence defines by a name (definedBy: "Teaching Excellence
// Framework (TEF)"): it is that name, so it takes the name's verdict
// where the sources state the name or leave it undecided. Where they do
// not state the name either, the abbreviation stays unsupported.
func (ix *Index) definedAbbreviation(c claim.Claim) (Verdict, bool) {
	if ablate.Off(ablate.Abbreviation) || c.Kind != claim.Name {
		return Verdict{}, false
	}
	name, ok := definedBy(c)
	if !ok {
		return Verdict{}, false
	}
	v := ix.check(claim.Claim{Kind: claim.Name, Text: name, Value: strings.ToLower(name), Sentence: c.Sentence})
	switch v.Status {
	case Supported:
		return v, true
	case Undecided:
		if v.Why != "" {
			v.Why = fmt.Sprintf("%q abbreviates %q: %s", c.Text, name, v.Why)
		}
		return v, true
	}
	return Verdict{}, false
}
