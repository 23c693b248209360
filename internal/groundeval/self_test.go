package groundeval

import (
	"context"
	"testing"
)

// TestSelfCheck holds the figures of docs/grounding.md on the hallucination
// layer without sources: SummEdits' documents and consistent summaries
// hold no inconsistency, so each one flagged is a false positive.
func TestSelfCheck(t *testing.T) {
	files, e := summEdits(t)
	sc, err := SelfCheck(context.Background(), e, files)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", sc)
	if sc.Docs != 68 || sc.Summaries != 726 {
		t.Errorf("read %d documents and %d consistent summaries, want 68 and 726", sc.Docs, sc.Summaries)
	}
	if sc.DocsFlagged > 4 || sc.SummariesFlagged > 0 {
		t.Errorf("%d documents and %d consistent summaries flagged, more than the 4 and 0 recorded", sc.DocsFlagged, sc.SummariesFlagged)
	}
}
