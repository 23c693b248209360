package schema_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/schema"
)

// The layer reports one issue per failed keyword, located in the output.
func Example() {
	decode := func(s string) any {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(s))
		if err != nil {
			panic(err)
		}
		return v
	}
	in := &layer.Input{
		ExpectedSchema: decode(`{
			"type": "object",
			"required": ["user", "tasks"],
			"properties": {
				"user": {"type": "object", "required": ["email"], "properties": {
					"email": {"type": "string", "description": "the user's e-mail address"},
					"age": {"type": "integer"}}},
				"tasks": {"type": "array", "items": {"properties": {
					"status": {"enum": ["todo", "doing", "done"]},
					"priority": {"type": "integer", "minimum": 1, "maximum": 5}}}}
			}
		}`),
		Output: decode(`{"user": {"age": "42"}, "tasks": [{"status": "done", "priority": 7}, {"status": "later"}]}`),
	}
	p := layer.NewPass(schema.Layer, in, layer.NewCache(0))
	if err := schema.Layer.Run(context.Background(), p); err != nil {
		fmt.Println(err)
		return
	}
	for _, is := range p.Findings().Issues {
		fmt.Printf("%s %s: %s\n\t%s\n", is.Location, is.Type, is.Message, is.Suggestion)
	}
	// Output:
	// tasks[0].priority constraint_violation: Field 'priority' is 7, above the maximum 5
	// 	Use a value between 1 and 5 for 'priority'
	// tasks[1].status constraint_violation: Field 'status' is "later", not one of the allowed values "todo", "doing", "done"
	// 	Use one of the allowed values for 'status': "todo", "doing", "done"
	// user missing_field: Missing required field 'email' in user
	// 	Add an 'email' field (string): the user's e-mail address
	// user.age invalid_type: Field 'age' has type string, expected integer
	// 	Change 'age' to an integer value
}

// InstanceLocation writes paths in the notation of the specification.
func ExampleInstanceLocation() {
	doc := map[string]any{"tasks": []any{nil, nil, map[string]any{"a.b": 1}}, "7": true}
	fmt.Println(schema.InstanceLocation(doc, nil))
	fmt.Println(schema.InstanceLocation(doc, []string{"tasks", "2", "a.b"}))
	fmt.Println(schema.InstanceLocation(doc, []string{"7"}))
	// Output:
	// root
	// tasks[2]["a.b"]
	// ["7"]
}

// Compile a tool's input schema once and validate each call's arguments:
// a valid document is answered on its bytes, an invalid one gets the same
// issues as the schema layer reports.
func ExampleCompile() {
	v, err := schema.Compile([]byte(`{
		"type": "object",
		"properties": {"owner": {"type": "string"}, "perPage": {"type": "integer", "maximum": 100}},
		"required": ["owner"],
		"additionalProperties": false
	}`), schema.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fast, _, _ := v.Path()
	fmt.Println("fast path:", fast)
	for _, doc := range []string{`{"owner": "golang", "perPage": 50}`, `{"perPage": 500}`} {
		issues, err := v.Validate([]byte(doc))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %d issues\n", doc, len(issues))
		for _, is := range issues {
			fmt.Printf("  %s: %s\n", is.Location, is.Rule)
		}
	}
	// Output:
	// fast path: true
	// {"owner": "golang", "perPage": 50}: 0 issues
	// {"perPage": 500}: 2 issues
	//   perPage: schema.maximum
	//   root: schema.required
}

// A Stream reports a violation at the byte that makes it certain, while
// the document is still arriving.
func ExampleValidator_Stream() {
	v, err := schema.Compile([]byte(`{"type": "object", "additionalProperties": false,
		"properties": {"cabin": {"enum": ["economy", "business"]}, "seats": {"type": "integer"}}}`), schema.Options{})
	if err != nil {
		panic(err)
	}
	s := v.Stream(schema.StreamOptions{})
	defer s.Release()
	for _, chunk := range []string{`{"cabin": "eco`, `nomy_`, `x", "seats": "2"`, `, "pets": 1}`} {
		events, err := s.Write([]byte(chunk))
		if err != nil {
			panic(err)
		}
		for _, ev := range events {
			fmt.Printf("after %d bytes: %s\n", ev.At, ev.Issues[0].Message)
		}
	}
	if _, err := s.Close(); err != nil {
		panic(err)
	}
	issues, _ := v.Validate(s.Document())
	fmt.Println(len(issues), "issues in the whole document")
	// Output:
	// after 19 bytes: Field 'cabin' starts with "economy_", which no allowed value starts with: the allowed values are "economy", "business"
	// after 33 bytes: Field 'seats' has type string, expected integer
	// after 43 bytes: Field 'pets' is not allowed at root: the schema permits no properties besides those it declares
	// 3 issues in the whole document
}
