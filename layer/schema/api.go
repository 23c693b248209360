package schema

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// Options configure Compile.
type Options struct {
	// Schemas are further schema documents by URI, against which $ref
	// resolves (relative URIs against BaseURI); nothing is fetched.
	Schemas map[string]json.RawMessage
	// AssertFormat makes "format" an assertion in every draft, as the
	// request option assert_format does.
	AssertFormat bool
	// MaxDepth is how deeply documents may nest
	// (jsonvalue.DefaultMaxDepth when 0).
	MaxDepth int
}

// Validator is an expected schema compiled once, to validate many
// documents: what an agent framework calls per tool call. It is safe for
// concurrent use.
type Validator struct {
	c        *compiled
	maxDepth int
}

// Compile compiles the expected schema, given as JSON, with the local
// schemas and options of opts. It returns a *layer.InputError when the
// schema or a local schema is not JSON or not a valid schema, as the
// schema layer would report it.
func Compile(expected []byte, opts Options) (*Validator, error) {
	maxDepth := opts.MaxDepth
	if maxDepth <= 0 {
		maxDepth = jsonvalue.DefaultMaxDepth
	}
	exp, err := jsonvalue.Decode(expected, maxDepth)
	if err != nil {
		return nil, &layer.InputError{Layer: "schema", Location: "expected_schema",
			Msg: "the schema is not JSON: " + err.Error(), Err: err}
	}
	return CompileValue(exp, opts)
}

// CompileValue is [Compile] of an expected schema already decoded, as
// jsonvalue.Decode or encoding/json with UseNumber decodes JSON (numbers
// as json.Number): for a caller that holds the schema as a value, such as
// a tool definition's inputSchema.
func CompileValue(expected any, opts Options) (*Validator, error) {
	maxDepth := opts.MaxDepth
	if maxDepth <= 0 {
		maxDepth = jsonvalue.DefaultMaxDepth
	}
	var err error
	locals := make(map[string]any, len(opts.Schemas))
	for uri, raw := range opts.Schemas {
		if locals[uri], err = jsonvalue.Decode(raw, maxDepth); err != nil {
			return nil, &layer.InputError{Layer: "schema", Location: "schemas[" + quoteJSON(uri) + "]",
				Msg: "the schema is not JSON: " + err.Error(), Err: err}
		}
	}
	c, err := compile(expected, locals, opts.AssertFormat)
	if err != nil {
		return nil, err
	}
	return &Validator{c: c, maxDepth: maxDepth}, nil
}

// Load returns the compiled schema of in from cache (the schema layer's
// cache, which the layer shares), compiling it on a miss, as the layer's
// Run does. The engine calls it to check documents by their bytes.
func Load(cache *layer.Cache, in *layer.Input) (*Validator, error) {
	c, err := load(cache, in)
	if err != nil {
		return nil, err
	}
	return &Validator{c: c}, nil
}

// Validate checks doc, one JSON value, and returns the issues the schema
// layer reports for it: none for a valid document. It returns a
// *jsonvalue.SyntaxError when doc is not JSON or nests deeper than
// MaxDepth, and a *layer.InputError for a $ref cycle met while validating.
func (v *Validator) Validate(doc []byte) ([]result.Issue, error) {
	if issues, sure := v.c.fastIssues(doc, v.maxDepth); sure {
		return issues, nil
	}
	val, err := jsonvalue.Decode(doc, v.maxDepth)
	if err != nil {
		return nil, err
	}
	return v.c.validate(val)
}

// Check is the fast path alone: it reports whether doc, one JSON value, is
// valid, with sure false when the fast path cannot tell (the schema takes
// the slow path, or doc has something only the slow path handles, such as
// a duplicate key or invalid UTF-8, or is not JSON). A document that Check
// finds valid and sure gets no issue from the schema layer; for any other,
// Validate or the layer decide.
func (v *Validator) Check(doc []byte, maxDepth int) (valid, sure bool) {
	if v.c.fast == nil {
		return false, false
	}
	valid, sure = fastValid(v.c.fast, v.c.nodes, doc, maxDepth)
	if !valid {
		// An invalid verdict is the slow path's to give, with its issues.
		sure = false
	}
	return valid, sure
}

// Issues is the fast path with its issues: it reads doc, one JSON value,
// once and returns the issues the schema layer reports for it (none for a
// valid document), the same issues in the same order as the slow path's,
// with sure false when the fast path cannot tell (as for Check). A
// document Issues is sure about has no duplicate key, invalid UTF-8,
// number out of range, nesting past maxDepth (jsonvalue.DefaultMaxDepth
// when 0) or syntax error: the decoder would report nothing about it.
func (v *Validator) Issues(doc []byte, maxDepth int) (issues []result.Issue, sure bool) {
	return v.c.fastIssues(doc, maxDepth)
}

// IssuesDuplicates is Issues that also answers for a document with
// repeated keys: the issues of the value the decoder gives (it keeps the
// last member of a repeated key), and repeated, the keys that repeat an
// earlier key of their object, described as jsonvalue.DecodeDuplicates
// describes them (key, location, offset, line and column, in document
// order), nil when none does. Sure is false when the fast path cannot
// tell.
func (v *Validator) IssuesDuplicates(doc []byte, maxDepth int) (issues []result.Issue, repeated []jsonvalue.Duplicate, sure bool) {
	return v.c.fastIssuesDuplicates(doc, maxDepth)
}

// IssuesDuplicatesRoom is IssuesDuplicates for a caller that builds a
// result of the issues: those the scan writes itself (an invalid small
// document's, nearly always) come in room, allocated with a result beside
// them (result.NewRoom), which result.FoundIn then fills instead of
// allocating another. The issues and the rest are IssuesDuplicates'.
func (v *Validator) IssuesDuplicatesRoom(doc []byte, maxDepth int) (issues []result.Issue, room result.Room, repeated []jsonvalue.Duplicate, sure bool) {
	// issuesDuplicates' steps, its first called directly: on the engine's
	// path for every document, two calls fewer that pass the results on.
	c := v.c
	if issues, room, sure = c.fastIssuesGuarded(doc, maxDepth, true); sure || c.fast == nil {
		return issues, room, nil, sure
	}
	return c.issuesWithoutDuplicates(doc, maxDepth, true, true)
}

// Path says which path the schema takes: fast is true for the compiled
// fast path, with the number of compiled subschemas; else why says which
// keyword or feature sends it to the slow path.
func (v *Validator) Path() (fast bool, subschemas int, why string) {
	return v.c.fast != nil, v.c.nodes, v.c.slow
}

// String describes the path for people.
func (v *Validator) String() string {
	if v.c.fast != nil {
		return fmt.Sprintf("fast path: compiled into %d checks", v.c.nodes)
	}
	return "slow path: " + v.c.slow
}

// Finding is one issue of the schema layer with its structure, for a
// caller that places or words it in terms of its own: a tool call's
// arguments rather than an agent's output.
type Finding struct {
	// Issue is the issue as the layer reports it, its messages naming the
	// validated value as Findings was asked to.
	Issue result.Issue
	// Keyword is the failed keyword ("required", "type"), empty for the
	// note counting findings past MaxIssues.
	Keyword string
	// Path is the instance location as the tokens of a JSON Pointer
	// (unescaped); Issue.Location renders it.
	Path []string
	// Field is the property a finding names beside its location, in full:
	// the missing field of "required", "dependentRequired" and
	// "dependencies", the field "additionalProperties" rejects.
	Field string
	// Expected and Actual are what the keyword wanted and met, as the
	// message shows them, for "type", "const" and the numeric bounds.
	Expected, Actual string
}

// Findings validates in.Output against in.ExpectedSchema, compiled through
// cache as the layer's Run does (in.SchemaKey keys it when set), and returns
// the layer's issues as findings, in the order Run reports them. Messages
// name the validated value noun ("the arguments"); an empty noun names it
// "the output", as Run does. It returns a *layer.InputError when the schema
// is invalid. It takes the slow path always: a caller that wants only a
// verdict uses Validator.Check.
func Findings(ctx context.Context, cache *layer.Cache, in *layer.Input, noun string) ([]Finding, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, err := load(cache, in)
	if err != nil {
		return nil, err
	}
	return c.findings(ctx, in.Output, noun)
}
