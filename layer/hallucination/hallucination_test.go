package hallucination_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/claim"
	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/hallucination"
	"github.com/agentjudge/judge/result"
)

var nvd = layer.Source{ID: "nvd", Title: "NVD", URL: "https://nvd.nist.gov/vuln/detail/CVE-2024-12345",
	Content: "CVSS v3.1 base score: 7.5 (HIGH).\nAffected versions: prior to 1.24.1.\nDiscovery date: February 2024."}

func TestHallucination(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		output string   // JSON
		want   []string // "severity type location /message substring/"
		crit   string   // "passed", "failed" or ""
		conf   float64
	}{
		{
			name:   "overconfident contradicted claim",
			output: `"The CVSS score is definitely 9.8."`,
			want:   []string{"warning confidence_mismatch line:1:cvss_score 'Definitely' asserts a claim NVD contradicts: CVSS score 9.8"},
			crit:   "failed", conf: 1,
		},
		{
			name:   "overconfident unsupported claim",
			output: `{"summary": "It was confirmed that it was found by Bob Stone."}`,
			want:   []string{"warning confidence_mismatch summary:finder 'Confirmed' asserts a claim no source supports: Finder 'Bob Stone'"},
			crit:   "failed", conf: 1,
		},
		{
			name:   "certain and right",
			output: `"The CVSS score is definitely 7.5, affecting versions prior to 1.24.1."`,
			crit:   "passed", conf: 1,
		},
		{
			name:   "two values for one attribute",
			output: `"The CVSS score is 7.5.\nIn short, the CVSS score is 9.8."`,
			want:   []string{"warning detail_inconsistency line:2:cvss_score The CVSS score is given as 7.5 (line 1) and as 9.8 (line 2)"},
			crit:   "failed", conf: 1,
		},
		{
			name:   "two values in two fields",
			output: `{"score": {"cvss_score": 7.5}, "summary": "The CVSS score is 9.8."}`,
			want:   []string{"warning detail_inconsistency summary:cvss_score The CVSS score is given as 7.5 (score) and as 9.8 (summary, line 1 column 19)"},
			crit:   "failed", conf: 1,
		},
		{
			name:   "array items may differ",
			output: `{"items": [{"price": 5}, {"price": 7}]}`,
			crit:   "passed", conf: 1,
		},
		{
			name:   "one value twice",
			output: `{"a": "The CVSS score is 7.5.", "b": {"cvss_score": 7.5}}`,
			crit:   "passed", conf: 1,
		},
		{
			name:   "certain about something no source covers",
			output: `"He definitely did not sleep."`,
			want:   []string{"info not_checked line:1 'Definitely' asserts 'He definitely did not sleep.'"},
			conf:   0.5,
		},
		{
			name:   "contradiction without certainty still fails the criterion",
			output: `"The CVSS score is 9.8."`,
			crit:   "failed", conf: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err := jsonvalue.Decode([]byte(tt.output), 0)
			if err != nil {
				t.Fatal(err)
			}
			p := layer.NewPass(hallucination.Layer, &layer.Input{Output: out, Sources: []layer.Source{nvd}}, layer.NewCache(0))
			if err := hallucination.Layer.Run(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			f := p.Findings()
			var got []string
			for _, is := range f.Issues {
				got = append(got, strings.Join([]string{string(is.Severity), string(is.Type), is.Location, is.Message}, " "))
			}
			if len(got) != len(tt.want) {
				t.Fatalf("issues\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("issue %d\n got %s\nwant %s…", i, got[i], tt.want[i])
				}
			}
			for _, is := range f.Issues {
				if is.Severity != result.Info && (len(is.Suggestion) < 10 || is.Rule == "") {
					t.Errorf("issue without suggestion or rule: %+v", is)
				}
			}
			switch {
			case tt.crit == "passed" && !slices.Contains(f.Passed, hallucination.Criterion),
				tt.crit == "failed" && !slices.Contains(f.Failed, hallucination.Criterion),
				tt.crit == "" && (len(f.Passed) > 0 || len(f.Failed) > 0):
				t.Errorf("criterion: passed %v failed %v, want %s", f.Passed, f.Failed, tt.crit)
			}
			if f.Confidence != tt.conf {
				t.Errorf("confidence %v, want %v", f.Confidence, tt.conf)
			}
		})
	}
}

// TestWithoutSources runs the layer as validation_types asks it to with no
// source: it checks the output's internal consistency, reports the
// certainty it cannot weigh as not checked, and never passes its
// criterion.
func TestWithoutSources(t *testing.T) {
	t.Parallel()
	if hallucination.Layer.Applies(&layer.Input{Output: "x"}) {
		t.Error("the layer applies by default without sources")
	}
	if !hallucination.Layer.AppliesOnRequest(&layer.Input{Output: "x"}) {
		t.Error("the layer does not apply on request without sources")
	}
	tests := []struct {
		name   string
		output string   // JSON
		want   []string // "severity type location message prefix"
		failed bool
		conf   float64
	}{
		{
			name:   "two values for one attribute",
			output: `"The CVSS score is 7.5.\nIn short, the CVSS score is 9.8."`,
			want:   []string{"warning detail_inconsistency line:2:cvss_score The CVSS score is given as 7.5 (line 1) and as 9.8 (line 2)"},
			failed: true, conf: 1,
		},
		{
			name:   "certainty that needs a source",
			output: `"The CVSS score is definitely 9.8."`,
			want:   []string{"info not_checked line:1 'Definitely' asserts 'The CVSS score is definitely 9.8.', but no source was given"},
			conf:   0.5,
		},
		{
			name:   "an ordinary output",
			output: `{"summary": "The CVSS score is 9.8; versions prior to 1.24.0 are affected."}`,
			conf:   1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err := jsonvalue.Decode([]byte(tt.output), 0)
			if err != nil {
				t.Fatal(err)
			}
			p := layer.NewPass(hallucination.Layer, &layer.Input{Output: out}, layer.NewCache(0))
			if err := hallucination.Layer.Run(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			f := p.Findings()
			var got []string
			for _, is := range f.Issues {
				got = append(got, strings.Join([]string{string(is.Severity), string(is.Type), is.Location, is.Message}, " "))
			}
			if len(got) != len(tt.want) {
				t.Fatalf("issues\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("issue %d\n got %s\nwant %s…", i, got[i], tt.want[i])
				}
			}
			if len(f.Passed) != 0 || slices.Contains(f.Failed, hallucination.Criterion) != tt.failed {
				t.Errorf("passed %v failed %v, want failed %v", f.Passed, f.Failed, tt.failed)
			}
			if f.Confidence != tt.conf {
				t.Errorf("confidence %v, want %v", f.Confidence, tt.conf)
			}
		})
	}
}

// TestNameInAnotherForm: certainty about a name the source writes in
// another form ("American" for "United States") is warranted, as the facts
// layer decides it; about a name it does not hold in any form, it is not.
func TestNameInAnotherForm(t *testing.T) {
	t.Parallel()
	src := layer.Source{ID: "navy", Content: "The United States Navy named the ship in 1998."}
	for _, tt := range []struct {
		output string
		want   int
	}{
		{"The American Navy definitely named the ship.", 0},
		{"The British Navy definitely named the ship.", 1},
	} {
		p := layer.NewPass(hallucination.Layer, &layer.Input{Output: tt.output, Sources: []layer.Source{src}}, layer.NewCache(0))
		if err := hallucination.Layer.Run(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, is := range p.Findings().Issues {
			if is.Type == result.ConfidenceMismatch {
				n++
			}
		}
		if n != tt.want {
			t.Errorf("%q: %d confidence_mismatch issues, want %d (%+v)", tt.output, n, tt.want, p.Findings().Issues)
		}
	}
}

// TestSameName checks which two names of one attribute the consistency
// check takes for one: a name and a word-aligned part of it are one
// ("Ona Vey" and "Ona Vey Lenk"), a name and another that merely contains its
// letters are two ("World War I" and "World War II", "Ann" and "Anne",
// "Henry V" and "Henry VI"). The names are written for this test.
func TestSameName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		first, second string
		same          bool
	}{
		{"Ona Vey", "Ona Vey", true},
		{"Ona Vey", "Ona Vey Lenk", true},
		{"Tolby Harbour Bridge", "Harbour Bridge", true},
		{"World War I", "World War II", false},
		{"World War II", "World War I", false},
		{"Henry V", "Henry VI", false},
		{"Ann Lenk", "Anne Lenk", false},
		{"Ona Vey", "Ona Veyra", false},
		{"Harbour Bridge", "Tolby Harbour Bridges", false},
		{"Ona Vey", "Rook Vey", false},
	}
	for _, tt := range tests {
		t.Run(tt.first+"/"+tt.second, func(t *testing.T) {
			t.Parallel()
			output := `{"a": {"winner": "` + tt.first + `"}, "b": {"winner": "` + tt.second + `"}}`
			out, err := jsonvalue.Decode([]byte(output), 0)
			if err != nil {
				t.Fatal(err)
			}
			names := 0
			for _, c := range claim.FromOutput(out).Claims {
				if c.Kind == claim.Name && c.Key() == "winner" {
					names++
				}
			}
			if names != 2 {
				t.Fatalf("%d names of the winner in %s, want 2", names, output)
			}
			p := layer.NewPass(hallucination.Layer, &layer.Input{Output: out}, layer.NewCache(0))
			if err := hallucination.Layer.Run(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, is := range p.Findings().Issues {
				if is.Type == result.DetailInconsistency {
					n++
				}
			}
			if got := n == 0; got != tt.same {
				t.Errorf("%q and %q taken as one name: %v, want %v (%+v)", tt.first, tt.second, got, tt.same, p.Findings().Issues)
			}
		})
	}
}
