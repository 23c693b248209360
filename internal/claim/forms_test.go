package claim_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
)

func TestNameForms(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, want string }{
		{"Shizuoka Prefecture", "Shizuoka"},
		{"City of Milwaukee", "Milwaukee"},
		{"Kent County", "Kent"},
		{"United States National Film Registry", "U.S. National Film Registry|US National Film Registry|USA National Film Registry|U.S.A. National Film Registry"},
		{"U.S Navy", "United States Navy|US Navy|USA Navy|U.S.A. Navy"},
		{"UK", "United Kingdom|U.K."},
		// No other form: a place type alone, a name without one, a
		// capitalized "Us" that is not the country's abbreviation.
		{"Prefecture", ""},
		{"Alice Smith", ""},
		{"City", ""},
		{"Us Weekly", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(claim.NameForms(tt.name), "|"); got != tt.want {
			t.Errorf("NameForms(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
