package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
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

// proseAnswer is a JSON answer whose prose fields hold a placeholder, a
// cut-off sentence and an indented code block, beside a code field and
// short fields that are no prose.
const proseAnswer = `{
  "title": "Restart the worker",
  "status": "TODO",
  "owner": "<your name>",
  "summary": "The fix restarts the worker. See [insert link] for the details.\n\nThe queue is drained and then the",
  "steps": ["Install the helper with the script below, then restart the service.\n\n    import os\n\n    def install(name: str) -> None:\n        \"\"\"Install name.\"\"\"\n        os.system(\"pip install \" + name)\n"],
  "solution": {"language": "python", "code": "def run(cmd: str) -> None:\n    \"\"\"Run cmd.\"\"\"\n    eval(cmd)\n"}
}
`

// TestValidateQualityJSONProseGolden renders the review of proseAnswer as
// the text report; the golden file is rewritten with -update.
func TestValidateQualityJSONProseGolden(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"answer.json": proseAnswer})
	params := newValidateParams()
	params.types = []string{"quality"}
	params.format.value = formatText
	var out bytes.Buffer
	if err := runValidate(context.Background(), params, []string{filepath.Join(dir, "answer.json")}, &out); exitCode(err) != exitInvalid {
		t.Fatalf("exit %d (%v), want 1: the placeholder is an error\n%s", exitCode(err), err, out.String())
	}
	checkGolden(t, filepath.Join("testdata", "quality-prose.text.golden"), out.String())
}

// The binary reads the JSON answer from stdin and locates each finding by
// field path; the sub-scores name what the findings count against.
func TestBinaryValidateQualityJSONProse(t *testing.T) {
	t.Parallel()
	r := runJudge(t, []byte(proseAnswer), "validate", "-", "--types", "quality", "--format", "json")
	if r.code != exitInvalid {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	var res result.ValidationResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, is := range res.Issues {
		got = append(got, fmt.Sprintf("%s %s %s %s", is.Severity, is.Type, is.Rule, is.Location))
	}
	want := []string{
		"error readability_issue prose.placeholder owner",
		"error readability_issue prose.placeholder summary:line:1",
		"warning readability_issue prose.unfinished summary:line:3",
		"warning security_issue security.eval solution.code:function:run:line:3",
		"warning security_issue security.shell_string steps[0]:function:install:line:7",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("issues:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	d := res.Metadata.QualityDimensions
	if d["completeness"] != 0.8*0.8*0.9 || d["security"] != 0.9*0.9 || d["readability"] != 1 || d["style"] != 1 {
		t.Errorf("quality_dimensions %v", d)
	}
}
