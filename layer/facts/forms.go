package facts

import (
	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// check returns the checker's verdict on c; for a claim no passage states
// as written, the verdict on the first of its other forms
// ([claim.Claim.Alternatives]: "Shizuoka" for "Shizuoka Prefecture") that a
// passage states.
func check(ix *source.Index, c claim.Claim) source.Verdict {
	v := ix.Check(c)
	if v.Status != source.Unsupported {
		return v
	}
	for _, alt := range c.Alternatives() {
		if w := ix.Check(alt); w.Status == source.Supported {
			return w
		}
	}
	return v
}
