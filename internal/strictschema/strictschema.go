// Package strictschema rewrites a JSON Schema into the subset that
// OpenAI's strict structured outputs accept, and builds the response_format
// object of a chat completion request around it.
//
// # The strict subset
//
// In strict mode every object lists all its properties in "required" and
// sets "additionalProperties" to false; a property that may be left out is
// written as a union with null instead. The root is an object. Some
// keywords have no strict equivalent (minLength, allOf, not, if/then/else,
// uniqueItems, patternProperties, ...): [Strict] drops them and lists each
// as a [Loss], so that the caller can say what the provider will no longer
// enforce rather than hide it. Keywords it does not know are kept.
//
// The same builder serves the LLM backend (internal/llm), the CLI commands
// judge schema strict and judge schema response-format, and later the
// tool-call contracts, so that there is one definition of the subset.
package strictschema

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// MaxDepth bounds how deeply schemas nest inside a schema [Strict] rewrites.
const MaxDepth = 64

// MaxObjectNesting is how many levels of objects strict mode allows; deeper
// nesting is listed as a [Loss] (the provider refuses the schema).
const MaxObjectNesting = 10

// Loss is one thing of the input schema that the strict schema does not
// express.
type Loss struct {
	// Pointer locates the schema that lost it, as a JSON Pointer into the
	// input ("" is the root, "/properties/tags").
	Pointer string `json:"pointer"`
	// Keyword is the keyword that was dropped or changed.
	Keyword string `json:"keyword"`
	// Reason says what is no longer enforced.
	Reason string `json:"reason"`
}

// String renders l as "POINTER: KEYWORD: REASON", the root as "#".
func (l Loss) String() string {
	return "#" + l.Pointer + ": " + l.Keyword + ": " + l.Reason
}

// SchemaError is a schema that cannot be made strict at all: it is not an
// object schema, or it nests too deeply.
type SchemaError struct {
	Pointer string // where, as a JSON Pointer into the input
	Msg     string
}

func (e *SchemaError) Error() string { return "strict schema: #" + e.Pointer + ": " + e.Msg }

// unsupported are keywords strict mode rejects, with what dropping each
// stops enforcing.
var unsupported = map[string]string{
	"minLength":             "the minimum string length is not enforced",
	"maxLength":             "the maximum string length is not enforced",
	"patternProperties":     "properties matching a pattern are not allowed",
	"unevaluatedProperties": "unevaluated properties are not allowed",
	"propertyNames":         "property names are not checked",
	"minProperties":         "the minimum number of properties is not enforced",
	"maxProperties":         "the maximum number of properties is not enforced",
	"unevaluatedItems":      "unevaluated items are not checked",
	"contains":              "no item is required to match",
	"minContains":           "no item is required to match",
	"maxContains":           "no item is required to match",
	"uniqueItems":           "items may repeat",
	"prefixItems":           "items are not checked by position",
	"additionalItems":       "items are not checked by position",
	"allOf":                 "the subschemas of allOf are not enforced",
	"not":                   "the negated schema is not enforced",
	"if":                    "the conditional schema is not enforced",
	"then":                  "the conditional schema is not enforced",
	"else":                  "the conditional schema is not enforced",
	"dependentRequired":     "dependent required properties are not enforced",
	"dependentSchemas":      "dependent schemas are not enforced",
	"dependencies":          "dependencies are not enforced",
	"$dynamicRef":           "the dynamic reference is not followed",
	"$dynamicAnchor":        "the dynamic anchor is not available",
	"contentEncoding":       "the content encoding is not checked",
	"contentMediaType":      "the content media type is not checked",
	"contentSchema":         "the content schema is not checked",
}

// formats are the string formats strict mode accepts.
var formats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

// Strict returns a strict copy of schema (decoded JSON: map[string]any for
// objects) and what it could not express, in the order found. The input is
// not modified. It returns a *SchemaError when the root is not an object
// schema or the schema nests deeper than [MaxDepth].
func Strict(schema any) (any, []Loss, error) {
	root, ok := schema.(map[string]any)
	if !ok {
		return nil, nil, &SchemaError{Msg: fmt.Sprintf("the schema is %s, not a JSON object", kind(schema))}
	}
	if t, typed := root["type"]; (typed && t != "object") || !isObject(root) {
		return nil, nil, &SchemaError{Msg: `the root of a strict schema must be an object schema ("type": "object")`}
	}
	w := &walker{}
	out, err := w.schema(root, "", 0, 0)
	if err != nil {
		return nil, nil, err
	}
	return out, w.losses, nil
}

type walker struct {
	losses []Loss
}

func (w *walker) lose(ptr, keyword, reason string) {
	w.losses = append(w.losses, Loss{Pointer: ptr, Keyword: keyword, Reason: reason})
}

// schema rewrites the schema s at ptr; depth counts schemas, objects counts
// object levels.
func (w *walker) schema(s any, ptr string, depth, objects int) (any, error) {
	if depth > MaxDepth {
		return nil, &SchemaError{Pointer: ptr, Msg: fmt.Sprintf("the schema nests more than %d levels deep", MaxDepth)}
	}
	m, ok := s.(map[string]any)
	if !ok {
		if b, isBool := s.(bool); isBool {
			// true and false have no strict form: true becomes {} (any
			// value is not expressible either, but the provider accepts
			// an empty schema), false cannot be expressed.
			if !b {
				w.lose(ptr, "false", "the schema that allows nothing is replaced by one that allows anything")
			}
			return map[string]any{}, nil
		}
		return nil, &SchemaError{Pointer: ptr, Msg: fmt.Sprintf("a schema is a JSON object or boolean, not %s", kind(s))}
	}
	out := make(map[string]any, len(m)+2)
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		if reason, bad := unsupported[k]; bad {
			w.lose(ptr, k, reason)
			continue
		}
		switch k {
		case "format":
			if f, ok := v.(string); ok && !slices.Contains(formats, f) {
				w.lose(ptr, k, fmt.Sprintf("the format %q is not checked", f))
				continue
			}
			out[k] = v
		case "oneOf":
			w.lose(ptr, k, "oneOf became anyOf: a value matching more than one subschema is allowed")
			subs, err := w.list(v, ptr+"/oneOf", depth, objects)
			if err != nil {
				return nil, err
			}
			out["anyOf"] = subs
		case "anyOf":
			subs, err := w.list(v, ptr+"/anyOf", depth, objects)
			if err != nil {
				return nil, err
			}
			out[k] = subs
		case "items":
			if _, isList := v.([]any); isList {
				w.lose(ptr, k, "items are not checked by position")
				continue
			}
			sub, err := w.schema(v, ptr+"/items", depth+1, objects)
			if err != nil {
				return nil, err
			}
			out[k] = sub
		case "$defs", "definitions":
			defs, ok := v.(map[string]any)
			if !ok {
				return nil, &SchemaError{Pointer: ptr + "/" + k, Msg: k + " is not an object"}
			}
			nd := make(map[string]any, len(defs))
			for _, name := range slices.Sorted(maps.Keys(defs)) {
				sub, err := w.schema(defs[name], ptr+"/"+k+"/"+escape(name), depth+1, 0)
				if err != nil {
					return nil, err
				}
				nd[name] = sub
			}
			out[k] = nd
		case "properties", "required", "additionalProperties":
			// Rewritten below, together.
		default:
			out[k] = v
		}
	}
	if isObject(m) {
		if objects+1 > MaxObjectNesting {
			w.lose(ptr, "properties", fmt.Sprintf("objects nest more than %d levels deep, which strict mode refuses", MaxObjectNesting))
		}
		if err := w.object(m, out, ptr, depth, objects+1); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// object rewrites the properties of the object schema m into out: every
// property required, the optional ones nullable, no others allowed.
func (w *walker) object(m, out map[string]any, ptr string, depth, objects int) error {
	props := map[string]any{}
	if p, ok := m["properties"]; ok {
		if props, ok = p.(map[string]any); !ok {
			return &SchemaError{Pointer: ptr + "/properties", Msg: "properties is not an object"}
		}
	}
	required := map[string]bool{}
	if r, ok := m["required"].([]any); ok {
		for _, n := range r {
			if s, ok := n.(string); ok {
				required[s] = true
			}
		}
	}
	if ap, set := m["additionalProperties"]; !set || ap != false {
		w.lose(ptr, "additionalProperties", "properties not listed are no longer allowed")
	}
	names := slices.Sorted(maps.Keys(props))
	np := make(map[string]any, len(props))
	req := make([]any, 0, len(names))
	for _, name := range names {
		sub, err := w.schema(props[name], ptr+"/properties/"+escape(name), depth+1, objects)
		if err != nil {
			return err
		}
		if !required[name] {
			sub = nullable(sub)
		}
		np[name] = sub
		req = append(req, name)
	}
	out["type"] = withType(out["type"], "object")
	out["properties"] = np
	out["required"] = req
	out["additionalProperties"] = false
	return nil
}

// list rewrites a list of schemas.
func (w *walker) list(v any, ptr string, depth, objects int) ([]any, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, &SchemaError{Pointer: ptr, Msg: "is not an array of schemas"}
	}
	out := make([]any, len(l))
	for i, s := range l {
		sub, err := w.schema(s, fmt.Sprintf("%s/%d", ptr, i), depth+1, objects)
		if err != nil {
			return nil, err
		}
		out[i] = sub
	}
	return out, nil
}

// nullable makes the schema s also accept null: by adding "null" to a
// plain type, else as anyOf [s, {"type": "null"}].
func nullable(s any) any {
	m, ok := s.(map[string]any)
	if !ok {
		return s
	}
	_, hasEnum := m["enum"]
	_, hasConst := m["const"]
	_, hasAny := m["anyOf"]
	_, hasRef := m["$ref"]
	if t, hasType := m["type"]; hasType && !hasEnum && !hasConst && !hasAny && !hasRef {
		c := maps.Clone(m)
		c["type"] = withType(t, "null")
		return c
	}
	if len(m) == 0 {
		return m
	}
	return map[string]any{"anyOf": []any{m, map[string]any{"type": "null"}}}
}

// withType adds name to the type value t (a string, a list or nil).
func withType(t any, name string) any {
	switch t := t.(type) {
	case string:
		if t == name {
			return t
		}
		return []any{t, name}
	case []any:
		if slices.Contains(t, any(name)) {
			return t
		}
		return append(slices.Clone(t), name)
	}
	return name
}

// isObject reports whether m describes objects.
func isObject(m map[string]any) bool {
	switch t := m["type"].(type) {
	case string:
		return t == "object"
	case []any:
		return slices.Contains(t, any("object"))
	}
	_, ok := m["properties"]
	return ok
}

func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "a number"
}

// namePattern is what OpenAI accepts as a response format's name.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ResponseFormat is the response_format object of a chat completion that
// asks for structured output: {type: json_schema, json_schema: {name,
// schema, strict: true}}.
type ResponseFormat struct {
	Type       string     `json:"type"`
	JSONSchema JSONSchema `json:"json_schema"`
}

// JSONSchema is the json_schema member of a [ResponseFormat].
type JSONSchema struct {
	Name   string `json:"name"`
	Schema any    `json:"schema"`
	Strict bool   `json:"strict"`
}

// NameError is a response format name OpenAI would refuse.
type NameError struct{ Name string }

func (e *NameError) Error() string {
	return fmt.Sprintf("strict schema: response format name %q is not 1 to 64 letters, digits, '_' or '-'", e.Name)
}

// NewResponseFormat makes schema strict with [Strict] and wraps it as the
// response format called name. It returns a *NameError for a name OpenAI
// would refuse and a *SchemaError for a schema that cannot be made strict.
func NewResponseFormat(name string, schema any) (*ResponseFormat, []Loss, error) {
	if !namePattern.MatchString(name) {
		return nil, nil, &NameError{Name: name}
	}
	s, losses, err := Strict(schema)
	if err != nil {
		return nil, nil, err
	}
	return &ResponseFormat{Type: "json_schema", JSONSchema: JSONSchema{Name: name, Schema: s, Strict: true}}, losses, nil
}

// MarshalIndent renders v as indented JSON with a final newline, as the
// CLI prints it.
func MarshalIndent(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("strict schema: %w", err)
	}
	return append(b, '\n'), nil
}
