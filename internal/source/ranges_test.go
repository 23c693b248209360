package source_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// TestYearInSpan checks that a year inside a span of years a passage about
// the same thing gives is undecided, not contradicted by the span's ends,
// including a year it ends on ("2016–17" for 2017), and that each
// changed counterpart (a year outside the span, two years
// joined by "and" without "between", a passage about something else) is
// still flagged. The sentences are written for this test.
func TestYearInSpan(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "Ada Lenk served as mayor of Tolby from 1990 to 1995.\n" +
		"The Harrow mill ran between March 1871 and June 1880.\n" +
		"Pell Brewery was rebuilt 1962–68 after the fire.\n" +
		"The Orsa choir toured Spain in 2001 and 2005.\n" +
		"The Kelt bridge was painted in 1990.\n" +
		"Tam Rook coached the Harriers in the 2016–17 season.\n" +
		"The Varn line opened on 2004-09-15 to traffic."})
	tests := []verdictCase{
		{"Ada Lenk was mayor of Tolby in 1993.", source.Undecided},
		{"Ada Lenk was mayor of Tolby in 1997.", flagged},
		{"Ada Lenk was mayor of Tolby in 1990.", source.Supported},
		{"The Harrow mill ran in 1875.", source.Undecided},
		{"The Harrow mill ran in 1885.", flagged},
		{"Pell Brewery was rebuilt in 1965.", source.Undecided},
		{"Pell Brewery was rebuilt in 1970.", flagged},
		{"The Orsa choir toured Spain in 2003.", flagged},
		{"The Kelt bridge was painted in 1993.", flagged},
		// A span's end written in two digits holds its year too.
		{"Tam Rook coached the Harriers in 2017.", source.Undecided},
		{"Tam Rook coached the Harriers in 2016.", source.Supported},
		{"Tam Rook coached the Harriers in 2018.", flagged},
		// An ISO date is no span of years (2004 to 2009).
		{"The Varn line opened in 2006 to traffic.", flagged},
	}
	// The span quoted is the span itself, from its first year or month
	// to its last: not the word before it ("the 2016–17", "rebuilt
	// 1962–68").
	spans := map[string]string{
		"Ada Lenk was mayor of Tolby in 1993.":   "1990 to 1995",
		"The Harrow mill ran in 1875.":           "between March 1871 and June 1880",
		"Pell Brewery was rebuilt in 1965.":      "1962–68",
		"Tam Rook coached the Harriers in 2017.": "2016–17",
	}
	checkVerdicts(t, ix, tests, firstOf(claim.Date), func(tt verdictCase, v source.Verdict) string {
		if tt.status != source.Undecided {
			return ""
		}
		if want := fmt.Sprintf("the span %q", spans[tt.text]); v.Evidence == nil || !strings.Contains(v.Why, want) {
			return fmt.Sprintf("undecided without %s quoted: Why %s", want, v.Why)
		}
		return ""
	})
}

// TestDayInSpan checks that a day inside a range of days a passage about
// the same thing gives is undecided, not contradicted by the range's
// ends, and that each changed counterpart (a day outside the range,
// another month, another year, a passage about something else) is still
// flagged, and a day a range ends on still supported. The sentences are
// written for this test.
func TestDayInSpan(t *testing.T) {
	t.Parallel()
	ix := mustIndex(t, source.Doc{ID: "page.txt", Content: "The Tolby reed festival runs May 11-22 on the harbour.\n" +
		"The Harrow quilt show ran March 3–9, 2016 in the hall.\n" +
		"The Kelt bridge was painted on June 4, 2010."})
	tests := []verdictCase{
		{"The Tolby reed festival opened on May 19, 2016.", source.Undecided},
		{"The Tolby reed festival opened on May 25, 2016.", flagged},
		{"The Tolby reed festival opened on June 19, 2016.", flagged},
		{"The Tolby reed festival opened on May 11.", source.Supported},
		{"The Harrow quilt show ran on March 5, 2016.", source.Undecided},
		{"The Harrow quilt show ran on March 5, 2017.", flagged},
		{"The Harrow quilt show ran on March 9, 2016.", source.Supported},
		{"The Kelt bridge was painted on June 6, 2010.", flagged},
	}
	checkVerdicts(t, ix, tests, firstOf(claim.Date), func(tt verdictCase, v source.Verdict) string {
		if tt.status == source.Undecided && (v.Evidence == nil || !strings.Contains(v.Why, "the range")) {
			return "undecided without the range quoted: Why " + v.Why
		}
		return ""
	})
}
