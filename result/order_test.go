package result

import (
	"fmt"
	"slices"
	"testing"
)

func TestCompareLocations(t *testing.T) {
	t.Parallel()
	sorted := []string{"", "[2]", "[10]", "[143]", "[1000]", "a[9].b", "a[10]", "a[10].b", "items[07]", "items[7]", "items[8]",
		"line:9", "line:10", "line:10:column:2", "line:10:column:11", "root", "x"}
	for i := range sorted {
		for j := range sorted {
			if got, want := CompareLocations(sorted[i], sorted[j]), cmpInt(i, j); got != want {
				t.Errorf("CompareLocations(%q, %q) = %d, want %d", sorted[i], sorted[j], got, want)
			}
		}
	}
	shuffled := slices.Clone(sorted)
	slices.Reverse(shuffled)
	slices.SortFunc(shuffled, CompareLocations)
	if !slices.Equal(shuffled, sorted) {
		t.Errorf("sorted %q, want %q", shuffled, sorted)
	}
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestCapKeepsIndexOrder: the issues kept at the cap are the first by
// location in index order ([0] to [98]), not in text order ([0], [1],
// [10], [100], [1000], …).
func TestCapKeepsIndexOrder(t *testing.T) {
	t.Parallel()
	b := NewBuilder().MaxIssues(100)
	for i := 1199; i >= 0; i-- {
		b.Add(Issue{Severity: Error, Type: InvalidType, Location: fmt.Sprintf("[%d]", i), Message: "Item has type string, expected integer"})
	}
	r := b.Build()
	if len(r.Issues) != 100 {
		t.Fatalf("%d issues, want 100", len(r.Issues))
	}
	for i, is := range r.Issues[:99] {
		if want := fmt.Sprintf("[%d]", i); is.Location != want {
			t.Fatalf("issue %d at %s, want %s", i, is.Location, want)
		}
	}
	if last := r.Issues[99]; last.Rule != "result.truncated" || last.Message != "1101 more issues were left out of this result (1101 errors, 0 warnings, 0 info)" {
		t.Errorf("last issue %+v, want the note counting 1101 left out", last)
	}
}
