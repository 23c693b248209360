package judge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentjudge/judge"
)

// A request prepared once checks many outputs: its schema is decoded and
// compiled by Prepare, not again for each output.
func ExampleEngine_Prepare() {
	e, err := judge.New()
	if err != nil {
		panic(err)
	}
	p, err := e.Prepare(context.Background(), &judge.Request{
		ExpectedSchema: json.RawMessage(`{"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}}`),
	})
	if err != nil {
		panic(err)
	}
	for _, out := range []string{`{"id": 1}`, `{"id": "one"}`, `{}`} {
		res, err := p.Validate(context.Background(), json.RawMessage(out))
		if err != nil {
			panic(err)
		}
		fmt.Print(out, " valid=", res.Valid)
		for _, is := range res.Issues {
			fmt.Printf(" %s@%s", is.Type, is.Location)
		}
		fmt.Println()
	}
	// Output:
	// {"id": 1} valid=true
	// {"id": "one"} valid=false invalid_type@id
	// {} valid=false missing_field@root
}

// WithSchemaDir reads a directory of schemas once, for every request's
// $ref: a file without $id is named by its path in the directory.
func ExampleWithSchemaDir() {
	dir, err := os.MkdirTemp("", "schemas")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "money.json"), []byte(`{"type": "object", "required": ["amount", "currency"]}`), 0o644); err != nil {
		panic(err)
	}
	e, err := judge.New(judge.WithSchemaDir(dir))
	if err != nil {
		panic(err)
	}
	res, err := e.Validate(context.Background(), &judge.Request{
		Output:         json.RawMessage(`{"price": {"amount": 5}}`),
		ExpectedSchema: json.RawMessage(`{"properties": {"price": {"$ref": "money.json"}}}`),
	})
	if err != nil {
		panic(err)
	}
	for _, is := range res.Issues {
		fmt.Println(is.Type, is.Location, is.Message)
	}
	// Output:
	// missing_field price Missing required field 'currency' in price
}
