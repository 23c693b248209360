package source

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
)

// bareHead decides a name of three words or more that no passage states,
// whose last words (two or more, its head) the sources name bare, never
// after another capitalized word: "U.S. Presidential Election Day" where
// the page says "hits stores on Election Day". The words before the head
// qualify what the page names without them, so the sources neither state
// nor contradict them: the claim is undecided, with Why naming the head.
// Where the sources give the head after other words ("British Grand
// Prix" for "Canadian Grand Prix"), they name another thing of that kind,
// and the claim stays unsupported.
func (ix *Index) bareHead(c claim.Claim) (Verdict, bool) {
	words := strings.Fields(c.Text)
	if ablate.Off(ablate.BareHead) || c.Kind != claim.Name || len(words) < 3 {
		return Verdict{}, false
	}
	for k := 1; k <= len(words)-2; k++ {
		head := strings.Join(words[k:], " ")
		if !capitalized(words[k]) {
			continue
		}
		stems := claim.ContentWords(head)
		if len(stems) < 2 {
			continue
		}
		var bare *Passage
		qualified := false
		for _, part := range ix.parts {
			for _, id := range part.words[stems[0]] {
				p := &part.passages[id]
				for i := 0; ; {
					j := strings.Index(p.Text[i:], head)
					if j < 0 {
						break
					}
					at := i + j
					i = at + len(head)
					if i < len(p.Text) {
						if r, _ := utf8.DecodeRuneInString(p.Text[i:]); unicode.IsLetter(r) || unicode.IsDigit(r) {
							continue // part of a longer word
						}
					}
					if prev := lastWordBefore(p.Text[:at]); prev != "" && capitalized(prev) {
						qualified = true
					} else if bare == nil {
						bare = p
					}
				}
			}
		}
		if qualified {
			return Verdict{}, false
		}
		if bare != nil {
			return Verdict{Status: Undecided, Evidence: bare,
				Why: fmt.Sprintf("the source names %q without %q", head, strings.Join(words[:k], " "))}, true
		}
	}
	return Verdict{}, false
}

// lastWordBefore returns the word right before the end of s, on the same
// sentence (none after a sentence's end or a line's), or "".
func lastWordBefore(s string) string {
	t := strings.TrimRight(s, " \t")
	if t == "" || len(t) == len(s) && len(s) > 0 {
		return ""
	}
	i := strings.LastIndexFunc(t, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '\'' || r == '’' || r == '-')
	})
	w := t
	if i >= 0 {
		// Past the whole delimiter: a quote or dash that is not ASCII
		// ("“", "«", "—") is more than one byte.
		_, n := utf8.DecodeRuneInString(t[i:])
		w = t[i+n:]
	}
	if strings.HasSuffix(w, ".") && !strings.Contains(strings.TrimSuffix(w, "."), ".") {
		return "" // a sentence ended there
	}
	return w
}

// capitalized reports whether w starts with an upper-case letter.
func capitalized(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}
