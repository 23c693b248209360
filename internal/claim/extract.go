package claim

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/ablate"
)

var (
	urlRE   = regexp.MustCompile(`\bhttps?://[^\s<>"'\x60\[\]{}|\\^]+`)
	emailRE = regexp.MustCompile(`\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b`)
	cveRE   = regexp.MustCompile(`(?i)\bCVE-\d{4}-\d{4,7}\b`)
	// pathRE: absolute, home or dot-relative paths with two segments or
	// more, Windows paths, and relative paths ending in a file extension.
	pathRE = regexp.MustCompile(`(?:^|[\s(\x60"'=])((?:~|\.{1,2})?/(?:[A-Za-z0-9._@+-]+/)+[A-Za-z0-9._@+-]*|[A-Za-z]:\\(?:[A-Za-z0-9._ -]+\\)*[A-Za-z0-9._-]+|(?:[A-Za-z0-9_@+-][A-Za-z0-9._@+-]*/)+[A-Za-z0-9_@+-][A-Za-z0-9_@+-]*\.[A-Za-z][A-Za-z0-9]{0,4})\b`)

	versionCore = `v?\d+(?:\.\d+){1,3}(?:[-+][0-9A-Za-z.]+)?`
	rangeOpRE   = regexp.MustCompile(`(?i)\b(prior to|before|earlier than|older than|lower than|below|until|up to and including|up to|through|at most|after|later than|newer than|higher than|above|since|at least|starting (?:with|from|at)|from)\s+(?:versions?\s+|releases?\s+)?(` + versionCore + `)`)
	rangeSymRE  = regexp.MustCompile(`(<=|>=|≤|≥|<|>|==|=)\s*(` + versionCore + `)`)
	rangeSpanRE = regexp.MustCompile(`(?i)\b(?:versions?|releases?|v)\s+(` + versionCore + `)\s*(?:to|through|-|–)\s*(` + versionCore + `)\b`)
	versionRE   = regexp.MustCompile(`(?i)\bv?\d+\.\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.]+)?\b|(?i)\b(?:version|release|v)\s*\d+(?:\.\d+){1,3}\b`)

	monthAlt  = `(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?`
	isoDateRE = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})(?:\b|T\d)`)
	mdyRE     = regexp.MustCompile(`\b` + monthAlt + `\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(?:of\s+)?(\d{4})\b`)
	dmyRE     = regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthAlt + `,?\s+(\d{4})\b`)
	myRE      = regexp.MustCompile(`\b` + monthAlt + `,?\s+(?:of\s+)?(\d{4})\b`)
	mdRE      = regexp.MustCompile(`\b` + monthAlt + `\s+(\d{1,2})(?:st|nd|rd|th)?\b`)
	dmRE      = regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthAlt + `\b`)
	monthRE   = regexp.MustCompile(`\b(January|February|March|April|May|June|July|August|September|October|November|December)\b`)
	weekdayRE = regexp.MustCompile(`\b(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)s?\b`)
	// decadeRE: "the 1990s", "the 2000's", "the '90s" (a two-digit decade
	// only after "the", "mid", "early" or "late", read as 1920–1990).
	decadeRE   = regexp.MustCompile(`\b((?:1[0-9]|20)\d0)['’]?s\b|(?i:\b(?:the|mid|early|late)[- ]+)['’]?([2-9]0)['’]?s\b`)
	centuryRE  = regexp.MustCompile(`(?i)\b(?:(\d{1,2})(?:st|nd|rd|th)|(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty[- ]first))[- ]centur(?:y|ies)\b`)
	yearRE     = regexp.MustCompile(`\b(?i:in|of|since|by|until|during|from|year)\s+((?:1[89]|20)\d{2})\b`)
	timeRE     = regexp.MustCompile(`(?i)\b(\d{1,2}):(\d{2})\s*(am|pm|a\.m\.|p\.m\.)?|\b(\d{1,2})\s*(am|pm|a\.m\.|p\.m\.)`)
	moneyRE    = regexp.MustCompile(`(?i)([$€£¥])\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:[\s\x{00A0}]*(k|m|mn|mln|bn|bln|b|tn|million|billion|trillion|thousand)\b)?`)
	numberRE   = regexp.MustCompile(`(?i)(?:^|[^\w.,\-–])(-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?:[\s\x{00A0}]*(%|percent|per cent|percentage points?|k|mn|mln|bn|bln|tn|million|billion|trillion|thousand|hundred)\b|\s*(%))?`)
	numWordRE  = regexp.MustCompile(`(?i)\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|dozen|twice|thrice|double|triple)(?:[- ](one|two|three|four|five|six|seven|eight|nine))?(?:\s+(hundred|thousand|million|billion))?\b`)
	citationRE = regexp.MustCompile(`(?i)\b(?:according to|as reported by|as stated by|as published by|citing|source:)\s+(?:the\s+)?([A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*)`)
	colorRE    = regexp.MustCompile(`(?i)\b(red|orange|yellow|green|blue|purple|pink|white|black|brown|grey|gray|silver|gold|violet|turquoise)\b`)
	nameRE     = regexp.MustCompile(`\b` + nameWord + `(?:[ \t]+(?:(?:of|de|van|von|der|den|la|le|du|da|del|bin|al|the)[ \t]+)?` + nameWord + `)*`)
	negRE      = regexp.MustCompile(`(?i)\b(not|never|no|none|nothing|nobody|neither|nor|cannot|without)\b|n['’]t\b`)
)

// nameWord is one word of a name: a capitalized word, or an abbreviation
// written with dots ("U.S.", "D.C", "A.V."), which the name goes on after
// ("The A.V. Club", "U.S. Navy"); a function word after it is trimmed as
// after any word ("the U.S. The company" names "U.S").
const nameWord = `(?:[A-Z](?:\.[A-Z])+\b\.?|[A-Z][\p{L}\d'’-]*)`

// Extract returns the claims of text. path is the field path of the JSON
// string text came from, or "" when text is the output itself.
func Extract(text, path string) Set {
	var set Set
	if len(text) > MaxTextBytes {
		text = text[:MaxTextBytes]
		set.Truncated = true
	}
	x := &extractor{text: text, path: path, taken: make([]bool, len(text)), sents: Sentences(text)}
	x.run()
	sort.SliceStable(x.claims, func(i, j int) bool { return x.claims[i].Start < x.claims[j].Start })
	if len(x.claims) > MaxClaims {
		x.claims = x.claims[:MaxClaims]
		set.Truncated = true
	}
	x.finish()
	x.conversions()
	set.Claims = x.claims
	return set
}

type extractor struct {
	// has* say what the text holds, so that patterns that cannot match
	// are not run.
	hasDigit, hasUpper bool
	lower              string
	text               string
	path               string
	taken              []bool
	sents              []Span
	claims             []Claim
}

// free reports whether no byte of [s, e) is taken, and takes them if so.
func (x *extractor) take(s, e int) bool {
	for i := s; i < e; i++ {
		if x.taken[i] {
			return false
		}
	}
	for i := s; i < e; i++ {
		x.taken[i] = true
	}
	return true
}

func (x *extractor) add(c Claim) {
	if len(x.claims) > MaxClaims {
		return
	}
	c.Text = x.text[c.Start:c.End]
	x.claims = append(x.claims, c)
}

// each calls f for each match of re in text whose group g span is free,
// after taking it.
func (x *extractor) each(re *regexp.Regexp, g int, f func(m []int)) {
	for _, m := range re.FindAllStringSubmatchIndex(x.text, -1) {
		if len(x.claims) > MaxClaims {
			return
		}
		s, e := m[2*g], m[2*g+1]
		if s < 0 || !x.take(s, e) {
			continue
		}
		f(m)
	}
}

func (x *extractor) group(m []int, g int) string {
	if m[2*g] < 0 {
		return ""
	}
	return x.text[m[2*g]:m[2*g+1]]
}

func (x *extractor) run() {
	x.hasDigit = strings.ContainsAny(x.text, "0123456789")
	x.hasUpper = strings.ContainsFunc(x.text, func(r rune) bool { return r >= 'A' && r <= 'Z' })
	x.lower = strings.ToLower(x.text)
	if strings.Contains(x.lower, "http") {
		x.urls()
	}
	if strings.Contains(x.text, "@") {
		x.each(emailRE, 0, func(m []int) {
			x.add(Claim{Kind: Email, Start: m[0], End: m[1], Value: strings.ToLower(x.group(m, 0))})
		})
	}
	if strings.Contains(x.lower, "cve-") {
		x.each(cveRE, 0, func(m []int) {
			x.add(Claim{Kind: CVE, Start: m[0], End: m[1], Value: strings.ToUpper(x.group(m, 0))})
		})
	}
	if strings.ContainsAny(x.text, "/\\") {
		x.each(pathRE, 1, func(m []int) {
			p := x.group(m, 1)
			if onlyDigitsAndSlashes(p) {
				return
			}
			x.add(Claim{Kind: Path, Start: m[2], End: m[3], Value: p})
		})
	}
	if x.hasDigit && strings.ContainsAny(x.text, "./-") {
		x.numericDates()
	}
	if x.hasDigit && strings.Contains(x.text, ".") {
		x.versions()
	}
	x.dates()
	if x.hasDigit {
		x.times()
	}
	x.numbers()
	if strings.Contains(x.lower, "accord") || strings.Contains(x.lower, "cit") || strings.Contains(x.lower, "source:") || strings.Contains(x.lower, " by ") {
		x.each(citationRE, 1, func(m []int) {
			name := trimName(x.group(m, 1))
			if name == "" {
				return
			}
			x.add(Claim{Kind: Citation, Start: m[2], End: m[2] + len(name), Value: strings.ToLower(name)})
		})
	}
	if x.hasUpper {
		x.names()
	}
	if containsAny(x.lower, colorList) {
		x.each(colorRE, 1, func(m []int) {
			x.add(Claim{Kind: Color, Start: m[2], End: m[3], Value: strings.ToLower(x.group(m, 1))})
		})
	}
	x.negations()
}

func (x *extractor) urls() {
	x.each(urlRE, 0, func(m []int) {
		e := m[1]
		for e > m[0] && strings.ContainsRune(".,;:!?)'\"", rune(x.text[e-1])) {
			e--
		}
		for i := e; i < m[1]; i++ {
			x.taken[i] = false
		}
		u := x.text[m[0]:e]
		x.add(Claim{Kind: URL, Start: m[0], End: e, Value: strings.TrimSuffix(strings.ToLower(u), "/")})
	})
}

func (x *extractor) versions() {
	x.each(rangeSpanRE, 0, func(m []int) {
		lo, hi := normVersion(x.group(m, 1)), normVersion(x.group(m, 2))
		x.add(Claim{Kind: VersionRange, Start: m[2], End: m[5], Value: ">=" + lo + ",<=" + hi})
	})
	x.each(rangeOpRE, 0, func(m []int) {
		op := rangeOp(x.group(m, 1))
		x.add(Claim{Kind: VersionRange, Start: m[0], End: m[1], Value: op + normVersion(x.group(m, 2))})
	})
	x.each(rangeSymRE, 0, func(m []int) {
		op := map[string]string{"≤": "<=", "≥": ">=", "==": "=", "=": "="}[x.group(m, 1)]
		if op == "" {
			op = x.group(m, 1)
		}
		x.add(Claim{Kind: VersionRange, Start: m[0], End: m[1], Value: op + normVersion(x.group(m, 2))})
	})
	x.each(versionRE, 0, func(m []int) {
		v := x.group(m, 0)
		x.add(Claim{Kind: Version, Start: m[0], End: m[1], Value: normVersion(v)})
	})
}

func (x *extractor) times() {
	x.each(timeRE, 0, func(m []int) {
		h, mi, ampm := x.group(m, 1), x.group(m, 2), x.group(m, 3)
		if h == "" {
			h, mi, ampm = x.group(m, 4), "00", x.group(m, 5)
		}
		hh, _ := strconv.Atoi(h)
		mm, _ := strconv.Atoi(mi)
		if hh > 24 || mm > 59 {
			return
		}
		ampm = strings.ToLower(strings.ReplaceAll(ampm, ".", ""))
		if ampm == "pm" && hh < 12 {
			hh += 12
		}
		if ampm == "am" && hh == 12 {
			hh = 0
		}
		x.add(Claim{Kind: Time, Start: m[0], End: m[1], Value: strconv.Itoa(hh) + ":" + twoDigits(mm)})
	})
}

// rangeOp maps the phrase before a version to a comparison operator.
func rangeOp(phrase string) string {
	phrase = strings.ToLower(phrase)
	switch {
	case strings.HasPrefix(phrase, "up to and"), strings.HasPrefix(phrase, "up to"), phrase == "through", phrase == "at most":
		return "<="
	case phrase == "since", phrase == "at least", phrase == "from", strings.HasPrefix(phrase, "starting"):
		return ">="
	case phrase == "after", strings.HasPrefix(phrase, "later"), strings.HasPrefix(phrase, "newer"), strings.HasPrefix(phrase, "higher"), phrase == "above":
		return ">"
	}
	return "<" // prior to, before, earlier than, older than, lower than, below, until
}

func normVersion(v string) string {
	v = strings.ToLower(strings.TrimSpace(v))
	for _, p := range []string{"version", "release"} {
		v = strings.TrimSpace(strings.TrimPrefix(v, p))
	}
	return strings.TrimPrefix(v, "v")
}

func onlyDigitsAndSlashes(s string) bool {
	return strings.Trim(s, "0123456789/.") == ""
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// dates extracts dates, most specific form first.
func (x *extractor) dates() {
	month := func(s string) int { return monthNames[strings.ToLower(strings.TrimSuffix(s, "."))] }
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	add := x.addDate
	if strings.Contains(x.lower, "centur") {
		x.each(centuryRE, 0, func(m []int) {
			n := atoi(x.group(m, 1))
			if w := x.group(m, 2); w != "" {
				n = ordinalWords[strings.ReplaceAll(strings.ToLower(w), " ", "-")]
			}
			if n < 1 || n > 30 {
				return
			}
			// The 19th century is 1801–1900 counted strictly, 1800–1899
			// as commonly meant: either holds.
			x.add(Claim{Kind: Date, Start: m[0], End: m[1], Value: DateValue{Year: (n - 1) * 100, Period: 101}.String()})
		})
	}
	if x.hasDigit {
		x.each(decadeRE, 0, func(m []int) {
			y := atoi(x.group(m, 1))
			s := m[2]
			if y == 0 {
				y, s = 1900+atoi(x.group(m, 2)), m[4]
				if s > 0 && (x.text[s-1] == '\'' || strings.HasSuffix(x.text[:s], "’")) {
					s -= len(lastRune(x.text[:s]))
				}
			}
			x.add(Claim{Kind: Date, Start: s, End: m[1], Value: DateValue{Year: y, Period: 10}.String()})
		})
	}
	if !x.hasDigit && !x.hasUpper {
		return
	}
	if x.hasDigit && strings.Contains(x.text, "-") {
		x.each(isoDateRE, 0, func(m []int) {
			// A date-time ("2018-06-30T07:00:00Z") is the date up to its T.
			add([]int{m[0], m[7]}, DateValue{Year: atoi(x.group(m, 1)), Month: atoi(x.group(m, 2)), Day: atoi(x.group(m, 3))})
		})
	}
	if x.hasUpper && strings.Contains(x.text, "day") {
		for _, m := range weekdayRE.FindAllStringSubmatchIndex(x.text, -1) {
			if len(x.claims) > MaxClaims {
				break
			}
			if x.weekdayInName(m[0], m[1]) || !x.take(m[0], m[1]) {
				continue
			}
			add(m, DateValue{Weekday: strings.ToLower(x.group(m, 1))})
		}
	}
	if x.hasDigit {
		defer x.each(yearRE, 1, func(m []int) {
			x.add(Claim{Kind: Date, Start: m[2], End: m[3], Value: DateValue{Year: atoi(x.group(m, 1))}.String()})
		})
	}
	if !x.hasUpper || !containsAny(x.text, monthPrefixes) {
		return
	}
	x.dateRanges()
	x.each(mdyRE, 0, func(m []int) {
		add(m, DateValue{Year: atoi(x.group(m, 3)), Month: month(x.group(m, 1)), Day: atoi(x.group(m, 2))})
	})
	x.each(dmyRE, 0, func(m []int) {
		add(m, DateValue{Year: atoi(x.group(m, 3)), Month: month(x.group(m, 2)), Day: atoi(x.group(m, 1))})
	})
	x.each(myRE, 0, func(m []int) {
		add(m, DateValue{Year: atoi(x.group(m, 2)), Month: month(x.group(m, 1))})
	})
	for _, m := range mdRE.FindAllStringSubmatchIndex(x.text, -1) {
		if m[1] < len(x.text)-1 && x.text[m[1]] == ':' && isDigit(x.text[m[1]+1]) {
			continue // "18 October 15:30": a time follows the month, not a day
		}
		if !x.take(m[0], m[1]) {
			continue
		}
		add(m, DateValue{Month: month(x.group(m, 1)), Day: atoi(x.group(m, 2))})
	}
	x.each(dmRE, 0, func(m []int) {
		add(m, DateValue{Month: month(x.group(m, 2)), Day: atoi(x.group(m, 1))})
	})
	for _, m := range monthRE.FindAllStringSubmatchIndex(x.text, -1) {
		name := x.group(m, 1)
		if name == "May" || name == "March" {
			// "May" and "March" are also words: take them only after a
			// preposition of time.
			prev := lastWord(x.text[:m[0]])
			if prev != "in" && prev != "of" && prev != "since" && prev != "until" && prev != "by" && prev != "during" && prev != "early" && prev != "late" && prev != "mid" {
				continue
			}
		}
		if x.take(m[0], m[1]) {
			add(m, DateValue{Month: month(name)})
		}
	}
}

// addDate adds the date d read at span m, unless its month or day is
// none of a calendar's.
func (x *extractor) addDate(m []int, d DateValue) {
	if d.Month > 12 || d.Day > 31 {
		return
	}
	x.add(Claim{Kind: Date, Start: m[0], End: m[1], Value: d.String()})
}

// dayRangeRE finds a range of days in one month, with or without a
// year after it: "March 3–9, 2016", "May 11-22", "June 2 to 5 2019".
var dayRangeRE = regexp.MustCompile(`\b` + monthAlt + `\s+(\d{1,2})(?:st|nd|rd|th)?\s*(?:–|—|-|\bto\b|\bthrough\b|\buntil\b)\s*(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4})\b)?`)

// monthRangeRE finds a range of days across two months whose year is
// written once, after its end: "August 25 – April 1, 2018", "March 3 to
// March 9, 2016".
var monthRangeRE = regexp.MustCompile(`\b` + monthAlt + `\s+(\d{1,2})(?:st|nd|rd|th)?\s*(?:–|—|-|\bto\b|\bthrough\b|\buntil\b)\s*` + monthAlt + `\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)

// dateRanges reads a range of days as the two dates it gives, each with
// the year written once after its end: "March 3–9, 2016" is March 3,
// 2016 and March 9, 2016 (not a yearless March 3 and a bare 2016), "May
// 11-22" is May 11 and May 22, and the start of "August 25 – April 1,
// 2018" is August 25, 2017: a range runs forward, so a start month later
// than the end's is of the year before. A day that is not a day of its
// month (the second number over 31, or not after the first) is no range.
func (x *extractor) dateRanges() {
	if !x.hasDigit || ablate.Off(ablate.DateRange) {
		return
	}
	add := x.addDate
	month := func(s string) int { return monthNames[strings.ToLower(strings.TrimSuffix(s, "."))] }
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	for _, m := range dayRangeRE.FindAllStringSubmatchIndex(x.text, -1) {
		mo, d1, d2, y := month(x.group(m, 1)), atoi(x.group(m, 2)), atoi(x.group(m, 3)), atoi(x.group(m, 4))
		if d2 <= d1 || d2 > 31 || !x.take(m[0], m[5]) {
			continue
		}
		e := m[7]
		if y != 0 {
			e = m[9]
		}
		if !x.take(m[6], e) {
			continue
		}
		add([]int{m[0], m[5]}, DateValue{Year: y, Month: mo, Day: d1})
		add([]int{m[6], e}, DateValue{Year: y, Month: mo, Day: d2})
	}
	for _, m := range monthRangeRE.FindAllStringSubmatchIndex(x.text, -1) {
		m1, m2, y := month(x.group(m, 1)), month(x.group(m, 3)), atoi(x.group(m, 5))
		if m1 == 0 || m2 == 0 {
			continue
		}
		if m1 > m2 {
			y--
		}
		if x.take(m[0], m[5]) {
			add([]int{m[0], m[5]}, DateValue{Year: y, Month: m1, Day: atoi(x.group(m, 2))})
		}
	}
}

// DayRange is a range of days of one month a text gives ("May 11-22"):
// Year is 0 when the text writes none.
type DayRange struct {
	Year, Month, From, To int
	// Text is the range as written.
	Text string
}

// DayRanges returns the ranges of days of one month that text gives, as
// dateRanges reads them.
func DayRanges(text string) []DayRange {
	if !strings.ContainsAny(text, "0123456789") {
		return nil
	}
	var out []DayRange
	for _, m := range dayRangeRE.FindAllStringSubmatch(text, -1) {
		from, _ := strconv.Atoi(m[2])
		to, _ := strconv.Atoi(m[3])
		y, _ := strconv.Atoi(m[4])
		mo := monthNames[strings.ToLower(strings.TrimSuffix(m[1], "."))]
		if mo != 0 && to > from && to <= 31 {
			out = append(out, DayRange{Year: y, Month: mo, From: from, To: to, Text: m[0]})
		}
	}
	return out
}

// ordinalWords are the centuries centuryRE reads in words.
var ordinalWords = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
	"eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
	"sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "twenty-first": 21}

// lastRune returns the last rune of s as a string.
func lastRune(s string) string {
	_, n := utf8.DecodeLastRuneInString(s)
	return s[len(s)-n:]
}

// colorList are the colours colorRE reads.
var colorList = []string{"red", "orange", "yellow", "green", "blue", "purple", "pink", "white", "black", "brown", "grey", "gray", "silver", "gold", "violet", "turquoise"}

// monthPrefixes start every month name.
var monthPrefixes = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// numberWordList are the words numWordRE starts with.
var numberWordList = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
	"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
	"thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "dozen", "twice", "thrice", "double", "triple"}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// lastWord returns the last word of s in lower case.
func lastWord(s string) string {
	s = strings.TrimRight(s, " \t\n")
	i := strings.LastIndexAny(s, " \t\n(\"'")
	return strings.ToLower(s[i+1:])
}

// numbers extracts money, percentages, plain numbers and number words.
func (x *extractor) numbers() {
	if x.hasDigit {
		x.digitNumbers()
	}
	if containsAny(x.lower, numberWordList) {
		x.numberWords()
	}
}

// digitNumbers extracts money, percentages and numbers written in digits.
func (x *extractor) digitNumbers() {
	x.each(moneyRE, 0, func(m []int) {
		f, ok := parseNum(x.group(m, 2))
		if !ok {
			return
		}
		if sc := strings.ToLower(x.group(m, 3)); sc != "" {
			f *= scales[sc]
		}
		x.add(Claim{Kind: Number, Start: m[0], End: m[1], Num: f, Unit: x.group(m, 1), Value: fmtNum(f) + " " + x.group(m, 1)})
	})
	for _, m := range numberRE.FindAllStringSubmatchIndex(x.text, -1) {
		s, e := m[2], m[3]
		if m[5] > 0 {
			e = m[5]
		}
		if m[7] > 0 {
			e = m[7]
		}
		if !x.take(s, e) {
			continue
		}
		f, ok := parseNum(x.group(m, 1))
		if !ok {
			continue
		}
		if x.yearLike(x.group(m, 1), x.group(m, 2)+x.group(m, 3), e) {
			// "the 2017 film", "(2019)", "By 2018": a year, compared as
			// a date.
			x.add(Claim{Kind: Date, Start: s, End: e, Value: DateValue{Year: int(f)}.String()})
			continue
		}
		if ordinalCompound(x.text[e:]) {
			continue
		}
		unit := ""
		switch suf := strings.ToLower(x.group(m, 2) + x.group(m, 3)); {
		case suf == "%" || suf == "percent" || suf == "per cent":
			unit = "%"
		case strings.HasPrefix(suf, "percentage point"):
			unit = "percentage point"
		case suf != "":
			f *= scales[suf]
		}
		x.addNumber(s, e, f, unit)
	}
}

// yearLike reports whether the number written raw, with suffix after it
// and ending at e, is a year: four digits from 1500 to 2100, no unit
// symbol or scale, and not followed by a plural noun ("2000 people" is a
// count).
func (x *extractor) yearLike(raw, suffix string, e int) bool {
	if len(raw) != 4 || suffix != "" || raw < "1500" || raw > "2100" {
		return false
	}
	if e < len(x.text) && (x.text[e] == '-' || x.text[e] == '.' && e+1 < len(x.text) && isDigit(x.text[e+1])) {
		return false
	}
	next := firstWord(x.text[e:])
	if next == "people" || next == "men" || next == "women" || next == "children" {
		return false
	}
	return !(len(next) > 3 && strings.HasSuffix(next, "s") && !strings.HasSuffix(next, "ss"))
}

// ordinalCompound reports whether s, the text after a number, starts with
// an ordinal suffix joined to a word by a hyphen ("th-grade" of
// "9th-grade"): a grade that describes, not a count.
func ordinalCompound(s string) bool {
	if len(s) < 4 || s[2] != '-' {
		return false
	}
	switch strings.ToLower(s[:2]) {
	case "st", "nd", "rd", "th":
		return true
	}
	return false
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// numberWords extracts numbers written in words: "seven", "twenty-five".
func (x *extractor) numberWords() {
	x.each(numWordRE, 0, func(m []int) {
		w := strings.ToLower(x.group(m, 1))
		f := numberWords[w]
		if o := strings.ToLower(x.group(m, 2)); o != "" {
			f += numberWords[o]
		}
		if sc := strings.ToLower(x.group(m, 3)); sc != "" {
			f *= scales[sc]
		}
		if n, unit, end := x.ordinalAfter(m[1], w, x.group(m, 2) == "" && x.group(m, 3) == ""); end > 0 {
			// "forty-fourth": the ordinal 44, as "44th" is read.
			x.addOrdinal(m[0], end, f+n, unit)
			return
		}
		if w == "one" && x.group(m, 3) == "" {
			// "one of", "no one", "one day": too often not a count.
			next := firstWord(x.text[m[1]:])
			if next == "of" || next == "day" || next == "another" || next == "" || lastWord(x.text[:m[0]]) == "no" {
				return
			}
		}
		x.addNumber(m[0], m[1], f, "")
	})
}

func (x *extractor) addNumber(s, e int, f float64, unit string) {
	if unit == "" && e < len(x.text) && x.text[e] == '-' {
		// "one-year anniversary", "35-year-old": the unit is joined.
		if w := firstWord(x.text[e+1:]); isAlpha(w) && len(w) > 1 {
			unit = singular(w)
		}
	}
	if unit == "" {
		if w := firstWord(x.text[e:]); w != "" && !stopwords[w] && !negators[w] && isAlpha(w) && len(w) > 1 {
			if _, isScale := scales[w]; !isScale {
				unit = singular(w)
			}
		}
	}
	x.add(Claim{Kind: Number, Start: s, End: e, Num: f, Unit: unit, Value: fmtNum(f) + unitSuffix(unit)})
}

func unitSuffix(u string) string {
	if u == "" {
		return ""
	}
	return " " + u
}

func isAlpha(w string) bool {
	for _, r := range w {
		if !(r >= 'a' && r <= 'z') {
			return false
		}
	}
	return true
}

// singular turns a plural unit into its singular: "litres" -> "litre".
func singular(w string) string {
	switch {
	case w == "people" || w == "men" || w == "women" || w == "children":
		return w
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ss"):
		return w
	case strings.HasSuffix(w, "s") && len(w) > 3:
		return w[:len(w)-1]
	}
	return w
}

// firstWord returns the first word of s in lower case, or "" when s
// starts with anything else than spaces and a word.
func firstWord(s string) string {
	s = strings.TrimLeft(s, " \t")
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] == '-') {
		i++
	}
	return strings.ToLower(s[:i])
}

func parseNum(s string) (float64, bool) {
	f, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	return f, err == nil
}

// fmtNum renders a number the same way whatever way it was written:
// "1,200", "1200" and "1.2 thousand" are "1200".
func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', 12, 64) }

// dateWord reports whether w is a month's or weekday's name.
func dateWord(w string) bool {
	lw := strings.ToLower(strings.TrimRight(w, ".,;:"))
	_, isMonth := monthNames[lw]
	return isMonth || weekdays[strings.TrimSuffix(lw, "s")]
}

// trimName drops trailing particles from a name match.
func trimName(s string) string {
	fs := strings.Fields(s)
	for len(fs) > 0 {
		last := strings.ToLower(fs[len(fs)-1])
		if !stopwords[last] && !particles[last] || isAcronym(fs[len(fs)-1]) {
			break // "LA" and "US" are names, not "la" and "us"
		}
		fs = fs[:len(fs)-1]
	}
	return strings.TrimRight(strings.Join(fs, " "), ".,;:")
}

var particles = setOf(`of de van von der den la le du da del bin al the`)

// names extracts capitalized sequences that are not sentence-initial
// function words, months or weekdays.
func (x *extractor) names() {
	for _, m := range x.nameMatches() {
		s, e := m[0], m[1]
		words := strings.Fields(x.text[s:e])
		// Drop leading function words ("The", "In") and trailing particles.
		articles := true // whether only articles were dropped
		drop := func() {
			s = strings.Index(x.text[s:e], words[0]) + s + len(words[0])
			s += len(x.text[s:e]) - len(strings.TrimLeft(x.text[s:e], " \t\n"))
			words = words[1:]
		}
		for len(words) > 0 && (stopwords[strings.ToLower(words[0])] || negators[strings.ToLower(words[0])]) {
			articles = articles && leadArticles[strings.ToLower(words[0])]
			drop()
		}
		if x.commonLead(s, words) {
			// "Dubbed the National Bird Project", "Following the Battle
			// of Hastings": the sentence's first word is a common word
			// capitalized, and the name starts after "the".
			articles = false
			for drop(); len(words) > 0 && stopwords[strings.ToLower(words[0])]; {
				drop()
			}
		}
		// A month or weekday the dates took, before a name ("In March Ona
		// Vey left", "On Friday Tolby Council voted"), is the date's, not
		// the name's: the name starts after it.
		for len(words) > 1 && x.taken[s] && !ablate.Off(ablate.DateBeforeName) && dateWord(words[0]) {
			drop()
		}
		numeral := false
		if n := len(words); n >= 1 {
			switch last := words[n-1]; {
			case pronounContraction(last):
				words = words[:n-1] // "London I'm": the pronoun
			case last == "I" && n >= 2 && !ablate.Off(ablate.Numeral):
				numeral = x.numeralI(m[0], s, e, words[:n-1], articles)
			}
		}
		var name string
		if numeral {
			// "World War I", "Elizabeth I": the numeral is part of the
			// name, which ends with it.
			name = strings.Join(words, " ")
		} else {
			name = trimName(strings.Join(words, " "))
			if name == "" {
				continue
			}
			// The name ends with its own last word, the k-th word of the
			// match, not where that word's letters last appear ("Ma" of
			// "Ma MaY", whose "MaY" is the particle "may").
			k := len(strings.Fields(name))
			e = s + fieldStart(x.text[s:e], k-1) + len(lastField(name))
		}
		lw := strings.ToLower(name)
		if _, isMonth := monthNames[lw]; isMonth || weekdays[strings.TrimSuffix(lw, "s")] || len(name) < 2 {
			continue
		}
		for _, suf := range []string{"'s", "’s", "'", "’"} {
			if strings.HasSuffix(name, suf) {
				name = strings.TrimSuffix(name, suf)
				e -= len(suf)
			}
		}
		if i := strings.LastIndexByte(name, '-'); i > 0 && lowerWord(name[i+1:]) {
			// "Sims-based", "Russia-backed": the name is the part before
			// the hyphen; what follows describes something else.
			e -= len(name) - i
			name = name[:i]
		}
		if !strings.Contains(name, " ") && x.sentenceInitial(s) && (commonInitial(lw) || !x.capitalizedElsewhere(name)) {
			// A capitalized word that starts a sentence is a name only
			// when the text also capitalizes it mid-sentence: "Shares
			// fell" is not about someone called Shares.
			continue
		}
		if e <= s || !x.take(s, e) {
			continue
		}
		x.add(Claim{Kind: Name, Start: s, End: e, Value: strings.ToLower(name)})
	}
}

// nameMatches returns the spans of nameRE's matches, joined across the
// dots of initials and titles (joinDotted), each cut after a
// dotted abbreviation that a capitalized function word follows: the dot
// ended a sentence there ("the U.S. The company" is "U.S." then "The
// company").
func (x *extractor) nameMatches() [][]int {
	var out [][]int
	for _, m := range x.joinDotted(nameRE.FindAllStringIndex(x.text, -1)) {
		s := m[0]
		for i := m[0]; i < m[1]; i++ {
			if x.text[i] != '.' || i+1 >= m[1] || x.text[i+1] != ' ' && x.text[i+1] != '\t' {
				continue
			}
			if next := strings.ToLower(firstWord(x.text[i+1 : m[1]])); stopwords[next] || negators[next] {
				out = append(out, []int{s, i + 1})
				s = i + 1 + len(x.text[i+1:m[1]]) - len(strings.TrimLeft(x.text[i+1:m[1]], " \t"))
			}
		}
		out = x.splitThe(out, s, m[1])
	}
	return x.splitDescribed(out)
}

// splitDescribed cuts each name match after a word that a lower-case word
// joins by a hyphen, where more words follow: "a Merlin-powered Tolby Sea
// Hawk" names Merlin, which powers it, and the Tolby Sea Hawk, as "the
// London-based Tolby Records" names London and Tolby Records; the words
// after the hyphen describe the name after them (names cuts them from
// the first). "Rolls-Royce", "Stratford-upon-Avon" stay whole, and so do
// names whose lower-case part is no such word ("Kim Jong-un Stadium").
func (x *extractor) splitDescribed(spans [][]int) [][]int {
	if ablate.Off(ablate.DescribedName) {
		return spans
	}
	var out [][]int
	for _, m := range spans {
		s := m[0]
		for i := m[0]; i < m[1]; {
			end := m[1]
			if n := strings.IndexFunc(x.text[i:m[1]], unicode.IsSpace); n >= 0 {
				end = i + n
			}
			next := end + len(x.text[end:m[1]]) - len(strings.TrimLeftFunc(x.text[end:m[1]], unicode.IsSpace))
			w := x.text[i:end]
			if h := strings.LastIndexByte(w, '-'); h > 0 && next < m[1] && startsUpper(w) && describing(w[h+1:]) {
				out = append(out, []int{s, end})
				s = next
			}
			if end == i {
				break
			}
			i = next
		}
		out = append(out, []int{s, m[1]})
	}
	return out
}

// splitThe appends the name match [s, e) to out, cut in two at a "the"
// that two capitalized words or more follow: "In England the
// Shuttleworth Collection" names England and the Shuttleworth
// Collection, "Monday the Prime Minister" the Prime Minister. The
// pattern joins names across one function word, and "the" is a word of a
// name only before an epithet of one word ("Alexander the Great", "Winnie
// the Pooh", "Rage Against the Machine"), which is kept whole.
func (x *extractor) splitThe(out [][]int, s, e int) [][]int {
	if ablate.Off(ablate.MidThe) {
		return append(out, []int{s, e})
	}
	for i := s; ; {
		j := strings.Index(x.text[i:e], "the")
		if j < 0 {
			break
		}
		at := i + j
		i = at + 3
		if at == s || at+4 >= e || x.text[at-1] != ' ' && x.text[at-1] != '\t' || x.text[at+3] != ' ' && x.text[at+3] != '\t' {
			continue
		}
		if caps := strings.Fields(x.text[at+4 : e]); len(caps) < 2 || !startsUpper(caps[0]) || !startsUpper(caps[1]) {
			continue
		}
		out = append(out, []int{s, at})
		s = at
	}
	return append(out, []int{s, e})
}

// describing reports whether w, the lower-case part after a name's hyphen,
// describes what follows by the name: a participle ("powered", "winning")
// or a word of the kind ("born", "led", "style").
func describing(w string) bool {
	return lowerWord(w) && (len(w) > 4 && (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing")) || describers[w])
}

// describers are the words after a hyphen, other than participles, that
// make a name describe what follows ("London-born", "Tolby-led").
var describers = setOf(`born led run made built bred bound wide like style era based owned`)

// startsUpper reports whether w starts with a capital letter.
func startsUpper(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// fieldStart is the offset in s of its k-th field (from 0), as
// strings.Fields splits it; len(s) where s has no more.
func fieldStart(s string, k int) int {
	in := false
	for i, r := range s {
		switch space := unicode.IsSpace(r); {
		case !space && !in:
			if k == 0 {
				return i
			}
			k--
			in = true
		case space:
			in = false
		}
	}
	return len(s)
}

func lastField(s string) string {
	fs := strings.Fields(s)
	return fs[len(fs)-1]
}

// negations records each negator with the content words after it, up to
// the end of the clause: the statement it negates.
func (x *extractor) negations() {
	for _, m := range negRE.FindAllStringIndex(x.text, -1) {
		w := strings.ToLower(x.text[m[0]:m[1]])
		if w == "no" {
			// "no one", "No," as an answer: too often not a negated claim.
			if next := firstWord(x.text[m[1]:]); next == "one" || next == "" || next == "longer" || next == "doubt" {
				continue
			}
		}
		end := m[1] + clauseEnd(x.text[m[1]:])
		var words []string
		for _, cw := range ContentWords(x.text[m[1]:end]) {
			words = append(words, cw)
			if len(words) == 3 {
				break
			}
		}
		if len(words) == 0 {
			continue
		}
		x.add(Claim{Kind: Negation, Start: m[0], End: m[1], Value: strings.Join(words, " ")})
	}
}

// clauseEnd is the offset where the clause starting s ends: a punctuation
// mark or a conjunction, at most 60 bytes on.
func clauseEnd(s string) int {
	n := min(len(s), 60)
	if i := strings.IndexAny(s[:n], ".,;:!?\n"); i >= 0 {
		n = i
	}
	for _, conj := range []string{" but ", " and ", " because ", " although ", " while "} {
		if i := strings.Index(s[:n], conj); i >= 0 {
			n = i
		}
	}
	return n
}

// sentenceInitial reports whether offset s starts a sentence or follows a
// colon.
func (x *extractor) sentenceInitial(s int) bool {
	before := strings.TrimRight(x.text[:s], " \t\"'(")
	if before == "" || strings.HasSuffix(before, ":") || strings.HasSuffix(before, "\n") {
		return true
	}
	for _, sp := range x.sents {
		if sp.Start == s {
			return true
		}
	}
	return false
}

// weekdayInName reports whether the weekday at text[s:e] is a word of a
// name rather than a day: after a capitalized word that is neither a
// function word nor the sentence's first ("Good Friday", "Super
// Tuesday"), or after "the", "a" or an opening quote and before a
// capitalized word that is no month or weekday ("The Sunday Times", "the
// Sunday Telegraph", "a Monday Club"). "On Sunday March 5", "on Friday
// Ona Vey left" and "Last Friday" stay days; the name extractor then
// reads the name whole.
func (x *extractor) weekdayInName(s, e int) bool {
	if ablate.Off(ablate.WeekdayName) {
		return false
	}
	before := x.text[:s]
	prev := ""
	if strings.HasSuffix(before, " ") {
		w := strings.TrimRight(before, " ")
		i := strings.LastIndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
		if i < len(w)-1 && i+1 < len(w) {
			prev = w[i+1:]
			if r, _ := utf8.DecodeRuneInString(prev); unicode.IsUpper(r) && !stopwords[strings.ToLower(prev)] && !negators[strings.ToLower(prev)] && !x.sentenceInitial(i+1) {
				return true
			}
		}
	}
	quoted := strings.HasSuffix(before, "\"") || strings.HasSuffix(before, "“") || strings.HasSuffix(before, "‘")
	if lp := strings.ToLower(prev); !quoted && lp != "the" && lp != "a" && lp != "an" {
		return false
	}
	after := x.text[e:]
	if !strings.HasPrefix(after, " ") {
		return false
	}
	next := strings.TrimLeft(after, " ")
	r, _ := utf8.DecodeRuneInString(next)
	if !unicode.IsUpper(r) {
		return false
	}
	lw := firstWord(next)
	_, isMonth := monthNames[lw]
	return lw != "" && !isMonth && !weekdays[strings.TrimSuffix(lw, "s")] && !stopwords[lw]
}

// initialWords are common words that start sentences and headings
// capitalized without being names.
var initialWords = setOf(`see note please check use read visit update upgrade install run click affected published reported fixed
summary description impact severity score status result results overall additionally furthermore moreover finally first second
third thus therefore hence instead otherwise overview conclusion background details example warning important critical high
medium low yes no thanks thank sorry hello hi hey well oh okay sure great good bad maybe perhaps both many most several some
according based despite although though since unlike like following references reference source sources solution workaround
mitigation vendor vendors version versions product products type vulnerability write mail email contact send call go get
make take let try open close add remove set start stop keep find follow ask tell give`)

// commonInitial reports whether a sentence-initial capitalized word w (in
// lower case) is more likely a common word than a name.
func commonInitial(w string) bool {
	if initialWords[w] || len(w) <= 2 {
		return true
	}
	for _, suf := range []string{"ed", "ing", "ly", "ment", "tion", "ness"} {
		if strings.HasSuffix(w, suf) {
			return true
		}
	}
	return false
}

// commonLead reports whether the run of a name's words starting at s
// begins with a common word capitalized only because it starts the
// sentence, followed by "the": a participle, an adverb or a preposition
// ("Dubbed the National Bird Project", "Following the Battle of Hastings",
// "Despite the Great Depression", "Finally the United Nations"). A name
// with "the" after its first word ("Alfred the Great", "Ivan the
// Terrible", "Billy the Kid") keeps it: a given name is not such a word
// (one ending "-red" as "Alfred", or shorter than six letters, is not
// taken for a participle or adverb), and a word the text also
// capitalizes mid-sentence is a name.
func (x *extractor) commonLead(s int, words []string) bool {
	if len(words) < 3 || words[1] != "the" || ablate.Off(ablate.CommonLead) || !x.sentenceInitial(s) {
		return false
	}
	w := strings.ToLower(words[0])
	common := initialWords[w] || len(w) >= 6 && (strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "ly") ||
		strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "red"))
	return common && lowerWord(w) && !x.capitalizedElsewhere(words[0])
}

// capitalizedElsewhere reports whether word appears capitalized in the
// text at a place that does not start a sentence.
func (x *extractor) capitalizedElsewhere(word string) bool {
	for i := 0; ; {
		j := strings.Index(x.text[i:], word)
		if j < 0 {
			return false
		}
		at := i + j
		end := at + len(word)
		boundary := (at == 0 || !isWordRune(rune(x.text[at-1]))) && (end == len(x.text) || !isWordRune(rune(x.text[end])))
		if boundary && !x.sentenceInitial(at) {
			return true
		}
		i = at + 1
	}
}

// lowerWord reports whether w is a word of lower-case letters only.
func lowerWord(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// isAcronym reports whether w is written in capitals only, two or more:
// "LA", "US".
func isAcronym(w string) bool {
	return len(w) >= 2 && strings.ToUpper(w) == w && strings.ToLower(w) != w
}
