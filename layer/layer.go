// Package layer defines the Layer and Pass types through which the
// validation layers of judge report to the engine, after the model of
// golang.org/x/tools/go/analysis: a layer is a value with a name, a doc and
// a Run function that reports issues through a Pass. What a layer needs from
// the engine (a shared cache, the model, the source directory, a fast path)
// it declares on its Layer value, and the engine reads the declarations,
// never a layer's name.
//
// The package imports only result and the standard library (a test holds
// it to that), so the engine and every layer can import it without a
// cycle.
package layer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sync"

	"github.com/agentjudge/judge/result"
)

// Layer is one kind of validation: schema, criteria, facts, hallucination,
// quality. A Layer holds no state; what it caches across requests lives in
// the [Cache] the engine hands it through the [Pass].
type Layer struct {
	// Name is the validation type the layer implements, as it appears in
	// validation_types and metadata.validation_types_run.
	Name string
	// Doc is the layer's documentation: its first line is a summary.
	Doc string
	// Applies reports whether the request carries what the layer needs;
	// the engine runs, by default, every layer that applies.
	Applies func(in *Input) bool
	// AppliesOnRequest, when not nil, reports whether the request carries
	// what the layer needs when validation_types names it, for a layer
	// that checks differently when asked (or, with an Applies that is
	// always false, runs only when asked); nil means Applies.
	AppliesOnRequest func(in *Input) bool
	// Run checks in and reports through p. It returns an *InputError when
	// the request itself is malformed (an invalid schema, a rule that does
	// not compile): the engine then rejects the request. Any other error,
	// a panic or a missed deadline is recorded as a layer_failed issue.
	Run func(ctx context.Context, p *Pass) error

	// The fields below declare what the layer needs from the engine, as
	// an analyzer of golang.org/x/tools/go/analysis declares its
	// requirements: the engine reads them, never a layer's name.

	// CacheGroup names the cache the layer shares with the other layers
	// of the same group, for layers that build the same things (the facts
	// and hallucination layers both index sources: "sources"); empty means
	// a cache of its own, named after the layer.
	CacheGroup string
	// UsesModel declares that the layer asks a model what it cannot
	// decide itself: an engine with a model hands it through [Pass.Model].
	UsesModel bool
	// ReadsSources declares that the layer indexes the request's sources
	// through its cache: an engine with a source directory indexes the
	// directory's documents into that cache once, at start.
	ReadsSources bool
	// ChecksSources declares that the layer checks the output's claims
	// against the request's sources: when a request gives sources and no
	// layer of the engine declares it, the engine says that they were not
	// checked.
	ChecksSources bool
	// AppliesOn declares the parts of a request without which Applies is
	// false: by default the layer applies only to a request that gives at
	// least one of them. Zero declares nothing: any request may make the
	// layer apply.
	AppliesOn Parts
	// Prepare, when not nil, declares that the layer can find an output
	// valid from its bytes alone, for a request that gives nothing but an
	// output and schema parts ([PartSchema]): it returns what checks such
	// outputs against the schemas of in, caching through c. An engine
	// whose other layers declare that they do not apply to such a request
	// keeps what Prepare returns with the schema documents, and answers an
	// output it finds valid as this layer's pass with nothing to report;
	// any other answer takes the usual path, which runs Run.
	Prepare func(c *Cache, in *Input) (Prepared, error)
}

// Parts is a set of the parts of a request (see [Layer.AppliesOn]).
type Parts uint8

// Parts of a request.
const (
	// PartSchema is expected_schema (with schemas).
	PartSchema Parts = 1 << iota
	// PartCriteria is acceptance_criteria.
	PartCriteria
	// PartSources is sources or trusted_sources.
	PartSources
	// NamedOnly declares a layer that applies by default to no request:
	// it runs only when validation_types names it.
	NamedOnly
)

// Prepared checks outputs from their JSON bytes (see [Layer.Prepare]).
// Check reports valid and sure true only when the output, nested at most
// maxDepth deep, is certainly valid; anything else means the usual path
// must decide. A Prepared is safe for concurrent use; when it is a
// [Sizer], the engine counts its size against its cache budget.
type Prepared interface {
	Check(output []byte, maxDepth int) (valid, sure bool)
}

// PreparedIssues is a Prepared that also gives the issues of an output it
// finds invalid, from the output's bytes in the same read: the issues Run
// would report for the decoded output, in the same order, with sure false
// when it cannot tell (the engine then takes its usual path). A sure
// answer also means that decoding the output would report nothing about
// it (no duplicate key, invalid UTF-8, number out of range, nesting past
// maxDepth or syntax error).
type PreparedIssues interface {
	Prepared
	Issues(output []byte, maxDepth int) (issues []result.Issue, sure bool)
}

// Model is the model an engine hands to the layers that declare
// [Layer.UsesModel]: its name, for metadata.model. A layer asserts the
// richer interface of the client it calls.
type Model interface {
	Model() string
}

var nameRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// Validate checks that l is well formed: an identifier name, a Doc and a
// Run function.
func (l *Layer) Validate() error {
	switch {
	case l == nil:
		return errors.New("layer: nil layer")
	case !nameRE.MatchString(l.Name):
		return fmt.Errorf("layer: name %q is not a lower-case identifier", l.Name)
	case l.Doc == "":
		return fmt.Errorf("layer %s: empty Doc", l.Name)
	case l.Run == nil:
		return fmt.Errorf("layer %s: nil Run", l.Name)
	}
	return nil
}

// Input is what a request gives the layers. Values decoded from JSON use
// json.Number for numbers, map[string]any for objects and []any for arrays.
// Layers must not modify an Input or the values it holds: the engine shares
// decoded schemas between requests.
type Input struct {
	// Output is the output under validation: a decoded JSON value, or a
	// string when the output is text.
	Output any
	// Text is the output as the request gave it when that was a string
	// (before any JSON in it was parsed into Output), else "".
	Text string
	// ExpectedSchema is the JSON Schema the output must match, decoded, or
	// nil.
	ExpectedSchema any
	// Schemas are further schema documents by URI, against which $ref
	// resolves; nothing is fetched.
	Schemas map[string]any
	// SchemaKey, when not empty, identifies ExpectedSchema and Schemas
	// exactly: the engine derives it from their bytes, so a layer may key
	// its cache with it instead of hashing the decoded values.
	SchemaKey string
	// Criteria are the acceptance criteria, in request order.
	Criteria []Criterion
	// Context is the request's context value, decoded, or nil.
	Context any
	// TrustedSources are URIs of sources the output must agree with.
	TrustedSources []string
	// Sources are inline source documents.
	Sources []Source
	// Options are the request's options.
	Options Options
}

// Criterion is one acceptance criterion: plain language, a CEL rule, or
// both.
type Criterion struct {
	ID          string `json:"id,omitempty"`
	Description string `json:"description,omitempty"`
	// Rule is a CEL expression over output and context that must yield
	// true.
	Rule string `json:"rule,omitempty"`
	// Message replaces the failure message when the rule is false.
	Message string `json:"message,omitempty"`
	// MessageExpression is a CEL expression yielding the failure message.
	MessageExpression string `json:"messageExpression,omitempty"`
}

// Name is how the criterion appears in passed_criteria and failed_criteria:
// its description, else its id, else its rule.
func (c Criterion) Name() string {
	switch {
	case c.Description != "":
		return c.Description
	case c.ID != "":
		return c.ID
	default:
		return c.Rule
	}
}

// Source is an inline source document for fact checking.
type Source struct {
	ID      string `json:"id,omitempty"`
	URL     string `json:"url,omitempty"`
	Title   string `json:"title,omitempty"`
	Content string `json:"content"`
}

// Options are a request's options that layers read.
type Options struct {
	// AssertFormat makes the schema layer assert "format" for every draft.
	AssertFormat bool
	// Quality tunes the thresholds of the quality layer.
	Quality QualityOptions
}

// QualityOptions are the thresholds of the quality layer; a zero field
// takes the layer's default, a negative one is an error.
type QualityOptions struct {
	// MaxComplexity is the highest cyclomatic complexity of a function
	// that is not reported (default 10).
	MaxComplexity int `json:"max_complexity,omitempty"`
	// MaxLineLength is the longest line, in characters, that is not
	// reported (default 88 for Python, 100 for other languages).
	MaxLineLength int `json:"max_line_length,omitempty"`
	// MaxFunctionLength is the longest function, in lines, that is not
	// reported (default 50).
	MaxFunctionLength int `json:"max_function_length,omitempty"`
}

// InputError is a malformed request found by a layer: the request is
// rejected (HTTP 400, exit status 2) rather than answered with issues.
type InputError struct {
	Layer string // the layer that found it
	// Location is where in the request: "expected_schema/properties/a",
	// "acceptance_criteria[1].rule:1:5".
	Location string
	Msg      string
	Err      error
}

func (e *InputError) Error() string {
	s := e.Layer + ": "
	if e.Location != "" {
		s += e.Location + ": "
	}
	return s + e.Msg
}

func (e *InputError) Unwrap() error { return e.Err }

// Pass is one run of one layer on one request. Reporting methods are safe
// for concurrent use by the layer's goroutines.
type Pass struct {
	Layer *Layer
	Input *Input
	// Cache is shared by every run of this layer in one engine, and by
	// the layers that build the same things (the facts and hallucination
	// layers share their source indexes), so keys must say what they hold
	// ("sources:…", "schema:…"). Its bytes count against the engine's
	// budget (see [Budget]).
	Cache *Cache
	// Model is the engine's model when the layer declares
	// [Layer.UsesModel] and the engine has one; nil otherwise.
	Model Model

	mu        sync.Mutex
	issues    []result.Issue
	passed    []string
	failed    []string
	checks    int
	certainty float64
	models    []string
	tokens    [2]int64
}

// NewPass returns a pass of l over in that caches in c.
func NewPass(l *Layer, in *Input, c *Cache) *Pass {
	return &Pass{Layer: l, Input: in, Cache: c}
}

// Report records an issue.
func (p *Pass) Report(is result.Issue) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.issues = append(p.issues, is)
}

// Reportf records an issue with a formatted message.
func (p *Pass) Reportf(sev result.Severity, typ result.Type, location, format string, args ...any) {
	p.Report(result.Issue{Severity: sev, Type: typ, Location: location, Message: fmt.Sprintf(format, args...)})
}

// Decided records a check decided with the given certainty in [0, 1]: 1 for
// a deterministic check, a model's own confidence for a model's verdict.
func (p *Pass) Decided(certainty float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.checks++
	p.certainty += min(max(certainty, 0), 1)
}

// Undecided records a check that could not be decided, with an info issue
// of type not_checked saying why. It counts with certainty 0 and is never
// counted as passed.
func (p *Pass) Undecided(location, message, suggestion string) {
	p.Report(result.Issue{Severity: result.Info, Type: result.NotChecked, Location: location, Message: message, Suggestion: suggestion})
	p.Decided(0)
}

// Passed records a criterion that was met.
func (p *Pass) Passed(criterion string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.passed = append(p.passed, criterion)
}

// Failed records a criterion that was not met.
func (p *Pass) Failed(criterion string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failed = append(p.failed, criterion)
}

// UsedModel records that an LLM model decided a check.
func (p *Pass) UsedModel(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.models = append(p.models, name)
}

// UsedTokens adds the tokens a model call cost, for metadata.token_usage.
func (p *Pass) UsedTokens(prompt, completion int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tokens[0] += prompt
	p.tokens[1] += completion
}

// Findings is what a finished pass reported.
type Findings struct {
	Issues         []result.Issue
	Passed, Failed []string
	Models         []string
	// PromptTokens and CompletionTokens are what the layer's model calls
	// cost.
	PromptTokens, CompletionTokens int64
	// Checks is the number of checks recorded by Decided and Undecided.
	Checks int
	// Confidence is the mean certainty of the checks, or 1 when the layer
	// recorded none.
	Confidence float64
}

// Findings returns a copy of what p has reported so far.
func (p *Pass) Findings() Findings {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := Findings{
		Issues: append([]result.Issue(nil), p.issues...),
		Passed: append([]string(nil), p.passed...),
		Failed: append([]string(nil), p.failed...),
		Models: append([]string(nil), p.models...),
		Checks: p.checks, Confidence: 1,
		PromptTokens: p.tokens[0], CompletionTokens: p.tokens[1],
	}
	if p.checks > 0 {
		f.Confidence = p.certainty / float64(p.checks)
	}
	return f
}

// UnmarshalJSON accepts a criterion as a plain string (its description) or
// as an object {id, description, rule, message, messageExpression}.
func (c *Criterion) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*c = Criterion{Description: s}
		return nil
	}
	type plain Criterion
	var p plain
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("a criterion is a string or an object {id, description, rule, message, messageExpression}: %w", err)
	}
	if p.Description == "" && p.Rule == "" {
		return errors.New("a criterion object needs a description or a rule")
	}
	*c = Criterion(p)
	return nil
}
