package claim_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
)

// TestNumericDates: a date written in digits is a date, whichever order
// its parts take, and nothing else in digits with dots or slashes is.
func TestNumericDates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want string // the claims, "kind|text|value", joined by "; "
	}{
		{"The lease ran out on 31.12.2009 after a review.", "date|31.12.2009|2009-12-31"},
		{"The lease ran out on 12/31/2009 after a review.", "date|12/31/2009|2009-12-31"},
		{"The lease ran out on 31/12/2009 after a review.", "date|31/12/2009|2009-12-31"},
		{"The lease ran out on 31-12-2009 after a review.", "date|31-12-2009|2009-12-31"},
		{"The lease ran out on 2009/12/31 after a review.", "date|2009/12/31|2009-12-31"},
		// Dots are written day first; slashes either way, so only the
		// year is certain.
		{"Signed on 05.04.2010 by both.", "date|05.04.2010|2010-04-05"},
		{"Signed on 05/04/2010 by both.", "date|05/04/2010|2010-?-?"},
		// Not dates: a version, a longer run, mixed separators, a year
		// out of range, parts out of range.
		{"Upgrade to version 1.12.2009 now.", "version|version 1.12.2009|1.12.2009"},
		{"Version 1.2.3 fixed it.", "version|Version 1.2.3|1.2.3"},
		{"Upgrade to 2.31.12.2009 now.", "version|2.31.12.2009|2.31.12.2009"},
		{"Code 31.12/2009 here.", "date|2009|2009-?-?"},
		{"Ticket 31.12.3009 here.", "version|31.12.3009|31.12.3009"},
		{"Ticket 33.14.2009 here.", "version|33.14.2009|33.14.2009"},
	}
	for _, tt := range tests {
		g := shown(tt.text, func(c claim.Claim) string {
			if c.Kind != claim.Date && c.Kind != claim.Version {
				return ""
			}
			return strings.Join([]string{string(c.Kind), c.Text, c.Value}, "|")
		})
		if g != tt.want {
			t.Errorf("%q: got %q, want %q", tt.text, g, tt.want)
		}
	}
}
