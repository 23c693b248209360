package judge_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/result"
)

// TestHallucinationWithoutSources checks the engine's plan for the
// hallucination layer with no source: run when validation_types names it
// (its internal consistency check needs none), left out by default.
func TestHallucinationWithoutSources(t *testing.T) {
	t.Parallel()
	e, err := judge.New()
	if err != nil {
		t.Fatal(err)
	}
	inconsistent, _ := json.Marshal("The CVSS score is 7.5.\nIn short, the CVSS score is 9.8.")
	tests := []struct {
		name  string
		types []string
		ran   bool
		want  []result.Type
		valid bool
	}{
		{name: "requested: the inconsistency is found", types: []string{"hallucination"}, ran: true, want: []result.Type{result.DetailInconsistency}, valid: true},
		{name: "by default: not run", ran: false, valid: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := e.Validate(context.Background(), &judge.Request{Output: inconsistent, ValidationTypes: tt.types})
			if err != nil {
				t.Fatal(err)
			}
			if err := result.Check(res); err != nil {
				t.Errorf("the result breaks the specification: %v", err)
			}
			if got := slices.Contains(res.Metadata.ValidationTypesRun, "hallucination"); got != tt.ran {
				t.Errorf("validation_types_run %v, want hallucination run: %v", res.Metadata.ValidationTypesRun, tt.ran)
			}
			var types []result.Type
			for _, is := range res.Issues {
				if is.Type == result.DetailInconsistency {
					types = append(types, is.Type)
				}
			}
			if !slices.Equal(types, tt.want) || res.Valid != tt.valid {
				t.Errorf("issues %+v valid %v, want types %v valid %v", res.Issues, res.Valid, tt.want, tt.valid)
			}
			if tt.ran && (slices.Contains(res.PassedCriteria, "No hallucinations present") || !slices.Contains(res.FailedCriteria, "No hallucinations present")) {
				t.Errorf("passed %v failed %v", res.PassedCriteria, res.FailedCriteria)
			}
		})
	}
}
