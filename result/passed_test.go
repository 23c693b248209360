package result

import (
	"reflect"
	"testing"
	"time"
)

// Passed gives exactly what the builder gives for one type that ran and
// found nothing, and a result that meets the specification's schema.
func TestPassedIsTheBuilders(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		typ        string
		confidence float64
		d          time.Duration
	}{
		{"schema", 1, 1234567 * time.Nanosecond},
		{"schema", 0.33333333, 0},
		{"criteria", 2, time.Second},
		{"facts", -1, 999 * time.Nanosecond},
		{QualityType, 1, time.Millisecond},
	} {
		got := Passed(tc.typ, tc.confidence, tc.d, &SelfCheck{})
		want := NewBuilder().SelfCheck(&SelfCheck{}).Ran(tc.typ).Confidence(tc.confidence).Duration(tc.d).Build()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Passed(%q, %v, %v) = %+v, want %+v", tc.typ, tc.confidence, tc.d, got, want)
		}
		if err := Check(got); err != nil {
			t.Errorf("Passed(%q): %v", tc.typ, err)
		}
	}
}

func BenchmarkPassed(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Passed("schema", 1, time.Microsecond, nil)
	}
}
