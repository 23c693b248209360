package judge_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// cveSource states the true values of the specification's Example 3.
const cveSource = `CVE-2024-12345 Detail
A heap-based buffer overflow in the parser of libfoo allows remote attackers to execute arbitrary code.
CVSS v3.1 base score: 7.5 (HIGH).
Affected versions: libfoo versions prior to 1.24.1.
Discovery date: February 2024.
Credit: reported by the libfoo security team.`

const cveSummary = `{"summary": "CVE-2024-12345 is a heap-based buffer overflow in libfoo with a CVSS score of 9.8. It affects versions prior to 1.24.0. It was discovered by Alice Smith in March 2024."}`

const nvdURL = "https://nvd.nist.gov/vuln/detail/CVE-2024-12345"

// example3Want is the four issues of Example 3: type, location, message
// prefix, suggestion.
var example3Want = [][4]string{
	{"hallucination", "summary:affected_versions", "Affected versions stated as 'prior to 1.24.0' but 'prior to 1.24.1' according to ", "Correct affected versions to 'prior to 1.24.1' based on " + nvdURL},
	{"hallucination", "summary:cvss_score", "CVSS score stated as 9.8 but 7.5 according to ", "Update CVSS score to 7.5 based on " + nvdURL},
	{"unsupported_claim", "summary:discoverer", "Discoverer 'Alice Smith' not found in sources", "Remove unsupported claim or provide valid source"},
	{"fact_mismatch", "summary:discovery_date", "Discovery date stated as March 2024 but February 2024 according to ", "Correct discovery date to February 2024 based on " + nvdURL},
}

func checkExample3(t *testing.T, r *result.ValidationResult, extra ...[4]string) {
	t.Helper()
	want := append(slices.Clone(example3Want), extra...)
	var got [][4]string
	for _, is := range r.Issues {
		got = append(got, [4]string{string(is.Type), is.Location, is.Message, is.Suggestion})
	}
	slices.SortFunc(want, func(a, b [4]string) int { return strings.Compare(a[1], b[1]) })
	slices.SortFunc(got, func(a, b [4]string) int { return strings.Compare(a[1], b[1]) })
	if len(got) != len(want) {
		t.Fatalf("got %d issues, want %d: %+v", len(got), len(want), r.Issues)
	}
	for i := range want {
		if got[i][0] != want[i][0] || got[i][1] != want[i][1] || !strings.HasPrefix(got[i][2], want[i][2]) || got[i][3] != want[i][3] {
			t.Errorf("issue %d:\n got %q\nwant %q", i, got[i], want[i])
		}
	}
	if r.Valid || r.Metadata.ErrorCount != 3+len(extra) || r.Metadata.WarningCount != 1 {
		t.Errorf("valid %v, %d errors, %d warnings", r.Valid, r.Metadata.ErrorCount, r.Metadata.WarningCount)
	}
	if !slices.Equal(r.Metadata.ValidationTypesRun, []string{"facts", "hallucination"}) {
		t.Errorf("types run %v", r.Metadata.ValidationTypesRun)
	}
	if !slices.Equal(r.FailedCriteria, []string{"All facts are supported by trusted sources", "No hallucinations present"}) {
		t.Errorf("failed criteria %v", r.FailedCriteria)
	}
	if r.Confidence <= 0.5 || r.Confidence >= 1 {
		t.Errorf("confidence %v: an unsupported claim is decided with less than certainty", r.Confidence)
	}
}

// TestExample3 runs the specification's Example 3 through the engine with
// an inline source.
func TestExample3(t *testing.T) {
	t.Parallel()
	e := mustEngine(t)
	r := validate(t, e, &judge.Request{Output: json.RawMessage(cveSummary),
		Sources: []layer.Source{{ID: "nvd", Title: "NVD", URL: nvdURL, Content: cveSource}}})
	checkExample3(t, r)
}

// TestSourceDir resolves trusted_sources against a directory read once,
// and reports the entry that names no file.
func TestSourceDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "CVE-2024-12345.md"), []byte(cveSource), 0o644); err != nil {
		t.Fatal(err)
	}
	e := mustEngine(t, judge.WithSourceDir(dir))
	if e.SourceDocs() != 1 {
		t.Fatalf("%d documents loaded", e.SourceDocs())
	}
	req := &judge.Request{Output: json.RawMessage(cveSummary), TrustedSources: []string{nvdURL, "https://example.test/advisory-9"}}
	for range 2 { // the second request reuses the index
		r := validate(t, e, req)
		checkExample3(t, r, [4]string{"source_missing", "trusted_sources[1]", "Trusted source 'https://example.test/advisory-9' is not among the sources given", "Give the source inline in sources, or put it in the directory of sources judge reads"})
	}
	// Without the directory, every trusted source is missing.
	r := validate(t, mustEngine(t), &judge.Request{Output: json.RawMessage(cveSummary), TrustedSources: []string{nvdURL}})
	if !hasIssue(r, result.SourceMissing, nvdURL) || r.Valid {
		t.Errorf("no source_missing without a directory: %+v", r.Issues)
	}
	if _, err := judge.New(judge.WithSourceDir(filepath.Join(dir, "absent"))); err == nil {
		t.Error("an absent source directory was accepted")
	}
}

// TestGroundingSupported: an output the source bears out passes both
// criteria with full confidence.
func TestGroundingSupported(t *testing.T) {
	t.Parallel()
	r := validate(t, mustEngine(t), &judge.Request{
		Output:  json.RawMessage(`"CVE-2024-12345 has a CVSS score of 7.5 and affects versions prior to 1.24.1; it was found in February 2024."`),
		Sources: []layer.Source{{ID: "nvd", Content: cveSource}}})
	if !r.Valid || len(r.Issues) != 0 || r.Confidence != 1 ||
		!slices.Equal(r.PassedCriteria, []string{"All facts are supported by trusted sources", "No hallucinations present"}) {
		t.Errorf("valid %v confidence %v passed %v issues %+v", r.Valid, r.Confidence, r.PassedCriteria, r.Issues)
	}
}

// withoutGrounding is the schema and criteria layers of DefaultLayers:
// an engine with no facts layer.
func withoutGrounding() []*layer.Layer {
	return slices.DeleteFunc(judge.DefaultLayers(), func(l *layer.Layer) bool { return l.Name != "schema" && l.Name != "criteria" })
}

// TestGroundingConcurrent validates Example 3 from many goroutines on one
// engine: the shared source index is built once and read concurrently.
func TestGroundingConcurrent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "CVE-2024-12345.md"), []byte(cveSource), 0o644); err != nil {
		t.Fatal(err)
	}
	e := mustEngine(t, judge.WithSourceDir(dir))
	req := &judge.Request{Output: json.RawMessage(cveSummary), TrustedSources: []string{nvdURL}}
	want, err := json.Marshal(validate(t, e, req).Issues)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan string, 16)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			r, err := e.Validate(context.Background(), req)
			if err != nil {
				errs <- err.Error()
				return
			}
			if got, _ := json.Marshal(r.Issues); string(got) != string(want) {
				errs <- string(got)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("a concurrent result differs: %s", e)
	}
}
