package result

import (
	"log/slog"
	"math"
	"os"
	"time"
)

// Passed returns the result of one validation type that ran and found
// nothing: valid, no issues, the given confidence and duration. It is the
// result NewBuilder().Ran(typ).Confidence(confidence).Duration(d).Build()
// returns, built in one allocation: the engine answers a valid document of
// its fast path with it. Like Build, it checks the result against the
// specification's schema when JUDGE_SELFCHECK is "1".
func Passed(typ string, confidence float64, d time.Duration) *ValidationResult {
	if typ == QualityType {
		// The quality dimensions of the metadata are the builder's.
		return NewBuilder().Ran(typ).Confidence(confidence).Duration(d).Build()
	}
	p := &struct {
		r     ValidationResult
		types [1]string
	}{}
	p.types[0] = typ
	p.r = ValidationResult{
		Valid:          true,
		Confidence:     unit(confidence),
		Issues:         []Issue{},
		PassedCriteria: []string{},
		FailedCriteria: []string{},
		QualityScore:   1,
		Metadata: Metadata{
			ValidationTypesRun: p.types[:],
			DurationMS:         math.Round(float64(d.Microseconds())) / 1000,
			Model:              Deterministic,
		},
	}
	if os.Getenv(SelfCheckEnv) == "1" {
		selfCheck(&p.r, slog.Default(), os.Getenv(SelfCheckReportEnv))
	}
	return &p.r
}
