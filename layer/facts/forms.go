package facts

import (
	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// check returns the checker's verdict on c, as the index gives it, so
// that the hallucination layer, asking the same index, never decides a
// claim otherwise.
func check(ix *source.Index, c claim.Claim) source.Verdict { return ix.Check(c) }
