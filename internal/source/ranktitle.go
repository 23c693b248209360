package source

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/lexicon"
)

// conferring are the verbs a sentence gives a title of rank to its
// subject with ("was appointed Knight Commander of …", "was created Duke
// of …").
var conferring = map[string]bool{"appointed": true, "made": true, "created": true, "named": true,
	"invested": true, "dubbed": true, "styled": true, "became": true, "become": true, "becomes": true,
	"titled": true, "ennobled": true, "elevated": true}

// word is a word of a sentence and where it starts.
type word struct {
	text string
	at   int
}

// words returns the words of s split at spaces, with their offsets.
func wordsAt(s string) []word {
	var out []word
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' {
			j++
		}
		if j > i {
			out = append(out, word{s[i:j], i})
		}
		i = j
	}
	return out
}

// titleSpan is a title of rank in a sentence: its byte span and its
// rank, lower-cased.
type titleSpan struct {
	start, end int
	rank       string
}

// titleSpans returns the titles of rank a sentence writes: a rank of
// nobility or honour (lexicon.Rank: "Duke", "Grand Duke", "Knight"),
// capitalized, at most one more capitalized word ("Knight Commander"),
// then "of" and capitalized words, with "of" and "the" between them:
// "Duke of Sussex", "Knight Commander of the Order of the British
// Empire". The claim extractor gives such a title as several names
// ("Knight Commander", "Order", "British Empire"); each is part of it.
func titleSpans(sentence string) []titleSpan {
	ws := wordsAt(sentence)
	bare := func(i int) string { return strings.Trim(ws[i].text, ",;:()\"“”") }
	var out []titleSpan
	for i := 0; i < len(ws); i++ {
		for n := 2; n >= 1; n-- {
			if i+n > len(ws) || !capitalized(ws[i].text) {
				continue
			}
			rw := make([]string, n)
			for k := range rw {
				rw[k] = bare(i + k)
			}
			if !lexicon.Rank(rw...) || strings.ContainsAny(ws[i+n-1].text, ",;:") {
				continue
			}
			k := i + n
			if k < len(ws) && bare(k) != "of" && capitalized(ws[k].text) && !strings.ContainsAny(ws[k].text, ",;:") {
				k++ // "Knight Commander"
			}
			if k >= len(ws) || ws[k].text != "of" {
				continue
			}
			end := -1
			for k++; k < len(ws); k++ {
				if strings.HasPrefix(ws[k].text, "(") {
					break // "(KBE)" after the title is not a word of it
				}
				w := bare(k)
				switch {
				case w == "of" || w == "the":
				case capitalized(w):
					end = ws[k].at + len(strings.TrimRight(ws[k].text, ",;:.()\"“”"))
				default:
					k = len(ws)
					continue
				}
				if strings.ContainsAny(ws[k].text, ",;:.()") {
					break // punctuation ends the title
				}
			}
			if end > 0 {
				out = append(out, titleSpan{ws[i].at, end, strings.ToLower(strings.Join(rw, " "))})
				break
			}
		}
	}
	return out
}

// rankHolder returns the person the sentence gives the title of rank at
// start to: the capitalized words right before it and a comma ("Prince
// Harry, Duke of Sussex", "Harry, the Duke of Sussex"), or the last
// capitalized words before a verb of conferring right before it ("Tom
// Vey was appointed Knight Commander of …", "… created a Baron of …").
// "" when the sentence does neither.
func rankHolder(sentence string, start int) string {
	before := strings.Fields(sentence[:start])
	if n := len(before); n > 0 && (strings.EqualFold(before[n-1], "the") || strings.EqualFold(before[n-1], "a") || strings.EqualFold(before[n-1], "an") || before[n-1] == "as") {
		before = before[:n-1]
	}
	if len(before) == 0 {
		return ""
	}
	last := before[len(before)-1]
	switch {
	case strings.HasSuffix(last, ","):
		before[len(before)-1] = strings.TrimSuffix(last, ",")
		return capitalizedRun(before)
	case conferring[strings.ToLower(last)]:
		for i := len(before) - 2; i >= 0; i-- {
			if p := capitalizedRun(before[:i+1]); p != "" {
				return p
			}
			if strings.ContainsAny(before[i], ",;:") {
				return ""
			}
		}
	}
	return ""
}

// capitalizedRun returns the run of capitalized words (four at most) that
// ends words, none of them a rank, or "".
func capitalizedRun(words []string) string {
	var run []string
	for i := len(words) - 1; i >= 0 && len(run) < 4; i-- {
		w := words[i]
		if !capitalized(w) || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '.' && r != '-' && r != '\'' }) >= 0 || lexicon.Rank(w) {
			break
		}
		run = append([]string{w}, run...)
	}
	return strings.Join(run, " ")
}

// rankTitle decides a name no passage states that is a title of rank or
// part of one ("Duke of Sussex", "Knight Commander", "Order", "British
// Empire" of "Knight Commander of the Order of the British Empire";
// titleSpans) that the
// claim's sentence gives to a person the sources name (rankHolder):
// "Prince Harry, Duke of Sussex" where the page names Prince Harry only,
// "Tom Vey was appointed Knight Commander of …" where it says he was
// knighted. A title conferred is a fact of the person that a page about
// something else leaves out, or gives in another form ("knighted",
// "C.B.E."): the claim is undecided, with Why saying so. It stays
// unsupported where the sources do not name the person, and where they
// give the person a title of the same rank themselves ("Prince Harry,
// Duke of Sussex" for "Prince Harry, Duke of Cornwall").
func (ix *Index) rankTitle(c claim.Claim) (Verdict, bool) {
	if ablate.Off(ablate.RankTitle) || c.Kind != claim.Name {
		return Verdict{}, false
	}
	at := strings.Index(c.Sentence, c.Text)
	if at < 0 {
		return Verdict{}, false
	}
	var title titleSpan
	for _, t := range titleSpans(c.Sentence) {
		if t.start <= at && at+len(c.Text) <= t.end && title.rank == "" {
			title = t // the outermost: "Grand Duke of …", not its "Duke of …"
		}
	}
	if title.rank == "" {
		return Verdict{}, false
	}
	holder := rankHolder(c.Sentence, title.start)
	if holder == "" {
		return Verdict{}, false
	}
	rank := title.rank
	p := ix.findName(claim.Claim{Kind: claim.Name, Text: holder, Value: strings.ToLower(holder), Sentence: holder})
	if p == nil || ix.titledOtherwise(holder, rank) {
		return Verdict{}, false
	}
	return Verdict{Status: Undecided, Evidence: p,
		Why: fmt.Sprintf("the source names %s but not the title %q the sentence gives", holder, c.Sentence[title.start:title.end])}, true
}

// titledOtherwise reports whether a passage gives the person holder a
// title of the rank: the last word of holder, then within four words the
// rank and "of" ("Harry, Duke of", "Vey was appointed Knight Commander
// of").
func (ix *Index) titledOtherwise(holder, rank string) bool {
	hw := strings.Fields(holder)
	last := strings.ToLower(strings.Trim(hw[len(hw)-1], ".,'"))
	rw := strings.Fields(rank)
	stems := claim.ContentWords(last)
	if len(stems) == 0 {
		return false
	}
	for _, part := range ix.parts {
		for _, id := range part.words[stems[0]] {
			words := strings.Fields(part.passages[id].Text)
			for i, w := range words {
				w = strings.ToLower(strings.Trim(w, ".,;:\"“”"))
				w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
				if w != last {
					continue
				}
				for j := i + 1; j <= i+4 && j+len(rw) < len(words); j++ {
					if !strings.EqualFold(strings.Join(trimAll(words[j:j+len(rw)]), " "), rank) {
						continue
					}
					k := j + len(rw)
					if words[k] == "of" || k+1 < len(words) && capitalized(words[k]) && words[k+1] == "of" {
						return true
					}
				}
			}
		}
	}
	return false
}

// trimAll returns words without the punctuation around each.
func trimAll(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = strings.Trim(w, ".,;:\"'“”")
	}
	return out
}
