package claim_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
)

// TestConversions checks that a measure and its conversion written in
// parentheses after it are linked as one quantity, both ways round, in
// every dimension and with a lost square or cube sign, a sum of money
// and its value in another currency, and that two numbers that are no
// such pair stay apart: a conversion that does not convert, a
// parenthesis that is not a measure, units of two dimensions, a sum in
// the same currency or at no rate near one. The sentences are written for this test.
func TestConversions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text, a, b string // b "" when a has no conversion
	}{
		{"The Tolby tower is 355 feet (108 m) tall.", "355", "108"},
		{"The hall is 390 ft (120 m) deep.", "390", "120"},
		{"The lake is 12 metres (39 ft) deep.", "12", "39"},
		{"A 355-foot (108 m) tower stands there.", "355", "108"},
		{"The walk is 5 miles (8 km; 4.3 nmi) long.", "5", "8"},
		{"The office covers 180,000 square feet (17,000 m²).", "180,000", "17,000"},
		{"The office covers 180,000 square feet (17,000 m) on one floor.", "180,000", "17,000"},
		{"The skull held about 600 cm (37 cu in) of brain.", "600", "37"},
		{"The park covers 2,000 acres (810 ha).", "2,000", "810"},
		{"The calf weighed 300 lb (140 kg) at birth.", "300", "140"},
		{"The tank holds 40 gallons (180 litres).", "40", "180"},
		{"It reached 95 °F (35 °C) in June.", "95", "35"},
		{"The car reached 100 mph (160 km/h).", "100", "160"},
		{"The river is 1.2 million kilometres (750,000 mi) long.", "1.2 million", "750,000"},
		// A sum and its value in another currency.
		{"The club paid £5 million ($6.5 million) for him.", "£5 million", "$6.5 million"},
		{"The fee was 4 million euros ($5 million).", "4 million", "$5 million"},
		{"The bridge cost €76 million (US$85 million).", "€76 million", "$85 million"},
		{"The bridge cost 1 billion yen (about $9 million).", "1 billion", "$9 million"},
		// No pair.
		{"The Tolby tower is 355 feet (200 m) tall.", "355", ""},
		{"The hall is 390 ft (120 kg) deep.", "390", ""},
		{"The album sold 5 million copies (3 million in 2019).", "5 million", ""},
		{"The fee was $5.6 million (£43 million).", "$5.6 million", ""},
		// "¥" is the yen or the yuan: no rate reads it.
		{"The bridge cost ¥10 billion ($1 billion).", "¥10 billion", ""},
		// One significant digit is a rounding only of a measure with one.
		{"The estate covers 36,000 acres (10,000 ha).", "36,000", ""},
		{"The walk is 1 mile (2 km) long.", "1", "2"},
		{"The fee was $5.6 million ($4.3 million in 2010).", "$5.6 million", ""},
		{"The fee was £5 million (paid in $6.5 million of shares).", "£5 million", ""},
		{"The tower is 355 feet tall (108 m with its mast).", "355", ""},
		{"The office covers 180,000 square feet (17,000 kg).", "180,000", ""},
	}
	for _, tt := range tests {
		cs := claim.Extract(tt.text, "").Claims
		a := numberIn(cs, tt.a)
		if a == nil {
			t.Errorf("%q: no number %q among %v", tt.text, tt.a, cs)
			continue
		}
		switch {
		case tt.b == "" && a.Converted != nil:
			t.Errorf("%q: %q is linked to %q, want no conversion", tt.text, tt.a, a.Converted.Text)
		case tt.b == "":
		case a.Converted == nil || a.Converted.Text != tt.b:
			t.Errorf("%q: %q is linked to %v, want %q", tt.text, tt.a, a.Converted, tt.b)
		default:
			b := numberIn(cs, tt.b)
			if b == nil || b.Converted == nil || b.Converted.Text != tt.a {
				t.Errorf("%q: %q is not linked back to %q", tt.text, tt.b, tt.a)
			}
		}
	}
}

func numberIn(cs []claim.Claim, text string) *claim.Claim {
	for i := range cs {
		if cs[i].Kind == claim.Number && cs[i].Text == text {
			return &cs[i]
		}
	}
	return nil
}
