package claim

import (
	"strings"

	"github.com/agentjudge/judge/internal/ablate"
)

// unitOrdinals are the ordinals of one to nine that end a compound
// ordinal in words, with the suffix the same ordinal takes in digits.
var unitOrdinals = map[string]struct {
	n      float64
	suffix string
}{"first": {1, "st"}, "second": {2, "nd"}, "third": {3, "rd"}, "fourth": {4, "th"}, "fifth": {5, "th"},
	"sixth": {6, "th"}, "seventh": {7, "th"}, "eighth": {8, "th"}, "ninth": {9, "th"}}

// tens are the number words a compound ordinal starts with.
var tens = setOf(`twenty thirty forty fifty sixty seventy eighty ninety`)

// ordinalAfter reads a compound ordinal whose tens word w (in lower case)
// ends at e, alone (bare: no unit and no scale read after it): "-fourth"
// after "forty". It returns the ordinal's units, the suffix "44th" would
// have ("th", "st" of "twenty-first") and where it ends, or end 0 when
// none follows.
func (x *extractor) ordinalAfter(e int, w string, bare bool) (n float64, suffix string, end int) {
	if !bare || !tens[w] || e >= len(x.text) || x.text[e] != '-' || ablate.Off(ablate.OrdinalWords) {
		return 0, "", 0
	}
	rest := x.text[e+1:]
	i := 0
	for i < len(rest) && (rest[i] >= 'a' && rest[i] <= 'z' || rest[i] >= 'A' && rest[i] <= 'Z') {
		i++
	}
	o, ok := unitOrdinals[strings.ToLower(rest[:i])]
	if !ok || i < len(rest) && isWordRune(rune(rest[i])) {
		return 0, "", 0
	}
	return o.n, o.suffix, e + 1 + i
}

// addOrdinal adds the ordinal n written in words over [s, e), with the
// unit "th" of "44th" its digits would be read with, after taking the
// part of it past the tens word.
func (x *extractor) addOrdinal(s, e int, n float64, suffix string) {
	for i := s; i < e; i++ {
		x.taken[i] = true
	}
	x.add(Claim{Kind: Number, Start: s, End: e, Num: n, Unit: suffix, Value: fmtNum(n) + unitSuffix(suffix)})
}
