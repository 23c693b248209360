package schema_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/result"
)

// decode decodes JSON text as the engine does: json.Number numbers.
func decode(t testing.TB, s string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(s))
	if err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

// check runs the layer once and returns its findings and error.
func check(t testing.TB, in *layer.Input, cache *layer.Cache) (layer.Findings, error) {
	t.Helper()
	p := layer.NewPass(schema.Layer, in, cache)
	err := schema.Layer.Run(context.Background(), p)
	return p.Findings(), err
}

func input(t testing.TB, sch, output string) *layer.Input {
	return &layer.Input{ExpectedSchema: decode(t, sch), Output: decode(t, output)}
}

func issue(typ result.Type, loc, msg, sugg, rule string) result.Issue {
	return result.Issue{Severity: result.Error, Type: typ, Location: loc, Message: msg, Suggestion: sugg, Rule: rule}
}

func sameIssues(t *testing.T, got, want []result.Issue) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("got %d issues, want %d", len(got), len(want))
	}
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			t.Errorf("missing issue %+v", want[i])
		case i >= len(want):
			t.Errorf("unexpected issue %+v", got[i])
		case got[i] != want[i]:
			t.Errorf("issue %d:\n got  %+v\n want %+v", i, got[i], want[i])
		}
	}
	for _, is := range got {
		checkIssue(t, is)
	}
}

func TestIssues(t *testing.T) {
	t.Parallel()
	const (
		missing    = result.MissingField
		typ        = result.InvalidType
		constraint = result.ConstraintViolation
		violation  = result.SchemaViolation
	)
	tests := []struct {
		name           string
		schema, output string
		want           []result.Issue
	}{
		{
			name:   "valid",
			schema: `{"type": "object", "required": ["a"]}`,
			output: `{"a": 1}`,
		},
		{
			name: "required nested, with type and description",
			schema: `{"properties": {"user": {"properties": {"profile": {"type": "object", "required": ["email", "name"],
				"properties": {"email": {"type": "string", "description": "the user's e-mail address"}}}}}}}`,
			output: `{"user": {"profile": {}}}`,
			want: []result.Issue{
				issue(missing, "user.profile", "Missing required field 'email' in user.profile",
					"Add an 'email' field (string): the user's e-mail address", "schema.required"),
				issue(missing, "user.profile", "Missing required field 'name' in user.profile",
					"Add a 'name' field to user.profile", "schema.required"),
			},
		},
		{
			name:   "required at root, type through $ref",
			schema: `{"required": ["tests"], "properties": {"tests": {"$ref": "#/definitions/list"}}, "definitions": {"list": {"type": "array"}}}`,
			output: `{}`,
			want: []result.Issue{
				issue(missing, "root", "Missing required field 'tests' at root",
					"Add a 'tests' field (array) to the output", "schema.required"),
			},
		},
		{
			name:   "type",
			schema: `{"properties": {"age": {"type": "integer"}, "tags": {"type": ["array", "null"]}}}`,
			output: `{"age": "42", "tags": 3.5}`,
			want: []result.Issue{
				issue(typ, "age", "Field 'age' has type string, expected integer", "Change 'age' to an integer value", "schema.type"),
				issue(typ, "tags", "Field 'tags' has type number, expected null or array", "Change 'tags' to a null or array value", "schema.type"),
			},
		},
		{
			name:   "type of an array item and of the output",
			schema: `{"type": "object", "properties": {"tasks": {"items": {"type": "object"}}}}`,
			output: `[1]`,
			want: []result.Issue{
				issue(typ, "root", "The output has type array, expected object", "Change the output to an object value", "schema.type"),
			},
		},
		{
			name:   "item location",
			schema: `{"properties": {"tasks": {"items": {"properties": {"status": {"enum": ["todo", "doing", "done"]}}}}}}`,
			output: `{"tasks": [{"status": "todo"}, {"status": "done"}, {"status": "blocked"}]}`,
			want: []result.Issue{
				issue(constraint, "tasks[2].status", `Field 'status' is "blocked", not one of the allowed values "todo", "doing", "done"`,
					`Use one of the allowed values for 'status': "todo", "doing", "done"`, "schema.enum"),
			},
		},
		{
			name:   "keys that are not identifiers, and numeric keys of objects",
			schema: `{"properties": {"a": {"properties": {"b.c": {"type": "string"}}}, "0": {"items": {"type": "string"}}}}`,
			output: `{"a": {"b.c": 1}, "0": [true]}`,
			want: []result.Issue{
				issue(typ, `["0"][0]`, `Item ["0"][0] has type boolean, expected string`, `Change ["0"][0] to a string value`, "schema.type"),
				issue(typ, `a["b.c"]`, "Field 'b.c' has type number, expected string", "Change 'b.c' to a string value", "schema.type"),
			},
		},
		{
			name:   "enum with one value, const",
			schema: `{"properties": {"v": {"enum": [2]}, "kind": {"const": "a"}}}`,
			output: `{"v": 3, "kind": "b"}`,
			want: []result.Issue{
				issue(constraint, "kind", `Field 'kind' is "b", but must be the constant "a"`, `Set 'kind' to "a"`, "schema.const"),
				issue(constraint, "v", "Field 'v' is 3, but the only allowed value is 2", "Set 'v' to 2", "schema.enum"),
			},
		},
		{
			name:   "enum with many values",
			schema: `{"enum": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}`,
			output: `13`,
			want: []result.Issue{
				issue(constraint, "root", "The output is 13, not one of the allowed values",
					"Use one of the allowed values for the output: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, and 2 more", "schema.enum"),
			},
		},
		{
			name: "numbers",
			schema: `{"properties": {"priority": {"type": "integer", "maximum": 5}, "age": {"minimum": 0, "maximum": 150},
				"ratio": {"exclusiveMinimum": 0, "maximum": 1}, "p": {"exclusiveMaximum": 1.5}, "step": {"multipleOf": 0.5}}}`,
			output: `{"priority": 7, "age": -1, "ratio": 0, "p": 1.5, "step": 0.75}`,
			want: []result.Issue{
				issue(constraint, "age", "Field 'age' is -1, below the minimum 0", "Use a value between 0 and 150 for 'age'", "schema.minimum"),
				issue(constraint, "p", "Field 'p' is 1.5, not below the exclusive maximum 1.5", "Use a value less than 1.5 for 'p'", "schema.exclusiveMaximum"),
				issue(constraint, "priority", "Field 'priority' is 7, above the maximum 5", "Use a value of at most 5 for 'priority'", "schema.maximum"),
				issue(constraint, "ratio", "Field 'ratio' is 0, not above the exclusive minimum 0", "Use a value greater than 0 and at most 1 for 'ratio'", "schema.exclusiveMinimum"),
				issue(constraint, "step", "Field 'step' is 0.75, not a multiple of 0.5", "Change 'step' to a multiple of 0.5", "schema.multipleOf"),
			},
		},
		{
			name:   "strings",
			schema: `{"properties": {"name": {"minLength": 3, "maxLength": 20}, "code": {"maxLength": 2}, "id": {"pattern": "^[0-9]+$"}}}`,
			output: `{"name": "ab", "code": "ABCDE", "id": "x1"}`,
			want: []result.Issue{
				issue(constraint, "code", "Field 'code' is 5 characters long, longer than the maximum length 2", "Shorten 'code' to at most 2 characters", "schema.maxLength"),
				issue(constraint, "id", `Field 'id' is "x1", which does not match the pattern ^[0-9]+$`, "Change 'id' so that it matches the pattern ^[0-9]+$", "schema.pattern"),
				issue(constraint, "name", `Field 'name' is "ab", 2 characters long, shorter than the minimum length 3`, "Use between 3 and 20 characters for 'name'", "schema.minLength"),
			},
		},
		{
			name:   "long values are cut",
			schema: `{"const": "a"}`,
			output: `"` + strings.Repeat("x", 100) + `"`,
			want: []result.Issue{
				issue(constraint, "root", `The output is "`+strings.Repeat("x", 59)+`…", but must be the constant "a"`, `Set the output to "a"`, "schema.const"),
			},
		},
		{
			name:   "long values are cut at a word, as result.Clip cuts",
			schema: `{"const": "a"}`,
			output: `"` + strings.Repeat("abcdefg ", 20) + `"`,
			want: []result.Issue{
				issue(constraint, "root", `The output is "`+strings.TrimSpace(strings.Repeat("abcdefg ", 7))+`…", but must be the constant "a"`, `Set the output to "a"`, "schema.const"),
			},
		},
		{
			name:   "a regular expression RE2 cannot run",
			schema: `{"format": "regex"}`,
			output: `"^(?=.*[0-9])[a-z0-9]+$"`,
			want: []result.Issue{
				issue(constraint, "root", `The output is "^(?=.*[0-9])[a-z0-9]+$", a regular expression that uses a lookahead, which judge's regular-expression engine (RE2) does not support`,
					"Change the output to a valid regex such as ^[a-z]+$", "schema.format"),
			},
		},
		{
			name:   "format",
			schema: `{"properties": {"email": {"format": "email"}, "when": {"format": "date"}}}`,
			output: `{"email": "nobody", "when": "2024-02-30"}`,
			want: []result.Issue{
				issue(constraint, "email", `Field 'email' is "nobody", not a valid email (missing @)`, "Change 'email' to a valid email such as name@example.com", "schema.format"),
				issue(constraint, "when", `Field 'when' is "2024-02-30", not a valid date (parsing time "2024-02-30": day out of range)`, "Change 'when' to a valid date such as 2024-05-01 (YYYY-MM-DD)", "schema.format"),
			},
		},
		{
			name:   "arrays",
			schema: `{"properties": {"tags": {"minItems": 2, "uniqueItems": true}, "few": {"maxItems": 1}, "both": {"minItems": 1, "maxItems": 3}}}`,
			output: `{"tags": ["a", "a"], "few": [1, 2], "both": []}`,
			want: []result.Issue{
				issue(constraint, "both", "Field 'both' has 0 items, fewer than the minimum 1", "Give 'both' between 1 and 3 items", "schema.minItems"),
				issue(constraint, "few", "Field 'few' has 2 items, more than the maximum 1", "Remove items from 'few' until it has at most 1", "schema.maxItems"),
				issue(constraint, "tags", `Field 'tags' has duplicate items, but its items must be unique: tags[0] and tags[1] are both "a"`,
					"Remove the duplicate item tags[1], or change it so that no two items are equal", "schema.uniqueItems"),
			},
		},
		{
			name:   "contains",
			schema: `{"properties": {"steps": {"contains": {"title": "Test step", "type": "object"}}}}`,
			output: `{"steps": [1]}`,
			want: []result.Issue{
				issue(constraint, "steps", `Field 'steps' has no item that matches the 'contains' schema ("Test step" (object))`,
					`Add an item that matches the 'contains' schema ("Test step" (object)) to 'steps'`, "schema.contains"),
			},
		},
		{
			name:   "min and max contains",
			schema: `{"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"a": {"contains": {"const": 1}, "minContains": 2}, "b": {"contains": {"const": 1}, "maxContains": 1}}}`,
			output: `{"a": [1, 2], "b": [1, 1]}`,
			want: []result.Issue{
				issue(constraint, "a", "Field 'a' has 1 item matching the 'contains' schema (the constant 1), fewer than minContains 2",
					"Add items that match the 'contains' schema (the constant 1) to 'a' until at least 2 do", "schema.minContains"),
				issue(constraint, "b", "Field 'b' has 2 items matching the 'contains' schema (the constant 1), more than maxContains 1",
					"Remove items that match the 'contains' schema (the constant 1) from 'b' until at most 1 do", "schema.maxContains"),
			},
		},
		{
			name:   "properties count",
			schema: `{"properties": {"meta": {"minProperties": 1}, "small": {"maxProperties": 1}}}`,
			output: `{"meta": {}, "small": {"a": 1, "b": 2}}`,
			want: []result.Issue{
				issue(constraint, "meta", "Field 'meta' has 0 properties, fewer than the minimum 1", "Add properties to 'meta' until it has at least 1", "schema.minProperties"),
				issue(constraint, "small", "Field 'small' has 2 properties, more than the maximum 1", "Remove properties from 'small' until it has at most 1", "schema.maxProperties"),
			},
		},
		{
			name:   "additional properties, one issue each, with the likely intended name",
			schema: `{"properties": {"user": {"properties": {"name": {}, "email": {}}, "patternProperties": {"^x-": {}}, "additionalProperties": false}}}`,
			output: `{"user": {"name": "a", "emial": "b", "nickname": "c"}}`,
			want: []result.Issue{
				issue(constraint, "user.emial", "Field 'emial' is not allowed in user: the schema permits no properties besides those it declares",
					"Rename 'emial' to 'email', a field the schema declares, or remove it", "schema.additionalProperties"),
				issue(constraint, "user.nickname", "Field 'nickname' is not allowed in user: the schema permits no properties besides those it declares",
					"Remove 'nickname'; the fields allowed in user are 'email', 'name', and fields whose names match ^x-", "schema.additionalProperties"),
			},
		},
		{
			name:   "additional property at root, nothing declared",
			schema: `{"additionalProperties": false}`,
			output: `{"a": 1}`,
			want: []result.Issue{
				issue(constraint, "a", "Field 'a' is not allowed at root: the schema permits no properties besides those it declares",
					"Remove 'a' from the output", "schema.additionalProperties"),
			},
		},
		{
			name:   "property names",
			schema: `{"propertyNames": {"pattern": "^[a-z]+$"}}`,
			output: `{"ok": 1, "Bad": 2}`,
			want: []result.Issue{
				issue(constraint, "Bad", `Property name "Bad" at root is not allowed: the name is "Bad", which does not match the pattern ^[a-z]+$`,
					`Rename the property "Bad" at root so that its name is allowed, or remove it`, "schema.propertyNames"),
			},
		},
		{
			name:   "draft-07 dependencies",
			schema: `{"properties": {"payment": {"dependencies": {"card": ["cvv", "expiry"]}}}}`,
			output: `{"payment": {"card": "4111"}}`,
			want: []result.Issue{
				issue(constraint, "payment", "Missing field 'cvv' in payment, required when 'card' is present", "Add a 'cvv' field to payment, or remove 'card'", "schema.dependencies"),
				issue(constraint, "payment", "Missing field 'expiry' in payment, required when 'card' is present", "Add an 'expiry' field to payment, or remove 'card'", "schema.dependencies"),
			},
		},
		{
			name:   "2020-12 dependentRequired",
			schema: `{"$schema": "https://json-schema.org/draft/2020-12/schema", "dependentRequired": {"card": ["cvv"]}}`,
			output: `{"card": "4111"}`,
			want: []result.Issue{
				issue(constraint, "root", "Missing field 'cvv' at root, required when 'card' is present", "Add a 'cvv' field to the output, or remove 'card'", "schema.dependentRequired"),
			},
		},
		{
			name:   "additionalItems",
			schema: `{"properties": {"point": {"items": [{"type": "number"}, {"type": "number"}], "additionalItems": false}}}`,
			output: `{"point": [1, 2, 3]}`,
			want: []result.Issue{
				issue(constraint, "point", "Field 'point' has 3 items, but the schema allows only the first 2 (additionalItems is false)",
					"Remove the last 1 item from 'point'", "schema.additionalItems"),
			},
		},
		{
			name:   "not",
			schema: `{"properties": {"id": {"not": {"type": "string"}}}}`,
			output: `{"id": "x"}`,
			want: []result.Issue{
				issue(violation, "id", "Field 'id' matches the schema under 'not' (string), which it must not match",
					"Change 'id' so that it no longer matches the schema under 'not' (string)", "schema.not"),
			},
		},
		{
			name:   "false schemas",
			schema: `{"properties": {"legacy": false}, "items": false}`,
			output: `{"legacy": 1}`,
			want: []result.Issue{
				issue(violation, "legacy", "Field 'legacy' is not allowed: its schema is false", "Remove 'legacy' from the output", "schema.properties"),
			},
		},
		{
			name:   "false expected schema",
			schema: `false`,
			output: `{}`,
			want: []result.Issue{
				issue(violation, "root", "The output is not allowed: the expected schema is false, which accepts no value at all",
					"Check the expected schema: a schema of false rejects every output", "schema.false"),
			},
		},
		{
			name:   "unevaluatedProperties",
			schema: `{"$schema": "https://json-schema.org/draft/2020-12/schema", "allOf": [{"properties": {"a": true}}], "unevaluatedProperties": false}`,
			output: `{"a": 1, "b": 2}`,
			want: []result.Issue{
				issue(violation, "b", "Field 'b' is not allowed: no keyword of the schema covers it and unevaluatedProperties is false",
					"Remove 'b' from the output", "schema.unevaluatedProperties"),
			},
		},
		{
			name:   "anyOf failing by type is one invalid_type",
			schema: `{"properties": {"id": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}`,
			output: `{"id": true}`,
			want: []result.Issue{
				issue(typ, "id", "Field 'id' has type boolean, expected string or integer", "Change 'id' to a string or integer value", "schema.anyOf"),
			},
		},
		{
			name: "oneOf with a discriminator reports the intended alternative",
			schema: `{"oneOf": [
				{"properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind", "r"]},
				{"properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]}]}`,
			output: `{"kind": "circle", "r": "big"}`,
			want: []result.Issue{
				issue(typ, "r", "Field 'r' has type string, expected number", "Change 'r' to a number value", "schema.type"),
			},
		},
		{
			name:   "anyOf with one alternative of the right type reports it",
			schema: `{"anyOf": [{"type": "string"}, {"type": "object", "required": ["a"]}]}`,
			output: `{}`,
			want: []result.Issue{
				issue(missing, "root", "Missing required field 'a' at root", "Add an 'a' field to the output", "schema.required"),
			},
		},
		{
			name: "oneOf with no fitting alternative describes them",
			schema: `{"properties": {"pet": {"oneOf": [{"$ref": "#/$defs/Cat"}, {"title": "Dog", "type": "object", "required": ["bark"]}]}},
				"$defs": {"Cat": {"type": "object", "required": ["meow"]}}, "$schema": "https://json-schema.org/draft/2020-12/schema"}`,
			output: `{"pet": {"moo": true}}`,
			want: []result.Issue{
				issue(violation, "pet", `Field 'pet' matches none of the 2 alternatives of oneOf: #1 "Cat" (object): it is missing required field 'meow'; #2 "Dog" (object): it is missing required field 'bark'`,
					`Change 'pet' so that it matches exactly one of the alternatives: #1 "Cat" (object), #2 "Dog" (object)`, "schema.oneOf"),
			},
		},
		{
			name:   "oneOf matching twice",
			schema: `{"oneOf": [{"type": "integer"}, {"minimum": 2}]}`,
			output: `3`,
			want: []result.Issue{
				issue(violation, "root", "The output matches more than one alternative of oneOf (#1 integer and #2), but must match exactly one",
					"Change the output so that it matches exactly one of the alternatives, not both #1 integer and #2", "schema.oneOf"),
			},
		},
		{
			name:   "allOf reports each failure where it happens",
			schema: `{"allOf": [{"required": ["a"]}, {"properties": {"b": {"type": "string"}}}]}`,
			output: `{"b": 1}`,
			want: []result.Issue{
				issue(typ, "b", "Field 'b' has type number, expected string", "Change 'b' to a string value", "schema.type"),
				issue(missing, "root", "Missing required field 'a' at root", "Add an 'a' field to the output", "schema.required"),
			},
		},
		{
			name:   "string output",
			schema: `{"type": "object"}`,
			output: `"plain text"`,
			want: []result.Issue{
				issue(typ, "root", "The output has type string, expected object", "Change the output to an object value", "schema.type"),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := check(t, input(t, tt.schema, tt.output), layer.NewCache(0))
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			sameIssues(t, f.Issues, tt.want)
			if f.Checks != 1 || f.Confidence != 1 {
				t.Errorf("checks %d, confidence %v; want one check of certainty 1", f.Checks, f.Confidence)
			}
		})
	}
}

// TestDrafts checks that $schema selects the draft and that draft-07 is the
// default.
func TestDrafts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, schema, output string
		valid                bool
		inputErr             string // location of the expected InputError
	}{
		{name: "draft-04 boolean exclusiveMaximum rejects the bound",
			schema: `{"$schema": "http://json-schema.org/draft-04/schema#", "maximum": 5, "exclusiveMaximum": true}`, output: `5`},
		{name: "draft-04 boolean exclusiveMaximum accepts below",
			schema: `{"$schema": "http://json-schema.org/draft-04/schema#", "maximum": 5, "exclusiveMaximum": true}`, output: `4.9`, valid: true},
		{name: "draft-07 numeric exclusiveMaximum",
			schema: `{"$schema": "http://json-schema.org/draft-07/schema#", "exclusiveMaximum": 5}`, output: `5`},
		{name: "draft-07 rejects a boolean exclusiveMaximum",
			schema: `{"$schema": "http://json-schema.org/draft-07/schema#", "maximum": 5, "exclusiveMaximum": true}`, output: `5`,
			inputErr: "expected_schema/exclusiveMaximum"},
		{name: "no $schema is draft-07",
			schema: `{"maximum": 5, "exclusiveMaximum": true}`, output: `5`, inputErr: "expected_schema/exclusiveMaximum"},
		{name: "draft-04 id",
			schema: `{"$schema": "http://json-schema.org/draft-04/schema#", "id": "http://example.com/root.json", "definitions": {"a": {"type": "integer"}}, "$ref": "#/definitions/a"}`,
			output: `1`, valid: true},
		{name: "draft-06 has no if",
			schema: `{"$schema": "http://json-schema.org/draft-06/schema#", "if": true, "then": false}`, output: `1`, valid: true},
		{name: "draft-07 has if",
			schema: `{"if": true, "then": false}`, output: `1`},
		{name: "draft-07 ignores dependentRequired",
			schema: `{"dependentRequired": {"a": ["b"]}}`, output: `{"a": 1}`, valid: true},
		{name: "2019-09 has dependentRequired",
			schema: `{"$schema": "https://json-schema.org/draft/2019-09/schema", "dependentRequired": {"a": ["b"]}}`, output: `{"a": 1}`},
		{name: "2020-12 prefixItems",
			schema: `{"$schema": "https://json-schema.org/draft/2020-12/schema", "prefixItems": [{"type": "string"}]}`, output: `[1]`},
		{name: "draft-07 ignores prefixItems",
			schema: `{"prefixItems": [{"type": "string"}]}`, output: `[1]`, valid: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := check(t, input(t, tt.schema, tt.output), layer.NewCache(0))
			if tt.inputErr != "" {
				var ie *layer.InputError
				if !errors.As(err, &ie) || ie.Location != tt.inputErr {
					t.Fatalf("err = %v, want an InputError at %s", err, tt.inputErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if valid := len(f.Issues) == 0; valid != tt.valid {
				t.Errorf("valid = %v, want %v; issues %+v", valid, tt.valid, f.Issues)
			}
		})
	}
}

// TestFormat checks that format is asserted as each draft prescribes, and
// for every draft with AssertFormat.
func TestFormat(t *testing.T) {
	t.Parallel()
	const (
		d7    = `{"format": "email"}`
		d2019 = `{"$schema": "https://json-schema.org/draft/2019-09/schema", "format": "email"}`
		d2020 = `{"$schema": "https://json-schema.org/draft/2020-12/schema", "format": "email"}`
	)
	tests := []struct {
		name   string
		schema string
		assert bool
		valid  bool
	}{
		{"draft-07 asserts", d7, false, false},
		{"2019-09 annotates", d2019, false, true},
		{"2020-12 annotates", d2020, false, true},
		{"draft-07 with assert_format", d7, true, false},
		{"2019-09 with assert_format", d2019, true, false},
		{"2020-12 with assert_format", d2020, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := input(t, tt.schema, `"not an address"`)
			in.Options.AssertFormat = tt.assert
			f, err := check(t, in, layer.NewCache(0))
			if err != nil {
				t.Fatal(err)
			}
			if valid := len(f.Issues) == 0; valid != tt.valid {
				t.Errorf("valid = %v, want %v; issues %+v", valid, tt.valid, f.Issues)
			}
		})
	}
}

// TestLocalRefs checks $ref across documents given in Input.Schemas.
func TestLocalRefs(t *testing.T) {
	t.Parallel()
	locals := func(t *testing.T, m map[string]string) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			out[k] = decode(t, v)
		}
		return out
	}
	tests := []struct {
		name   string
		schema string
		locals map[string]string
		output string
		want   []result.Issue
	}{
		{
			name:   "relative key, relative ref",
			schema: `{"properties": {"id": {"$ref": "common.json#/definitions/id"}}}`,
			locals: map[string]string{"common.json": `{"definitions": {"id": {"type": "string", "pattern": "^[a-z]+$"}}}`,
				"unused.json": `{"minimum": "a local schema nothing refers to is never read"}`},
			output: `{"id": "A1"}`,
			want: []result.Issue{issue(result.ConstraintViolation, "id", `Field 'id' is "A1", which does not match the pattern ^[a-z]+$`,
				"Change 'id' so that it matches the pattern ^[a-z]+$", "schema.pattern")},
		},
		{
			name:   "absolute keys against the expected schema's $id",
			schema: `{"$id": "https://example.com/schemas/order.json", "properties": {"customer": {"$ref": "person.json"}}}`,
			locals: map[string]string{"https://example.com/schemas/person.json": `{"type": "object", "required": ["name"], "properties": {"address": {"$ref": "address.json"}}}`,
				"https://example.com/schemas/address.json": `{"required": ["city"]}`},
			output: `{"customer": {"address": {}}}`,
			want: []result.Issue{
				issue(result.MissingField, "customer", "Missing required field 'name' in customer", "Add a 'name' field to customer", "schema.required"),
				issue(result.MissingField, "customer.address", "Missing required field 'city' in customer.address", "Add a 'city' field to customer.address", "schema.required"),
			},
		},
		{
			name:   "a local schema is found by its $id",
			schema: `{"$ref": "urn:example:money"}`,
			locals: map[string]string{"money.json": `{"$id": "urn:example:money", "type": "number"}`},
			output: `"12 EUR"`,
			want:   []result.Issue{issue(result.InvalidType, "root", "The output has type string, expected number", "Change the output to a number value", "schema.type")},
		},
		{
			name:   "a local schema without $schema is read in the expected schema's draft",
			schema: `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "pair.json"}`,
			locals: map[string]string{"pair.json": `{"prefixItems": [{"type": "string"}]}`},
			output: `[1]`,
			want:   []result.Issue{issue(result.InvalidType, "[0]", "Item [0] has type number, expected string", "Change [0] to a string value", "schema.type")},
		},
		{
			name:   "a local schema keeps its own $schema",
			schema: `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "pair.json"}`,
			locals: map[string]string{"pair.json": `{"$schema": "http://json-schema.org/draft-07/schema#", "prefixItems": [{"type": "string"}]}`},
			output: `[1]`,
		},
		{
			name:   "an expected schema with the $id of a meta-schema",
			schema: `{"$id": "http://json-schema.org/draft-07/schema#", "properties": {"minimum": {"$ref": "#/definitions/n"}}, "definitions": {"n": {"type": "number"}}}`,
			output: `{"minimum": "0"}`,
			want:   []result.Issue{issue(result.InvalidType, "minimum", "Field 'minimum' has type string, expected number", "Change 'minimum' to a number value", "schema.type")},
		},
		{
			name:   "the drafts' meta-schemas are built in",
			schema: `{"$ref": "http://json-schema.org/draft-07/schema#"}`,
			output: `{"type": 5}`,
			want: []result.Issue{issue(result.SchemaViolation, "type",
				"Field 'type' matches none of the 2 alternatives of anyOf: #1 \"simpleTypes\": it is 5, not one of the allowed values; #2 array: it has type number, expected array",
				"Change 'type' so that it matches at least one of the alternatives: #1 \"simpleTypes\", #2 array",
				"schema.anyOf")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := input(t, tt.schema, tt.output)
			in.Schemas = locals(t, tt.locals)
			f, err := check(t, in, layer.NewCache(0))
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			sameIssues(t, f.Issues, tt.want)
		})
	}
}

// TestNeverFetches checks that a $ref outside the local schemas is refused
// with a message naming it, and that nothing is requested.
func TestNeverFetches(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, `{"type": "string"}`)
	}))
	defer srv.Close()
	const suffix = ` is not among the local schemas; judge never fetches schemas (give it in "schemas" or in the directory of schemas judge reads)`
	tests := []struct {
		name, schema, loc, msg string
		locals                 map[string]any
	}{
		{name: "http", schema: `{"properties": {"a": {"$ref": "http://example.com/x.json"}}}`,
			loc: "expected_schema/properties/a/$ref", msg: `$ref "http://example.com/x.json"` + suffix},
		{name: "live server", schema: `{"$ref": "` + srv.URL + `/s.json#/definitions/a"}`,
			loc: "expected_schema/$ref", msg: `$ref "` + srv.URL + `/s.json"` + suffix},
		{name: "file", schema: `{"$ref": "file:///etc/passwd"}`,
			loc: "expected_schema/$ref", msg: `$ref "file:///etc/passwd"` + suffix},
		{name: "relative", schema: `{"items": {"$ref": "../common.json"}}`,
			loc: "expected_schema/items/$ref", msg: `$ref "../common.json"` + suffix},
		{name: "custom meta-schema", schema: `{"$schema": "https://example.com/meta.json"}`,
			loc: "expected_schema/$schema", msg: `$schema "https://example.com/meta.json"` + suffix},
		{name: "from a local schema", schema: `{"$ref": "a.json"}`, locals: map[string]any{"a.json": map[string]any{"$ref": "https://example.com/b.json"}},
			loc: `schemas["a.json"]/$ref`, msg: `$ref "https://example.com/b.json"` + suffix},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := input(t, tt.schema, `"x"`)
			in.Schemas = tt.locals
			_, err := check(t, in, layer.NewCache(0))
			var ie *layer.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v, want an InputError", err)
			}
			if ie.Layer != "schema" || ie.Location != tt.loc || ie.Msg != tt.msg {
				t.Errorf("got %s: %s\nwant %s: %s", ie.Location, ie.Msg, tt.loc, tt.msg)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the server was asked %d times", n)
	}
}

// TestInvalidSchema checks that a broken schema is an InputError located in
// the request, never an issue.
func TestInvalidSchema(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, schema, output string
		locals               map[string]string
		loc, msg             string
	}{
		{name: "fails its meta-schema", schema: `{"properties": {"age": {"minimum": "0"}}}`,
			loc: "expected_schema/properties/age/minimum", msg: "not a valid draft-07 schema: 'minimum' has type string, expected number"},
		{name: "fails the 2020-12 meta-schema", schema: `{"$schema": "https://json-schema.org/draft/2020-12/schema", "items": [{}]}`,
			loc: "expected_schema/items", msg: "not a valid 2020-12 schema: 'items' has type array, expected boolean or object"},
		{name: "invalid regex", schema: `{"properties": {"id": {"pattern": "(["}}}`,
			loc: "expected_schema/properties/id/pattern", msg: "not a valid draft-07 schema: 'pattern' is \"([\", not a valid regex (error parsing regexp: missing closing ]: `[`)"},
		{name: "lookbehind, valid draft-07 that RE2 cannot run", schema: `{"pattern": "(?<=a)b"}`,
			loc: "expected_schema/pattern", msg: `pattern "(?<=a)b" uses a lookbehind, which judge's regular-expression engine (RE2) does not support`},
		{name: "lookahead", schema: `{"properties": {"password": {"pattern": "^(?=.*[0-9])[a-z0-9]{8,}$"}}}`,
			loc: "expected_schema/properties/password/pattern", msg: `pattern "^(?=.*[0-9])[a-z0-9]{8,}$" uses a lookahead, which judge's regular-expression engine (RE2) does not support`},
		{name: "negative lookahead in a 2020-12 patternProperties key", schema: `{"$schema": "https://json-schema.org/draft/2020-12/schema", "patternProperties": {"^(?!x-)": {"type": "string"}}}`,
			loc: "expected_schema/patternProperties/^(?!x-)", msg: `pattern "^(?!x-)" uses a negative lookahead, which judge's regular-expression engine (RE2) does not support`},
		{name: "backreference", schema: `{"items": {"pattern": "^(a+)-\\1$"}}`,
			loc: "expected_schema/items/pattern", msg: `pattern "^(a+)-\\1$" uses a backreference, which judge's regular-expression engine (RE2) does not support`},
		{name: "repetition beyond RE2", schema: `{"pattern": "^a{1001}$"}`,
			loc: "expected_schema/pattern", msg: `pattern "^a{1001}$" uses a repetition count above 1000 (nested counts multiply), which judge's regular-expression engine (RE2) does not support`},
		{name: "two patterns beyond RE2", schema: `{"properties": {"a": {"pattern": "(?=a)"}, "b": {"pattern": "(?=b)"}}}`,
			loc: "expected_schema/properties/a/pattern", msg: `pattern "(?=a)" uses a lookahead, which judge's regular-expression engine (RE2) does not support (and 1 more such patterns)`},
		{name: "a pattern beyond RE2 beside a real error", schema: `{"pattern": "(?=a)", "minimum": "0"}`,
			loc: "expected_schema/minimum", msg: "not a valid draft-07 schema: 'minimum' has type string, expected number (and 1 more problems)"},
		{name: "pointer to nothing", schema: `{"properties": {"a": {"$ref": "#/definitions/missing"}}}`,
			loc: "expected_schema/properties/a/$ref", msg: `$ref "#/definitions/missing" points to nothing: no value exists at that JSON Pointer`},
		{name: "unknown anchor", schema: `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "#nope"}`,
			loc: "expected_schema/$ref", msg: `$ref "#nope" names an anchor that the schema does not define`},
		{name: "self reference", schema: `{"$ref": "#"}`,
			loc: "expected_schema", msg: "$ref cycle: expected_schema → expected_schema; the reference leads back to itself without checking anything, so validation would never end"},
		{name: "cycle under not", schema: `{"not": {"$ref": "#/definitions/a"}, "definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"}}}`,
			loc: "expected_schema/definitions/a", msg: "$ref cycle: expected_schema/definitions/a → expected_schema/definitions/b → expected_schema/definitions/a; the reference leads back to itself without checking anything, so validation would never end"},
		{name: "cycle found while validating", schema: `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "$ref": "#"}`, output: `{}`,
			loc: "expected_schema", msg: `$ref cycle: following "/$ref" comes back to expected_schema for the same value, so validation would never end`},
		{name: "invalid local schema", schema: `{"$ref": "common.json#/$defs/id"}`, locals: map[string]string{"common.json": `{"$defs": {"id": {"type": "text"}}}`},
			loc: `schemas["common.json"]/$defs/id/type`, msg: `not a valid draft-07 schema: 'type' matches none of the 2 alternatives of anyOf: #1: it is "text", not one of the allowed values; #2: it has type string, expected array`},
		{name: "unknown draft", schema: `{"$schema": "https://json-schema.org/draft/2030-01/schema"}`,
			loc: "expected_schema/$schema", msg: `$schema "https://json-schema.org/draft/2030-01/schema" is not among the local schemas; judge never fetches schemas (give it in "schemas" or in the directory of schemas judge reads)`},
		{name: "too deep", schema: `{"$ref": "deep.json"}`, locals: map[string]string{"deep.json": strings.Repeat(`[`, 300) + strings.Repeat(`]`, 300)},
			loc: `schemas["deep.json"]`, msg: "the schema nests arrays and objects more than 256 levels deep"},
		{name: "duplicate anchor", schema: `{"$defs": {"a": {"$anchor": "x"}, "b": {"$anchor": "x"}}, "$schema": "https://json-schema.org/draft/2020-12/schema"}`,
			loc: "expected_schema/$defs/b", msg: `anchor "x" is defined twice: also at expected_schema/$defs/a`},
		{name: "duplicate $id", schema: `{"$defs": {"a": {"$id": "http://x.com/a"}, "b": {"$id": "http://x.com/a"}}, "$schema": "https://json-schema.org/draft/2020-12/schema"}`,
			loc: "expected_schema/$defs/b", msg: `$id "http://x.com/a" is used twice: also at expected_schema/$defs/a`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := input(t, tt.schema, cmpOr(tt.output, `"x"`))
			if tt.locals != nil {
				in.Schemas = map[string]any{}
				for k, v := range tt.locals {
					in.Schemas[k] = decode(t, v)
				}
			}
			f, err := check(t, in, layer.NewCache(0))
			var ie *layer.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v (issues %+v), want an InputError", err, f.Issues)
			}
			if ie.Layer != "schema" || ie.Location != tt.loc || ie.Msg != tt.msg {
				t.Errorf("got  %s: %s\nwant %s: %s", ie.Location, ie.Msg, tt.loc, tt.msg)
			}
			if len(f.Issues) != 0 || f.Checks != 0 {
				t.Errorf("an invalid schema reported %d issues and %d checks", len(f.Issues), f.Checks)
			}
		})
	}
}

// TestNotJSON checks Go values that JSON cannot hold, given through the Go
// API.
func TestNotJSON(t *testing.T) {
	t.Parallel()
	_, err := check(t, &layer.Input{ExpectedSchema: map[string]any{"maximum": math.NaN()}, Output: 1}, layer.NewCache(0))
	var ie *layer.InputError
	if !errors.As(err, &ie) || ie.Location != "expected_schema" || !strings.HasPrefix(ie.Msg, "the schema is not plain JSON: ") {
		t.Errorf("NaN in the schema: err = %v", err)
	}
	_, err = check(t, &layer.Input{ExpectedSchema: decode(t, `{"properties": {"a": {"items": {"type": "number"}}}}`), Output: map[string]any{"a": []any{math.Inf(1)}}}, layer.NewCache(0))
	if !errors.As(err, &ie) || ie.Location != "output/a/0" || ie.Msg != "the output holds a Go float64, which is not a JSON value" {
		t.Errorf("Inf in the output: err = %v", err)
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestCache checks that a schema is compiled once per content, and that a
// failure is cached too.
func TestCache(t *testing.T) {
	t.Parallel()
	cache := layer.NewCache(0)
	run := func(sch, out string, assert bool) error {
		in := input(t, sch, out)
		in.Options.AssertFormat = assert
		in.Schemas = map[string]any{"b.json": decode(t, `{"type": "string"}`), "a.json": decode(t, `{"type": "integer"}`)}
		_, err := check(t, in, cache)
		return err
	}
	stats := func(wantEntries, wantHits int) {
		t.Helper()
		if e, h := cache.Stats(); e != wantEntries || h != wantHits {
			t.Fatalf("cache has %d entries and %d hits, want %d and %d", e, h, wantEntries, wantHits)
		}
	}
	if err := run(`{"type": "object", "required": ["a"]}`, `{}`, false); err != nil {
		t.Fatal(err)
	}
	stats(1, 0)
	// The same content, written in another key order and decoded anew.
	if err := run(`{"required": ["a"], "type": "object"}`, `{"a": 1}`, false); err != nil {
		t.Fatal(err)
	}
	stats(1, 1)
	if err := run(`{"type": "object", "required": ["a"]}`, `{}`, true); err != nil {
		t.Fatal(err)
	}
	stats(2, 1)
	err1 := run(`{"minimum": "x"}`, `1`, false)
	err2 := run(`{"minimum": "x"}`, `1`, false)
	stats(3, 2)
	if err1 == nil || err1 != err2 {
		t.Fatalf("a failed compilation is not cached: %v, %v", err1, err2)
	}
}

// TestConcurrent runs one cache from many goroutines (run with -race).
func TestConcurrent(t *testing.T) {
	t.Parallel()
	cache := layer.NewCache(0)
	sch := decode(t, `{"type": "object", "properties": {"n": {"type": "integer", "maximum": 10}}, "required": ["n"]}`)
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Go(func() {
			out := decode(t, fmt.Sprintf(`{"n": %d}`, i))
			f, err := check(t, &layer.Input{ExpectedSchema: sch, Output: out}, cache)
			if err != nil {
				t.Error(err)
				return
			}
			if got, want := len(f.Issues), map[bool]int{true: 1, false: 0}[i > 10]; got != want {
				t.Errorf("n=%d: %d issues, want %d", i, got, want)
			}
		})
	}
	wg.Wait()
	if e, h := cache.Stats(); e != 1 || h != 31 {
		t.Errorf("cache has %d entries and %d hits, want 1 and 31", e, h)
	}
}

func TestContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := layer.NewPass(schema.Layer, input(t, `{"type": "string"}`, `1`), layer.NewCache(0))
	if err := schema.Layer.Run(ctx, p); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if f := p.Findings(); len(f.Issues) != 0 || f.Checks != 0 {
		t.Errorf("a cancelled run reported %+v", f)
	}
}

// TestHostile checks that hostile schemas end, quickly, in the issues or
// the InputError they call for, never in a panic or a hang.
func TestHostile(t *testing.T) {
	t.Parallel()
	nest := func(open, leaf, close string, n int) string {
		return strings.Repeat(open, n) + leaf + strings.Repeat(close, n)
	}
	deepValue := nest(`[`, `1`, `]`, 2000)
	var alts strings.Builder
	alts.WriteString(`{"$defs": {`)
	for i := range 12 {
		fmt.Fprintf(&alts, `"d%d": {"anyOf": [{"$ref": "#/$defs/d%d"}, {"$ref": "#/$defs/d%d"}]},`, i, i+1, i+1)
	}
	alts.WriteString(`"d12": {"type": "string"}}, "$ref": "#/$defs/d0", "$schema": "https://json-schema.org/draft/2020-12/schema"}`)
	const loops = "; the reference leads back to itself without checking anything, so validation would never end"
	tests := []struct {
		name, schema, output string
		// errLoc and errMsg are the location of the InputError expected
		// and a fragment of its message; else want are the issues
		// expected, as "location type rule".
		errLoc, errMsg string
		want           []string
	}{
		{name: "deep schema", schema: nest(`{"items": `, `{"type": "string"}`, `}`, schema.MaxSchemaDepth-1), output: deepValue,
			want: []string{strings.Repeat("[0]", schema.MaxSchemaDepth-1) + " invalid_type schema.type"}},
		{name: "too deep a schema", schema: nest(`{"items": `, `{"type": "string"}`, `}`, 5000), output: deepValue,
			errLoc: "expected_schema", errMsg: "the schema nests arrays and objects more than 256 levels deep"},
		{name: "too deep a local schema", schema: `{"$ref": "deep.json"}`, output: `1`,
			errLoc: `schemas["deep.json"]`, errMsg: "the schema nests arrays and objects more than 256 levels deep"},
		{name: "deep value", schema: `{"type": "array", "items": {"$ref": "#"}}`, output: deepValue,
			want: []string{strings.Repeat("[0]", 2000) + " invalid_type schema.type"}},
		{name: "huge pattern", schema: `{"pattern": "` + strings.Repeat("(a|b)", 20000) + `"}`, output: `"ab"`,
			want: []string{"root constraint_violation schema.pattern"}},
		{name: "huge repetition", schema: `{"pattern": "(a{1000}){1000}"}`, output: `"a"`,
			errLoc: "expected_schema/pattern", errMsg: `pattern "(a{1000}){1000}" uses a repetition count above 1000`},
		{name: "invalid regex", schema: `{"patternProperties": {"[": {}}}`, output: `{}`,
			errLoc: "expected_schema/patternProperties/[", errMsg: `not a valid draft-07 schema: '[' has a name the schema does not allow: the name is "[", not a valid regex`},
		{name: "self reference", schema: `{"$ref": "#"}`, output: `1`,
			errLoc: "expected_schema", errMsg: "$ref cycle: expected_schema → expected_schema" + loops},
		{name: "mutual references", schema: `{"definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"}}, "anyOf": [{"$ref": "#/definitions/a"}]}`, output: `1`,
			errLoc: "expected_schema/definitions/a", errMsg: "$ref cycle: expected_schema/definitions/a → expected_schema/definitions/b → expected_schema/definitions/a" + loops},
		{name: "reference cycle under if", schema: `{"if": {"$ref": "#"}, "then": true}`, output: `1`,
			errLoc: "expected_schema", errMsg: "$ref cycle: expected_schema → expected_schema/if → expected_schema" + loops},
		{name: "reference cycle under not", schema: `{"not": {"$ref": "#"}}`, output: `1`,
			errLoc: "expected_schema", errMsg: "$ref cycle: expected_schema → expected_schema/not → expected_schema" + loops},
		{name: "reference cycle through allOf", schema: `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"a": {"allOf": [{"$ref": "#"}]}}, "not": {"$ref": "#/$defs/a"}}`, output: `1`,
			errLoc: "expected_schema", errMsg: "$ref cycle: expected_schema → expected_schema/not → expected_schema/$defs/a → expected_schema/$defs/a/allOf/0 → expected_schema" + loops},
		{name: "doubling alternatives", schema: alts.String(), output: `1`,
			want: []string{"root schema_violation schema.anyOf"}},
		{name: "many errors", schema: `{"items": {"type": "string"}}`, output: "[" + strings.Repeat("1, ", 200_000) + "1]",
			want: append([]string{"root not_checked schema.truncated"}, manyLocations(schema.MaxIssues, "[%d] invalid_type schema.type")...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			done := make(chan struct{})
			go func() {
				defer close(done)
				in := input(t, tt.schema, tt.output)
				in.Schemas = map[string]any{"deep.json": decode(t, nest(`{"not": `, `{}`, `}`, 3000))}
				f, err := check(t, in, layer.NewCache(0))
				if tt.errLoc != "" {
					var ie *layer.InputError
					if !errors.As(err, &ie) || ie.Location != tt.errLoc || !strings.Contains(ie.Msg, tt.errMsg) {
						t.Errorf("err = %v\nwant an InputError at %s: …%s…", err, tt.errLoc, tt.errMsg)
					}
					return
				}
				if err != nil {
					t.Errorf("Run: %v", err)
					return
				}
				var got []string
				for _, is := range f.Issues {
					checkIssue(t, is)
					got = append(got, fmt.Sprintf("%s %s %s", is.Location, is.Type, is.Rule))
				}
				slices.Sort(got)
				want := slices.Sorted(slices.Values(tt.want))
				if !slices.Equal(got, want) {
					t.Errorf("got %d issues %.300q\nwant %d %.300q", len(got), got, len(want), want)
				}
			}()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("the layer did not finish in 20s")
			}
		})
	}
}

// manyLocations formats the first n locations of a list, one per index.
func manyLocations(n int, format string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf(format, i)
	}
	return out
}

// TestManyErrors checks that the layer composes at most MaxIssues errors,
// counts the rest in one note, and reports the same errors every time.
func TestManyErrors(t *testing.T) {
	t.Parallel()
	list := func(n int, format string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf(format, i)
		}
		return strings.Join(parts, ", ")
	}
	tests := []struct {
		name, schema, output string
		want                 []string // the errors reported, as "location rule"
		skipped              int
	}{
		{name: "items", schema: `{"items": {"type": "string"}}`, output: "[" + list(5000, "%d") + "]",
			want: manyLocations(schema.MaxIssues, "[%d] schema.type"), skipped: 5000 - schema.MaxIssues},
		{name: "properties, whose errors the validator lists in random order",
			schema: `{"additionalProperties": {"type": "string"}}`, output: "{" + list(1000, `"p%03d": 1`) + "}",
			want: manyLocations(schema.MaxIssues, "p%03d schema.type"), skipped: 1000 - schema.MaxIssues},
		{name: "additional properties, one keyword for them all",
			schema: `{"additionalProperties": false}`, output: "{" + list(1000, `"p%03d": 1`) + "}",
			want: manyLocations(schema.MaxIssues, "p%03d schema.additionalProperties"), skipped: 1000 - schema.MaxIssues},
		{name: "required, the budget ending inside a keyword and then spent",
			schema: `{"items": {"required": [` + list(600, `"r%03d"`) + `]}}`, output: `[{}, {}]`,
			want: slices.Repeat([]string{"[0] schema.required"}, schema.MaxIssues), skipped: 1200 - schema.MaxIssues},
		{name: "alternatives with one left, whose issues are reported",
			schema: `{"items": {"anyOf": [{"type": "string"}, {"required": ["a"]}]}}`, output: "[" + list(1000, `{"b%d": 1}`) + "]",
			want: manyLocations(schema.MaxIssues, "[%d] schema.required"), skipped: 1000 - schema.MaxIssues},
		{name: "alternatives judged as a whole",
			schema: `{"items": {"anyOf": [{"type": "string"}, {"type": "boolean"}]}}`, output: "[" + list(1000, `%d`) + "]",
			want: manyLocations(schema.MaxIssues, "[%d] schema.anyOf"), skipped: 1000 - schema.MaxIssues},
		{name: "an alternative with many errors",
			schema: `{"anyOf": [{"type": "string"}, {"items": {"type": "string"}}]}`, output: "[" + list(1000, `%d`) + "]",
			want: manyLocations(schema.MaxIssues, "[%d] schema.type"), skipped: 1000 - schema.MaxIssues},
		{name: "just within the budget",
			schema: `{"items": {"type": "string"}}`, output: "[" + list(schema.MaxIssues, "%d") + "]",
			want: manyLocations(schema.MaxIssues, "[%d] schema.type")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var first []result.Issue
			for run := range 3 {
				f, err := check(t, input(t, tt.schema, tt.output), layer.NewCache(0))
				if err != nil {
					t.Fatal(err)
				}
				if f.Checks != 1 {
					t.Errorf("%d checks, want 1", f.Checks)
				}
				if run > 0 {
					if !slices.Equal(f.Issues, first) {
						t.Fatalf("run %d reported other issues than run 0", run)
					}
					continue
				}
				first = f.Issues
				var got []string
				var notes []result.Issue
				for _, is := range f.Issues {
					checkIssue(t, is)
					if is.Rule == "schema.truncated" {
						notes = append(notes, is)
						continue
					}
					got = append(got, is.Location+" "+is.Rule)
				}
				slices.Sort(got)
				want := slices.Sorted(slices.Values(tt.want))
				if !slices.Equal(got, want) {
					t.Errorf("got %d errors %.200q…\nwant %d %.200q…", len(got), got, len(want), want)
				}
				switch {
				case tt.skipped == 0 && len(notes) != 0:
					t.Errorf("unexpected note %+v", notes)
				case tt.skipped > 0 && len(notes) != 1:
					t.Errorf("got notes %+v, want one", notes)
				case tt.skipped > 0:
					want := fmt.Sprintf("%d more schema errors were not reported: only the first %d are listed", tt.skipped, schema.MaxIssues)
					if notes[0].Message != want {
						t.Errorf("note %q, want %q", notes[0].Message, want)
					}
				}
			}
		})
	}
}

// TestManyErrorsResult checks that the issues and the note fit in a built
// result, which stays invalid.
func TestManyErrorsResult(t *testing.T) {
	t.Parallel()
	out := "[" + strings.Repeat("1, ", 9999) + "1]"
	f, err := check(t, input(t, `{"items": {"type": "string"}}`, out), layer.NewCache(0))
	if err != nil {
		t.Fatal(err)
	}
	res := result.NewBuilder().Add(f.Issues...).Build()
	if res.Valid || res.Metadata.ErrorCount != schema.MaxIssues || res.Metadata.InfoCount != 1 || len(res.Issues) > result.DefaultMaxIssues {
		t.Fatalf("valid %v, %d errors, %d info, %d issues; want invalid, %d errors and the note",
			res.Valid, res.Metadata.ErrorCount, res.Metadata.InfoCount, len(res.Issues), schema.MaxIssues)
	}
	if i := slices.IndexFunc(res.Issues, func(is result.Issue) bool { return is.Rule == "schema.truncated" }); i < 0 {
		t.Errorf("the note counting the errors not reported is not in the result")
	} else if want := "9501 more schema errors were not reported: only the first 499 are listed"; res.Issues[i].Message != want {
		t.Errorf("note %q, want %q", res.Issues[i].Message, want)
	}
}

func TestLayer(t *testing.T) {
	t.Parallel()
	if err := schema.Layer.Validate(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(schema.Layer.Doc, "schema: validate the output against the expected JSON Schema\n") {
		t.Errorf("Doc does not start with its summary line: %q", schema.Layer.Doc)
	}
	if schema.Layer.Applies(&layer.Input{Output: "x"}) {
		t.Error("applies without an expected schema")
	}
	if !schema.Layer.Applies(&layer.Input{ExpectedSchema: false}) {
		t.Error("does not apply to the schema false")
	}
}
