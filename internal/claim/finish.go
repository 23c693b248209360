package claim

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/agentjudge/judge/internal/ablate"
)

// Span is a byte range [Start, End) of a text.
type Span struct{ Start, End int }

// abbreviations end in a dot that does not end a sentence.
var abbreviations = setOf(`mr mrs ms dr prof st jr sr vs etc e.g i.e inc ltd co corp jan feb mar apr jun jul aug sep sept oct nov dec no approx fig u.s u.k`)

// Sentences splits text into sentences: at ".", "!" or "?" followed by
// white space (unless the dot ends an abbreviation, a single letter or a
// number), and at line breaks.
func Sentences(text string) []Span {
	var out []Span
	start := 0
	emit := func(end, next int) {
		s, e := start, end
		for s < e && isSpace(text[s]) {
			s++
		}
		for e > s && isSpace(text[e-1]) {
			e--
		}
		if e > s {
			out = append(out, Span{s, e})
		}
		start = next
	}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '\n':
			emit(i, i+1)
		case '.', '!', '?':
			j := i + 1
			for j < len(text) && (text[j] == '"' || text[j] == '\'' || text[j] == ')' || text[j] == '.' || text[j] == '!' || text[j] == '?') {
				j++
			}
			if j < len(text) && text[j] != ' ' && text[j] != '\t' && text[j] != '\n' {
				continue
			}
			if c == '.' && dotContinues(text[start:i], text[j:]) {
				continue
			}
			emit(j, j)
			i = j - 1
		}
	}
	emit(len(text), len(text))
	return out
}

func endsAbbreviation(s string) bool {
	i := strings.LastIndexAny(s, " \t\n(\"")
	w := strings.ToLower(s[i+1:])
	if len(w) == 1 && w[0] >= 'a' && w[0] <= 'z' {
		return true // an initial: "J. Smith"
	}
	if initialism(s) && !ablate.Off(ablate.Initialism) {
		return true // "The A.V. Club", "Washington, D.C."
	}
	return abbreviations[w]
}

// dotContinues reports whether a dot between before and after ends no
// sentence: it ends an abbreviation (but an initialism's dot before a
// capitalized function word ends the sentence too), or an abbreviated
// title before a name ("Gen. Douglas MacArthur").
func dotContinues(before, after string) bool {
	if titleBefore(before, after) {
		return true
	}
	if !endsAbbreviation(before) {
		return false
	}
	return !(initialism(before) && opensSentence(after) && !ablate.Off(ablate.Initialism))
}

// initialism reports whether s ends in letters each followed by a dot
// but the last ("A.V", "D.C", "U.S"): an abbreviation written with its
// initials, whose final dot may end the sentence as well.
func initialism(s string) bool {
	w := s[strings.LastIndexAny(s, " \t\n(\"")+1:]
	if len(w) < 3 {
		return false
	}
	for k := 0; k < len(w); k++ {
		letter := w[k] >= 'A' && w[k] <= 'Z' || w[k] >= 'a' && w[k] <= 'z'
		if k%2 == 0 && !letter || k%2 == 1 && w[k] != '.' {
			return false
		}
	}
	return len(w)%2 == 1
}

// opensSentence reports whether rest, the text after an abbreviation's
// dot, starts with a capitalized function word ("The", "He", "In"),
// which starts a new sentence: "in the U.S. The company" is two, "The
// A.V. Club" one.
func opensSentence(rest string) bool {
	w := strings.TrimLeft(rest, " \t")
	if k := strings.IndexAny(w, " \t\n\r"); k >= 0 {
		w = w[:k] // the first word only: not the rest of a text without spaces
	}
	w = strings.TrimRight(w, ",;:")
	return w != "" && w[0] >= 'A' && w[0] <= 'Z' && stopwords[strings.ToLower(w)]
}

// titleBefore reports whether before ends in an abbreviated title written
// capitalized ("Gen", "Sen") and after, past spaces, starts with a
// capitalized word other than a function word: "Gen. Douglas MacArthur"
// is one sentence, "He made Col. The next year he left." two.
func titleBefore(before, after string) bool {
	if ablate.Off(ablate.TitleDot) {
		return false
	}
	i := strings.LastIndexAny(before, " \t\n(\"")
	after = strings.TrimLeft(after, " \t")
	if !titleAbbrevs[before[i+1:]] || after == "" || after[0] < 'A' || after[0] > 'Z' {
		return false
	}
	next := strings.ToLower(firstWord(after))
	return !stopwords[next] && !negators[next] // "promoted to Col. The next year": two sentences
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// finish sets each claim's line, column, sentence, attribute and certainty.
func (x *extractor) finish() {
	lines := []int{0}
	for i := 0; i < len(x.text); i++ {
		if x.text[i] == '\n' {
			lines = append(lines, i+1)
		}
	}
	lastSent, lastWord := Span{-1, -1}, ""
	for i := range x.claims {
		c := &x.claims[i]
		c.Path = x.path
		l := sort.Search(len(lines), func(j int) bool { return lines[j] > c.Start })
		c.Line, c.Col = l, c.Start-lines[l-1]+1
		sent := Span{0, len(x.text)}
		if k := sort.Search(len(x.sents), func(j int) bool { return x.sents[j].End > c.Start }); k < len(x.sents) && x.sents[k].Start <= c.Start {
			sent = x.sents[k]
		}
		c.Sentence = x.text[sent.Start:sent.End]
		// Only the words just before a value can name it: read at most
		// 200 bytes back, so that a long sentence costs linear time.
		from := max(sent.Start, c.Start-200)
		for from > sent.Start && from < c.Start && !isSpace(x.text[from]) {
			from++
		}
		c.Attribute = attribute(x.text[from:c.Start], *c)
		if sent != lastSent {
			lastSent, lastWord = sent, certainty(c.Sentence)
		}
		if lastWord != "" {
			c.Certain, c.CertainWord = true, lastWord
		}
	}
}

// certainty returns the certainty word in s, or "".
func certainty(s string) string {
	low := strings.ToLower(s)
	for _, w := range certaintyWords {
		if i := strings.Index(low, w); i >= 0 {
			before := i == 0 || !isWordRune(rune(low[i-1]))
			after := i+len(w) == len(low) || !isWordRune(rune(low[i+len(w)]))
			if before && after {
				return w
			}
		}
	}
	return ""
}

// attribute names what c measures from the words before it in its
// sentence: "a CVSS score of 9.8" gives "CVSS score", "discovered by
// Alice Smith" gives "discoverer", "discovered in March" gives "discovery
// date".
func attribute(before string, c Claim) string {
	type tok struct{ w, orig string }
	var toks []tok
	WordsFunc(before, func(w string, s, e int) { toks = append(toks, tok{w, before[s:e]}) })
	// A colon or "=" right before the value links it like "is".
	trimmed := strings.TrimRight(before, " \t(")
	colon := strings.HasSuffix(trimmed, ":") || strings.HasSuffix(trimmed, "=")
	if strings.HasSuffix(trimmed, ",") || strings.HasSuffix(trimmed, ";") {
		return ""
	}
	// An adverb between attribute and value says nothing of what it is:
	// "the score is definitely 9.8".
	for len(toks) > 1 && strings.HasSuffix(toks[len(toks)-1].w, "ly") && !linkWords[toks[len(toks)-1].w] {
		toks = toks[:len(toks)-1]
	}
	n := len(toks)
	switch c.Kind {
	case Name:
		if n >= 2 && toks[n-1].w == "by" {
			if role, ok := agents[toks[n-2].w]; ok {
				return role
			}
			return toks[n-2].w + " by"
		}
	case Date:
		if n >= 1 && (toks[n-1].w == "in" || toks[n-1].w == "on" || toks[n-1].w == "since") {
			// The verb the date belongs to may sit a few words back:
			// "discovered by Alice Smith in March 2024".
			for j := n - 2; j >= 0 && j >= n-7; j-- {
				if noun, ok := dateNouns[toks[j].w]; ok {
					return noun + " date"
				}
			}
			return ""
		}
	case VersionRange:
		low := strings.ToLower(c.Sentence)
		if strings.Contains(low, "affect") || strings.Contains(low, "vulnerab") {
			return "affected versions"
		}
		return "versions"
	case Negation, Citation, URL, Email:
		return ""
	}
	// Skip one linking word ("of", "is", ":"), then take up to three
	// content words.
	i := n - 1
	if !colon && i >= 0 && linkWords[toks[i].w] {
		i--
		if i >= 0 && (toks[i].w == "is" || toks[i].w == "was" || toks[i].w == "be") {
			i--
		}
	} else if !colon {
		return ""
	}
	var words []string
	for ; i >= 0 && len(words) < 3; i-- {
		w := toks[i].w
		if stopwords[w] || negators[w] || linkWords[w] {
			break
		}
		if _, err := strconv.ParseFloat(w, 64); err == nil {
			break
		}
		orig := toks[i].orig
		if strings.ToUpper(orig) != orig || len(orig) == 1 {
			orig = strings.ToLower(orig)
		}
		words = append([]string{orig}, words...)
	}
	if len(words) == 0 {
		return ""
	}
	if c.Kind == Date && len(words) == 1 {
		if noun, ok := dateNouns[strings.ToLower(words[0])]; ok {
			return noun + " date"
		}
	}
	return strings.Join(words, " ")
}

// DateValue is a date with any part unknown (zero): a year, a month, a
// month and day, a weekday.
type DateValue struct {
	Year, Month, Day int
	Weekday          string // "thursday", or ""
	// Period is the number of years a decade or century spans (10, 100),
	// starting at Year ("the 1990s" is 1990 and 10; "the 19th century"
	// 1800 and 101, since it is counted both as 1800–1899 and
	// 1801–1900); 0 for a date.
	Period int
}

// Last is the last year d spans: Year for a date, the period's last year
// for a decade or century.
func (d DateValue) Last() int {
	if d.Period == 0 {
		return d.Year
	}
	return d.Year + d.Period - 1
}

// Holds reports whether year y falls in d's year or period.
func (d DateValue) Holds(y int) bool { return d.Year != 0 && y >= d.Year && y <= d.Last() }

// String renders d as "YYYY-MM-DD" with "?" for unknown parts, or
// "weekday:thursday".
func (d DateValue) String() string {
	if d.Weekday != "" {
		return "weekday:" + d.Weekday
	}
	if d.Period != 0 {
		return fmt.Sprintf("period:%d-%d", d.Year, d.Last())
	}
	part := func(n, width int) string {
		if n == 0 {
			return "?"
		}
		return fmt.Sprintf("%0*d", width, n)
	}
	return part(d.Year, 4) + "-" + part(d.Month, 2) + "-" + part(d.Day, 2)
}

// Human renders d for a message: "February 2024", "June 26", "2024".
func (d DateValue) Human() string {
	switch {
	case d.Weekday != "":
		return upperFirst(d.Weekday)
	case d.Period == 10:
		return fmt.Sprintf("the %ds", d.Year)
	case d.Period != 0:
		return fmt.Sprintf("the %s century", ordinal(d.Year/100+1))
	case d.Month != 0 && d.Day != 0 && d.Year != 0:
		return fmt.Sprintf("%s %d, %d", MonthName(d.Month), d.Day, d.Year)
	case d.Month != 0 && d.Year != 0:
		return fmt.Sprintf("%s %d", MonthName(d.Month), d.Year)
	case d.Month != 0 && d.Day != 0:
		return fmt.Sprintf("%s %d", MonthName(d.Month), d.Day)
	case d.Month != 0:
		return MonthName(d.Month)
	}
	return strconv.Itoa(d.Year)
}

// ParseDate reads the Value of a Date claim.
func ParseDate(v string) (DateValue, bool) {
	if w, ok := strings.CutPrefix(v, "weekday:"); ok {
		return DateValue{Weekday: w}, true
	}
	if p, ok := strings.CutPrefix(v, "period:"); ok {
		lo, hi, _ := strings.Cut(p, "-")
		l, err1 := strconv.Atoi(lo)
		h, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || h < l {
			return DateValue{}, false
		}
		return DateValue{Year: l, Period: h - l + 1}, true
	}
	parts := strings.Split(v, "-")
	if len(parts) != 3 {
		return DateValue{}, false
	}
	var n [3]int
	for i, p := range parts {
		if p == "?" {
			continue
		}
		x, err := strconv.Atoi(p)
		if err != nil {
			return DateValue{}, false
		}
		n[i] = x
	}
	return DateValue{Year: n[0], Month: n[1], Day: n[2]}, true
}

// Agrees reports whether d and o can be the same date: every part both
// give is equal. Disagree lists the parts they both give that differ.
func (d DateValue) Agrees(o DateValue) bool { return len(d.Disagree(o)) == 0 }

// Disagree returns the names of the parts that d and o both give and that
// differ: "year", "month", "day", "weekday".
func (d DateValue) Disagree(o DateValue) []string {
	var out []string
	if d.Weekday != "" || o.Weekday != "" {
		if d.Weekday != "" && o.Weekday != "" && d.Weekday != o.Weekday {
			out = append(out, "weekday")
		}
		return out
	}
	if d.Period != 0 || o.Period != 0 {
		// A decade or century gives no month or day: it disagrees only
		// with a year outside it.
		if d.Year != 0 && o.Year != 0 && (d.Last() < o.Year || o.Last() < d.Year) {
			out = append(out, "year")
		}
		return out
	}
	if d.Year != 0 && o.Year != 0 && d.Year != o.Year {
		out = append(out, "year")
	}
	if d.Month != 0 && o.Month != 0 && d.Month != o.Month {
		out = append(out, "month")
	}
	if d.Day != 0 && o.Day != 0 && d.Day != o.Day {
		out = append(out, "day")
	}
	return out
}

// Shared reports whether d and o give at least one part in common.
func (d DateValue) Shared(o DateValue) bool {
	if d.Weekday != "" || o.Weekday != "" {
		return d.Weekday != "" && o.Weekday != ""
	}
	return d.Year != 0 && o.Year != 0 || d.Month != 0 && o.Month != 0 || d.Day != 0 && o.Day != 0
}

// ordinal writes n as "19th", "21st", "2nd".
func ordinal(n int) string {
	suf := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suf = "st"
		case 2:
			suf = "nd"
		case 3:
			suf = "rd"
		}
	}
	return strconv.Itoa(n) + suf
}
