package result

import "time"

// Passed returns the result of one validation type that ran and found
// nothing: valid, no issues, the given confidence and duration. It is
// NewBuilder().SelfCheck(sc).Ran(typ).Confidence(confidence).Duration(d).Build(), which
// builds such a result in one allocation: the engine answers a valid
// document of its fast path with it, checked by sc (nil for no check; see
// [Builder.SelfCheck]).
func Passed(typ string, confidence float64, d time.Duration, sc *SelfCheck) *ValidationResult {
	b := Builder{types: []string{typ}, confidence: confidence, duration: d, maxIssues: DefaultMaxIssues, check: sc}
	return b.Build()
}

// Found returns the result of one validation type that ran and found
// issues: the given issues, confidence and duration. It is
// NewBuilder().SelfCheck(sc).Ran(typ).Add(issues...).Confidence(confidence).Duration(d).Build(),
// except that it takes issues over: the result's issues are normalized in
// issues' own array (which the caller must not use again) instead of a
// copy. The engine answers an invalid document of its fast path with it.
func Found(typ string, confidence float64, d time.Duration, sc *SelfCheck, issues []Issue) *ValidationResult {
	if issues == nil {
		issues = []Issue{}
	}
	for i := range issues {
		normalizeIn(&issues[i])
	}
	b := Builder{types: []string{typ}, confidence: confidence, duration: d, maxIssues: DefaultMaxIssues, check: sc}
	return b.build(issues)
}
