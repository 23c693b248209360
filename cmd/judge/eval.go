package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/groundeval"
)

// evalParams are the flags of judge eval.
type evalParams struct {
	wice      string   // --wice: a WiCE claim-level JSONL file
	summedits []string // --summedits: SummEdits JSON files
	half      string   // --half: a or b, the WiCE claims of one half
	top       int      // --top: how many classes of false flags to print
}

func newEvalParams() evalParams { return evalParams{top: 5} }

func initEval(root *cobra.Command) {
	params := newEvalParams()
	cmd := &cobra.Command{
		Use:   "eval --wice FILE --summedits FILE...",
		Short: "Measure the facts and hallucination layers on WiCE and SummEdits",
		Long: `Run the facts and hallucination layers, with no model, over labelled
claims and summaries, and print as Markdown:

  WiCE (claims from Wikipedia against the pages they cite, each judged by
  its best evidence chunk): the share flagged per label, balanced accuracy
  (supported passing, not_supported flagged), how many flagged
  partially_supported claims name the part not covered, and the classes
  of false flags on supported claims with one example each.

  SummEdits (summaries against their documents): the share of consistent
  and inconsistent summaries flagged, overall and per file, balanced
  accuracy, and the classes of false flags on consistent summaries with
  one example each.

A class is the rule that fired and the kind of claim ("facts.unsupported
date"). The development sets are in ../shared/testdata (wice-dev,
summedits-dev); see docs/grounding.md.

Exit status: 0 done, 2 bad input (a file missing or not in the format).`,
		Example: `  judge eval --wice ../shared/testdata/wice-dev/wice-claim-dev.jsonl \
    --summedits ../shared/testdata/summedits-dev/summedits_news.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEval(cmd.Context(), params, args, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&params.wice, "wice", "", "WiCE claim-level file (JSONL: label, claim, evidence, meta.id)")
	f.StringSliceVar(&params.summedits, "summedits", nil, "SummEdits files (JSON arrays of samples); repeat or separate with commas")
	f.StringVar(&params.half, "half", "", `only the WiCE claims of one half ("a" or "b", by a hash of the claim id)`)
	f.IntVar(&params.top, "top", params.top, "how many classes of false flags to print per set")
	root.AddCommand(cmd)
}

// runEval evaluates the layers on the files params name and writes the
// report to out. Bad input is an *exitError with status 2.
func runEval(ctx context.Context, params evalParams, _ []string, out io.Writer) error {
	if params.wice == "" && len(params.summedits) == 0 {
		return badInputf("nothing to evaluate: give --wice FILE, --summedits FILE, or both")
	}
	if params.half != "" && params.half != "a" && params.half != "b" {
		return badInputf("--half %q: want a or b", params.half)
	}
	if params.top < 0 {
		return badInputf("--top %d: want 0 or more", params.top)
	}
	e, err := judge.New()
	if err != nil {
		return err
	}
	if params.wice != "" {
		rep, err := groundeval.EvaluateWiCE(ctx, e, params.wice, params.half, nil)
		if err != nil {
			return badInputf("--wice: %w", err)
		}
		which := "all claims"
		if params.half != "" {
			which = "half " + params.half
		}
		fmt.Fprintf(out, "# WiCE, %s (%s)\n\n", which, params.wice)
		rep.Write(out, params.top)
	}
	if len(params.summedits) > 0 {
		rep, err := groundeval.EvaluateSummEdits(ctx, e, params.summedits, "", nil)
		if err != nil {
			return badInputf("--summedits: %w", err)
		}
		if params.wice != "" {
			fmt.Fprintln(out)
		}
		fmt.Fprintf(out, "# SummEdits, %d samples (%s)\n\n", rep.Samples, strings.Join(params.summedits, ", "))
		rep.WriteSummary(out, params.top)
	}
	return nil
}
