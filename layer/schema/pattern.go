package schema

import (
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// simplePattern matches what a regexp matches, for a pattern anchored at
// both ends (^...$) that is a sequence of characters, character classes
// and classes repeated (?, *, +), where every repeated class is last or is
// followed by a character or class it shares no character with: a greedy
// scan then decides as the regexp does, without backtracking and without
// the regexp's machinery. Patterns such as "^[a-z0-9.]+@[a-z0-9.]+$" or
// "^[A-Z]{2}-[0-9]+$" (once simplified) are of this kind; others keep the
// regexp.
type simplePattern struct {
	items []patItem
}

type patItem struct {
	ascii  [2]uint64 // the class's characters below 128
	ranges []rune    // the class as syntax's pairs of ranges
	min    int       // 0 or 1
	many   bool      // repeated without bound; else at most 1
}

func (it *patItem) has(r rune) bool {
	if r < 128 {
		return it.ascii[r>>6]&(1<<(r&63)) != 0
	}
	for i := 0; i+1 < len(it.ranges); i += 2 {
		if it.ranges[i] <= r && r <= it.ranges[i+1] {
			return true
		}
	}
	return false
}

// newSimplePattern returns the simple matcher of re, or nil when re is not
// of that kind.
func newSimplePattern(re *regexp.Regexp) *simplePattern {
	if re == nil {
		return nil
	}
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	parsed = parsed.Simplify()
	if parsed.Op != syntax.OpConcat || len(parsed.Sub) < 2 {
		return nil
	}
	subs := parsed.Sub
	if subs[0].Op != syntax.OpBeginText || subs[len(subs)-1].Op != syntax.OpEndText {
		return nil
	}
	p := &simplePattern{}
	for _, sub := range subs[1 : len(subs)-1] {
		if !p.add(sub) {
			return nil
		}
	}
	for i, it := range p.items {
		if it.min == 1 && !it.many || i == len(p.items)-1 {
			continue
		}
		next := p.items[i+1]
		if next.min != 1 || overlap(it.ranges, next.ranges) {
			return nil
		}
	}
	if len(p.items) == 0 {
		return nil
	}
	return p
}

// add appends the items of one element of the pattern's sequence.
func (p *simplePattern) add(re *syntax.Regexp) bool {
	if re.Flags&syntax.FoldCase != 0 {
		return false
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			p.items = append(p.items, newPatItem([]rune{r, r}, 1, false))
		}
		return true
	case syntax.OpCharClass:
		p.items = append(p.items, newPatItem(re.Rune, 1, false))
		return true
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !p.add(sub) {
				return false
			}
		}
		return true
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		sub := re.Sub[0]
		if sub.Flags&syntax.FoldCase != 0 {
			return false
		}
		var ranges []rune
		switch {
		case sub.Op == syntax.OpCharClass:
			ranges = sub.Rune
		case sub.Op == syntax.OpLiteral && len(sub.Rune) == 1:
			ranges = []rune{sub.Rune[0], sub.Rune[0]}
		default:
			return false
		}
		min := 0
		if re.Op == syntax.OpPlus {
			min = 1
		}
		p.items = append(p.items, newPatItem(ranges, min, re.Op != syntax.OpQuest))
		return true
	}
	return false
}

func newPatItem(ranges []rune, min int, many bool) patItem {
	it := patItem{ranges: append([]rune(nil), ranges...), min: min, many: many}
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1] && r < 128; r++ {
			it.ascii[r>>6] |= 1 << (r & 63)
		}
	}
	return it
}

// overlap reports whether two classes, as pairs of ranges, share a
// character.
func overlap(a, b []rune) bool {
	for i := 0; i+1 < len(a); i += 2 {
		for j := 0; j+1 < len(b); j += 2 {
			if a[i] <= b[j+1] && b[j] <= a[i+1] {
				return true
			}
		}
	}
	return false
}

// match reports whether s matches the pattern.
func (p *simplePattern) match(s []byte) bool {
	i := 0
	for k := range p.items {
		it := &p.items[k]
		n := 0
		for (it.many || n < 1) && i < len(s) {
			r, size := rune(s[i]), 1
			if r >= utf8.RuneSelf {
				r, size = utf8.DecodeRune(s[i:])
			}
			if !it.has(r) {
				break
			}
			i += size
			n++
		}
		if n < it.min {
			return false
		}
	}
	return i == len(s)
}
