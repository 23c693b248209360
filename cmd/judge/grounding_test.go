package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/result"
)

// cveSource and cveSummary are the specification's Example 3: a source
// stating the true values, and a summary that gets four of them wrong.
const (
	cveSource = `# CVE-2024-12345

A heap-based buffer overflow in the parser of libfoo allows remote attackers to execute arbitrary code.

- CVSS v3.1 base score: 7.5 (HIGH).
- Affected versions: libfoo versions prior to 1.24.1.
- Discovery date: February 2024.
`
	cveSummary = `{"summary": "CVE-2024-12345 is a heap-based buffer overflow in libfoo with a CVSS score of 9.8. It affects versions prior to 1.24.0. It was discovered by Alice Smith in March 2024."}`
	nvdURL     = "https://nvd.nist.gov/vuln/detail/CVE-2024-12345"
)

// issueKeys renders each issue as "type location".
func issueKeys(r *result.ValidationResult) string {
	var keys []string
	for _, is := range r.Issues {
		keys = append(keys, string(is.Type)+" "+is.Location)
	}
	return strings.Join(keys, "\n")
}

const example3Keys = `unsupported_claim summary:discoverer
fact_mismatch summary:discovery_date
hallucination summary:affected_versions
hallucination summary:cvss_score`

func TestValidateGrounding(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"summary.json": cveSummary, "src/CVE-2024-12345.md": cveSource, "src/other.txt": "Unrelated notes."})
	params := newValidateParams()
	params.sources = []string{filepath.Join(dir, "src")}
	params.trusted = []string{nvdURL, "https://example.test/missing"}
	params.format.value = formatJSON
	var out bytes.Buffer
	err := runValidate(context.Background(), params, []string{filepath.Join(dir, "summary.json")}, &out)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("err = %v, want exit status 1", err)
	}
	var r result.ValidationResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	want := example3Keys + "\nsource_missing trusted_sources[1]"
	if got := issueKeys(&r); !sameLines(got, want) {
		t.Errorf("issues\n%s\nwant\n%s", got, want)
	}
	for _, is := range r.Issues {
		if is.Type == result.Hallucination && !strings.HasSuffix(is.Suggestion, "based on CVE-2024-12345.md") {
			t.Errorf("suggestion %q does not cite the source file", is.Suggestion)
		}
	}

	// Text output names the evidence.
	params.format.value = formatText
	out.Reset()
	_ = runValidate(context.Background(), params, []string{filepath.Join(dir, "summary.json")}, &out)
	if !strings.Contains(out.String(), "CVSS score stated as 9.8 but 7.5 according to CVE-2024-12345.md") {
		t.Errorf("text report lacks the contradiction:\n%s", out.String())
	}
}

func sameLines(a, b string) bool {
	as, bs := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(as) != len(bs) {
		return false
	}
	seen := map[string]int{}
	for _, l := range as {
		seen[l]++
	}
	for _, l := range bs {
		if seen[l]--; seen[l] < 0 {
			return false
		}
	}
	return true
}

// TestServeSources serves over a source directory on loopback and resolves
// a request's trusted_sources against it.
func TestServeSources(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"CVE-2024-12345.md": cveSource})
	params := newServeParams()
	params.addr = "127.0.0.1:0"
	params.sourcesDir = dir
	params.getenv = func(string) string { return "" }
	base := serveInProcess(t, params, func(rec serveRecord) bool { return rec.Sources == 1 }).URL
	body := `{"output": ` + cveSummary + `, "trusted_sources": ["` + nvdURL + `"]}`
	resp, err := http.Post(base+"/validate", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, data)
	}
	var r result.ValidationResult
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if got := issueKeys(&r); !sameLines(got, example3Keys) {
		t.Errorf("issues\n%s\nwant\n%s", got, example3Keys)
	}
	for _, is := range r.Issues {
		if is.Type == result.Hallucination && !strings.HasSuffix(is.Suggestion, "based on "+nvdURL) {
			t.Errorf("suggestion %q does not cite the trusted source", is.Suggestion)
		}
	}

	// A missing directory is bad input.
	params.sourcesDir = filepath.Join(dir, "absent")
	err = runServe(context.Background(), params, nil, io.Discard)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), "absent") {
		t.Errorf("absent --sources: %v", err)
	}
}

// TestGroundingTextGolden renders Example 3 as the text report; the golden
// file is rewritten with -update.
func TestGroundingTextGolden(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"summary.json": cveSummary, "src/CVE-2024-12345.md": cveSource})
	params := newValidateParams()
	params.sources = []string{filepath.Join(dir, "src")}
	params.trusted = []string{"CVE-2024-12345.md"}
	params.format.value = formatText
	var out bytes.Buffer
	if err := runValidate(context.Background(), params, []string{filepath.Join(dir, "summary.json")}, &out); err == nil {
		t.Fatal("Example 3 passed")
	}
	checkGolden(t, filepath.Join("testdata", "grounding.text.golden"), out.String())
}
