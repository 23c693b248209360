package source

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/agentjudge/judge/internal/ablate"
	"github.com/agentjudge/judge/internal/claim"
)

// honourRE finds a name that is a title of rank over a place: "Duke of
// Sussex", "Earl of Wessex", "Bishop of Durham", "Princess of Wales".
var honourRE = regexp.MustCompile(`^(?:(?:Grand )?Duke|Duchess|Earl|Count|Countess|Marquess|Marquis|Marchioness|Viscount|Viscountess|Baron|Baroness|Lord|Lady|Prince|Princess|Bishop|Archbishop|Emperor|Empress|King|Queen) of \p{Lu}`)

// holderRE finds the name a title stands beside, in apposition: the
// capitalized words right before a comma ("Prince Harry, " in "Prince
// Harry, Duke of Sussex").
var holderRE = regexp.MustCompile(`((?:\p{Lu}[\p{L}'’.-]*\s+){0,3}\p{Lu}[\p{L}'’.-]*),\s*$`)

// honour decides a name no passage states that is a title of rank given
// in apposition to a person the sources do name ("Prince Harry, Duke of
// Sussex" where the page speaks of Prince Harry and never of his
// dukedom): the title describes the person the claim is about rather
// than adding someone to it, and a page about a person seldom gives every
// title the person holds, so the sources neither state nor contradict it.
// The claim is undecided, with Why naming the holder. A title alone ("the
// Duke of Sussex said"), or beside a person the sources do not name,
// stays unsupported.
func (ix *Index) honour(c claim.Claim) (Verdict, bool) {
	if ablate.Off(ablate.Honour) || c.Kind != claim.Name || !honourRE.MatchString(c.Text) {
		return Verdict{}, false
	}
	i := strings.Index(c.Sentence, c.Text)
	if i < 0 {
		return Verdict{}, false
	}
	m := holderRE.FindStringSubmatch(c.Sentence[:i])
	if m == nil {
		return Verdict{}, false
	}
	holder := claim.Claim{Kind: claim.Name, Text: m[1], Value: strings.ToLower(m[1]), Sentence: c.Sentence}
	p := ix.findNameAs(holder)
	if p == nil {
		return Verdict{}, false
	}
	return Verdict{Status: Undecided, Evidence: p,
		Why: fmt.Sprintf("it is a title given to %s, whom the source names without it", m[1])}, true
}
