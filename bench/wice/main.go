// Command wice measures the facts and hallucination layers on WiCE
// (Kamoi et al., 2023): claims from Wikipedia checked against sentences of
// the web page they cite, each annotated supported, partially_supported or
// not_supported. A row is a claim (the output) with one chunk of evidence
// sentences (the source); a claim is flagged by a row when the layers
// report a finding on it (hallucination, fact_mismatch, unsupported_claim,
// detail_inconsistency or confidence_mismatch). Most claims appear in three
// rows with different chunks: a claim takes the verdict of its best chunk,
// the one with the fewest findings, as the dataset's authors recommend. No
// model is used.
//
// Usage:
//
//	go run ./bench/wice [-half a|b] [-v] [-top N] [-id ID] FILE
//
// It prints the flag rate per label, balanced accuracy (supported claims
// passing and not_supported claims flagged, equally weighted), the same
// counted row by row, and the classes of false flags on supported claims
// (the rule and the kind of claim), most frequent first, with one example
// each. -half splits the claims in two by a hash of their id, so that rules
// tuned on one half can be measured on the other. -id prints every row of
// one claim with the verdict on each of its specifics. The evaluation is
// internal/groundeval's, as judge eval's.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/groundeval"
)

func main() {
	half := flag.String("half", "", `only the claims of this half ("a" or "b", by a hash of the claim id); default all`)
	verbose := flag.Bool("v", false, "print every flagged claim with its findings to stderr")
	top := flag.Int("top", 10, "how many classes of false flags to print")
	only := flag.String("id", "", "print every row of the claim with this id: its findings and the verdict on each claim, and nothing else")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: wice [-half a|b] [-v] [-top N] FILE")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || *half != "" && *half != "a" && *half != "b" {
		flag.Usage()
		os.Exit(2)
	}
	e, err := judge.New()
	if err != nil {
		fmt.Fprintln(os.Stderr, "wice:", err)
		os.Exit(1)
	}
	if *only != "" {
		if err := groundeval.ShowWiCE(context.Background(), e, flag.Arg(0), *only, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "wice:", err)
			os.Exit(1)
		}
		return
	}
	var vw io.Writer
	if *verbose {
		vw = os.Stderr
	}
	rep, err := groundeval.EvaluateWiCE(context.Background(), e, flag.Arg(0), *half, vw)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wice:", err)
		os.Exit(1)
	}
	name := "all claims"
	if *half != "" {
		name = "half " + *half
	}
	fmt.Printf("WiCE, %s, facts + hallucination layers, no model\n\n", name)
	rep.Write(os.Stdout, *top)
}
