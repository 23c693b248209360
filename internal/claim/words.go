package claim

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/ablate"
)

// stopwords are function words: never a name on their own, never what a
// value measures.
var stopwords = setOf(`a an the this that these those it its it's he she they them their his her him we us our you your i me my
and or but nor so yet for of in on at to by from with without into onto over under about above below between
is was are were be been being am do does did has have had having will would shall should can could may might must
not no never as than then there here when where which who whom whose what why how while if because also just only
some any all each every both either neither such other another more most less least many much few very too
after before since until upon per via among across around during through within along
however meanwhile also yesterday today tomorrow tonight now later earlier still even yes ok okay`)

// linkWords sit between an attribute and its value: "score of 9.8",
// "score is 9.8", "score: 9.8".
var linkWords = setOf(`of is was are were be been at to : = stands stood reached rated scored equals equal totals totalled totaled hit with by as`)

// certaintyWords are the words of certainty language.
var certaintyWords = []string{"definitely", "certainly", "confirmed", "undoubtedly", "without a doubt", "no doubt",
	"guaranteed", "absolutely", "unquestionably", "proven", "100%", "100 percent", "indisputably", "beyond doubt", "for sure", "officially"}

// negators are the words that negate a statement.
var negators = setOf(`not never no none nothing nobody neither nor cannot without n't`)

// monthNames maps month names and abbreviations to their number.
var monthNames = map[string]int{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
	"august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}

// MonthName returns the English name of month m (1-12).
func MonthName(m int) string {
	names := [...]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	if m < 1 || m > 12 {
		return ""
	}
	return names[m-1]
}

var weekdays = setOf(`monday tuesday wednesday thursday friday saturday sunday`)

// numberWords are the number words read as numbers.
var numberWords = map[string]float64{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
	"eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
	"eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
	"eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000, "dozen": 12, "half": 0.5,
	"twice": 2, "thrice": 3, "once": 1, "double": 2, "triple": 3, "single": 1, "both": 2,
}

// scales multiply the number before them.
var scales = map[string]float64{
	"hundred": 100, "thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "mln": 1e6, "billion": 1e9, "bn": 1e9, "bln": 1e9, "b": 1e9,
	"trillion": 1e12, "tn": 1e12, "lakh": 1e5, "crore": 1e7,
}

// agents turn "<verb> by NAME" into the role of NAME.
var agents = map[string]string{
	"discovered": "discoverer", "found": "finder", "reported": "reporter", "written": "author", "wrote": "author",
	"authored": "author", "founded": "founder", "created": "creator", "developed": "developer", "published": "publisher",
	"led": "leader", "directed": "director", "invented": "inventor", "owned": "owner", "maintained": "maintainer",
	"fixed": "fixer", "patched": "patcher", "designed": "designer", "built": "builder", "acquired": "acquirer",
	"identified": "identifier", "disclosed": "discloser", "signed": "signatory", "produced": "producer",
	"presented": "presenter", "hosted": "host", "killed": "killer", "arrested": "arresting party", "elected": "electorate",
}

// dateNouns turn "<verb> in/on DATE" into what the date is of.
var dateNouns = map[string]string{
	"discovered": "discovery", "found": "discovery", "published": "publication", "released": "release", "reported": "report",
	"founded": "founding", "born": "birth", "disclosed": "disclosure", "fixed": "fix", "patched": "patch",
	"announced": "announcement", "launched": "launch", "created": "creation", "died": "death", "signed": "signing",
	"updated": "update", "issued": "issue", "filed": "filing", "introduced": "introduction", "acquired": "acquisition",
	"arrested": "arrest", "elected": "election", "opened": "opening", "closed": "closing", "started": "start", "ended": "end",
	"identified": "identification", "detected": "detection", "revealed": "disclosure", "uncovered": "discovery", "spotted": "discovery",
	"established": "establishment", "formed": "formation",
}

// eventFamilies group the date nouns whose verbs date one event in
// different words: a flaw "discovered" in March is the flaw "reported",
// "disclosed" or "published" that month in another text.
var eventFamilies = map[string]string{
	"discovery": "known", "report": "known", "disclosure": "known", "publication": "known", "identification": "known",
	"detection": "known", "announcement": "known",
	"founding": "start", "creation": "start", "establishment": "start", "formation": "start", "opening": "start",
	"release": "release", "launch": "release", "introduction": "release",
	"fix": "fix", "patch": "fix",
}

// IsEventVerb reports whether stem is the stem of a verb whose date a
// claim's attribute names ("discover", "report").
func IsEventVerb(stem string) bool {
	for v := range dateNouns {
		if Stem(v) == stem {
			return true
		}
	}
	return false
}

// Event returns the family of the event a date claim dates, from its
// attribute ("discovery date" and "report date" are both "known"), or ""
// when the date is of no event the text names.
func (c Claim) Event() string {
	noun, ok := strings.CutSuffix(c.Attribute, " date")
	if c.Kind != Date || !ok {
		return ""
	}
	return eventFamilies[noun]
}

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// IsStopword reports whether w, in lower case, is a function word.
func IsStopword(w string) bool { return stopwords[w] }

// Words splits s into lower-case word tokens: runs of letters and digits,
// joined across an inner dot, hyphen or apostrophe ("u.s", "follow-up",
// "1.24.1"). A possessive "'s" is removed.
func Words(s string) []string {
	var out []string
	WordsFunc(s, func(w string, _, _ int) { out = append(out, w) })
	return out
}

// WordsFunc calls f with each lower-case word of s and its byte span.
func WordsFunc(s string, f func(w string, start, end int)) {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isWordRune(r) {
			i += n
			continue
		}
		start := i
		for i < len(s) {
			r, n := utf8.DecodeRuneInString(s[i:])
			if isWordRune(r) {
				i += n
				continue
			}
			// inner . - ' ’ joined to a following letter or digit
			if (r == '.' || r == '-' || r == '\'' || r == '’') && i+n < len(s) {
				r2, _ := utf8.DecodeRuneInString(s[i+n:])
				if isWordRune(r2) {
					i += n
					continue
				}
			}
			break
		}
		w := strings.ToLower(s[start:i])
		if strings.Contains(w, "’") && !ablate.Off(ablate.Apostrophe) {
			// "O’Brien" and "O'Brien", "d’Ivoire" and "d'Ivoire" are one
			// word: a typographic apostrophe is the same mark.
			w = strings.ReplaceAll(w, "’", "'")
		}
		end := i
		for _, suf := range []string{"'s", "’s"} {
			if strings.HasSuffix(w, suf) && len(w) > len(suf) {
				w = w[:len(w)-len(suf)]
			}
		}
		f(w, start, end)
	}
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// Stem reduces a lower-case word to a crude stem so that plural and
// inflected forms meet: "versions" and "version", "affects" and
// "affected" and "affecting"; a word in British spelling is read in
// American spelling first ("colours" and "colors"; american).
func Stem(w string) string {
	if len(w) <= 3 {
		return w
	}
	if a := american(w); a != w && !ablate.Off(ablate.Spelling) {
		w = a // "colour" and "color", "centre" and "center"
	}
	for _, suf := range []string{"ies", "ing", "ed", "es", "s", "ly"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
			b := w[:len(w)-len(suf)]
			switch suf {
			case "ies":
				return b + "y"
			case "s":
				if strings.HasSuffix(b, "s") || strings.HasSuffix(b, "u") || strings.HasSuffix(b, "i") {
					return w
				}
			case "es":
				if !strings.HasSuffix(b, "sh") && !strings.HasSuffix(b, "ch") && !strings.HasSuffix(b, "x") && !strings.HasSuffix(b, "ss") {
					b = w[:len(w)-1] // "scores" -> "score"
				}
			case "ed", "ing":
				if n := len(b); n >= 2 && b[n-1] == b[n-2] && b[n-1] != 'l' && b[n-1] != 's' {
					b = b[:n-1] // "stopped" -> "stop"
				}
			}
			return strings.TrimSuffix(b, "e")
		}
	}
	return strings.TrimSuffix(w, "e")
}

// ContentWords returns the stems of the words of s that are not function
// words, without duplicates, in order.
func ContentWords(s string) []string {
	var out []string
	seen := map[string]bool{}
	WordsFunc(s, func(w string, _, _ int) {
		if stopwords[w] || negators[w] || len(w) < 2 {
			return
		}
		st := Stem(w)
		if !seen[st] {
			seen[st] = true
			out = append(out, st)
		}
	})
	return out
}
