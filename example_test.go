package judge_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/layer"
)

func ExampleEngine_Validate() {
	e, err := judge.New()
	if err != nil {
		panic(err)
	}
	res, err := e.Validate(context.Background(), &judge.Request{
		Output: json.RawMessage(`{"title": "Fix login", "priority": 7}`),
		ExpectedSchema: json.RawMessage(`{
			"type": "object",
			"required": ["title", "priority"],
			"properties": {"priority": {"type": "integer", "maximum": 5}}
		}`),
		AcceptanceCriteria: []layer.Criterion{
			{ID: "title", Description: "Title is short", Rule: "size(output.title) <= 60"},
		},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("valid:", res.Valid)
	fmt.Println("passed:", res.PassedCriteria)
	for _, is := range res.Issues {
		fmt.Printf("%s %s at %s\n", is.Severity, is.Type, is.Location)
	}
	// Output:
	// valid: false
	// passed: [Title is short]
	// error constraint_violation at priority
}

// An engine's workers end with Close, which waits for them at most as
// long as its context allows.
func ExampleEngine_Close() {
	e, err := judge.New()
	if err != nil {
		panic(err)
	}
	res, err := e.Validate(context.Background(), &judge.Request{Output: json.RawMessage(`{"a": 1}`)})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), judge.DefaultLayerTimeout)
	defer cancel()
	fmt.Println(res.Valid, e.Close(ctx))
	// Output: true <nil>
}
