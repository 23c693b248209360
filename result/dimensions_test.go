package result

import (
	"math"
	"testing"
)

func TestQualityDimensions(t *testing.T) {
	t.Parallel()
	issues := []Issue{
		{Severity: Warning, Type: ComplexityIssue, Message: "complex function"},
		{Severity: Warning, Type: PerformanceIssue, Message: "nested loops here"},
		{Severity: Error, Type: SecurityIssue, Message: "hard-coded secret"},
		{Severity: Warning, Type: ReadabilityIssue, Message: "short variable name"},
		{Severity: Info, Type: StyleIssue, Message: "long line in code"},
		{Severity: Error, Type: ReadabilityIssue, Rule: "prose.placeholder", Message: "placeholder text", Dimension: Completeness},
		{Severity: Warning, Type: ReadabilityIssue, Rule: "readability.function_length", Message: "function too long", Dimension: Maintainability},
		{Severity: Error, Type: SyntaxError, Message: "does not parse"},
		{Severity: Info, Type: NotChecked, Message: "not checked here"},
	}
	d := QualityDimensions(issues)
	want := map[string]float64{
		Correctness: 0.8, Completeness: 0.8, Readability: 0.9, Maintainability: 0.81,
		Performance: 0.9, Security: 0.8, Style: 0.98,
	}
	if len(d) != len(Dimensions()) {
		t.Fatalf("got %d dimensions, want %d", len(d), len(Dimensions()))
	}
	product := 1.0
	for _, name := range Dimensions() {
		if math.Abs(d[name]-want[name]) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, d[name], want[name])
		}
		product *= d[name]
	}
	if q := QualityScore(issues); math.Abs(product-q) > 1e-3 {
		t.Errorf("product of dimensions %v differs from the quality score %v", product, q)
	}
	for _, name := range Dimensions() {
		if QualityDimensions(nil)[name] != 1 {
			t.Errorf("%s is not 1 without issues", name)
		}
	}
}

func TestQualityDimensionsMonotone(t *testing.T) {
	t.Parallel()
	types := []Type{SecurityIssue, StyleIssue, ComplexityIssue, ReadabilityIssue, PerformanceIssue, MissingField, Hallucination}
	severities := []Severity{Info, Warning, Error}
	var issues []Issue
	prev := QualityDimensions(nil)
	for i := range 42 {
		issues = append(issues, Issue{Severity: severities[i%3], Type: types[i%len(types)], Message: "some issue"})
		cur := QualityDimensions(issues)
		worse := append([]Issue(nil), issues...)
		worse[len(worse)-1].Severity = Error
		w := QualityDimensions(worse)
		for _, d := range Dimensions() {
			if cur[d] > prev[d] || w[d] > cur[d] {
				t.Fatalf("issue %d raised dimension %s", i, d)
			}
		}
		prev = cur
	}
}

func TestBuildQualityDimensions(t *testing.T) {
	t.Parallel()
	is := Issue{Severity: Warning, Type: SecurityIssue, Message: "shell=True with input"}
	if r := NewBuilder().Ran("schema").Add(is).Build(); r.Metadata.QualityDimensions != nil {
		t.Errorf("dimensions without the quality layer: %v", r.Metadata.QualityDimensions)
	}
	r := NewBuilder().Ran("schema", QualityType).Add(is).Build()
	if r.Metadata.QualityDimensions[Security] != 0.9 || r.Metadata.QualityDimensions[Style] != 1 {
		t.Errorf("dimensions %v", r.Metadata.QualityDimensions)
	}
	if err := Check(r); err != nil {
		t.Errorf("result with dimensions breaks the schema: %v", err)
	}
}
