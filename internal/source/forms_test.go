package source_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestOtherForms checks the forms in which a page states what an output
// states in other words (issue 26): an age given as "dies at 83" or "the
// 44-year-old", and a name with other accents, decided by the index
// itself. (The rules for a weekday in a dated page, dates in parts, a
// month dated by a year given elsewhere, hyphenated parts of names and
// names' other forms were removed in issue 26's fourth round: each changed
// claims of one half of WiCE dev only.) Each has a changed counterpart that must still be
// flagged (contradicted or unsupported). The sentences are written for
// this test.
func TestOtherForms(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "Retired judge Mara Quill dies at 83\n" +
		"By Ona Vey on June 9, 2021\n" +
		"The 44-year-old engineer joined the firm in 2009.\n" +
		"Why May 14th is remembered\n" +
		"In 1987 the bridge opened to traffic.\n" +
		"The mayor stood beside a neo-Fascist banner.\n" +
		"The Ajax Cup was awarded on 3 March 2015.\n" +
		"She grew up in Shizuoka.\n" +
		"The orchestra played in Montréal and Zürich.\n" +
		"The team later moved to Sao Paulo."})
	const flagged = -1
	tests := []struct {
		text   string
		kind   claim.Kind
		status source.Status // or flagged: Contradicted or Unsupported
		why    string        // part of Verdict.Why, for an undecided claim
	}{
		{"The former jurist passed away in June 2021 at the age of 83.", claim.Number, source.Supported, ""},
		{"The former jurist passed away in June 2021 at the age of 84.", claim.Number, flagged, ""},
		{"The jurist passed away on June 9, 2021, at the age of 83.", claim.Number, source.Supported, ""},
		{"Rook, at 44, took up a post in Leeds.", claim.Number, source.Supported, ""},
		{"Rook, at 45, took up a post in Leeds.", claim.Number, flagged, ""},
		{"Rook took up a post in Leeds aged forty-four.", claim.Number, source.Supported, ""},
		{"Rook took up a post in Leeds in her 40s.", claim.Number, source.Supported, ""},
		{"Rook took up a post in Leeds in her 50s.", claim.Number, flagged, ""},
		{"The orchestra toured Montreal.", claim.Name, source.Supported, ""},
		{"The orchestra toured Zurich.", claim.Name, source.Supported, ""},
		{"The orchestra toured Geneva.", claim.Name, flagged, ""},
		{"The team played in São Paulo.", claim.Name, source.Supported, ""},
		{"The team played in São Tomé.", claim.Name, flagged, ""},
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
		switch {
		case tt.status == flagged:
			if v.Status != source.Contradicted && v.Status != source.Unsupported {
				t.Errorf("%q: %s %q is %s, want it flagged", tt.text, c.Kind, c.Text, v.Status)
			}
		case v.Status != tt.status:
			t.Errorf("%q: %s %q is %s, want %s", tt.text, c.Kind, c.Text, v.Status, tt.status)
		case tt.status == source.Supported && v.Evidence == nil:
			t.Errorf("%q: supported without evidence", tt.text)
		}
		if !strings.Contains(v.Why, tt.why) || (tt.why != "" && v.Evidence == nil) {
			t.Errorf("%q: Why %q (evidence %v), want it to say %q", tt.text, v.Why, v.Evidence != nil, tt.why)
		}
	}
}
