package claim

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// curlyQuoteRE finds text in curly quotation marks on one line, at most
// 600 bytes.
var curlyQuoteRE = regexp.MustCompile(`“([^”\n]{1,600})”`)

// straightQuotes returns the spans [start, end) inside straight quotation
// marks on one line, at most 600 bytes: an opening mark starts the text or
// follows a space or an opening bracket, and is followed by a non-space; a
// closing mark follows a non-space and precedes no letter or digit. A
// stray mark (12" vinyl, an unclosed quotation) so pairs with nothing
// rather than turning the text between two quotations into one.
func straightQuotes(text string) [][2]int {
	var out [][2]int
	for i := 0; i < len(text); i++ {
		if text[i] != '"' || i > 0 && !strings.ContainsRune(" \t\n([{", rune(text[i-1])) || i+1 >= len(text) || isSpace(text[i+1]) {
			continue
		}
		for j := i + 1; j < len(text) && j-i <= 601 && text[j] != '\n'; j++ {
			if text[j] != '"' {
				continue
			}
			if !isSpace(text[j-1]) && (j+1 == len(text) || !isWordRune(rune(text[j+1]))) {
				out = append(out, [2]int{i + 1, j})
				i = j
			}
			break
		}
	}
	return out
}

// Limits of a quotation read as a claim.
const (
	// minQuoteWords is the fewest words a quotation must have to be
	// checked word for word: a shorter one ("the best") is as often a
	// phrase set off as a quotation, and a source may put it otherwise.
	minQuoteWords = 4
)

// quotes adds a Quote claim for each quotation of a sentence or a phrase
// that is someone's words: minQuoteWords words or more, at least half of
// them starting in lower case. A title in quotation marks ("Maiden
// Heaven: A Tribute to Iron Maiden", "Master of Puppets") is capitalized
// word by word and is read as a name instead. A quotation's bytes are not
// taken: the names, numbers and dates inside it are claims too.
func (x *extractor) quotes() {
	var spans [][2]int
	for _, m := range curlyQuoteRE.FindAllStringSubmatchIndex(x.text, -1) {
		spans = append(spans, [2]int{m[2], m[3]})
	}
	if strings.Contains(x.text, `"`) {
		spans = append(spans, straightQuotes(x.text)...)
	}
	for _, sp := range spans {
		if len(x.claims) > MaxClaims {
			return
		}
		s, e := sp[0], sp[1]
		q := strings.TrimSpace(x.text[s:e])
		if !isQuotation(q) {
			continue
		}
		s += strings.Index(x.text[s:e], q)
		x.add(Claim{Kind: Quote, Start: s, End: s + len(q), Value: strings.ToLower(q)})
	}
}

// isQuotation reports whether q reads as someone's words rather than a
// title: minQuoteWords words or more, at least half of those that start
// with a letter starting in lower case.
func isQuotation(q string) bool {
	words := strings.Fields(q)
	if len(words) < minQuoteWords {
		return false
	}
	lower, letters := 0, 0
	for _, w := range words {
		w = strings.TrimLeft(w, "([{'‘\"")
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		if unicode.IsLower(r) {
			lower++
		}
	}
	return letters >= minQuoteWords && 2*lower >= letters
}

// QuoteParts splits a quotation at its ellipses ("...", "…", "[...]") and
// bracketed insertions ("[the band's]"), which mark words the quoting
// text left out or put in: each part is a run of the source's own words.
func QuoteParts(q string) []string {
	return strings.FieldsFunc(quotePartsRE.ReplaceAllString(q, "\x00"), func(r rune) bool { return r == 0 })
}

var quotePartsRE = regexp.MustCompile(`\[[^\]]*\]|\.\s*\.\s*\.|…`)
