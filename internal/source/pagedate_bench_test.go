package source_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/source"
)

// longLinePage returns a page of one line and its number of sentences, without a dateline, of
// sentences until it holds size bytes, one in every sharing the
// words of weekdayClaim's sentence (each a candidate passage the weekday
// rule of pageDated weighs), the others sharing none. Written for these
// tests.
func longLinePage(tb testing.TB, size, every int) (*source.Index, int) {
	tb.Helper()
	var sb strings.Builder
	i := 0
	for ; sb.Len() < size; i++ {
		if i%every == 0 {
			sb.WriteString("The Tamsin Rowing Conference of marine biologists will start Sunday in Perth. ")
		} else {
			fmt.Fprintf(&sb, "Filler number w%dq talks about k%dz and nothing more here. ", i, i)
		}
	}
	return mustIndex(tb, source.Doc{ID: "long.txt", Content: sb.String()}), i
}

// weekdayClaim is a day without a year, which pageDated weighs against
// every candidate passage.
func weekdayClaim(tb testing.TB) claim.Claim {
	tb.Helper()
	c := firstOf(claim.Date)(claim.Extract("They flew to Perth for the Tamsin Rowing Conference of marine biologists, starting on 21 July.", "").Claims)
	if c == nil {
		tb.Fatal("no date claim")
	}
	return *c
}

// A date claim reads the page's first lines once, not once a candidate
// passage of the weekday rule (maxCandidates times over: 90–140 ms a claim
// on a page of 1 MB on one line, see BenchmarkPageDatedLarge). Counted in
// allocations, which do not depend on the machine's speed: reading the
// page's date allocates about once a passage of its first lines, here
// every sentence, so a claim allocates less than twice as many times as
// the page has sentences.
//
// Not parallel: AllocsPerRun counts the whole process's allocations.
func TestPageDatedReadsDateOnce(t *testing.T) {
	c := weekdayClaim(t)
	ix, sentences := longLinePage(t, 128<<10, 100)
	if n := testing.AllocsPerRun(1, func() { ix.Check(c) }); n > 2*float64(sentences) {
		t.Errorf("a date claim against a page of %d sentences on one line: %v allocations", sentences, n)
	}
}

// BenchmarkPageDatedLarge checks a date claim against a page of about
// 1 MB on one line: go test -run XXX -bench PageDatedLarge -benchtime 3x
// ./internal/source/
func BenchmarkPageDatedLarge(b *testing.B) {
	c := weekdayClaim(b)
	for _, size := range []int{256 << 10, 1 << 20} {
		b.Run(fmt.Sprint(size>>10, "KB"), func(b *testing.B) {
			ix, _ := longLinePage(b, size, 100)
			for b.Loop() {
				ix.Check(c)
			}
		})
	}
}
