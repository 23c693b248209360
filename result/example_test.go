package result_test

import (
	"os"

	"github.com/agentjudge/judge/result"
)

func ExampleBuilder() {
	r := result.NewBuilder().
		Ran("schema").
		Add(result.Issue{
			Severity:   result.Error,
			Type:       result.MissingField,
			Message:    "Missing required field 'email' in user",
			Location:   "user",
			Suggestion: "Add an 'email' string to user",
		}).
		Build()
	_ = result.WriteText(os.Stdout, r)
	// Output:
	// Validation Result: ❌ FAIL
	// Confidence: 1.00
	// Quality Score: 0.80 (Good)
	// Checks: schema
	//
	// 🔴 ERRORS (1)
	//   • [missing_field] Missing required field 'email' in user
	//     → Add an 'email' string to user
}
