package schema

import (
	"regexp"
	"testing"
)

// patternCases are patterns with strings to try; simple says whether the
// pattern gets the simple matcher.
var patternCases = []struct {
	pattern string
	simple  bool
}{
	{`^[a-z0-9.]+@[a-z0-9.]+$`, true},
	{`^[A-Z]{2}-[0-9]+$`, true},
	{`^v?[0-9]+\.[0-9]+$`, true},
	{`^[a-z]*$`, true},
	{`^é+[^é]$`, true},
	{`^owner/repo$`, true},
	{`^[a-z]+[a-z0-9]*$`, false},     // overlapping: needs backtracking
	{`^a*a$`, false},                 // likewise
	{`^[a-z]+$|^[0-9]+$`, false},     // alternation
	{`[a-z]+`, false},                // unanchored
	{`^(?i)abc$`, false},             // case folding
	{`^[a-z]{2,4}$`, false},          // bounded repeat becomes nested options
	{`^(ab)+$`, false},               // a repeated group
	{`^\d+(\.\d+)?$`, false},         // an optional group
	{`^[^@]+@[^@]+\.[a-z]+$`, false}, // "." is in [^@]
}

var patternInputs = []string{"", "a", "ab", "abc", "ABC", "AB-12", "A-1", "v1.2", "1.2", "1.", "user@example.com",
	"user@@x", "@x", "x@", "owner/repo", "owner/rep", "éé!", "é", "aa", "a1", "1a", "a.b@c", "\xff", "é\xff", "ab\n"}

// The simple matcher gives the regexp's answer on every input, and is used
// only for patterns it can decide.
func TestSimplePattern(t *testing.T) {
	t.Parallel()
	for _, tc := range patternCases {
		re := regexp.MustCompile(tc.pattern)
		p := newSimplePattern(re)
		if (p != nil) != tc.simple {
			t.Errorf("%s: simple matcher %v, want %v", tc.pattern, p != nil, tc.simple)
			continue
		}
		if p == nil {
			continue
		}
		for _, in := range patternInputs {
			if got, want := p.match([]byte(in)), re.MatchString(in); got != want {
				t.Errorf("%s on %q: %v, the regexp %v", tc.pattern, in, got, want)
			}
		}
	}
}
