package quality

import (
	"testing"

	"github.com/agentjudge/judge/result"
)

// The quality layer, not package result, knows which of its rules count
// against another dimension than their type's.
func TestDimensionOfRule(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rule string
		typ  result.Type
		want string
	}{
		{"prose.placeholder", result.ReadabilityIssue, result.Completeness},
		{"prose.unfinished", result.ReadabilityIssue, result.Completeness},
		{"prose.unclosed_fence", result.ReadabilityIssue, result.Completeness},
		{"prose.unclosed_bracket", result.ReadabilityIssue, result.Completeness},
		{"readability.function_length", result.ReadabilityIssue, result.Maintainability},
		{"style.naming", result.StyleIssue, result.Style},
		{"readability.nesting", result.ReadabilityIssue, result.Readability},
		{"complexity.cyclomatic", result.ComplexityIssue, result.Maintainability},
	} {
		is := result.Issue{Severity: result.Warning, Type: tc.typ, Rule: tc.rule, Dimension: dimensionOf(tc.rule)}
		if got := result.DimensionOf(is); got != tc.want {
			t.Errorf("rule %s of type %s counts against %q, want %q", tc.rule, tc.typ, got, tc.want)
		}
	}
}
