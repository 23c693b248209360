package llm

import (
	"strings"
	"testing"
)

// FuzzCriteriaAnswer feeds arbitrary model answers to the criteria check's
// decoder: an answer is either refused with an error or gives exactly one
// verdict per criterion asked, each with a known verdict and a confidence
// in [0, 1]; it never panics.
func FuzzCriteriaAnswer(f *testing.F) {
	for _, s := range []string{
		`{"verdicts":[{"id":0,"verdict":"met","confidence":0.9,"reason":"ok"},{"id":1,"verdict":"not_met","confidence":1,"reason":"no"}]}`,
		`{"verdicts":[{"id":0,"verdict":"met","confidence":0.9,"reason":"ok"}]}`,
		`{"verdicts":[{"id":0,"verdict":"met","confidence":0.9,"reason":"ok"},{"id":0,"verdict":"met","confidence":0.9,"reason":"ok"}]}`,
		`{"verdicts":[{"id":1e400,"verdict":"met","confidence":0.9,"reason":"ok"}]}`,
		`{"verdicts":[{"id":1.5,"verdict":"cannot_tell","confidence":-0,"reason":""}]}`,
		`The output meets the criterion.`, `{"verdicts":null}`, `[]`, ``,
	} {
		f.Add(s)
	}
	crits := []Criterion{{ID: 0, Text: "a"}, {ID: 1, Text: "b"}}
	f.Fuzz(func(t *testing.T, content string) {
		v, err := CriteriaSchema.decode(content)
		if err != nil {
			return
		}
		vs, err := verdicts(v, crits)
		if err != nil {
			return
		}
		if len(vs) != len(crits) {
			t.Fatalf("%d verdicts for %d criteria", len(vs), len(crits))
		}
		for i, x := range vs {
			if x.ID != crits[i].ID || (x.Verdict != Met && x.Verdict != NotMet && x.Verdict != CannotTell) || !(x.Confidence >= 0 && x.Confidence <= 1) || len(x.Reason) > 4*maxReason {
				t.Fatalf("verdict %d is %+v", i, x)
			}
		}
	})
}

// FuzzFactsAnswer feeds arbitrary model answers to the facts check's
// decoder (what the facts layer reads of the model): an answer is refused
// with an error, or gives exactly one verdict per claim asked, in order,
// each supported, contradicted or cannot_tell with a confidence in [0, 1];
// a decided verdict cites a passage shown with its claim, and a
// contradiction gives the source's value, one line of at most
// maxSourceValue bytes. It never panics.
func FuzzFactsAnswer(f *testing.F) {
	for _, s := range []string{
		`{"verdicts":[{"id":3,"verdict":"supported","source_value":"","evidence":"P1","confidence":0.9},{"id":7,"verdict":"contradicted","source_value":"7.5","evidence":"P2","confidence":1}]}`,
		`{"verdicts":[{"id":3,"verdict":"cannot_tell","source_value":"","evidence":"","confidence":0},{"id":7,"verdict":"supported","source_value":"","evidence":" P1 ","confidence":0.5}]}`,
		`{"verdicts":[{"id":3,"verdict":"supported","source_value":"","evidence":"P9","confidence":0.9},{"id":7,"verdict":"supported","source_value":"","evidence":"P1","confidence":0.9}]}`,
		`{"verdicts":[{"id":3,"verdict":"contradicted","source_value":"  \n ","evidence":"P1","confidence":0.9},{"id":7,"verdict":"supported","source_value":"","evidence":"P1","confidence":0.9}]}`,
		`{"verdicts":[{"id":3,"verdict":"supported","source_value":"","evidence":"P1","confidence":1e400},{"id":3,"verdict":"supported","source_value":"","evidence":"P1","confidence":0.9}]}`,
		`{"verdicts":[{"id":3.0,"verdict":"supported","source_value":"","evidence":"P1","confidence":-0}]}`,
		"```json\n{\"verdicts\":[]}\n```", `{"verdicts":null}`, `[]`, ``, `The claim is supported.`,
	} {
		f.Add(s)
	}
	claims := []Claim{
		{ID: 3, Kind: "number", Subject: "score", Value: "9.8", Passages: []Passage{{Source: "a", Line: 1, Text: "score 9.8"}}},
		{ID: 7, Kind: "number", Subject: "score", Value: "7.5", Passages: []Passage{{Source: "a", Line: 1, Text: "score 9.8"}, {Source: "b", Line: 2, Text: "score 7.5"}}},
	}
	_, labels, err := factsMessages(claims)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, content string) {
		v, err := FactsSchema.decode(content)
		if err != nil {
			return
		}
		vs, err := claimVerdicts(v, claims, labels)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an empty error")
			}
			return
		}
		if len(vs) != len(claims) {
			t.Fatalf("%d verdicts for %d claims", len(vs), len(claims))
		}
		for i, x := range vs {
			if x.ID != claims[i].ID || !(x.Confidence >= 0 && x.Confidence <= 1) {
				t.Fatalf("verdict %d is %+v", i, x)
			}
			switch x.Verdict {
			case CannotTell:
				if x.Evidence != -1 || x.SourceValue != "" {
					t.Fatalf("cannot_tell with evidence %d, source value %q", x.Evidence, x.SourceValue)
				}
			case Supported, Contradicted:
				if x.Evidence < 0 || x.Evidence >= len(claims[i].Passages) {
					t.Fatalf("verdict %d cites passage %d of %d", i, x.Evidence, len(claims[i].Passages))
				}
				bad := x.SourceValue == "" || len(x.SourceValue) > maxSourceValue || strings.ContainsAny(x.SourceValue, "\n\r\t")
				if x.Verdict == Contradicted && bad || x.Verdict == Supported && x.SourceValue != "" {
					t.Fatalf("verdict %q with source value %q", x.Verdict, x.SourceValue)
				}
			default:
				t.Fatalf("verdict %d is %q", i, x.Verdict)
			}
		}
	})
}
