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
