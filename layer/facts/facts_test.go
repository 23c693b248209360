package facts_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/facts"
	"github.com/agentjudge/judge/result"
)

// nvd is the source of the specification's Example 3: the true values of
// the CVE the summary gets wrong.
var nvd = layer.Source{
	ID:    "nvd",
	Title: "NVD",
	URL:   "https://nvd.nist.gov/vuln/detail/CVE-2024-12345",
	Content: `CVE-2024-12345 Detail
A heap-based buffer overflow in the parser of libfoo allows remote attackers to execute arbitrary code.
CVSS v3.1 base score: 7.5 (HIGH).
Affected versions: libfoo versions prior to 1.24.1.
Discovery date: February 2024.
Published: February 20, 2024.
Credit: reported by the libfoo security team.`,
}

const example3 = `{"summary": "CVE-2024-12345 is a heap-based buffer overflow in libfoo with a CVSS score of 9.8. It affects versions prior to 1.24.0. It was discovered by Alice Smith in March 2024."}`

func decode(t *testing.T, s string) any {
	t.Helper()
	v, err := jsonvalue.Decode([]byte(s), 0)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func runFacts(t *testing.T, in *layer.Input) layer.Findings {
	t.Helper()
	p := layer.NewPass(facts.Layer, in, layer.NewCache(0))
	if err := facts.Layer.Run(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return p.Findings()
}

// TestExample3 is the specification's Example 3: a CVE summary with a
// wrong CVSS score, a wrong affected version, an invented discoverer and a
// wrong month.
func TestExample3(t *testing.T) {
	t.Parallel()
	f := runFacts(t, &layer.Input{Output: decode(t, example3), Sources: []layer.Source{nvd}})
	want := []result.Issue{
		{Severity: result.Error, Type: result.Hallucination, Location: "summary:cvss_score",
			Message:    "CVSS score stated as 9.8 but 7.5 according to NVD",
			Suggestion: "Update CVSS score to 7.5 based on https://nvd.nist.gov/vuln/detail/CVE-2024-12345"},
		{Severity: result.Error, Type: result.Hallucination, Location: "summary:affected_versions",
			Message:    "Affected versions stated as 'prior to 1.24.0' but 'prior to 1.24.1' according to NVD",
			Suggestion: "Correct affected versions to 'prior to 1.24.1' based on https://nvd.nist.gov/vuln/detail/CVE-2024-12345"},
		{Severity: result.Error, Type: result.UnsupportedClaim, Location: "summary:discoverer",
			Message:    "Discoverer 'Alice Smith' not found in sources",
			Suggestion: "Remove unsupported claim or provide valid source"},
		{Severity: result.Warning, Type: result.FactMismatch, Location: "summary:discovery_date",
			Message:    "Discovery date stated as March 2024 but February 2024 according to NVD",
			Suggestion: "Correct discovery date to February 2024 based on https://nvd.nist.gov/vuln/detail/CVE-2024-12345"},
	}
	if len(f.Issues) != len(want) {
		t.Errorf("got %d issues, want %d:\n%s", len(f.Issues), len(want), dump(f.Issues))
	}
	for _, w := range want {
		i := slices.IndexFunc(f.Issues, func(is result.Issue) bool { return is.Location == w.Location })
		if i < 0 {
			t.Errorf("no issue at %s", w.Location)
			continue
		}
		got := f.Issues[i]
		if got.Severity != w.Severity || got.Type != w.Type || !strings.HasPrefix(got.Message, w.Message) || got.Suggestion != w.Suggestion {
			t.Errorf("at %s:\n got %s %s %q / %q\nwant %s %s %q… / %q", w.Location, got.Severity, got.Type, got.Message, got.Suggestion, w.Severity, w.Type, w.Message, w.Suggestion)
		}
	}
	if !slices.Contains(f.Failed, facts.Criterion) {
		t.Errorf("failed criteria %v lack %q", f.Failed, facts.Criterion)
	}
}

func dump(issues []result.Issue) string {
	b, _ := json.MarshalIndent(issues, "", "  ")
	return string(b)
}

// TestOneFinding runs the layer over outputs that each give one finding
// and checks it whole: a word the source states the opposite of (with the
// WordNet antonyms embedded in internal/lexicon), a sentence that states
// plainly what the passage best matching it negates, and a date the source
// gives without its year, which is undecided, never supported and never
// contradicted by another date of the source.
func TestOneFinding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, source, output string
		typ                  result.Type
		severity             result.Severity
		rule                 string
		message              string // a prefix of the message, or all of it when undecided
		undecided            bool   // the criterion neither passed nor failed, confidence 0
	}{
		{"antonym", "Prices went up at the store. The price of food has increased in the past two years.",
			"The price of food has decreased in the past two years.",
			result.Hallucination, result.Warning, "facts.antonym",
			"Wording stated as 'decreased' but 'increased' according to src", false},
		{"dropped negation", "The city council did not approve the new budget plan on Monday.",
			"The city council approved the new budget plan on Monday.",
			result.Hallucination, result.Warning, "facts.negation_dropped",
			"'The city council approved the new budget plan on Monday.' is stated without the negation src gives it (src line 1:", false},
		{"date without its year", "Binance transferred the funds starting on 17 August last year.\nThe coins had no collateral until December 2022.",
			"Binance moved the funds in August 2022.",
			result.NotChecked, result.Info, "",
			`Date August 2022 could not be checked: the source gives 17 August without a year (src line 1: "Binance transferred the funds starting on 17 August last year.")`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := runFacts(t, &layer.Input{Output: tt.output, Sources: []layer.Source{{ID: "src", Content: tt.source}}})
			if len(f.Issues) != 1 {
				t.Fatalf("issues %s", dump(f.Issues))
			}
			is := f.Issues[0]
			msgOK := strings.HasPrefix(is.Message, tt.message)
			if tt.undecided {
				msgOK = is.Message == tt.message
			}
			if is.Type != tt.typ || is.Severity != tt.severity || is.Location != "line:1" || is.Rule != tt.rule || !msgOK {
				t.Errorf("issue %s\nwant %s %s %q, message %q", dump(f.Issues), tt.severity, tt.typ, tt.rule, tt.message)
			}
			switch {
			case tt.undecided && (slices.Contains(f.Passed, facts.Criterion) || slices.Contains(f.Failed, facts.Criterion) || f.Confidence != 0):
				t.Errorf("passed %v failed %v confidence %v: an undecided claim is neither", f.Passed, f.Failed, f.Confidence)
			case !tt.undecided && (!slices.Contains(f.Failed, facts.Criterion) || f.Confidence >= 1):
				t.Errorf("failed %v confidence %v", f.Failed, f.Confidence)
			}
		})
	}
}

// TestJudgeHook: claims the deterministic check leaves unsupported go to
// the judge, whose verdict counts with its certainty and names its model.
func TestJudgeHook(t *testing.T) {
	t.Parallel()
	var seen []string
	l := facts.NewLayerWithJudge(&seen)
	src := layer.Source{ID: "team", Content: "The advisory credits alice smith of the libfoo team. CVSS score: 7.5."}
	p := layer.NewPass(l, &layer.Input{Output: "The CVSS score is 7.5; the flaw was discovered by Alice Smith and Bob Stone.", Sources: []layer.Source{src}}, layer.NewCache(0))
	if err := l.Run(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	f := p.Findings()
	if strings.Join(seen, ",") != "Bob Stone" {
		t.Errorf("judge saw %q, want only the unsupported name", seen)
	}
	if len(f.Issues) != 1 || f.Issues[0].Rule != "facts.model_unsupported" || !strings.Contains(f.Issues[0].Message, "'Bob Stone' not found") {
		t.Errorf("issues %s", dump(f.Issues))
	}
	if !slices.Equal(f.Models, []string{"fake-model"}) {
		t.Errorf("models %v", f.Models)
	}
}

// TestVerdicts lists every claim of Example 3 with its verdict and evidence.
func TestVerdicts(t *testing.T) {
	t.Parallel()
	vs, err := facts.Verdicts(context.Background(), &layer.Input{Output: decode(t, example3), Sources: []layer.Source{nvd}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vs {
		got = append(got, strings.Join([]string{v.Location, v.Text, v.Verdict, v.SourceID, fmt.Sprint(v.Line), v.Found}, "|"))
	}
	want := []string{
		"summary|CVE-2024-12345|supported|nvd|1|",
		"summary|CVSS|supported|nvd|3|",
		"summary:cvss_score|9.8|contradicted|nvd|3|7.5",
		"summary:affected_versions|prior to 1.24.0|contradicted|nvd|4|prior to 1.24.1",
		"summary:discoverer|Alice Smith|unsupported||0|",
		"summary:discovery_date|March 2024|contradicted|nvd|5|February 2024",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("verdicts\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := facts.Verdicts(context.Background(), &layer.Input{Output: "x", Sources: []layer.Source{{ID: "bad", Content: "\xff"}}}); err == nil {
		t.Error("a source that is not UTF-8 was indexed")
	}
}
