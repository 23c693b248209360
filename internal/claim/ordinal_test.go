package claim_test

import (
	"testing"

	"github.com/agentjudge/judge/internal/claim"
)

// TestOrdinalWords: a compound ordinal in words is the number it orders,
// with the unit its digits take ("forty-fourth" as "44th"); a cardinal,
// a fraction and a number before a unit stay as they were read. The
// sentences are written for this test.
func TestOrdinalWords(t *testing.T) {
	t.Parallel()
	tests := []struct{ text, want string }{
		{"It was the forty-fourth season of the show.", "forty-fourth|44 th"},
		{"It was the 44th season of the show.", "44|44 th"},
		{"The twenty-first race and the thirty-second one.", "twenty-first|21 st; thirty-second|32 nd"},
		{"The ninety-third and sixty-ninth rows.", "ninety-third|93 rd; sixty-ninth|69 th"},
		{"Forty-four people came.", "Forty-four|44 people"},
		{"She took forty-fifths of the cake.", "forty|40 fifth"},
		{"The seven-fourth split.", "seven|7 fourth"},
	}
	for _, tt := range tests {
		g := shown(tt.text, func(c claim.Claim) string {
			if c.Kind != claim.Number {
				return ""
			}
			return c.Text + "|" + c.Value
		})
		if g != tt.want {
			t.Errorf("%q: got %q, want %q", tt.text, g, tt.want)
		}
	}
}
