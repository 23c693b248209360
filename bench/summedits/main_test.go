package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/sharedtest"
)

// summEdits returns the three files of the SummEdits development set and
// an engine with the default layers to evaluate them.
func summEdits(t *testing.T) ([]string, *judge.Engine) {
	t.Helper()
	dir := sharedtest.Dir(t, "summedits-dev")
	files, err := filepath.Glob(filepath.Join(dir, "summedits_*.json"))
	if err != nil || len(files) != 3 {
		t.Fatalf("want the 3 SummEdits files in %s, got %v (%v)", dir, files, err)
	}
	e, err := judge.New()
	if err != nil {
		t.Fatal(err)
	}
	return files, e
}

// TestSummEdits runs the evaluation over the SummEdits development set and
// holds the figures recorded in docs/grounding.md: a change that loses
// balanced accuracy, or flags more consistent summaries, fails here.
func TestSummEdits(t *testing.T) {
	files, e := summEdits(t)
	rep, err := Evaluate(context.Background(), e, files, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	rep.Write(&sb)
	t.Logf("%d samples\n%s", rep.Samples, sb.String())
	if rep.Samples != 1983 {
		t.Errorf("%d samples, want 1983", rep.Samples)
	}
	const minBA, minConsistentRecall = 0.63, 0.90
	if ba := rep.All.BalancedAccuracy(); ba < minBA {
		t.Errorf("balanced accuracy %.3f, below %.2f", ba, minBA)
	}
	if r := ratio(rep.All.TN, rep.All.TN+rep.All.FP); r < minConsistentRecall {
		t.Errorf("%.3f of consistent summaries pass, below %.2f: the layers flag too many correct summaries", r, minConsistentRecall)
	}
}

func TestCounts(t *testing.T) {
	t.Parallel()
	c := Counts{TP: 30, FN: 10, TN: 15, FP: 5}
	if got := c.BalancedAccuracy(); got != (0.75+0.75)/2 {
		t.Errorf("balanced accuracy %v", got)
	}
	if (Counts{}).BalancedAccuracy() != 0 {
		t.Error("empty counts")
	}
}
