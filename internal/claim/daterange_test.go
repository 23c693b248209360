package claim_test

import (
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
)

// TestDateRanges: a range of days gives both its ends as dates, each with
// the year written once after its end, and a start month later than the
// end's is of the year before; a pair of numbers that is no range of days
// (not rising, over 31) is not read as one; a day and month "of" a year
// are one date, as a month "of" a year is. The sentences are written for
// this test.
func TestDateRanges(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want string // the date claims, "text|value", joined by "; "
	}{
		{"The Tolby fair runs March 3–9, 2016 on the green.", "March 3|2016-03-03; 9, 2016|2016-03-09"},
		{"The Tolby fair runs May 11-22.", "May 11|?-05-11; 22|?-05-22"},
		{"The Tolby fair runs June 2 to 5 2019.", "June 2|2019-06-02; 5 2019|2019-06-05"},
		{"The fair ran from March 3 to March 9, 2016.", "March 3|2016-03-03; March 9, 2016|2016-03-09"},
		{"Ona Vey's prints hang there Aug. 25 - April 1, 2018.", "Aug. 25|2017-08-25; April 1, 2018|2018-04-01"},
		{"Ona Vey's prints hang there Nov. 25 – Dec. 1, 2018.", "Nov. 25|2018-11-25; Dec. 1, 2018|2018-12-01"},
		// Not ranges of days: the second number not after the first,
		// or over 31; a single date stays as it was read.
		{"The Tolby fair runs May 22-11.", "May 22|?-05-22"},
		{"The Tolby fair runs May 11-45 now.", "May 11|?-05-11"},
		{"The Tolby fair opened on March 9, 2016.", "March 9, 2016|2016-03-09"},
		// A day and month "of" a year are one date; "of that year"
		// leaves the day without one.
		{"The Tolby fair opened on October 6 of 1995.", "October 6 of 1995|1995-10-06"},
		{"The Tolby fair opened on October 6 of that year.", "October 6|?-10-06"},
	}
	for _, tt := range tests {
		g := shown(tt.text, func(c claim.Claim) string {
			if c.Kind != claim.Date {
				return ""
			}
			return c.Text + "|" + c.Value
		})
		if g != tt.want {
			t.Errorf("%q: got %q, want %q", tt.text, g, tt.want)
		}
	}
	if got := claim.DayRanges("It runs May 11-22, and again Sept. 3 to 9 2020; not May 22-11."); len(got) != 2 ||
		got[0] != (claim.DayRange{Month: 5, From: 11, To: 22, Text: "May 11-22"}) ||
		got[1] != (claim.DayRange{Year: 2020, Month: 9, From: 3, To: 9, Text: "Sept. 3 to 9 2020"}) {
		t.Errorf("DayRanges: got %+v", got)
	}
	if got := claim.DayRanges(strings.Repeat("May", 3)); got != nil {
		t.Errorf("DayRanges without digits: got %+v", got)
	}
}
