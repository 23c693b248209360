package claim

import (
	"strings"

	"github.com/agentjudge/judge/internal/ablate"
)

// titleAbbrevs are the titles and place words written abbreviated with a
// dot before a name ("Gen. Douglas MacArthur", "St. Mary Church"): the
// name goes on after the dot, and, written capitalized before a
// capitalized word, their dot does not end a sentence.
var titleAbbrevs = setOf(`Mrs Mr Ms Dr Prof St Mt Ft Gen Sen Rep Gov Lt Col Capt Sgt Maj Adm Rev Hon Fr`)

// joinDotted joins each name match to the next where only a dot and
// spaces part them and the dot is not the name's end: after a capital
// letter standing alone, a middle initial ("John F. Kennedy", each of "J.
// R. R. Tolkien"; not "I.", which ends "World War I."), and after a match
// made only of abbreviated titles ("Gen. Douglas MacArthur", "Lt. Col.
// Ona Vey"; not "Main St. Police", whose "St." ends a street's name). A
// next match starting with a function word ("Gen. The") is not joined.
// The name pattern stops at a dot, so the joining is done here rather
// than by a larger pattern, which cost every text 15% more time.
func (x *extractor) joinDotted(ms [][]int) [][]int {
	initials, titles := !ablate.Off(ablate.InitialDot), !ablate.Off(ablate.TitleDot)
	if !initials && !titles || len(ms) < 2 {
		return ms
	}
	out := ms[:0:0]
	// Each match's words are read once (wordsOf), not the joined name's
	// again at each join: last is cur's last word, onlyTitles whether all
	// of cur's words are abbreviated titles.
	cur := ms[0]
	last, onlyTitles := x.wordsOf(cur)
	for _, m := range ms[1:] {
		mLast, mTitles := x.wordsOf(m)
		if x.dotJoins(cur, m, last, onlyTitles, initials, titles) {
			cur, last, onlyTitles = []int{cur[0], m[1]}, mLast, onlyTitles && mTitles
			continue
		}
		out = append(out, cur)
		cur, last, onlyTitles = m, mLast, mTitles
	}
	return append(out, cur)
}

// wordsOf returns the last word of match m and whether all its words are
// abbreviated titles.
func (x *extractor) wordsOf(m []int) (last string, onlyTitles bool) {
	words := strings.Fields(x.text[m[0]:m[1]])
	onlyTitles = true
	for _, w := range words {
		if !titleAbbrevs[strings.TrimSuffix(w, ".")] {
			onlyTitles = false
			break
		}
	}
	if len(words) == 0 {
		return "", onlyTitles
	}
	return words[len(words)-1], onlyTitles
}

// dotJoins reports whether match m goes on name match cur across a dot;
// last is cur's last word, onlyTitles whether all its words are
// abbreviated titles.
func (x *extractor) dotJoins(cur, m []int, last string, onlyTitles, initials, titles bool) bool {
	gap := x.text[cur[1]:m[0]]
	if len(gap) < 2 || gap[0] != '.' || strings.Trim(gap[1:], " \t") != "" {
		return false
	}
	if next := strings.ToLower(firstWord(x.text[m[0]:m[1]])); stopwords[next] || negators[next] {
		return false
	}
	if initials && len(last) == 1 && last[0] >= 'A' && last[0] <= 'Z' && last[0] != 'I' {
		return true
	}
	return titles && onlyTitles
}
