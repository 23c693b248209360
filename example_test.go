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

// Engine.Stream validates an output as a model generates it: a violation
// comes as soon as it is certain, and the last event holds Validate's
// result for the whole output.
func ExampleEngine_Stream() {
	e, err := judge.New()
	if err != nil {
		panic(err)
	}
	st := e.Stream(&judge.Request{ExpectedSchema: json.RawMessage(`{
		"type": "object", "required": ["city"],
		"properties": {"city": {"type": "string"}, "days": {"type": "integer", "maximum": 14}}
	}`)})
	for _, chunk := range []string{`{"days": `, `30, "city": "Oslo"}`} {
		events, err := st.Write([]byte(chunk))
		if err != nil {
			panic(err)
		}
		for _, ev := range events {
			fmt.Printf("at %d: %s\n", ev.At, ev.Result.Issues[0].Message)
		}
	}
	events, err := st.Close(context.Background())
	if err != nil {
		panic(err)
	}
	final := events[len(events)-1]
	fmt.Printf("final at %d: valid %v, %d issue\n", final.At, final.Result.Valid, len(final.Result.Issues))
	// Output:
	// at 12: Field 'days' is 30, above the maximum 14
	// final at 28: valid false, 1 issue
}
