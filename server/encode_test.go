package server

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/result"
)

// sameAsWriteJSON fails t unless appendResult writes r byte for byte as
// result.WriteJSON does, or declines exactly where WriteJSON fails.
func sameAsWriteJSON(t *testing.T, r *result.ValidationResult) {
	t.Helper()
	var want bytes.Buffer
	werr := result.WriteJSON(&want, r)
	got, ok := appendResult([]byte("prefix"), r)
	if !ok {
		if werr == nil {
			t.Fatalf("appendResult declined %+v, which WriteJSON writes", r)
		}
		return
	}
	if werr != nil {
		t.Fatalf("appendResult wrote %+v, which WriteJSON refuses: %v", r, werr)
	}
	if got := got[len("prefix"):]; !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("appendResult wrote\n%s\nWriteJSON\n%s", got, want.Bytes())
	}
}

// The answer of POST /validate is what result.WriteJSON writes, for the
// results of the benchmark corpus (valid and invalid) and for results
// with every optional member, strings that need escapes and floats in
// both of encoding/json's notations.
func TestAppendResult(t *testing.T) {
	t.Parallel()
	eng := newEngine(t)
	c := sharedtest.LoadBenchCorpus(t)
	for _, cs := range c.Cases {
		for _, doc := range []string{cs.Valid, cs.Invalid} {
			r, err := eng.Validate(context.Background(), &judge.Request{Output: json.RawMessage(doc), ExpectedSchema: cs.Schema})
			if err != nil {
				t.Fatal(err)
			}
			sameAsWriteJSON(t, r)
		}
	}
	odd := "quote \" backslash \\ <tag> & \n\r\t\b\f \x01 \x7f é \u2028 \u2029 \xff end"
	for _, r := range []*result.ValidationResult{
		{},
		{Issues: []result.Issue{}, PassedCriteria: []string{}, FailedCriteria: []string{}, Metadata: result.Metadata{ValidationTypesRun: []string{}}},
		{Valid: true, Confidence: 0.1 + 0.2, QualityScore: 1e-7, PassedCriteria: []string{odd, ""}, FailedCriteria: []string{"x"},
			Issues: []result.Issue{{Severity: result.Error, Type: result.SchemaViolation, Message: odd}, {Severity: result.Info, Type: "other", Message: "m", Location: odd, Suggestion: "s", Rule: "r", Dimension: "d"}},
			Metadata: result.Metadata{ValidationTypesRun: []string{"schema", odd}, TotalIssues: 2, ErrorCount: -1, WarningCount: 1 << 40, InfoCount: 3,
				DurationMS: 1e21, Model: odd, TokenUsage: &result.TokenUsage{PromptTokens: 1, CompletionTokens: -2, TotalTokens: math.MaxInt64},
				QualityDimensions: map[string]float64{"z": 0.5, "a": math.Copysign(0, -1), odd: 123456789.125}}},
		{Metadata: result.Metadata{QualityDimensions: map[string]float64{}}},
		{Confidence: math.NaN()},
		{Metadata: result.Metadata{DurationMS: math.Inf(1)}},
		{Metadata: result.Metadata{QualityDimensions: map[string]float64{"x": math.Inf(-1)}}},
	} {
		sameAsWriteJSON(t, r)
	}
}

// FuzzAppendResult: appendResult and result.WriteJSON agree on any
// result.
func FuzzAppendResult(f *testing.F) {
	f.Add(true, 0.5, 1.0, 12.25, "schema", "error", "type", "message", "loc", "", "rule", "crit", "dim", int64(3))
	f.Add(false, 1e-9, 1e22, math.Copysign(0, -1), "", "", "", "\u2028\xff<", "", "s", "", "", "", int64(-1))
	f.Fuzz(func(t *testing.T, valid bool, conf, score, dur float64, vt, sev, typ, msg, loc, sug, rule, crit, dim string, n int64) {
		r := &result.ValidationResult{Valid: valid, Confidence: conf, QualityScore: score,
			Issues:         []result.Issue{{Severity: result.Severity(sev), Type: result.Type(typ), Message: msg, Location: loc, Suggestion: sug, Rule: rule}},
			PassedCriteria: []string{crit}, FailedCriteria: []string{},
			Metadata: result.Metadata{ValidationTypesRun: []string{vt}, TotalIssues: int(n), DurationMS: dur, Model: msg}}
		if n%2 == 0 {
			r.Metadata.TokenUsage = &result.TokenUsage{PromptTokens: n, TotalTokens: -n}
			r.Metadata.QualityDimensions = map[string]float64{dim: dur, crit: conf}
		}
		if n%3 == 0 {
			r.Issues, r.PassedCriteria = nil, nil
		}
		sameAsWriteJSON(t, r)
	})
}
