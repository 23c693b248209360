package result_test

import (
	"fmt"

	"github.com/agentjudge/judge/result"
)

func ExampleQualityDimensions() {
	issues := []result.Issue{
		{Severity: result.Warning, Type: result.ComplexityIssue, Message: "Function 'calc' has cyclomatic complexity of 15"},
		{Severity: result.Warning, Type: result.SecurityIssue, Message: "subprocess.run is called with shell=True"},
		{Severity: result.Info, Type: result.StyleIssue, Message: "Line length of 104 exceeds 88 characters"},
	}
	d := result.QualityDimensions(issues)
	for _, name := range result.Dimensions() {
		fmt.Printf("%-15s %.2f\n", name, d[name])
	}
	fmt.Printf("quality_score   %.4f\n", result.QualityScore(issues))
	// Output:
	// correctness     1.00
	// completeness    1.00
	// readability     1.00
	// maintainability 0.90
	// performance     1.00
	// security        0.90
	// style           0.98
	// quality_score   0.7938
}
