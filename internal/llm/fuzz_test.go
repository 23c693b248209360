package llm

import (
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
