package result

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
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

// Found gives exactly what the builder gives for one type that ran and
// found the issues, whatever they are: unsorted, repeated, blank, too long
// or too short, past the cap.
func TestFoundIsTheBuilders(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 150)
	many := make([]Issue, 0, 600)
	for i := range 600 {
		many = append(many, Issue{Severity: Error, Type: InvalidType, Location: fmt.Sprintf("items[%d]", 600-i),
			Message: "Item has type string, expected integer", Rule: "schema.type"})
	}
	for _, tc := range []struct {
		name   string
		issues []Issue
	}{
		{"none", nil},
		{"one", []Issue{{Severity: Error, Type: MissingField, Location: "root", Message: "Missing required field 'a' at root",
			Suggestion: "Add an 'a' field", Rule: "schema.required"}}},
		{"unsorted and repeated", []Issue{
			{Severity: Error, Type: InvalidType, Location: "b", Message: "Field 'b' has type string, expected integer"},
			{Severity: Warning, Type: ConstraintViolation, Location: "a", Message: "Field 'a' is too long to be right"},
			{Severity: Error, Type: InvalidType, Location: "b", Message: "Field 'b' has type string, expected integer"},
		}},
		{"texts out of bounds", []Issue{
			{Severity: Error, Type: InvalidType, Location: " ", Message: "short", Suggestion: " fix "},
			{Severity: "bad", Type: "", Location: "x", Message: long, Suggestion: long, Rule: "  "},
			{Severity: Info, Type: "unknown_type", Location: "y", Message: "", Suggestion: "\t"},
		}},
		{"past the cap", many},
	} {
		want := NewBuilder().SelfCheck(&SelfCheck{}).Ran("schema").Add(tc.issues...).Confidence(0.5).Duration(time.Millisecond).Build()
		got := Found("schema", 0.5, time.Millisecond, &SelfCheck{}, slices.Clone(tc.issues))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Found = %+v, want %+v", tc.name, got, want)
		}
		if err := Check(got); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

func BenchmarkPassed(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Passed("schema", 1, time.Microsecond, nil)
	}
}
