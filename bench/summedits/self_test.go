package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/sharedtest"
)

// TestSelfCheck holds the figures of docs/grounding.md on the hallucination
// layer without sources: SummEdits' documents and consistent summaries
// hold no inconsistency, so each one flagged is a false positive.
func TestSelfCheck(t *testing.T) {
	dir := sharedtest.Dir(t, "summedits-dev")
	files, err := filepath.Glob(filepath.Join(dir, "summedits_*.json"))
	if err != nil || len(files) != 3 {
		t.Fatalf("want the 3 SummEdits files in %s, got %v (%v)", dir, files, err)
	}
	e, err := judge.New()
	if err != nil {
		t.Fatal(err)
	}
	sc, err := SelfCheck(context.Background(), e, files)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", sc)
	if sc.Docs != 68 || sc.Summaries != 726 {
		t.Errorf("read %d documents and %d consistent summaries, want 68 and 726", sc.Docs, sc.Summaries)
	}
	if sc.DocsFlagged > 6 || sc.SummariesFlagged > 0 {
		t.Errorf("%d documents and %d consistent summaries flagged, more than the 6 and 0 recorded", sc.DocsFlagged, sc.SummariesFlagged)
	}
}
