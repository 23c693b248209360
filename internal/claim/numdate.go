package claim

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/agentjudge/judge/internal/ablate"
)

var (
	// dmyNumRE: a date in digits with the year last ("31.12.2009",
	// "12/31/2009", "31-12-2009"); ymdNumRE: with the year first
	// ("2009/12/31", "2009.12.31"; "2009-12-31" is isoDateRE's).
	dmyNumRE = regexp.MustCompile(`\b(\d{1,2})([./-])(\d{1,2})([./-])(\d{4})\b`)
	ymdNumRE = regexp.MustCompile(`\b(\d{4})([./])(\d{1,2})([./])(\d{1,2})\b`)
)

// numericDates extracts dates written in digits with dots, slashes or
// hyphens, before versions and numbers can take them: "31.12.2009" is a
// date, not version 31.12.2009, and "12/31/2009" not the numbers 12 and
// 31 and the year 2009. One after "version", "release" or "build" is a
// version ("version 1.12.2009"). Both separators must be the same, the year from
// 1500 to 2100, and the match must not be part of a longer dotted or
// slashed run of digits ("1.2.31.12.2009", "10/12/2009/4"). Which of the
// first two numbers is the month is decided where one of them exceeds 12;
// where neither does, a date with dots is read day first, as the
// countries writing dates with dots write them ("05.04.2010" is 5 April),
// and one with slashes or hyphens, which the United States writes month
// first and most others day first, keeps only its year.
func (x *extractor) numericDates() {
	if ablate.Off(ablate.NumericDate) || !mayHoldNumericDate(x.text) {
		return
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	for _, re := range []*regexp.Regexp{ymdNumRE, dmyNumRE} {
		for _, m := range re.FindAllStringSubmatchIndex(x.text, -1) {
			sep := x.group(m, 2)
			if sep != x.group(m, 4) || x.longerRun(m[0], m[1]) || versionBefore(x.text[:m[0]]) {
				continue
			}
			// Year first is always year, month, day.
			d, ok := DateValue{Year: atoi(x.group(m, 1)), Month: atoi(x.group(m, 3)), Day: atoi(x.group(m, 5))}, true
			if re == dmyNumRE {
				d, ok = dayMonth(atoi(x.group(m, 5)), atoi(x.group(m, 1)), atoi(x.group(m, 3)), sep == ".")
			}
			if !ok || d.Year < 1500 || d.Year > 2100 || d.Month < 1 && d.Day > 0 || d.Month > 12 || d.Day > 31 {
				continue
			}
			if d.Month > 0 && d.Day < 1 || !x.take(m[0], m[1]) {
				continue
			}
			x.add(Claim{Kind: Date, Start: m[0], End: m[1], Value: d.String()})
		}
	}
}

// versionWords name a version after them.
var versionWords = setOf(`version versions release releases build v`)

// versionBefore reports whether s ends in a word of versionWords (as
// lastWord reads words), reading no more of s than the longest of them:
// not all of a long word before each of many dates.
func versionBefore(s string) bool {
	s = strings.TrimRight(s, " \t\n")
	tail := s[max(0, len(s)-len("releases")-1):]
	i := strings.LastIndexAny(tail, " \t\n(\"'")
	if i < 0 && len(tail) < len(s) {
		return false // a word longer than any of versionWords
	}
	return versionWords[strings.ToLower(tail[i+1:])]
}

// dayMonth reads a date in digits with the year y last and the numbers a
// and b before it: the one above 12 is the day; where neither is, a is
// the day if dayFirst, and the date keeps only its year otherwise. A
// zero, or both above 12, is no date.
func dayMonth(y, a, b int, dayFirst bool) (DateValue, bool) {
	switch {
	case a == 0 || b == 0 || a > 12 && b > 12:
		return DateValue{}, false
	case a > 12:
		return DateValue{Year: y, Month: b, Day: a}, true
	case b > 12:
		return DateValue{Year: y, Month: a, Day: b}, true
	case dayFirst:
		return DateValue{Year: y, Month: b, Day: a}, true
	}
	return DateValue{Year: y}, true
}

// longerRun reports whether [s, e) is part of a longer run of numbers
// joined by dots, slashes or hyphens: a version, a path or a code, not a
// date.
func (x *extractor) longerRun(s, e int) bool {
	joined := func(c byte) bool { return c == '.' || c == '/' || c == '-' }
	if s >= 2 && joined(x.text[s-1]) && isDigit(x.text[s-2]) {
		return true
	}
	return e+1 < len(x.text) && joined(x.text[e]) && isDigit(x.text[e+1])
}

// mayHoldNumericDate reports whether s holds a digit, a dot, slash or
// hyphen, one or two digits and the same mark again ("1.12.", "31/12/"):
// without it neither pattern can match, and most texts are spared both.
func mayHoldNumericDate(s string) bool {
	for i := 1; i+3 < len(s); i++ {
		c := s[i]
		if c != '.' && c != '/' && c != '-' || !isDigit(s[i-1]) || !isDigit(s[i+1]) {
			continue
		}
		if s[i+2] == c || isDigit(s[i+2]) && s[i+3] == c {
			return true
		}
	}
	return false
}
