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
//	go run ./bench/wice [-half a|b] [-v] [-top N] FILE
//
// It prints the flag rate per label, balanced accuracy (supported claims
// passing and not_supported claims flagged, equally weighted), the same
// counted row by row, and the classes of false flags on supported claims
// (the rule and the kind of claim), most frequent first, with one example
// each. -half splits the claims in two by a hash of their id, so that rules
// tuned on one half can be measured on the other.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/facts"
	"github.com/agentjudge/judge/result"
)

// Row is one line of WiCE's claim-level entailment file.
type Row struct {
	Label    string   `json:"label"`
	Claim    string   `json:"claim"`
	Evidence []string `json:"evidence"`
	Meta     struct {
		ID string `json:"id"`
	} `json:"meta"`
}

// Labels are WiCE's labels, from the one a checker should pass to the one
// it should flag.
var Labels = []string{"supported", "partially_supported", "not_supported"}

// findingTypes are the issue types that flag a claim.
var findingTypes = []result.Type{result.Hallucination, result.FactMismatch, result.UnsupportedClaim, result.DetailInconsistency, result.ConfidenceMismatch}

// Half returns "a" or "b" for a claim id: a fixed split of the claims in
// two, by a hash of the id, for tuning on one half and measuring on the
// other.
func Half(id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	if h.Sum32()%2 == 0 {
		return "a"
	}
	return "b"
}

// Tally counts claims (or rows) of one label and how many were flagged.
type Tally struct{ N, Flagged int }

// Rate is the share flagged.
func (t Tally) Rate() float64 { return ratio(t.Flagged, t.N) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Example is one false flag: the claim, and the finding's message.
type Example struct{ ID, Claim, Message string }

// Report is the evaluation of a WiCE file.
type Report struct {
	// Claims and Rows count per label, by claim (best chunk) and by row.
	Claims, Rows map[string]Tally
	// Classes counts the supported claims flagged by their best chunk per
	// class of finding ("facts.unsupported date"), with the first example.
	Classes  map[string]int
	Examples map[string]Example
}

// BalancedAccuracy is the mean of the share of supported claims passing and
// the share of not_supported claims flagged.
func BalancedAccuracy(t map[string]Tally) float64 {
	return (1 - t["supported"].Rate() + t["not_supported"].Rate()) / 2
}

// verdict is what the layers said of a claim against one chunk.
type verdict struct {
	findings []result.Issue
	classes  []string
}

// Evaluate runs the layers over every row of file whose claim falls in half
// ("a", "b", or "" for all).
func Evaluate(ctx context.Context, e *judge.Engine, file, half string, verbose io.Writer) (*Report, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep := &Report{Claims: map[string]Tally{}, Rows: map[string]Tally{}, Classes: map[string]int{}, Examples: map[string]Example{}}
	best := map[string]*verdict{}
	rows := map[string]Row{}
	var order []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r Row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		if !slices.Contains(Labels, r.Label) {
			return nil, fmt.Errorf("%s:%d: label %q is not one of %v", file, line, r.Label, Labels)
		}
		if half != "" && Half(r.Meta.ID) != half {
			continue
		}
		v, err := check(ctx, e, r)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %s: %w", file, line, r.Meta.ID, err)
		}
		t := rep.Rows[r.Label]
		t.N++
		if len(v.findings) > 0 {
			t.Flagged++
		}
		rep.Rows[r.Label] = t
		b, seen := best[r.Meta.ID]
		if !seen {
			order = append(order, r.Meta.ID)
		}
		if !seen || len(v.findings) < len(b.findings) {
			best[r.Meta.ID] = v
			rows[r.Meta.ID] = r
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	for _, id := range order {
		v, r := best[id], rows[id]
		t := rep.Claims[r.Label]
		t.N++
		if len(v.findings) > 0 {
			t.Flagged++
		}
		rep.Claims[r.Label] = t
		if len(v.findings) > 0 && verbose != nil {
			fmt.Fprintf(verbose, "%s %s: %s\n", id, r.Label, r.Claim)
			for _, is := range v.findings {
				fmt.Fprintf(verbose, "  %s [%s] %s: %s\n", is.Type, is.Rule, is.Location, is.Message)
			}
		}
		if r.Label != "supported" {
			continue
		}
		for i, c := range v.classes {
			if slices.Contains(v.classes[:i], c) {
				continue
			}
			rep.Classes[c]++
			if _, ok := rep.Examples[c]; !ok {
				rep.Examples[c] = Example{ID: id, Claim: r.Claim, Message: v.findings[i].Message}
			}
		}
	}
	return rep, nil
}

// check validates one row's claim against its evidence and returns the
// findings, each with its class.
func check(ctx context.Context, e *judge.Engine, r Row) (*verdict, error) {
	out, err := json.Marshal(r.Claim)
	if err != nil {
		return nil, err
	}
	src := []layer.Source{{ID: "evidence", Content: strings.Join(r.Evidence, "\n")}}
	res, err := e.Validate(ctx, &judge.Request{
		Output:          out,
		ValidationTypes: []string{"facts", "hallucination"},
		Sources:         src,
		Options:         judge.Options{OutputMode: judge.OutputValue},
	})
	if err != nil {
		return nil, err
	}
	cvs, err := facts.Verdicts(ctx, &layer.Input{Output: r.Claim, Sources: src})
	if err != nil {
		return nil, err
	}
	v := &verdict{}
	for _, is := range res.Issues {
		if !slices.Contains(findingTypes, is.Type) {
			continue
		}
		v.findings = append(v.findings, is)
		v.classes = append(v.classes, class(is, cvs))
	}
	return v, nil
}

// class names what kind of false flag an issue is: its rule, and for a
// claim's verdict the kind of claim ("facts.unsupported name").
func class(is result.Issue, cvs []facts.ClaimVerdict) string {
	for _, cv := range cvs {
		if cv.Location == is.Location && (cv.Verdict == "unsupported" || cv.Verdict == "contradicted") && strings.Contains(is.Message, cv.Text) {
			return is.Rule + " " + cv.Kind
		}
	}
	return is.Rule
}

// Write prints the report as Markdown tables, with at most top classes.
func (r *Report) Write(w io.Writer, top int) {
	fmt.Fprintln(w, "| label | claims | flagged (best chunk) | rows | flagged (row by row) |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, l := range Labels {
		c, rw := r.Claims[l], r.Rows[l]
		fmt.Fprintf(w, "| %s | %d | %d (%.1f%%) | %d | %d (%.1f%%) |\n", l, c.N, c.Flagged, 100*c.Rate(), rw.N, rw.Flagged, 100*rw.Rate())
	}
	fmt.Fprintf(w, "\nBalanced accuracy (supported passing, not_supported flagged): %.1f%% by claim, %.1f%% by row\n",
		100*BalancedAccuracy(r.Claims), 100*BalancedAccuracy(r.Rows))
	fmt.Fprintln(w, "\n| false flags on supported claims | claims | example |")
	fmt.Fprintln(w, "|---|---|---|")
	classes := make([]string, 0, len(r.Classes))
	for c := range r.Classes {
		classes = append(classes, c)
	}
	sort.Slice(classes, func(i, j int) bool {
		if r.Classes[classes[i]] != r.Classes[classes[j]] {
			return r.Classes[classes[i]] > r.Classes[classes[j]]
		}
		return classes[i] < classes[j]
	})
	for i, c := range classes {
		if i == top {
			break
		}
		ex := r.Examples[c]
		fmt.Fprintf(w, "| %s | %d | %s %q: %s |\n", c, r.Classes[c], ex.ID, clip(ex.Claim, 120), clip(ex.Message, 160))
	}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

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
		if err := Show(context.Background(), e, flag.Arg(0), *only, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "wice:", err)
			os.Exit(1)
		}
		return
	}
	var vw io.Writer
	if *verbose {
		vw = os.Stderr
	}
	rep, err := Evaluate(context.Background(), e, flag.Arg(0), *half, vw)
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

// Show prints, for every row of the claim with the given id, the findings
// and the verdict on each claim the layers read in it.
func Show(ctx context.Context, e *judge.Engine, file, id string, w io.Writer) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	found := false
	for i, line := range strings.Split(string(data), "\n") {
		var r Row
		if strings.TrimSpace(line) == "" {
			continue
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return fmt.Errorf("%s:%d: %w", file, i+1, err)
		}
		if r.Meta.ID != id {
			continue
		}
		found = true
		fmt.Fprintf(w, "line %d, %s: %s\n", i+1, r.Label, r.Claim)
		v, err := check(ctx, e, r)
		if err != nil {
			return err
		}
		for _, is := range v.findings {
			fmt.Fprintf(w, "  %s [%s] %s: %s\n", is.Type, is.Rule, is.Location, is.Message)
		}
		src := []layer.Source{{ID: "evidence", Content: strings.Join(r.Evidence, "\n")}}
		cvs, err := facts.Verdicts(ctx, &layer.Input{Output: r.Claim, Sources: src})
		if err != nil {
			return err
		}
		for _, cv := range cvs {
			fmt.Fprintf(w, "    %s %q (%s): %s", cv.Kind, cv.Text, cv.Location, cv.Verdict)
			if cv.Evidence != "" {
				fmt.Fprintf(w, " line %d %q", cv.Line, clip(cv.Evidence, 100))
			}
			fmt.Fprintln(w)
		}
	}
	if !found {
		return fmt.Errorf("no claim %q in %s", id, file)
	}
	return nil
}
