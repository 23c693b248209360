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
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/groundeval"
)

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
		if err := groundeval.ShowSummEdits(context.Background(), e, flag.Args(), *only, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "summedits:", err)
			os.Exit(1)
		}
		return
	}
	if *self {
		sc, err := groundeval.SelfCheck(context.Background(), e, flag.Args())
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
	rep, err := groundeval.EvaluateSummEdits(context.Background(), e, flag.Args(), *split, vw)
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
