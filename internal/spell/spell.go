// Package spell measures how far apart two names are, to say which
// declared name a misspelt one most likely meant ("did you mean 'email'?"):
// the one edit distance of manifests, tool-call checks and the schema
// layer.
package spell

import "unicode/utf8"

// MaxLen is the longest name, in characters, Distance compares: a longer
// one is never a typo of a short name, and the bound keeps the work small.
const MaxLen = 64

// Distance is the Levenshtein distance of a and b in characters (runes),
// or limit when it is at least limit, or when either is longer than
// MaxLen. It stops as soon as no alignment can stay under limit, so a
// small limit makes it cheap.
func Distance(a, b string, limit int) int {
	// Measured before either is copied: a is often a name from a request,
	// as long as the request.
	if tooLong(a) || tooLong(b) {
		return limit
	}
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			c := 1
			if ra[i-1] == rb[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(rb)], limit)
}

// tooLong reports whether s has more than MaxLen characters, reading at
// most MaxLen*utf8.UTFMax of its bytes.
func tooLong(s string) bool {
	return len(s) > MaxLen*utf8.UTFMax || utf8.RuneCountInString(s) > MaxLen
}
