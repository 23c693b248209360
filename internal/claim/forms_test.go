package claim_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
)

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
