// Command summedits measures the facts and hallucination layers on
// SummEdits (Laban et al., 2023): each document is the source, each
// summary the output, and a summary is predicted inconsistent when the
// layers report a finding about it (hallucination, fact_mismatch,
// unsupported_claim, detail_inconsistency or confidence_mismatch). No model
// is used.
//
// Usage:
//
//	go run ./bench/summedits [-split S] [-v] FILE...
//
// With -self, it runs the hallucination layer alone, with no source, over
// every distinct document and every consistent summary, and prints how
// many get a detail_inconsistency warning: the false positives the layer
// would give if it applied by default without sources.
//
// It prints balanced accuracy overall, per file and per edit type, with
// the precision and recall of each class. The edit-type rows pair the
// inconsistent summaries of that edit type with every consistent summary
// of the same files.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer"
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

// findingTypes are the issue types that mark a summary inconsistent.
var findingTypes = []result.Type{result.Hallucination, result.FactMismatch, result.UnsupportedClaim, result.DetailInconsistency, result.ConfidenceMismatch}

// Counts is a confusion matrix with inconsistent as the positive class.
type Counts struct {
	TP, FN, TN, FP int // TP: inconsistent flagged; TN: consistent passed
}

// BalancedAccuracy is the mean of the recalls of both classes.
func (c Counts) BalancedAccuracy() float64 {
	return (ratio(c.TP, c.TP+c.FN) + ratio(c.TN, c.TN+c.FP)) / 2
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func (c *Counts) add(o Counts) { c.TP += o.TP; c.FN += o.FN; c.TN += o.TN; c.FP += o.FP }

// Report is the evaluation of a set of files.
type Report struct {
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
}

// OwnRecall is the recall of inconsistent summaries counting only the
// detections whose consistent original is not flagged.
func (r *Report) OwnRecall() float64 { return ratio(r.OwnTP, r.All.TP+r.All.FN) }

// Evaluate runs the layers over every sample of files whose split matches
// (all when split is "").
func Evaluate(ctx context.Context, e *judge.Engine, files []string, split string, verbose io.Writer) (*Report, error) {
	rep := &Report{ByFile: map[string]Counts{}, ByEdit: map[string]Counts{}, RulesFP: map[string]int{}, RulesTP: map[string]int{}}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var samples []Sample
		if err := json.Unmarshal(data, &samples); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		var file Counts
		edits := map[string]Counts{}
		var negatives Counts
		originals := map[string]bool{} // original summary and document → flagged
		for _, s := range samples {
			if split != "" && s.Split != split {
				continue
			}
			flagged, rules, err := check(ctx, e, s)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", f, s.ID, err)
			}
			rep.Samples++
			if s.Label == 0 && flagged && s.Original != "" {
				key := s.Original + "\x00" + s.Doc
				of, ok := originals[key]
				if !ok {
					if of, _, err = check(ctx, e, Sample{Doc: s.Doc, Summary: s.Original}); err != nil {
						return nil, fmt.Errorf("%s: %s: original: %w", f, s.ID, err)
					}
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

// check validates one summary against its document and reports whether a
// finding flagged it, with the rules that fired.
func check(ctx context.Context, e *judge.Engine, s Sample) (bool, []string, error) {
	out, err := json.Marshal(s.Summary)
	if err != nil {
		return false, nil, err
	}
	res, err := e.Validate(ctx, &judge.Request{
		Output:          out,
		ValidationTypes: []string{"facts", "hallucination"},
		Sources:         []layer.Source{{ID: "document", Content: s.Doc}},
		Options:         judge.Options{OutputMode: judge.OutputValue},
	})
	if err != nil {
		return false, nil, err
	}
	var rules []string
	for _, is := range res.Issues {
		if slices.Contains(findingTypes, is.Type) {
			rules = append(rules, is.Rule)
		}
	}
	return len(rules) > 0, rules, nil
}

// Write prints the report as a Markdown table.
func (r *Report) Write(w io.Writer) {
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
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func main() {
	split := flag.String("split", "", `only samples of this split ("test", "evaluation"); default all`)
	verbose := flag.Bool("v", false, "print every misclassified sample to stderr")
	only := flag.String("id", "", "print the issues of the sample with this id, and nothing else")
	self := flag.Bool("self", false, "count the documents and consistent summaries the hallucination layer flags without sources, and nothing else")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: summedits [-split S] [-v] FILE...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	e, err := judge.New()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *only != "" {
		if err := show(context.Background(), e, flag.Args(), *only, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "summedits:", err)
			os.Exit(1)
		}
		return
	}
	if *self {
		sc, err := SelfCheck(context.Background(), e, flag.Args())
		if err != nil {
			fmt.Fprintln(os.Stderr, "summedits:", err)
			os.Exit(1)
		}
		fmt.Printf("hallucination layer without sources: detail_inconsistency on %d of %d documents and %d of %d consistent summaries\n",
			sc.DocsFlagged, sc.Docs, sc.SummariesFlagged, sc.Summaries)
		return
	}
	var vw io.Writer
	if *verbose {
		vw = os.Stderr
	}
	rep, err := Evaluate(context.Background(), e, flag.Args(), *split, vw)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			fmt.Fprintln(os.Stderr, "summedits:", err)
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "summedits:", err)
		os.Exit(1)
	}
	fmt.Printf("SummEdits, %d samples, facts + hallucination layers, no model\n\n", rep.Samples)
	rep.Write(os.Stdout)
}

// show prints the issues the layers report on the sample with the given id.
func show(ctx context.Context, e *judge.Engine, files []string, id string, w io.Writer) error {
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var samples []Sample
		if err := json.Unmarshal(data, &samples); err != nil {
			return fmt.Errorf("%s: %w", f, err)
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
		data, err := os.ReadFile(f)
		if err != nil {
			return sc, err
		}
		var samples []Sample
		if err := json.Unmarshal(data, &samples); err != nil {
			return sc, fmt.Errorf("%s: %w", f, err)
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
