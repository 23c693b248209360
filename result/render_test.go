package result

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// specExample2 is the specification's Example 2 as issues and criteria.
func specExample2() *ValidationResult {
	return NewBuilder().
		Ran("schema", "criteria", "quality").
		Add(
			Issue{Severity: Error, Type: MissingField, Message: "Missing required field 'tests'", Location: "root", Suggestion: "Add a 'tests' field containing unit tests for the code"},
			Issue{Severity: Error, Type: CriteriaNotMet, Message: "Acceptance criterion not met: Tests are included", Location: "N/A", Suggestion: "Review output and ensure tests are included"},
			Issue{Severity: Warning, Type: StyleIssue, Message: "Function lacks docstring", Location: "function:sort_list", Suggestion: "Add docstring explaining parameters and return value"},
			Issue{Severity: Info, Type: NotChecked, Message: "Criterion 'Edge cases are handled' is plain language and was not checked", Location: "acceptance_criteria[2]"},
		).
		Pass("Code implements sorting functionality").
		Fail("Tests are included").
		Confidence(0.95).
		Build()
}

func TestWriteGolden(t *testing.T) {
	t.Parallel()
	r := specExample2()
	for _, tc := range []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"example2.txt", func(b *bytes.Buffer) error { return WriteText(b, r) }},
		{"example2.json", func(b *bytes.Buffer) error { return WriteJSON(b, r) }},
	} {
		var buf bytes.Buffer
		if err := tc.write(&buf); err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", tc.file)
		if *update {
			if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./result -update to create it)", err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s differs from golden:\n--- got\n%s\n--- want\n%s", tc.file, buf.Bytes(), want)
		}
	}
}

func TestJSONShape(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, specExample2()); err != nil {
		t.Fatal(err)
	}
	if err := CheckJSON(buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"valid", "confidence", "issues", "passed_criteria", "failed_criteria", "quality_score", "metadata"} {
		if _, ok := m[k]; !ok {
			t.Errorf("key %q missing", k)
		}
	}
	md := m["metadata"].(map[string]any)
	for _, k := range []string{"validation_types_run", "total_issues", "error_count", "warning_count", "info_count", "duration_ms", "model"} {
		if _, ok := md[k]; !ok {
			t.Errorf("metadata key %q missing", k)
		}
	}
}

func TestCheckJSONRejects(t *testing.T) {
	t.Parallel()
	for name, doc := range map[string]string{
		"missing quality_score": `{"valid":true,"confidence":1,"issues":[]}`,
		"confidence above 1":    `{"valid":true,"confidence":1.5,"issues":[],"quality_score":1}`,
		"bad severity":          `{"valid":true,"confidence":1,"issues":[{"severity":"fatal","type":"x","message":"long enough message"}],"quality_score":1}`,
		"short message":         `{"valid":true,"confidence":1,"issues":[{"severity":"info","type":"x","message":"short"}],"quality_score":1}`,
	} {
		if err := CheckJSON([]byte(doc)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestWriteTextUndecided(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	r := NewBuilder().Confidence(0).Add(Issue{Severity: Info, Type: NotChecked, Message: "Criterion 'x' was not checked"}).Build()
	if err := WriteText(&buf, r); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(buf.Bytes(), []byte("Validation Result: ❔ UNDECIDED")) {
		t.Fatalf("a valid result with confidence 0 is reported as:\n%s", buf.Bytes())
	}
}

func TestRepairLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		is   Issue
		want string
	}{
		{"all", Issue{Message: "Missing required field 'tests'", Location: "root", Suggestion: "Add a 'tests' field"}, "- Missing required field 'tests' (at root): Add a 'tests' field"},
		{"no location", Issue{Message: "Bad answer", Suggestion: "Answer again"}, "- Bad answer: Answer again"},
		{"no suggestion", Issue{Message: "Bad answer", Location: "line:1:column:2"}, "- Bad answer (at line:1:column:2)"},
		{"message only", Issue{Message: "Bad answer"}, "- Bad answer"},
	} {
		if got := tc.is.RepairLine(); got != tc.want {
			t.Errorf("%s: RepairLine() = %q, want %q", tc.name, got, tc.want)
		}
	}
}
