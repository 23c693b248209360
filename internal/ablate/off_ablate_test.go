//go:build ablate

package ablate

import "testing"

// TestOffReadsEnvironment: with the ablate tag, exactly the rules named in
// JUDGE_ABLATE are off.
func TestOffReadsEnvironment(t *testing.T) {
	t.Setenv("JUDGE_ABLATE", Period+","+RelativeDate)
	for r, want := range map[string]bool{Period: true, RelativeDate: true, YearAnywhere: false, Squeezed: false} {
		if got := Off(r); got != want {
			t.Errorf("Off(%q) = %v, want %v", r, got, want)
		}
	}
}
