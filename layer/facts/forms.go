package facts

import (
	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// check returns the checker's verdict on c. A name's other forms
// ([claim.Claim.Alternatives]: "Shizuoka" for "Shizuoka Prefecture") are
// tried by the index itself, so the hallucination layer, asking the same
// index, never decides a name otherwise.
func check(ix *source.Index, c claim.Claim) source.Verdict { return ix.Check(c) }
