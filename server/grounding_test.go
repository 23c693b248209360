package server

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/result"
)

const (
	cveSource  = "CVE-2024-12345 Detail\nCVSS v3.1 base score: 7.5 (HIGH).\nAffected versions: libfoo versions prior to 1.24.1.\nDiscovery date: February 2024.\nCredit: reported by the libfoo security team."
	cveSummary = `{"summary": "CVE-2024-12345 is a heap-based buffer overflow in libfoo with a CVSS score of 9.8. It affects versions prior to 1.24.0. It was discovered by Alice Smith in March 2024."}`
	nvdURL     = "https://nvd.nist.gov/vuln/detail/CVE-2024-12345"
)

// example3 is the specification's Example 3: type, location, suggestion.
var example3 = [][3]string{
	{"hallucination", "summary:affected_versions", "Correct affected versions to 'prior to 1.24.1' based on " + nvdURL},
	{"hallucination", "summary:cvss_score", "Update CVSS score to 7.5 based on " + nvdURL},
	{"unsupported_claim", "summary:discoverer", "Remove unsupported claim or provide valid source"},
	{"fact_mismatch", "summary:discovery_date", "Correct discovery date to February 2024 based on " + nvdURL},
}

func checkGrounded(t *testing.T, r *result.ValidationResult) {
	t.Helper()
	var got [][3]string
	for _, is := range r.Issues {
		got = append(got, [3]string{string(is.Type), is.Location, is.Suggestion})
	}
	want := slices.Clone(example3)
	less := func(a, b [3]string) int { return strings.Compare(a[1], b[1]) }
	slices.SortFunc(got, less)
	slices.SortFunc(want, less)
	if !slices.Equal(got, want) {
		t.Errorf("issues\n%q\nwant\n%q", got, want)
	}
	if r.Valid || !slices.Equal(r.Metadata.ValidationTypesRun, []string{"facts", "hallucination"}) {
		t.Errorf("valid %v, ran %v", r.Valid, r.Metadata.ValidationTypesRun)
	}
}

// TestValidateGrounding posts Example 3 with the source inline.
func TestValidateGrounding(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	src, _ := json.Marshal(cveSource)
	body := `{"output": ` + cveSummary + `, "sources": [{"id": "nvd", "title": "NVD", "url": "` + nvdURL + `", "content": ` + string(src) + `}]}`
	r := mustResult(t, do(t, ts, "POST", "/v1/validate", body, nil))
	checkGrounded(t, r)
	for _, is := range r.Issues {
		if is.Type == result.Hallucination && !strings.Contains(is.Message, "according to NVD") {
			t.Errorf("message %q does not name the source", is.Message)
		}
	}
}

// TestValidateTrustedSourceDir resolves trusted_sources against the
// engine's source directory; an entry that names no file is source_missing.
func TestValidateTrustedSourceDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "CVE-2024-12345.txt"), []byte(cveSource), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(New(newEngine(t, judge.WithSourceDir(dir)), Options{}).Handler())
	t.Cleanup(ts.Close)
	r := mustResult(t, do(t, ts, "POST", "/validate", `{"output": `+cveSummary+`, "trusted_sources": ["`+nvdURL+`"]}`, nil))
	checkGrounded(t, r)
	r = mustResult(t, do(t, ts, "POST", "/validate", `{"output": "The CVSS score is 7.5.", "trusted_sources": ["https://example.test/nothing"]}`, nil))
	// With no source at all the claim is undecided, not unsupported.
	if got := issueTypes(r); !slices.Equal(got, []result.Type{result.NotChecked, result.SourceMissing}) || r.Valid || r.Confidence >= 1 {
		t.Errorf("unresolvable trusted source: confidence %v, %+v", r.Confidence, r.Issues)
	}
	if is := r.Issues[1]; is.Location != "trusted_sources[0]" || !strings.Contains(is.Message, "https://example.test/nothing") {
		t.Errorf("source_missing issue %+v", is)
	}
}
