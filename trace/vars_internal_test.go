package trace

import (
	"maps"
	"slices"
	"testing"
)

// The variables the rules are compiled with (RuleVars) and those a check
// gives them at each call (walk.vars) are two lists that must agree: a
// variable declared but not given fails every rule that reads it, one
// given but not declared cannot be read.
func TestRuleVarsAgree(t *testing.T) {
	t.Parallel()
	w := (&Checker{}).newWalk(Conversation{}, "session")
	got := slices.Sorted(maps.Keys(w.vars(0, nil, nil, nil)))
	want := slices.Sorted(slices.Values(RuleVars()))
	if !slices.Equal(got, want) {
		t.Errorf("walk.vars gives %q, RuleVars declares %q", got, want)
	}
	v := RuleVars()
	v[0] = "changed"
	if RuleVars()[0] == "changed" {
		t.Error("RuleVars returned the table itself")
	}
}
