package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/result"
)

// slowCode is an answer whose Python has a membership test on a list in a
// loop and a function named in camelCase.
const slowCode = "Done:\n\n```python\ndef findCommon(a_items: list, b_items: list) -> list:\n    \"\"\"Return the items of a_items also in b_items.\"\"\"\n    return [item for item in a_items if item in b_items]\n\n\ndef unique(items: list) -> list:\n    \"\"\"Drop repeats.\"\"\"\n    seen = []\n    for item in items:\n        if item not in seen:\n            seen.append(item)\n    return seen\n```\n"

// slowCodeQuality writes slowCode to answer.md in a temporary directory and
// returns its path and validate parameters that run only the quality layer
// and write JSON.
func slowCodeQuality(t *testing.T) (string, validateParams) {
	t.Helper()
	path := filepath.Join(writeFiles(t, map[string]string{"answer.md": slowCode}), "answer.md")
	params := newValidateParams()
	params.types = []string{"quality"}
	params.format.value = formatJSON
	return path, params
}

func TestValidateQualityCLI(t *testing.T) {
	t.Parallel()
	path, params := slowCodeQuality(t)
	var out bytes.Buffer
	err := runValidate(context.Background(), params, []string{path}, &out)
	if code := exitCode(err); code != exitOK {
		t.Fatalf("exit %d (%v)\n%s", code, err, out.String())
	}
	var r result.ValidationResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, is := range r.Issues {
		got[is.Rule] = is.Location
	}
	if got["style.naming"] != "function:findCommon" || got["performance.list_membership"] != "function:unique:line:13" {
		t.Errorf("issues %+v", r.Issues)
	}
	if r.QualityScore >= 0.9 || r.QualityScore < 0.7 || r.Metadata.QualityDimensions["performance"] != 0.9 {
		t.Errorf("quality %v, dimensions %v", r.QualityScore, r.Metadata.QualityDimensions)
	}

	// --min-quality turns a low score into exit 1.
	params.minQuality = 0.95
	out.Reset()
	if code := exitCode(runValidate(context.Background(), params, []string{path}, &out)); code != exitInvalid {
		t.Errorf("--min-quality 0.95: exit %d, want 1", code)
	}
}

func TestValidateQualityThresholdFlags(t *testing.T) {
	t.Parallel()
	path, params := slowCodeQuality(t)
	params.quality.MaxLineLength = 40
	params.quality.MaxFunctionLength = 3
	var out bytes.Buffer
	if err := runValidate(context.Background(), params, []string{path}, &out); exitCode(err) != exitOK {
		t.Fatalf("exit %d (%v)", exitCode(err), err)
	}
	var r result.ValidationResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, is := range r.Issues {
		got[is.Rule]++
	}
	if got["style.line_length"] == 0 || got["readability.function_length"] != 1 {
		t.Errorf("rules %v", got)
	}
	params.quality.MaxComplexity = -1
	err := runValidate(context.Background(), params, []string{path}, &out)
	if exitCode(err) != exitBadInput || !strings.Contains(err.Error(), "max_complexity") {
		t.Errorf("negative --max-complexity: exit %d (%v)", exitCode(err), err)
	}
}

func TestBinaryValidateQuality(t *testing.T) {
	t.Parallel()
	r := runJudge(t, []byte(slowCode), "validate", "-", "--types", "quality", "--format", "text")
	if r.code != exitOK || !strings.Contains(r.stdout, "performance_issue") || !strings.Contains(r.stdout, "Checks: quality") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}
