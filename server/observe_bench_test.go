package server

import (
	"context"
	"testing"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/result"
)

// BenchmarkObserve measures what the dashboard's counting adds to one
// validation: the observer carried in the context, one layer run counted
// in the metrics and the history, and the result (valid, or invalid with
// three issues) counted in both.
func BenchmarkObserve(b *testing.B) {
	s := New(newEngine(b), Options{})
	issues := []result.Issue{
		{Type: result.MissingField, Severity: result.Error},
		{Type: result.InvalidType, Severity: result.Error},
		{Type: result.ConstraintViolation, Severity: result.Warning},
	}
	for _, tc := range []struct {
		name string
		res  *result.ValidationResult
	}{
		{"valid", &result.ValidationResult{Valid: true, Metadata: result.Metadata{DurationMS: 0.02}}},
		{"invalid", &result.ValidationResult{Valid: false, Issues: issues, Metadata: result.Metadata{DurationMS: 0.05}}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			ctx := context.Background()
			run := judge.LayerRun{Layer: "schema", Duration: 20 * time.Microsecond, Issues: tc.res.Issues}
			for b.Loop() {
				octx := judge.ObserveLayers(ctx, s.layerObserver)
				_ = octx
				s.layerObserver(run)
				s.observeValidation(tc.res)
			}
		})
	}
}
