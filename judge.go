// Package judge is a validation engine for LLM agents: it checks an agent's
// output against a JSON Schema, acceptance criteria, trusted sources and
// quality standards, and answers in one format, the
// [result.ValidationResult].
//
// # Use
//
// Make an [Engine] once with [New] and call [Engine.Validate] for each
// output; the Engine caches compiled schemas and rules and is safe for
// concurrent use.
//
//	e, err := judge.New()
//	res, err := e.Validate(ctx, &judge.Request{
//		Output:         json.RawMessage(`{"name": "Ada"}`),
//		ExpectedSchema: json.RawMessage(`{"required": ["name", "email"]}`),
//	})
//
// Validate returns a *[RequestError] for a malformed request (an output that
// is not JSON, an invalid schema, a rule that does not compile): that is a
// problem with the question, not a finding about the output.
//
// # Layers
//
// Each validation type is a [layer.Layer] ([DefaultLayers]): schema (JSON
// Schema), criteria (CEL rules, and plain-language criteria judged by a
// model with [WithLLM]), quality (code and prose review, when
// validation_types names it), facts (claims checked against the request's
// sources and the documents of [WithSourceDir]) and hallucination
// (self-contradicting details and overconfident claims). What a layer
// needs from the engine it declares on itself (see package layer). The
// engine runs the layers that apply concurrently, each under its own
// deadline, and merges their findings; a layer that fails or runs out of
// time becomes a layer_failed issue and lowers the confidence, never the
// whole request. How confidence and the quality score are computed is in
// docs/scoring.md.
package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/layer"
)

// Request is one output to validate and what to validate it against. Its
// JSON form is the body of POST /validate.
type Request struct {
	// Output is the output under validation: any JSON value, or a JSON
	// string holding text. Required.
	Output json.RawMessage `json:"output"`
	// ValidationTypes names the layers to run; empty means every layer
	// whose inputs are present.
	ValidationTypes []string `json:"validation_types,omitempty"`
	// ExpectedSchema is a JSON Schema the output must match.
	ExpectedSchema json.RawMessage `json:"expected_schema,omitempty"`
	// Schemas are further schema documents by URI for $ref; nothing is
	// fetched from the network.
	Schemas map[string]json.RawMessage `json:"schemas,omitempty"`
	// AcceptanceCriteria are strings (plain language) or objects
	// {id, description, rule} where rule is a CEL expression.
	AcceptanceCriteria []layer.Criterion `json:"acceptance_criteria,omitempty"`
	// TrustedSources are URIs of sources the output must agree with.
	TrustedSources []string `json:"trusted_sources,omitempty"`
	// Sources are inline source documents.
	Sources []layer.Source `json:"sources,omitempty"`
	// Context is any JSON value the rules may read as `context`.
	Context json.RawMessage `json:"context,omitempty"`
	// Options tune how the output is read and checked.
	Options Options `json:"options,omitzero"`
}

// Output modes of [Options].
const (
	// OutputAuto parses a string output that holds JSON, also inside a
	// ```json fence, and reports that it did. The default.
	OutputAuto = "auto"
	// OutputValue takes the output exactly as given.
	OutputValue = "value"
)

// Options tune one request.
type Options struct {
	// OutputMode is OutputAuto (default) or OutputValue.
	OutputMode string `json:"output_mode,omitempty"`
	// AssertFormat asserts the JSON Schema "format" keyword for every
	// draft, not only where the draft prescribes it.
	AssertFormat bool `json:"assert_format,omitempty"`
	// TimeoutMS is each layer's deadline in milliseconds; 0 means the
	// engine's default (see [WithLayerTimeout]).
	TimeoutMS int `json:"timeout_ms,omitempty"`
	// Quality sets the thresholds of the quality layer: max_complexity,
	// max_line_length, max_function_length; zero fields keep the defaults.
	Quality layer.QualityOptions `json:"quality,omitzero"`
}

// RequestError is a malformed request: the output could not be read, a
// schema or rule is invalid, a validation type is unknown. Field locates the
// problem in the request ("output", "expected_schema/properties/a",
// "acceptance_criteria[0].rule:1:7").
type RequestError struct {
	Field string
	Msg   string
	Err   error
}

func (e *RequestError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return e.Field + ": " + e.Msg
}

// Unwrap returns the cause.
func (e *RequestError) Unwrap() error { return e.Err }

// DecodeRequest parses the JSON form of a Request strictly: unknown fields
// are errors, and so are a field given twice and bytes that are not UTF-8
// (which encoding/json would silently resolve); nesting is limited to
// maxDepth (jsonvalue.DefaultMaxDepth when <= 0); a UTF-8 byte-order mark
// at the start is skipped. Every error is a *RequestError with the line
// and column.
func DecodeRequest(data []byte, maxDepth int) (*Request, error) {
	if maxDepth <= 0 {
		maxDepth = jsonvalue.DefaultMaxDepth
	}
	if req, ok := decodeRequestFast(jsonvalue.TrimBOM(data), maxDepth); ok {
		return req, nil
	}
	var req Request
	if err := DecodeStrict(data, maxDepth, &req, requestFields); err != nil {
		return nil, err
	}
	if len(req.Output) == 0 {
		return nil, &RequestError{Field: "output", Msg: `the request has no "output"`}
	}
	return &req, nil
}

// requestFields lists a Request's fields, for the error of an unknown one.
const requestFields = "output, validation_types, expected_schema, schemas, acceptance_criteria, trusted_sources, sources, context, options{output_mode, assert_format, timeout_ms, quality{max_complexity, max_line_length, max_function_length}}"

// UnknownFieldError is a field of a request body that the request does
// not have, found by [DecodeStrict]: Key, and Line and Col (1-based; Col
// counts bytes) where the decoder stopped, just after the field's value.
// Known lists the fields the request has.
type UnknownFieldError struct {
	Key       string
	Line, Col int
	Known     string
	// Err is the position error of the decoder, a
	// *jsonvalue.SyntaxError.
	Err error
}

func (e *UnknownFieldError) Error() string {
	return fmt.Sprintf("line %d, column %d: unknown field %q (known: %s)", e.Line, e.Col, e.Key, e.Known)
}

// Unwrap returns the position error.
func (e *UnknownFieldError) Unwrap() error { return e.Err }

// DecodeStrict decodes the JSON body data into v, a pointer to a request
// type, strictly, as DecodeRequest does for a Request and the server for
// its other request bodies: unknown fields are errors, and so are a field
// given twice, bytes that are not UTF-8 and data after the value; nesting
// is limited to maxDepth (jsonvalue.DefaultMaxDepth when <= 0); a UTF-8
// byte-order mark at the start is skipped. Every error is a *RequestError
// at "body" with the line and column; an unknown field's wraps an
// *UnknownFieldError whose Known is known.
func DecodeStrict(data []byte, maxDepth int, v any, known string) error {
	if maxDepth <= 0 {
		maxDepth = jsonvalue.DefaultMaxDepth
	}
	data = jsonvalue.TrimBOM(data)
	if err := jsonvalue.CheckEnvelope(data, maxDepth); err != nil {
		return &RequestError{Field: "body", Msg: err.Error(), Err: err}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		werr := jsonvalue.Wrap(data, dec.InputOffset(), err)
		var se *jsonvalue.SyntaxError
		if key, ok := unknownField(err); ok && errors.As(werr, &se) {
			uf := &UnknownFieldError{Key: key, Line: se.Line, Col: se.Col, Known: known, Err: werr}
			return &RequestError{Field: "body", Msg: uf.Error(), Err: uf}
		}
		return &RequestError{Field: "body", Msg: werr.Error(), Err: werr}
	}
	if dec.More() {
		// Located at the first byte of the extra data.
		off := int64(len(data) - len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")))
		werr := jsonvalue.Wrap(data, off, errors.New("unexpected data after the request object"))
		return &RequestError{Field: "body", Msg: werr.Error(), Err: werr}
	}
	return nil
}

// unknownField returns the key of encoding/json's error for an unknown
// field. encoding/json gives that error no type of its own, only the text
// `json: unknown field "key"`: this is the one place that reads it, and
// what it finds leaves as an *UnknownFieldError that callers match with
// errors.As.
func unknownField(err error) (string, bool) {
	quoted, ok := strings.CutPrefix(err.Error(), "json: unknown field ")
	if !ok {
		return "", false
	}
	key, qerr := strconv.Unquote(quoted)
	if qerr != nil {
		return "", false
	}
	return key, true
}

// decodeField decodes one raw JSON field of the request.
func decodeField(name string, raw json.RawMessage, maxDepth int) (any, error) {
	v, err := jsonvalue.Decode(raw, maxDepth)
	if err != nil {
		return nil, &RequestError{Field: name, Msg: err.Error(), Err: err}
	}
	return v, nil
}

// ErrNoOutput is wrapped by the error for a request without output.
var ErrNoOutput = errors.New("no output to validate")
