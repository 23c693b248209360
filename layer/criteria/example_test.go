package criteria_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/criteria"
)

func Example() {
	dec := json.NewDecoder(strings.NewReader(`{"code": "def sort_list(xs): return sorted(xs)", "tests": []}`))
	dec.UseNumber()
	var output any
	if err := dec.Decode(&output); err != nil {
		panic(err)
	}
	in := &layer.Input{
		Output: output,
		Criteria: []layer.Criterion{
			{Description: "Code implements sorting", Rule: `output.code.contains("sorted(")`},
			{Description: "Tests are included", Rule: `size(output.tests) > 0`,
				MessageExpression: `"Expected at least one test, found " + string(size(output.tests))`},
			{Description: "Code is clean"},
		},
	}
	p := layer.NewPass(criteria.Layer, in, layer.NewCache(0))
	if err := criteria.Layer.Run(context.Background(), p); err != nil {
		panic(err)
	}
	f := p.Findings()
	fmt.Println("passed:", f.Passed)
	fmt.Println("failed:", f.Failed)
	for _, is := range f.Issues {
		fmt.Printf("%s %s at %s: %s\n", is.Severity, is.Type, is.Location, is.Message)
	}
	fmt.Printf("confidence: %.2f\n", f.Confidence)
	// Output:
	// passed: [Code implements sorting]
	// failed: [Tests are included]
	// warning criteria_ambiguous at acceptance_criteria[2]: Criterion 'Code is clean' is subjective: 'clean' has no measurable meaning
	// error criteria_not_met at acceptance_criteria[1]: Expected at least one test, found 0
	// info not_checked at acceptance_criteria[2]: Criterion 'Code is clean' is plain language and was not checked: no model is configured to judge it
	// confidence: 0.67
}

// A rule that does not compile rejects the request with an InputError
// pointing at the rule's line and column.
func Example_compileError() {
	in := &layer.Input{Output: "hello", Criteria: []layer.Criterion{{Rule: `output.startsWith("h") &&`}}}
	p := layer.NewPass(criteria.Layer, in, layer.NewCache(0))
	err := criteria.Layer.Run(context.Background(), p)
	fmt.Println(err)
	// Output:
	// criteria: acceptance_criteria[0].rule:1:26: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
	//  | output.startsWith("h") &&
	//  | .........................^
}
