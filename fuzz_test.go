package judge_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/result"
)

// FuzzValidateRequest feeds arbitrary request bodies through DecodeRequest
// and the engine: a body is either rejected with a *RequestError or answered
// with a result that matches the specification. Never a panic, never
// another error.
func FuzzValidateRequest(f *testing.F) {
	for _, s := range []string{
		`{"output": {"a": 1}, "expected_schema": {"type": "object", "required": ["b"]}}`,
		`{"output": "` + "```json\\n{\\\"a\\\": 1}\\n```" + `", "expected_schema": {"properties": {"a": {"type": "string"}}}}`,
		`{"output": [1, 2], "acceptance_criteria": ["code is good", {"id": "n", "rule": "size(output) == 2"}]}`,
		`{"output": "{\"a\":", "options": {"output_mode": "auto"}}`,
		`{"output": 1, "expected_schema": {"$ref": "http://example.com/x.json"}}`,
		`{"output": 1, "expected_schema": {"minimum": "ten"}}`,
		`{"output": null, "validation_types": ["schema", "facts"]}`,
	} {
		f.Add([]byte(s))
	}
	e, err := judge.New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := judge.DecodeRequest(body, 64)
		if err != nil {
			var re *judge.RequestError
			if !errors.As(err, &re) {
				t.Fatalf("DecodeRequest error %T is not a *RequestError: %v", err, err)
			}
			return
		}
		r, err := e.Validate(context.Background(), req)
		if err != nil {
			var re *judge.RequestError
			if !errors.As(err, &re) {
				t.Fatalf("Validate error %T is not a *RequestError: %v", err, err)
			}
			return
		}
		if err := result.Check(r); err != nil {
			t.Fatal(err)
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatal(err)
		}
	})
}
