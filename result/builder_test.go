package result

import (
	"encoding/json"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestBuildInvariants(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 200)
	tests := []struct {
		name       string
		issues     []Issue
		confidence float64
		wantValid  bool
		wantCounts [4]int // total, error, warning, info
	}{
		{name: "no issues", confidence: 1, wantValid: true},
		{name: "warning and info only", confidence: 0.5, wantValid: true, wantCounts: [4]int{2, 0, 1, 1},
			issues: []Issue{{Severity: Warning, Type: StyleIssue, Message: "Function name uses camelCase"}, {Severity: Info, Type: Optimization, Message: "Consider a list comprehension"}}},
		{name: "one error", confidence: 2, wantValid: false, wantCounts: [4]int{2, 1, 1, 0},
			issues: []Issue{{Severity: Error, Type: MissingField, Message: "Missing required field 'tests'"}, {Severity: Warning, Type: StyleIssue, Message: long}}},
		{name: "NaN confidence", confidence: math.NaN(), wantValid: false, wantCounts: [4]int{1, 1, 0, 0},
			issues: []Issue{{Severity: "fatal", Type: "", Message: "x"}}},
		{name: "exact duplicates merge", confidence: -1, wantValid: false, wantCounts: [4]int{1, 1, 0, 0},
			issues: []Issue{{Severity: Error, Type: InvalidType, Message: "Field 'a' is a string", Location: "a"}, {Severity: Error, Type: InvalidType, Message: "Field 'a' is a string", Location: "a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := NewBuilder().Add(tt.issues...).Confidence(tt.confidence).Build()
			if r.Valid != tt.wantValid {
				t.Errorf("Valid = %v, want %v", r.Valid, tt.wantValid)
			}
			m := r.Metadata
			if got := [4]int{m.TotalIssues, m.ErrorCount, m.WarningCount, m.InfoCount}; got != tt.wantCounts {
				t.Errorf("counts = %v, want %v", got, tt.wantCounts)
			}
			if r.Confidence < 0 || r.Confidence > 1 || math.IsNaN(r.Confidence) {
				t.Errorf("Confidence = %v out of [0,1]", r.Confidence)
			}
			if r.QualityScore < 0 || r.QualityScore > 1 {
				t.Errorf("QualityScore = %v out of [0,1]", r.QualityScore)
			}
			for _, is := range r.Issues {
				if n := utf8.RuneCountInString(is.Message); n < MinTextLen || n > MaxTextLen {
					t.Errorf("message of %d chars: %q", n, is.Message)
				}
				if !is.Severity.Valid() || is.Type == "" {
					t.Errorf("issue %+v has no valid severity or type", is)
				}
			}
			if r.PassedCriteria == nil || r.FailedCriteria == nil || r.Metadata.ValidationTypesRun == nil {
				t.Error("criteria and types lists must serialize as arrays, not null")
			}
			if r.Metadata.Model != Deterministic {
				t.Errorf("Model = %q, want %q", r.Metadata.Model, Deterministic)
			}
			if err := Check(r); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestTextLimits(t *testing.T) {
	t.Parallel()
	r := NewBuilder().Add(
		Issue{Severity: Error, Type: MissingField, Message: "tests", Suggestion: "Add it"},
		Issue{Severity: Warning, Type: StyleIssue, Message: strings.Repeat("abcdefghij ", 60), Suggestion: strings.Repeat("ü", 600)},
	).Build()
	want := map[string]bool{
		"A required field is absent: tests": true,
	}
	for _, is := range r.Issues {
		if is.Type == MissingField {
			if !want[is.Message] {
				t.Errorf("short message completed as %q", is.Message)
			}
			if is.Suggestion != "Suggested fix: Add it" {
				t.Errorf("short suggestion completed as %q", is.Suggestion)
			}
			continue
		}
		if n := utf8.RuneCountInString(is.Message); n > MaxTextLen || !strings.HasSuffix(is.Message, "abcdefghij…") {
			t.Errorf("long message not cut at a word (%d chars): ...%q", n, is.Message[len(is.Message)-20:])
		}
		if n := utf8.RuneCountInString(is.Suggestion); n != MaxTextLen {
			t.Errorf("long suggestion has %d chars, want %d", n, MaxTextLen)
		}
	}
}

func TestIssuesSortedAndCapped(t *testing.T) {
	t.Parallel()
	b := NewBuilder().MaxIssues(5)
	for i := range 10 {
		b.Add(Issue{Severity: Info, Type: StyleIssue, Message: "info number " + string(rune('a'+i)), Location: "z"})
	}
	b.Add(Issue{Severity: Error, Type: MissingField, Message: "Missing required field 'a'", Location: "root"})
	r := b.Build()
	if len(r.Issues) != 5 || r.Metadata.TotalIssues != 5 {
		t.Fatalf("kept %d issues, want 5", len(r.Issues))
	}
	if r.Valid || r.Metadata.ErrorCount != 1 {
		t.Fatalf("the error was dropped by the cap: %+v", r.Metadata)
	}
	var truncated bool
	for i, is := range r.Issues {
		if i > 0 && CompareIssues(r.Issues[i-1], is) > 0 {
			t.Errorf("issues not sorted at %d", i)
		}
		if is.Rule == "result.truncated" {
			truncated = strings.HasPrefix(is.Message, "7 more issues")
		}
	}
	if !truncated {
		t.Errorf("no truncation note counting 7 left-out issues: %+v", r.Issues)
	}
}

// The four complete examples of the specification, fed as issue lists to
// the scorer, land in the rubric band of the specification's own numbers.
func TestQualityScoreSpecExamples(t *testing.T) {
	t.Parallel()
	issue := func(s Severity, typ Type) Issue { return Issue{Severity: s, Type: typ, Message: "an example issue"} }
	tests := []struct {
		name      string
		issues    []Issue
		specScore float64
	}{
		{"valid output with warnings", []Issue{issue(Warning, StyleIssue), issue(Info, Optimization)}, 0.82},
		{"schema violation", []Issue{issue(Error, MissingField), issue(Error, CriteriaNotMet), issue(Warning, StyleIssue)}, 0.55},
		{"hallucination", []Issue{issue(Error, Hallucination), issue(Error, Hallucination), issue(Error, UnsupportedClaim), issue(Warning, FactMismatch)}, 0.35},
		{"low quality", []Issue{issue(Warning, ComplexityIssue), issue(Warning, PerformanceIssue), issue(Warning, SecurityIssue), issue(Warning, ReadabilityIssue), issue(Info, StyleIssue)}, 0.52},
	}
	for _, tt := range tests {
		got := QualityScore(tt.issues)
		if Grade(got) != Grade(tt.specScore) {
			t.Errorf("%s: score %.3f is %s, the spec's %.2f is %s", tt.name, got, Grade(got), tt.specScore, Grade(tt.specScore))
		}
	}
}

func TestQualityScoreMonotone(t *testing.T) {
	t.Parallel()
	severities := []Severity{Info, Warning, Error}
	var issues []Issue
	prev := QualityScore(nil)
	if prev != 1 {
		t.Fatalf("no issues scores %v, want 1", prev)
	}
	for i := range 60 {
		issues = append(issues, Issue{Severity: severities[i%3], Type: StyleIssue, Message: "some issue"})
		q := QualityScore(issues)
		if q > prev {
			t.Fatalf("adding issue %d raised the score from %v to %v", i, prev, q)
		}
		// Raising the new issue's severity never raises the score.
		worse := append([]Issue(nil), issues...)
		worse[len(worse)-1].Severity = Error
		if QualityScore(worse) > q {
			t.Fatalf("a more severe issue raised the score")
		}
		prev = q
	}
	if prev < 0 {
		t.Fatalf("score below 0: %v", prev)
	}
	if QualityScore([]Issue{{Severity: Error, Type: LayerFailed, Message: "layer failed here"}}) != 1 {
		t.Error("a process issue lowered the quality score")
	}
}

func TestTypesRegistry(t *testing.T) {
	t.Parallel()
	seen := map[Type]bool{}
	for _, ti := range Types() {
		if seen[ti.Type] {
			t.Errorf("type %s registered twice", ti.Type)
		}
		seen[ti.Type] = true
		if len(ti.Meaning) < MinTextLen {
			t.Errorf("type %s has no meaning", ti.Type)
		}
	}
	// Every type the specification lists is registered.
	for _, name := range []Type{"schema_violation", "missing_field", "invalid_type", "constraint_violation",
		"criteria_not_met", "criteria_ambiguous", "fact_mismatch", "unsupported_claim", "source_missing",
		"hallucination", "confidence_mismatch", "detail_inconsistency", "readability_issue", "complexity_issue",
		"performance_issue", "security_issue", "style_issue"} {
		if !seen[name] {
			t.Errorf("spec type %s not registered", name)
		}
	}
}

// process, which QualityScore asks of every issue, says what the table
// says.
func TestProcessIsTheTables(t *testing.T) {
	t.Parallel()
	for _, ti := range Types() {
		if process(ti.Type) != ti.Process {
			t.Errorf("process(%q) = %v, the table says %v", ti.Type, process(ti.Type), ti.Process)
		}
	}
	if process("unknown_type") || process("") {
		t.Error("process of a type the table does not have is true")
	}
}

// Every registered type has its page under docs/issues.
func TestTypesDocumented(t *testing.T) {
	t.Parallel()
	for _, ti := range Types() {
		if _, err := os.Stat(filepath.Join("..", "docs", "issues", string(ti.Type)+".md")); err != nil {
			t.Errorf("type %s has no docs/issues page: %v", ti.Type, err)
		}
	}
}

// Text that clipping reduces below the minimum, and unknown types without
// a message, still give a result that matches the specification.
func TestTextFallbacks(t *testing.T) {
	t.Parallel()
	r := NewBuilder().Add(
		Issue{Severity: Error, Type: CriteriaNotMet, Message: strings.Repeat(".", 600), Suggestion: strings.Repeat(";", 600)},
		Issue{Severity: Warning, Type: "xy"},
	).Build()
	for _, is := range r.Issues {
		if n := utf8.RuneCountInString(is.Message); n < MinTextLen || n > MaxTextLen {
			t.Errorf("message %q has %d characters", is.Message, n)
		}
		if is.Suggestion != "" && utf8.RuneCountInString(is.Suggestion) < MinTextLen {
			t.Errorf("suggestion %q too short", is.Suggestion)
		}
	}
	if err := Check(r); err != nil {
		t.Fatal(err)
	}
}

func TestMaxIssuesKeepsAnError(t *testing.T) {
	t.Parallel()
	r := NewBuilder().MaxIssues(1).Add(
		Issue{Severity: Error, Type: MissingField, Message: "Missing required field 'a'"},
		Issue{Severity: Error, Type: MissingField, Message: "Missing required field 'b'"},
		Issue{Severity: Warning, Type: StyleIssue, Message: "A style warning here"},
	).Build()
	if r.Valid || r.Metadata.ErrorCount != 1 || len(r.Issues) != 2 {
		t.Fatalf("valid %v, %d errors, %d issues: %+v", r.Valid, r.Metadata.ErrorCount, len(r.Issues), r.Issues)
	}
}

// Blank text is normalised like any other: a suggestion (or message, rule,
// location) of only white space never breaks the result's schema, with the
// self-check on or off.
func TestBuildBlankText(t *testing.T) {
	t.Parallel()
	var log strings.Builder
	sc := &SelfCheck{Log: slog.New(slog.NewTextHandler(&log, nil))}
	for _, blank := range []string{"", " ", "   \t\n ", "\u00a0\u2003"} {
		r := NewBuilder().SelfCheck(sc).Add(Issue{Severity: Error, Type: ConstraintViolation, Message: blank,
			Suggestion: blank, Location: blank, Rule: blank}).Build()
		if err := Check(r); err != nil {
			t.Errorf("blank %q: %v", blank, err)
		}
		is := r.Issues[0]
		if is.Suggestion != "" || is.Location != "" || is.Rule != "" {
			t.Errorf("blank %q: kept as suggestion %q, location %q, rule %q", blank, is.Suggestion, is.Location, is.Rule)
		}
	}
	if log.Len() != 0 {
		t.Errorf("the self-check reported: %s", log.String())
	}
}

// A self-check failure is a logged report, never a panic.
func TestSelfCheckLogs(t *testing.T) {
	t.Parallel()
	var buf strings.Builder
	log := slog.New(slog.NewTextHandler(&buf, nil))
	good := NewBuilder().Build()
	report := filepath.Join(t.TempDir(), "selfcheck.jsonl")
	if !selfCheck(good, log, report) || buf.Len() != 0 {
		t.Fatalf("a valid result was reported: %s", buf.String())
	}
	bad := NewBuilder().Build()
	bad.Issues = []Issue{{Severity: Error, Type: SchemaViolation, Message: "short", Suggestion: " "}}
	if selfCheck(bad, log, report) {
		t.Fatal("a result with a 5-character message passed the self-check")
	}
	// The report file holds one JSON line per violation, for the test
	// script to fail on.
	selfCheck(bad, log, report)
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("report has %d lines, want 2: %s", len(lines), data)
	}
	var line struct {
		Err    string            `json:"err"`
		Result *ValidationResult `json:"result"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &line); err != nil || line.Err == "" || line.Result == nil || line.Result.Issues[0].Message != "short" {
		t.Errorf("report line = %s (%v)", lines[0], err)
	}
	if !strings.Contains(buf.String(), "breaks the specification") || !strings.Contains(buf.String(), "level=ERROR") {
		t.Errorf("report = %q", buf.String())
	}
}

// The self-check is read from the environment by SelfCheckFromEnv, once,
// never by Build: on only for "1", with the report file beside it.
func TestSelfCheckFromEnv(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  map[string]string
		want *SelfCheck
	}{
		{map[string]string{}, nil},
		{map[string]string{SelfCheckEnv: "0", SelfCheckReportEnv: "/tmp/r"}, nil},
		{map[string]string{SelfCheckEnv: "true"}, nil},
		{map[string]string{SelfCheckEnv: "1"}, &SelfCheck{}},
		{map[string]string{SelfCheckEnv: "1", SelfCheckReportEnv: "/tmp/r"}, &SelfCheck{Report: "/tmp/r"}},
	} {
		got := SelfCheckFromEnv(func(k string) string { return tc.env[k] })
		if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("env %v: %+v, want %+v", tc.env, got, tc.want)
		}
	}
	// What builders given none use is a copy of the process's: changing
	// it changes nothing for them.
	if sc := ProcessSelfCheck(); sc != nil {
		sc.Report = "/changed"
		if ProcessSelfCheck().Report == "/changed" {
			t.Error("ProcessSelfCheck returned the process's own value")
		}
	}
}
