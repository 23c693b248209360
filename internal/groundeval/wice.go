package groundeval

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/facts"
	"github.com/agentjudge/judge/result"
)

// WiCERow is one line of WiCE's claim-level entailment file.
type WiCERow struct {
	Label    string   `json:"label"`
	Claim    string   `json:"claim"`
	Evidence []string `json:"evidence"`
	Meta     struct {
		ID string `json:"id"`
	} `json:"meta"`
}

// WiCELabels are WiCE's labels, from the one a checker should pass to the one
// it should flag.
var WiCELabels = []string{"supported", "partially_supported", "not_supported"}

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

// WiCEReport is the evaluation of a WiCE file.
type WiCEReport struct {
	// Claims and Rows count per label, by claim (best chunk) and by row.
	Claims, Rows map[string]Tally
	// FalseFlags counts the supported claims flagged by their best chunk
	// per class of finding ("facts.unsupported date"), with the first
	// example.
	FalseFlags Classes
	// PartialNamed counts the partially_supported claims flagged whose
	// every finding names a specific of the claim the evidence does not
	// cover: the part not supported, at the claim's location.
	PartialNamed int
}

// BalancedAccuracy is the mean of the share of supported claims passing and
// the share of not_supported claims flagged.
func BalancedAccuracy(t map[string]Tally) float64 {
	return (1 - t["supported"].Rate() + t["not_supported"].Rate()) / 2
}

// rowVerdict is what the layers said of a claim against one chunk.
type rowVerdict struct {
	findings []result.Issue
	classes  []string
	// spans are the specifics of the claim each finding is about ("" for
	// a finding on the sentence, such as an antonym).
	spans []string
}

// EvaluateWiCE runs the layers over every row of file whose claim falls in half
// ("a", "b", or "" for all).
func EvaluateWiCE(ctx context.Context, e *judge.Engine, file, half string, verbose io.Writer) (*WiCEReport, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep := &WiCEReport{Claims: map[string]Tally{}, Rows: map[string]Tally{}}
	best := map[string]*rowVerdict{}
	rows := map[string]WiCERow{}
	var order []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r WiCERow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		if !slices.Contains(WiCELabels, r.Label) {
			return nil, fmt.Errorf("%s:%d: label %q is not one of %v", file, line, r.Label, WiCELabels)
		}
		if half != "" && Half(r.Meta.ID) != half {
			continue
		}
		v, err := checkRow(ctx, e, r)
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
		switch r.Label {
		case "supported":
			rep.FalseFlags.add(id, r.Claim, v.findings, v.classes)
		case "partially_supported":
			if len(v.findings) > 0 && !slices.ContainsFunc(v.spans, func(sp string) bool { return sp == "" || !strings.Contains(r.Claim, sp) }) {
				rep.PartialNamed++
			}
		}
	}
	return rep, nil
}

// checkRow validates one row's claim against its evidence and returns the
// findings, each with its class.
func checkRow(ctx context.Context, e *judge.Engine, r WiCERow) (*rowVerdict, error) {
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
	v := &rowVerdict{}
	for _, is := range res.Issues {
		if !slices.Contains(findingTypes, is.Type) {
			continue
		}
		c, span := class(is, cvs)
		v.findings = append(v.findings, is)
		v.classes = append(v.classes, c)
		v.spans = append(v.spans, span)
	}
	return v, nil
}

// Write prints the report as Markdown tables, with at most top classes.
func (r *WiCEReport) Write(w io.Writer, top int) {
	fmt.Fprintln(w, "| label | claims | flagged (best chunk) | rows | flagged (row by row) |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, l := range WiCELabels {
		c, rw := r.Claims[l], r.Rows[l]
		fmt.Fprintf(w, "| %s | %d | %d (%.1f%%) | %d | %d (%.1f%%) |\n", l, c.N, c.Flagged, 100*c.Rate(), rw.N, rw.Flagged, 100*rw.Rate())
	}
	fmt.Fprintf(w, "\nBalanced accuracy (supported passing, not_supported flagged): %.1f%% by claim, %.1f%% by row\n",
		100*BalancedAccuracy(r.Claims), 100*BalancedAccuracy(r.Rows))
	fmt.Fprintf(w, "partially_supported claims flagged whose findings each name the part not covered (a specific of the claim, at its location): %d of %d\n",
		r.PartialNamed, r.Claims["partially_supported"].Flagged)
	r.FalseFlags.write(w, "false flags on supported claims", top)
}

// ShowWiCE prints, for every row of the claim with the given id, the findings
// and the rowVerdict on each claim the layers read in it.
func ShowWiCE(ctx context.Context, e *judge.Engine, file, id string, w io.Writer) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	found := false
	for i, line := range strings.Split(string(data), "\n") {
		var r WiCERow
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
		v, err := checkRow(ctx, e, r)
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
				fmt.Fprintf(w, " line %d %q", cv.Line, result.Clip(cv.Evidence, 100))
			}
			fmt.Fprintln(w)
		}
	}
	if !found {
		return fmt.Errorf("no claim %q in %s", id, file)
	}
	return nil
}
