package result

import (
	"strings"
	"testing"
)

// TestWriteTextNoRepeatedLocation: a message that already says where it is
// ("... at root", "... in user.profile") is not followed by "(at root)".
func TestWriteTextNoRepeatedLocation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		msg, loc string
		suffix   bool
	}{
		{"Missing required field 'x' at root", "root", false},
		{"Missing required field 'email' in user.profile", "user.profile", false},
		{"Missing required field 'email' in user, which is required", "user", false},
		{"Missing required field 'tests'", "root", true},
		{"Field 'priority' is \"urgent\", not one of the allowed values", "priority", true},
		{"Missing required field 'email' in user", "user.profile", true},
		{"Missing required field 'email' in users", "user", true},
	}
	for _, tc := range tests {
		t.Run(tc.msg, func(t *testing.T) {
			t.Parallel()
			var sb strings.Builder
			r := &ValidationResult{Issues: []Issue{{Severity: Error, Type: MissingField, Message: tc.msg, Location: tc.loc, Suggestion: "Add the field to the output"}}}
			if err := WriteText(&sb, r); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(sb.String(), "(at "+tc.loc+")"); got != tc.suffix {
				t.Errorf("suffix (at %s) written: %v, want %v\n%s", tc.loc, got, tc.suffix, sb.String())
			}
		})
	}
}
