package toolcall

import (
	"fmt"
	"slices"
	"strings"
)

// widen returns the tools to show after an escalation, and the reason
// saying so: the tools shown plus the lowest tier above theirs that the
// toolset has (the registry's next tier), or, when there is none or the
// session does not know what was shown, every tool. It returns no tools
// when the model already sees them all.
func (ts *Toolset) widen(shown []string, reason string) ([]string, string) {
	if len(shown) == 0 {
		return ts.Names(), fmt.Sprintf("%s; the tools the model was shown are not known: show all %d", reason, len(ts.names))
	}
	top, known := -1, 0
	for _, n := range shown {
		if ct, ok := ts.contracts[n]; ok {
			top = max(top, ct.Tier)
			known++
		}
	}
	next := -1
	for _, n := range ts.names {
		if t := ts.contracts[n].Tier; t > top && (next < 0 || t < next) {
			next = t
		}
	}
	var add []string
	for _, n := range ts.names {
		if slices.Contains(shown, n) {
			continue
		}
		if next < 0 || ts.contracts[n].Tier <= next {
			add = append(add, n)
		}
	}
	if len(add) == 0 {
		return nil, reason + "; the model already sees every tool, so there is nothing wider to show"
	}
	show := append(slices.Clone(shown), add...)
	slices.Sort(show)
	show = slices.Compact(show)
	listed := add
	if len(listed) > 10 {
		listed = append(slices.Clone(listed[:10]), "…")
	}
	if next >= 0 && known > 0 {
		return show, fmt.Sprintf("%s; show the next tier (tier %d): %d more tools (%s)", reason, next, len(add), strings.Join(listed, ", "))
	}
	return show, fmt.Sprintf("%s; show all %d tools: %d more (%s)", reason, len(show), len(add), strings.Join(listed, ", "))
}
