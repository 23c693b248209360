package groundeval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/facts"
	"github.com/agentjudge/judge/result"
)

// Sample is one SummEdits row.
type Sample struct {
	ID        string   `json:"id"`
	Doc       string   `json:"doc"`
	Summary   string   `json:"summary"`
	Label     int      `json:"label"` // 1 consistent, 0 inconsistent
	EditTypes []string `json:"edit_types"`
	// Original is the consistent summary the sample was edited from (the
	// summary itself for an original): read only to tell whether a flag
	// points at the edit, never to predict.
	Original string `json:"original_summary"`
	Split    string `json:"split"`
}

// Counts is a confusion matrix with inconsistent as the positive class.
type Counts struct {
	TP, FN, TN, FP int // TP: inconsistent flagged; TN: consistent passed
}

// BalancedAccuracy is the mean of the recalls of both classes.
func (c Counts) BalancedAccuracy() float64 {
	return (ratio(c.TP, c.TP+c.FN) + ratio(c.TN, c.TN+c.FP)) / 2
}

func (c *Counts) add(o Counts) { c.TP += o.TP; c.FN += o.FN; c.TN += o.TN; c.FP += o.FP }

// SummEditsReport is the evaluation of a set of files.
type SummEditsReport struct {
	All     Counts
	ByFile  map[string]Counts
	ByEdit  map[string]Counts // positives of the edit type, negatives of all
	Samples int
	// Rules counts how often each issue rule fired on consistent and on
	// inconsistent summaries.
	RulesFP, RulesTP map[string]int
	// OwnTP counts the inconsistent summaries flagged whose consistent
	// original is not flagged: detections that come from the edit, not
	// from a detail the summary shares with a correct one.
	OwnTP int
	// FalseFlags counts the consistent summaries flagged per class of
	// finding, with the first example.
	FalseFlags Classes
}

// OwnRecall is the recall of inconsistent summaries counting only the
// detections whose consistent original is not flagged.
func (r *SummEditsReport) OwnRecall() float64 { return ratio(r.OwnTP, r.All.TP+r.All.FN) }

// EvaluateSummEdits runs the layers over every sample of files whose split matches
// (all when split is "").
func EvaluateSummEdits(ctx context.Context, e *judge.Engine, files []string, split string, verbose io.Writer) (*SummEditsReport, error) {
	rep := &SummEditsReport{ByFile: map[string]Counts{}, ByEdit: map[string]Counts{}, RulesFP: map[string]int{}, RulesTP: map[string]int{}}
	for _, f := range files {
		samples, err := readSamples(f)
		if err != nil {
			return nil, err
		}
		var file Counts
		edits := map[string]Counts{}
		var negatives Counts
		originals := map[string]bool{} // original summary and document → flagged
		for _, s := range samples {
			if split != "" && s.Split != split {
				continue
			}
			findings, err := checkSample(ctx, e, s)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", f, s.ID, err)
			}
			flagged := len(findings) > 0
			var rules []string
			for _, is := range findings {
				rules = append(rules, is.Rule)
			}
			if flagged && s.Label == 1 {
				cvs, err := facts.Verdicts(ctx, &layer.Input{Output: s.Summary, Sources: []layer.Source{{ID: "document", Content: s.Doc}}})
				if err != nil {
					return nil, fmt.Errorf("%s: %s: %w", f, s.ID, err)
				}
				var classes []string
				for _, is := range findings {
					c, _ := class(is, cvs)
					classes = append(classes, c)
				}
				rep.FalseFlags.add(s.ID, s.Summary, findings, classes)
			}
			rep.Samples++
			if s.Label == 0 && flagged && s.Original != "" {
				key := s.Original + "\x00" + s.Doc
				of, ok := originals[key]
				if !ok {
					ofs, err := checkSample(ctx, e, Sample{Doc: s.Doc, Summary: s.Original})
					if err != nil {
						return nil, fmt.Errorf("%s: %s: original: %w", f, s.ID, err)
					}
					of = len(ofs) > 0
					originals[key] = of
				}
				if !of {
					rep.OwnTP++
				}
			}
			var c Counts
			switch {
			case s.Label == 0 && flagged:
				c.TP++
			case s.Label == 0:
				c.FN++
			case flagged:
				c.FP++
			default:
				c.TN++
			}
			for _, r := range rules {
				if s.Label == 0 {
					rep.RulesTP[r]++
				} else {
					rep.RulesFP[r]++
				}
			}
			if verbose != nil && (c.FP > 0 || c.FN > 0) {
				fmt.Fprintf(verbose, "%s label=%d flagged=%v edits=%v rules=%v\n  %s\n", s.ID, s.Label, flagged, s.EditTypes, rules, s.Summary)
			}
			file.add(c)
			if s.Label == 1 {
				negatives.add(c)
				continue
			}
			for _, et := range s.EditTypes {
				ec := edits[et]
				ec.add(c)
				edits[et] = ec
			}
		}
		for et, ec := range edits {
			ec.add(negatives)
			total := rep.ByEdit[et]
			total.add(ec)
			rep.ByEdit[et] = total
		}
		rep.ByFile[filepath.Base(f)] = file
		rep.All.add(file)
	}
	return rep, nil
}

// readSamples reads a SummEdits file: a JSON array of samples. An error
// names the file.
func readSamples(f string) ([]Sample, error) {
	data, err := os.ReadFile(f)
	if err != nil {
		return nil, err
	}
	var samples []Sample
	if err := json.Unmarshal(data, &samples); err != nil {
		return nil, fmt.Errorf("%s: %w", f, err)
	}
	return samples, nil
}

// checkSample validates one summary against its document and returns the
// findings that flag it.
func checkSample(ctx context.Context, e *judge.Engine, s Sample) ([]result.Issue, error) {
	out, err := json.Marshal(s.Summary)
	if err != nil {
		return nil, err
	}
	res, err := e.Validate(ctx, &judge.Request{
		Output:          out,
		ValidationTypes: []string{"facts", "hallucination"},
		Sources:         []layer.Source{{ID: "document", Content: s.Doc}},
		Options:         judge.Options{OutputMode: judge.OutputValue},
	})
	if err != nil {
		return nil, err
	}
	var findings []result.Issue
	for _, is := range res.Issues {
		if slices.Contains(findingTypes, is.Type) {
			findings = append(findings, is)
		}
	}
	return findings, nil
}

// Write prints the report as a Markdown table.
func (r *SummEditsReport) Write(w io.Writer) {
	row := func(name string, c Counts) {
		fmt.Fprintf(w, "| %s | %d | %d | %.1f%% | %.1f%% | %.1f%% | %.1f%% |\n", name, c.TP+c.FN, c.TN+c.FP,
			100*c.BalancedAccuracy(), 100*ratio(c.TP, c.TP+c.FN), 100*ratio(c.TN, c.TN+c.FP), 100*ratio(c.TN, c.TN+c.FN))
	}
	fmt.Fprintln(w, "| set | inconsistent | consistent | balanced accuracy | recall inconsistent | recall consistent | precision consistent |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	row("all", r.All)
	for _, f := range sortedKeys(r.ByFile) {
		row(f, r.ByFile[f])
	}
	for _, et := range sortedKeys(r.ByEdit) {
		row("edit: "+et, r.ByEdit[et])
	}
	fmt.Fprintf(w, "\nFlagged inconsistent summaries whose consistent original is not flagged: %d of %d (recall %.1f%%, balanced accuracy %.1f%% counting only these)\n\n",
		r.OwnTP, r.All.TP, 100*r.OwnRecall(), 100*(r.OwnRecall()+ratio(r.All.TN, r.All.TN+r.All.FP))/2)
	fmt.Fprintln(w, "| rule | on inconsistent | on consistent |")
	fmt.Fprintln(w, "|---|---|---|")
	rules := sortedKeys(r.RulesTP)
	for k := range r.RulesFP {
		if !slices.Contains(rules, k) {
			rules = append(rules, k)
		}
	}
	sort.Strings(rules)
	for _, k := range rules {
		fmt.Fprintf(w, "| %s | %d | %d |\n", k, r.RulesTP[k], r.RulesFP[k])
	}
	r.FalseFlags.write(w, "false flags on consistent summaries", 10)
}

// WriteSummary prints the share flagged per label and per file, balanced
// accuracy, and at most top classes of false flags on consistent
// summaries, each with one example: what `judge eval` shows.
func (r *SummEditsReport) WriteSummary(w io.Writer, top int) {
	fmt.Fprintln(w, "| set | consistent flagged | inconsistent flagged | balanced accuracy |")
	fmt.Fprintln(w, "|---|---|---|---|")
	row := func(name string, c Counts) {
		fmt.Fprintf(w, "| %s | %d of %d (%.1f%%) | %d of %d (%.1f%%) | %.1f%% |\n", name, c.FP, c.TN+c.FP, 100*ratio(c.FP, c.TN+c.FP),
			c.TP, c.TP+c.FN, 100*ratio(c.TP, c.TP+c.FN), 100*c.BalancedAccuracy())
	}
	row("all", r.All)
	for _, f := range sortedKeys(r.ByFile) {
		row(f, r.ByFile[f])
	}
	fmt.Fprintf(w, "\nInconsistent summaries flagged whose consistent original is not: %d of %d\n", r.OwnTP, r.All.TP)
	r.FalseFlags.write(w, "false flags on consistent summaries", top)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ShowSummEdits prints the issues the layers report on the sample with the given id.
func ShowSummEdits(ctx context.Context, e *judge.Engine, files []string, id string, w io.Writer) error {
	for _, f := range files {
		samples, err := readSamples(f)
		if err != nil {
			return err
		}
		for _, s := range samples {
			if s.ID != id {
				continue
			}
			out, _ := json.Marshal(s.Summary)
			res, err := e.Validate(ctx, &judge.Request{Output: out, Sources: []layer.Source{{ID: "document", Content: s.Doc}},
				Options: judge.Options{OutputMode: judge.OutputValue}})
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "label %d, edits %v\nsummary: %s\n\n", s.Label, s.EditTypes, s.Summary)
			return result.WriteText(w, res)
		}
	}
	return fmt.Errorf("no sample %q", id)
}

// SelfCounts is what SelfCheck found.
type SelfCounts struct {
	// Docs and Summaries are the distinct documents and the consistent
	// summaries read; DocsFlagged and SummariesFlagged those that got a
	// detail_inconsistency warning.
	Docs, DocsFlagged, Summaries, SummariesFlagged int
}

// SelfCheck runs the hallucination layer alone, with no source, over every
// distinct document and every consistent summary of files, and counts
// those it reports a detail_inconsistency on. Both are texts that hold no
// inconsistency, so every one flagged is a false positive.
func SelfCheck(ctx context.Context, e *judge.Engine, files []string) (SelfCounts, error) {
	var sc SelfCounts
	flagged := func(text string) (bool, error) {
		out, err := json.Marshal(text)
		if err != nil {
			return false, err
		}
		r, err := e.Validate(ctx, &judge.Request{Output: out, ValidationTypes: []string{"hallucination"}})
		if err != nil {
			return false, err
		}
		return slices.ContainsFunc(r.Issues, func(is result.Issue) bool { return is.Type == result.DetailInconsistency }), nil
	}
	seen := map[string]bool{}
	for _, f := range files {
		samples, err := readSamples(f)
		if err != nil {
			return sc, err
		}
		for _, s := range samples {
			if !seen[s.Doc] {
				seen[s.Doc] = true
				sc.Docs++
				bad, err := flagged(s.Doc)
				if err != nil {
					return sc, err
				}
				if bad {
					sc.DocsFlagged++
				}
			}
			if s.Label == 1 {
				sc.Summaries++
				bad, err := flagged(s.Summary)
				if err != nil {
					return sc, err
				}
				if bad {
					sc.SummariesFlagged++
				}
			}
		}
	}
	return sc, nil
}
