package result

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
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
		{"in order", typicalIssues()},
		{"in order, warnings and process types", []Issue{
			{Severity: Warning, Type: DuplicateKey, Location: "a", Message: "Key 'a' appears twice in an object of the output"},
			{Severity: Info, Type: NotChecked, Location: "b", Message: "The format of 'b' was not checked"},
			{Severity: Info, Type: OutputParsed, Location: "root", Message: "The output string was read as JSON"},
		}},
		{"in order once trimmed", []Issue{
			{Severity: Error, Type: InvalidType, Location: "b", Message: "  Field 'b' has type string, expected integer "},
			{Severity: Error, Type: InvalidType, Location: "a", Message: "\u00a0Field 'a' has type string, expected integer"},
		}},
		{"equal but for the dimension", []Issue{
			{Severity: Warning, Type: StyleIssue, Location: "a", Message: "Function name uses camelCase", Dimension: "style"},
			{Severity: Warning, Type: StyleIssue, Location: "a", Message: "Function name uses camelCase", Dimension: "other"},
		}},
		{"equal locations written differently", []Issue{
			{Severity: Error, Type: InvalidType, Location: "items[07]", Message: "Item has type string, expected integer"},
			{Severity: Error, Type: InvalidType, Location: "items[7]", Message: "Item has type string, expected integer"},
		}},
	} {
		want := NewBuilder().SelfCheck(&SelfCheck{}).Ran("schema").Add(tc.issues...).Confidence(0.5).Duration(time.Millisecond).Build()
		got := Found("schema", 0.5, time.Millisecond, &SelfCheck{}, slices.Clone(tc.issues))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Found = %+v, want %+v", tc.name, got, want)
		}
		if err := Check(got); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		// The same issues written in a room, as the schema layer's scan
		// writes them: FoundIn gives the same result, in the room's
		// result when the issues go the direct way (in order, within
		// the cap, one to four of them).
		room, in := NewRoom(len(tc.issues))
		copy(in, tc.issues)
		got = FoundIn(room, "schema", 0.5, time.Millisecond, &SelfCheck{}, in)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: FoundIn = %+v, want %+v", tc.name, got, want)
		}
		normal := slices.Clone(tc.issues)
		for i := range normal {
			normalizeIn(&normal[i])
		}
		direct := len(normal) >= 1 && len(normal) <= maxRoomIssues && increasing(normal)
		if used := room.r != nil && got == room.r; used != direct {
			t.Errorf("%s: FoundIn filled the room's result: %v, want %v", tc.name, used, direct)
		}
	}
}

// A room's result serves the room's own issues, once: issues of another
// array (a repeated key's warning appended to the room's), a second
// FoundIn of the same room, or a room asked for no issue or too many get a
// result of their own, equal to Found's.
func TestRoomOwnsItsIssuesOnce(t *testing.T) {
	t.Parallel()
	want := func(issues []Issue) *ValidationResult {
		return Found("schema", 1, time.Microsecond, nil, slices.Clone(issues))
	}
	room, in := NewRoom(2)
	copy(in, typicalIssues())
	first := FoundIn(room, "schema", 1, time.Microsecond, nil, in)
	if first != room.r || !reflect.DeepEqual(first, want(typicalIssues())) {
		t.Fatalf("first FoundIn: %p (room %p) %+v", first, room.r, first)
	}
	again := FoundIn(room, "schema", 1, 2*time.Microsecond, nil, slices.Clone(typicalIssues()))
	if again == room.r || first.Metadata.DurationMS != 0.001 {
		t.Errorf("a second FoundIn wrote the room's result again: duration %v", first.Metadata.DurationMS)
	}
	room, in = NewRoom(1)
	copy(in, typicalIssues()[:1])
	more := append(in, Issue{Severity: Warning, Type: DuplicateKey, Location: "z", Message: "Key 'z' appears twice in an object of the output"})
	if got := FoundIn(room, "schema", 1, time.Microsecond, nil, more); got == room.r || !reflect.DeepEqual(got, want(more)) {
		t.Errorf("issues appended past the room: %p (room %p) %+v", got, room.r, got)
	}
	for _, n := range []int{0, maxRoomIssues + 1, 40} {
		room, in := NewRoom(n)
		if room.r != nil || len(in) != n {
			t.Errorf("NewRoom(%d): result %v, %d issues", n, room.r != nil, len(in))
		}
	}
}

// Found through a room allocates once: the result and its issues.
func TestRoomAllocations(t *testing.T) {
	issues := typicalIssues()
	if n := testing.AllocsPerRun(100, func() {
		room, in := NewRoom(len(issues))
		copy(in, issues)
		FoundIn(room, "schema", 1, time.Microsecond, nil, in)
	}); n != 1 {
		t.Errorf("NewRoom and FoundIn: %v allocations, want 1", n)
	}
}

// Found allocates the result alone (with its types) for issues already
// normal and in order, as the schema layer's scan writes them.
func TestFoundAllocations(t *testing.T) {
	issues := typicalIssues()
	if n := testing.AllocsPerRun(100, func() { Found("schema", 1, time.Microsecond, nil, issues) }); n != 1 {
		t.Errorf("Found: %v allocations, want 1 (the result)", n)
	}
}

// FuzzFound: Found gives what the builder gives for any issues, and the
// shortcuts normalizeIn takes (plainEnds, shorter) agree with what they
// stand for.
func FuzzFound(f *testing.F) {
	f.Add("owner", "Field 'owner' has type number, expected string", "Change 'owner' to a string value",
		"root", "Missing required field 'method' at root", "Add a 'method' field", "error", 0, 1)
	f.Add(" a", "short", " ", "a", "\u00a0Field 'a' is too long to be right\u2028", "\t", "warning", 2, 27)
	f.Add("items[7]", strings.Repeat("wörd ", 120), "", "items[07]", "", "x", "bogus", 3, 5)
	f.Fuzz(func(t *testing.T, loc1, msg1, sugg1, loc2, msg2, sugg2, sev string, ty1, ty2 int) {
		kinds := Types()
		issues := []Issue{
			{Severity: Severity(sev), Type: kinds[uint(ty1)%uint(len(kinds))].Type, Location: loc1, Message: msg1, Suggestion: sugg1, Rule: "r"},
			{Severity: Error, Type: kinds[uint(ty2)%uint(len(kinds))].Type, Location: loc2, Message: msg2, Suggestion: sugg2},
		}
		for _, typ := range []string{"schema", QualityType} {
			want := NewBuilder().SelfCheck(nil).Ran(typ).Add(issues...).Confidence(0.75).Duration(time.Millisecond).Build()
			got := Found(typ, 0.75, time.Millisecond, nil, slices.Clone(issues))
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Found(%q) = %+v, want %+v", typ, got, want)
			}
			if err := Check(got); err != nil {
				t.Fatalf("Found(%q): %v", typ, err)
			}
		}
		for _, s := range []string{loc1, msg1, sugg1, loc2, msg2, sugg2, sev} {
			if plainEnds(s) && strings.TrimSpace(s) != s {
				t.Fatalf("plainEnds(%q), but strings.TrimSpace changes it to %q", s, strings.TrimSpace(s))
			}
			if n := utf8.RuneCountInString(s); fitsASCII(s) && (n < MinTextLen || n > MaxTextLen) {
				t.Fatalf("fitsASCII(%q) with %d characters", s, n)
			}
			for _, n := range []int{MinTextLen, MaxTextLen} {
				if got, want := shorter(s, n), utf8.RuneCountInString(s) < n; got != want {
					t.Fatalf("shorter(%q, %d) = %v, want %v", s, n, got, want)
				}
			}
		}
	})
}

func BenchmarkPassed(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Passed("schema", 1, time.Microsecond, nil)
	}
}

// BenchmarkFound builds the result of an invalid small document as the
// engine's fast path does: two issues, written normal and in order, as the
// schema layer's scan writes them (the corpus's typical invalid tool
// arguments: a wrong type and a missing field).
func BenchmarkFound(b *testing.B) {
	issues := typicalIssues()
	b.ReportAllocs()
	for b.Loop() {
		// The same issues every time: Found writes nothing to issues
		// already normal and in order, so each call sees what the scan
		// gives (a copy would measure the copy's write barriers).
		Found("schema", 1, time.Microsecond, nil, issues)
	}
}

// typicalIssues are the corpus's typical issues of invalid tool arguments
// (a wrong type and a missing field), normal and in order, as the schema
// layer's scan writes them.
func typicalIssues() []Issue {
	return []Issue{
		{Severity: Error, Type: InvalidType, Location: "owner", Message: "Field 'owner' has type number, expected string",
			Suggestion: "Change 'owner' to a string value", Rule: "schema.type"},
		{Severity: Error, Type: MissingField, Location: "root", Message: "Missing required field 'method' at root",
			Suggestion: "Add a 'method' field (string): The method to execute", Rule: "schema.required"},
	}
}

// durationMS and unit's shortcut give what the rounding they skip gives.
func TestRoundingShortcuts(t *testing.T) {
	t.Parallel()
	for _, d := range []time.Duration{0, 1, 999, time.Microsecond, 1500, 2*time.Millisecond + 499, -1500, -1, time.Hour, 1<<53 + 1, math.MaxInt64, math.MinInt64} {
		if got, want := durationMS(d), math.Round(float64(d.Microseconds()))/1000; got != want || math.Signbit(got) != math.Signbit(want) {
			t.Errorf("durationMS(%d) = %v, want %v", d, got, want)
		}
	}
	for _, x := range []float64{1, math.Nextafter(1, 0), math.Nextafter(1, 2), 0.99995, 0} {
		if got, want := unit(x), math.Round(min(max(x, 0), 1)*10000)/10000; got != want {
			t.Errorf("unit(%v) = %v, want %v", x, got, want)
		}
	}
}

// fitsASCII, normalizeIn's shortcut before fits, holds only of texts that
// fit: texts of 8 to 40 bytes with multi-byte, stray continuation or
// invalid bytes at each position, against utf8.RuneCountInString.
func TestFitsASCII(t *testing.T) {
	t.Parallel()
	cases := []string{"", "short", "Missing required field 'owner' at root", "ten chars!", "sixteen chars ok", strings.Repeat("x", MaxTextLen+1)}
	for _, filler := range []string{"é", "€", "\x80", "\xff", "𝄞", "\xe2\x82"} {
		for at := range 17 {
			for _, size := range []int{7, 8, 9, 12, 15, 16, 17, 39, 40} {
				b := []byte(strings.Repeat("a", size))
				if at < len(b) {
					b = append(append(b[:at:at], filler...), b[at:]...)
				}
				cases = append(cases, string(b))
			}
		}
	}
	took := 0
	for _, s := range cases {
		n := utf8.RuneCountInString(s)
		want := n >= MinTextLen && n <= MaxTextLen
		if fitsASCII(s) {
			took++
			if !want {
				t.Errorf("fitsASCII(%q) with %d characters", s, n)
			}
		}
		if got := fits(s); got != want {
			t.Errorf("fits(%q) = %v, want %v", s, got, want)
		}
	}
	if took == 0 {
		t.Error("fitsASCII took no text")
	}
}
