package source_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestNamesAndPartialDates checks the ways a source names what an output
// names in other words: a nationality for its country and back (a
// country of one word or several), initials
// for a name of several words, and a date given without its year.
func TestNamesAndPartialDates(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "news.txt", Content: "An open pit mine collapsed in China's northern region on Wednesday. " +
		"Russian officials met Ukrainian diplomats.\n" +
		"Abby: Was sunny in LA. Gail: rainy in the U.K.\n" +
		"Saudi ministers met American bankers. Talks went on in the United Arab Emirates.\n" +
		"Binance transferred the funds starting on 17 August last year. The coins had no collateral until December 2022."})
	tests := []struct {
		text   string
		kind   claim.Kind
		status source.Status
		why    string // part of Verdict.Why, for an undecided claim
	}{
		{"A mine collapse killed Chinese workers.", claim.Name, source.Supported, ""},
		{"Officials in Russia met them.", claim.Name, source.Supported, ""},
		{"Diplomats came from Ukraine.", claim.Name, source.Supported, ""},
		{"They met Japanese officials.", claim.Name, source.Unsupported, ""},
		{"It was sunny in Los Angeles.", claim.Name, source.Supported, ""},
		{"It was sunny in New Mexico.", claim.Name, source.Unsupported, ""},
		{"It rained in the United Kingdom.", claim.Name, source.Supported, ""},
		{"It rained in New Zealand.", claim.Name, source.Unsupported, ""},
		// A country of several words for its nationality, and back.
		{"Ministers of Saudi Arabia met them.", claim.Name, source.Supported, ""},
		{"Bankers from the United States came.", claim.Name, source.Supported, ""},
		{"Ministers of North Korea met them.", claim.Name, source.Unsupported, ""},
		{"They met Emirati officials.", claim.Name, source.Supported, ""},
		{"Binance transferred the funds in August 2022.", claim.Date, source.Undecided, "17 August without a year"},
		{"Binance transferred the funds on August 17, 2022.", claim.Date, source.Undecided, "without a year"},
		{"Binance transferred the funds in September 2022.", claim.Date, source.Contradicted, ""},
		{"Binance transferred the funds on August 18, 2022.", claim.Date, source.Contradicted, ""},
	}
	for _, tt := range tests {
		var c *claim.Claim
		for _, x := range claim.Extract(tt.text, "").Claims {
			if x.Kind == tt.kind {
				c = &x
				break
			}
		}
		if c == nil {
			t.Errorf("%q: no %s claim", tt.text, tt.kind)
			continue
		}
		v := ix.Check(*c)
		if v.Status != tt.status {
			t.Errorf("%q: %s %q is %s, want %s", tt.text, c.Kind, c.Text, v.Status, tt.status)
		}
		if !strings.Contains(v.Why, tt.why) || (tt.why != "" && v.Evidence == nil) {
			t.Errorf("%q: Why %q (evidence %v), want it to say %q", tt.text, v.Why, v.Evidence != nil, tt.why)
		}
	}
}
