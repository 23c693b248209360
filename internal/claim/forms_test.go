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

func TestWordForms(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, want string }{
		{"St. Mary's Church", "Saint Mary's Church"},
		{"Saint Helena", "St Helena"},
		{"Mount Everest", "Mt Everest"},
		{"Manchester United F.C.", "Manchester United"},
		{"Acme Corp.", "Acme|Acme Corporation"},
		// A legal form alone is kept (written out); no other form: no
		// word with another form.
		{"Inc.", "Incorporated"},
		{"Alice Smith", ""},
		{"And Justice", ""},
		{"Smith & Wesson", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(claim.WordForms(tt.name), "|"); got != tt.want {
			t.Errorf("WordForms(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
