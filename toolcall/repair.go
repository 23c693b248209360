package toolcall

import (
	"slices"
	"strings"

	"github.com/agentjudge/judge/result"
)

// Repair is the feedback a model reads to repair an invalid call. It sits
// beside the ValidationResult, never inside it. Its JSON form is a stable
// contract, documented in docs/toolcall.md: fields are added, never renamed
// or removed.
type Repair struct {
	// Tool is the tool the call named.
	Tool string `json:"tool"`
	// Intent is what the tool is for: the first sentence of its
	// description.
	Intent string `json:"intent,omitempty"`
	// WhenToUse and WhenNotToUse are the tool's usage guidance, when it
	// has any.
	WhenToUse    string `json:"when_to_use,omitempty"`
	WhenNotToUse string `json:"when_not_to_use,omitempty"`
	// Parameters are the tool's valid parameters, with types and required
	// flags.
	Parameters []Param `json:"parameters,omitempty"`
	// Fixes are the targeted repairs, one per error issue.
	Fixes []Fix `json:"fixes"`
	// ClosestTools and AvailableTools are set for an unknown tool: the
	// likeliest intended names, and every name the call may use.
	ClosestTools   []string `json:"closest_tools,omitempty"`
	AvailableTools []string `json:"available_tools,omitempty"`
	// Attempt, MaxAttempts and RemainingAttempts count the repair attempts
	// of this tool in the session; they are set only when the call named a
	// session.
	Attempt           int  `json:"attempt,omitempty"`
	MaxAttempts       int  `json:"max_attempts,omitempty"`
	RemainingAttempts *int `json:"remaining_attempts,omitempty"`
}

// Fix is one targeted repair: where, what is wrong, what to do.
type Fix struct {
	Location   string `json:"location"`
	Problem    string `json:"problem"`
	Suggestion string `json:"suggestion,omitempty"`
	// Intent and AntiPatterns are the usage guidance of the parameter at
	// fault (the first name of Location), when it has any.
	Intent       string   `json:"intent,omitempty"`
	AntiPatterns []string `json:"anti_patterns,omitempty"`
}

// maxFixes is how many fixes a repair lists; the result holds every issue.
const maxFixes = 20

// repair builds the feedback of an invalid result: one fix per error.
func (ct *Contract) repair(issues []result.Issue) *Repair {
	r := &Repair{Tool: ct.Name, Intent: ct.Intent, WhenToUse: ct.WhenToUse, WhenNotToUse: ct.WhenNotToUse, Parameters: ct.Params, Fixes: []Fix{}}
	for _, is := range issues {
		if is.Severity != result.Error {
			continue
		}
		if len(r.Fixes) == maxFixes {
			break
		}
		f := Fix{Location: is.Location, Problem: is.Message, Suggestion: is.Suggestion}
		if p, ok := ct.paramAt(is.Location); ok {
			f.Intent, f.AntiPatterns = p.Intent, p.AntiPatterns
		}
		r.Fixes = append(r.Fixes, f)
	}
	return r
}

// paramAt returns the parameter a location names: its first name
// ("ids" of "ids[0]", "filter" of "filter.owner").
func (ct *Contract) paramAt(loc string) (Param, bool) {
	name := loc
	if i := strings.IndexAny(name, ".["); i >= 0 {
		name = name[:i]
	}
	if strings.HasPrefix(loc, "[\"") {
		// A name that needs quoting: ["my key"].
		if end := strings.Index(loc, "\"]"); end > 2 {
			name = loc[2:end]
		}
	}
	i, ok := slices.BinarySearchFunc(ct.Params, name, func(p Param, n string) int { return strings.Compare(p.Name, n) })
	if !ok {
		return Param{}, false
	}
	return ct.Params[i], true
}
