//go:build !ablate

package ablate

import "testing"

// TestOffNeverInOrdinaryBuild: without the ablate tag no rule can be turned
// off, whatever the environment says, so nothing shipped carries the knob.
func TestOffNeverInOrdinaryBuild(t *testing.T) {
	t.Setenv("JUDGE_ABLATE", YearAnywhere+","+Period+","+Squeezed+","+EventDate+","+RelativeDate+","+BareHour+","+UnnamedWeekday+","+Age+","+Folded+","+Coverage+","+YearSpan+","+Bounds+","+WordForms+","+BareHead+","+PageDate+","+GenericName+","+PlaceWords+","+Synonym+","+HyphenSpaced+","+SpanEnd+","+Demonyms+","+Numeral+","+Designator+","+Abbreviation+","+NumericDate+","+InitialDot+","+TitleDot+","+OrdinalWords+","+DateRange+","+DateWeekday)
	for _, r := range []string{YearAnywhere, Period, Squeezed, EventDate, RelativeDate, BareHour, UnnamedWeekday, Age, Folded, Coverage, YearSpan, Bounds, WordForms, BareHead, PageDate, GenericName, PlaceWords, Synonym, HyphenSpaced, SpanEnd, Demonyms, Numeral, Designator, Abbreviation, NumericDate, InitialDot, TitleDot, OrdinalWords, DateRange, DateWeekday} {
		if Off(r) {
			t.Errorf("Off(%q) = true in a build without the ablate tag", r)
		}
	}
}
