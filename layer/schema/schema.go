package schema

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	gourl "net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

//go:embed doc.go
var docGo string

// Layer validates the output against the request's expected JSON Schema. It
// applies when the request has an expected schema. Run reports one issue
// per failed schema keyword (at most [MaxIssues], then one note counting
// the rest), records one deterministic check, and returns a
// *layer.InputError when the schema itself is invalid. Layer is safe for
// concurrent use.
var Layer = &layer.Layer{
	Name:      "schema",
	Doc:       layer.MustExtractDoc(docGo, "schema"),
	Applies:   func(in *layer.Input) bool { return in.ExpectedSchema != nil },
	Run:       run,
	AppliesOn: layer.PartSchema,
	Prepare:   prepare,
}

// prepare is the layer's fast path (see [layer.Layer.Prepare]): the
// compiled schema of in, which checks an output's bytes without decoding
// them.
func prepare(c *layer.Cache, in *layer.Input) (layer.Prepared, error) {
	v, err := Load(c, in)
	if err != nil {
		return nil, err
	}
	return v, nil
}

// BaseURI is the base URI of an expected schema that has no absolute $id,
// and the base against which relative keys of layer.Input.Schemas resolve.
// It is hierarchical, so that a relative $ref such as "common.json" in the
// expected schema resolves to BaseURI's directory, where a local schema
// given as "common.json" is found.
const BaseURI = "judge:///schemas/expected_schema.json"

const baseDir = "judge:///schemas/"

// MaxIssues is how many failed keywords Run reports for one output. Past
// it, failed keywords are only counted, and one info issue of type
// not_checked with Rule "schema.truncated" says how many were not
// reported, so that an output with a million errors costs little more to
// report than one with a few hundred. It is one less than
// result.DefaultMaxIssues, so that the issues and that note fit in a
// result.
const MaxIssues = result.DefaultMaxIssues - 1

// MaxSchemaDepth is how deeply the expected schema and each local schema may
// nest arrays and objects. Checking a schema against its meta-schema takes
// time cubic in its depth; at this depth it takes about 0.1s.
const MaxSchemaDepth = 256

func run(ctx context.Context, p *layer.Pass) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	in := p.Input
	c, err := load(p.Cache, in)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	issues, err := c.validate(in.Output)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, is := range issues {
		p.Report(is)
	}
	p.Decided(1)
	return nil
}

// compiled is what the cache holds for one (schema, local schemas,
// assert_format) triple. It is immutable and safe for concurrent use.
type compiled struct {
	// full holds santhosh-tekuri's compiled form (see fullForm and form):
	// strongly when the schema takes the slow path, else weakly.
	full fullHolder
	// schemas counts the full form's schemas (see Size).
	schemas int
	// names maps a document's URL to how a location in it is written in an
	// InputError: "expected_schema" or `schemas["uri"]`.
	names map[string]string
	// fast is the schema compiled for the fast path, or nil when it takes
	// the slow path, for the reason slow; nodes counts fast's nodes.
	fast  *node
	nodes int
	slow  string
	// docBytes estimates the documents the compiler keeps (see Size).
	docBytes int64
	// stream holds what streams of this schema share (see Validator.Stream).
	stream streamCache
}

// load returns the compiled schema of in from cache, compiling it on a
// miss (a nil cache compiles every time). The key is in.SchemaKey when the
// engine gave one, else a hash of the decoded schemas.
func load(cache *layer.Cache, in *layer.Input) (*compiled, error) {
	expected, locals, assertFormat := in.ExpectedSchema, in.Schemas, in.Options.AssertFormat
	key := "schema:" + in.SchemaKey + ":" + strconv.FormatBool(assertFormat)
	if in.SchemaKey == "" {
		var err error
		if key, err = cacheKey(expected, locals, assertFormat); err != nil {
			return nil, &layer.InputError{Layer: "schema", Location: "expected_schema",
				Msg: "the schema is not plain JSON: " + err.Error(), Err: err}
		}
	}
	v, err := cache.Load(key, func() (any, error) { return compile(expected, locals, assertFormat) })
	if err != nil {
		return nil, err
	}
	return v.(*compiled), nil
}

// cacheKey is the hex SHA-256 of a canonical JSON encoding of the inputs:
// encoding/json writes object keys sorted, and the local schemas are
// listed sorted by URI.
func cacheKey(expected any, locals map[string]any, assertFormat bool) (string, error) {
	type local struct {
		URI    string `json:"uri"`
		Schema any    `json:"schema"`
	}
	k := struct {
		Version      int     `json:"v"`
		Schema       any     `json:"schema"`
		Schemas      []local `json:"schemas"`
		AssertFormat bool    `json:"assert_format"`
	}{Version: 1, Schema: expected, AssertFormat: assertFormat}
	for _, uri := range slices.Sorted(maps.Keys(locals)) {
		k.Schemas = append(k.Schemas, local{uri, locals[uri]})
	}
	b, err := json.Marshal(k)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return "schema:" + hex.EncodeToString(sum[:]), nil
}

// compile builds the compiled form of expected. It never fetches: $ref
// resolves only against the drafts' meta-schemas and locals.
func compile(expected any, locals map[string]any, assertFormat bool) (c *compiled, err error) {
	defer func() {
		if r := recover(); r != nil {
			c, err = nil, &layer.InputError{Layer: "schema", Location: "expected_schema",
				Msg: fmt.Sprintf("the schema could not be compiled (internal error: %v)", r)}
		}
	}()
	b := newBuilder(expected, locals)
	if depth(expected, MaxSchemaDepth+1) > MaxSchemaDepth {
		return nil, &layer.InputError{Layer: "schema", Location: "expected_schema", Msg: tooDeep}
	}
	f, err := b.compileFull(expected, assertFormat)
	if err != nil {
		return nil, b.inputError(err)
	}
	sch := f.sch
	c = &compiled{schemas: len(f.index), names: b.names, docBytes: valueBytes(expected)}
	for _, l := range locals {
		c.docBytes += valueBytes(l)
	}
	if err := c.checkRefCycles(f); err != nil {
		return nil, err
	}
	c.fast, c.nodes, c.slow = compileFast(sch)
	c.hold(f, &fullSource{expected: expected, locals: locals, assertFormat: assertFormat})
	return c, nil
}

// validate checks v and returns its issues, at most MaxIssues errors and
// the note counting the rest, sorted as a result lists them, or an error
// when validation could not run: an *layer.InputError for a $ref cycle met
// at run time or a value that is not JSON.
func (c *compiled) validate(v any) ([]result.Issue, error) {
	r, err := c.report(v, defaultNoun)
	if err != nil || r == nil {
		return nil, err
	}
	return r.issues(), nil
}

// report checks v and returns the reporter holding its findings, whose
// messages name v noun, or nil when v is valid; its errors are validate's.
func (c *compiled) report(v any, noun string) (r *reporter, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("schema: validation panicked: %v", p)
		}
	}()
	verr := c.form(true).sch.Validate(v)
	if verr == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		return nil, fmt.Errorf("schema: %w", verr)
	}
	r = newReporter(c, v, MaxIssues)
	r.noun = noun
	r.walk(ve)
	if r.err != nil {
		return nil, r.err
	}
	return r, nil
}

// checkRefCycles finds chains of schemas that lead back to where they
// started for the same value without checking anything on the way, such as
// {"$ref": "#"} or {"if": {"$ref": "#"}}: whatever the output, validation
// would loop. The validator finds such loops too, but not under "not" or
// "if", where it only asks whether a value matches.
func (c *compiled) checkRefCycles(f *fullForm) error {
	const (
		visiting = 1
		done     = 2
	)
	state := map[*jsonschema.Schema]int{}
	var path []*jsonschema.Schema
	var visit func(s *jsonschema.Schema) error
	visit = func(s *jsonschema.Schema) error {
		switch state[s] {
		case done:
			return nil
		case visiting:
			var chain []string
			for _, p := range path[slices.Index(path, s):] {
				chain = append(chain, c.schemaLoc(p.Location))
			}
			chain = append(chain, c.schemaLoc(s.Location))
			return &layer.InputError{Layer: "schema", Location: chain[0],
				Msg: "$ref cycle: " + strings.Join(chain, " → ") +
					"; the reference leads back to itself without checking anything, so validation would never end"}
		}
		state[s] = visiting
		path = append(path, s)
		for _, next := range inPlace(s) {
			if err := visit(next); err != nil {
				return err
			}
		}
		path = path[:len(path)-1]
		state[s] = done
		return nil
	}
	for _, loc := range slices.Sorted(maps.Keys(f.index)) {
		if err := visit(f.index[loc]); err != nil {
			return err
		}
	}
	return nil
}

// alwaysRefs reports whether validating against s always goes on to s.Ref:
// no keyword the validator checks before $ref can stop it.
func alwaysRefs(s *jsonschema.Schema) bool {
	return s.Ref != nil && !stops(s)
}

// stops reports whether s has a keyword that the validator checks first and
// that ends the validation of a value that fails it.
func stops(s *jsonschema.Schema) bool {
	return s.Bool != nil || s.Types != nil || s.Const != nil || s.Enum != nil || s.Format != nil
}

// inPlace returns the schemas that validating a value against s always
// goes on to, for the same value, before any keyword can stop it: its $ref;
// or, when it has neither a $ref nor a keyword for values of one type, the
// schemas under not and if and the first of allOf, anyOf and oneOf, which
// the validator tries whatever the value.
func inPlace(s *jsonschema.Schema) []*jsonschema.Schema {
	switch {
	case stops(s):
		return nil
	case s.Ref != nil:
		return []*jsonschema.Schema{s.Ref}
	case checksValues(s):
		return nil
	}
	var next []*jsonschema.Schema
	for _, n := range []*jsonschema.Schema{s.Not, first(s.AllOf), first(s.AnyOf), first(s.OneOf), s.If} {
		if n != nil {
			next = append(next, n)
		}
	}
	return next
}

func first(ss []*jsonschema.Schema) *jsonschema.Schema {
	if len(ss) == 0 {
		return nil
	}
	return ss[0]
}

// checksValues reports whether s has a keyword for objects, arrays, strings
// or numbers, or a dynamic reference: one that, failing, makes the
// validator skip not, allOf, anyOf, oneOf and if when it only asks whether
// a value matches.
func checksValues(s *jsonschema.Schema) bool {
	return s.RecursiveRef != nil || s.DynamicRef != nil || len(s.Extensions) > 0 ||
		s.MaxProperties != nil || s.MinProperties != nil || len(s.Required) > 0 || s.PropertyNames != nil ||
		len(s.Properties) > 0 || len(s.PatternProperties) > 0 || s.AdditionalProperties != nil ||
		len(s.Dependencies) > 0 || len(s.DependentRequired) > 0 || len(s.DependentSchemas) > 0 ||
		s.MinItems != nil || s.MaxItems != nil || s.UniqueItems || s.Contains != nil || s.MinContains != nil ||
		s.MaxContains != nil || s.Items != nil || s.AdditionalItems != nil || len(s.PrefixItems) > 0 || s.Items2020 != nil ||
		s.MinLength != nil || s.MaxLength != nil || s.Pattern != nil || s.ContentEncoding != nil ||
		s.ContentMediaType != nil || s.ContentSchema != nil ||
		s.Maximum != nil || s.Minimum != nil || s.ExclusiveMaximum != nil || s.ExclusiveMinimum != nil || s.MultipleOf != nil
}

// indexSchemas maps the Location of every schema reachable from root to it.
func indexSchemas(root *jsonschema.Schema) map[string]*jsonschema.Schema {
	index := map[string]*jsonschema.Schema{}
	stack := []*jsonschema.Schema{root}
	push := func(ss ...*jsonschema.Schema) {
		for _, s := range ss {
			if s != nil {
				stack = append(stack, s)
			}
		}
	}
	pushAny := func(v any) {
		switch v := v.(type) {
		case *jsonschema.Schema:
			push(v)
		case []*jsonschema.Schema:
			push(v...)
		}
	}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if _, ok := index[s.Location]; ok {
			continue
		}
		index[s.Location] = s
		push(s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else, s.PropertyNames, s.UnevaluatedProperties,
			s.Contains, s.Items2020, s.UnevaluatedItems, s.ContentSchema)
		if s.DynamicRef != nil {
			push(s.DynamicRef.Ref)
		}
		push(s.AllOf...)
		push(s.AnyOf...)
		push(s.OneOf...)
		push(s.PrefixItems...)
		for _, p := range s.Properties {
			push(p)
		}
		for _, p := range s.PatternProperties {
			push(p)
		}
		for _, p := range s.DependentSchemas {
			push(p)
		}
		for _, d := range s.Dependencies {
			pushAny(d)
		}
		pushAny(s.AdditionalProperties)
		pushAny(s.Items)
		pushAny(s.AdditionalItems)
	}
	return index
}

// loader is the compiler's URL loader. It serves the local schemas, and
// only those the schema refers to, and refuses every other URL: the
// drafts' meta-schemas are built in, and nothing is ever fetched.
type loader struct{ docs map[string]any }

func (l loader) Load(url string) (any, error) {
	doc, ok := l.docs[url]
	if !ok {
		return nil, &refusedError{URL: url}
	}
	if depth(doc, MaxSchemaDepth+1) > MaxSchemaDepth {
		return nil, errTooDeep
	}
	return doc, nil
}

// NotLocalError is a $ref or $schema naming Ref, a document that is
// neither among the request's schemas nor a meta-schema judge knows: judge
// never fetches it. It is the Err of the schema layer's input error, so
// that a front end can say how to give the document (the CLI names its
// --schemas flag).
type NotLocalError struct {
	Ref string
	Err error // the compiler's error
}

func (e *NotLocalError) Error() string {
	return fmt.Sprintf("%q is not among the local schemas; judge never fetches schemas", e.Ref)
}

func (e *NotLocalError) Unwrap() error { return e.Err }

// refusedError is a document that is neither local nor a meta-schema.
type refusedError struct{ URL string }

func (e *refusedError) Error() string {
	return fmt.Sprintf("%q is not among the local schemas; judge never fetches schemas", displayURL(e.URL))
}

var tooDeep = fmt.Sprintf("the schema nests arrays and objects more than %d levels deep", MaxSchemaDepth)

// errTooDeep is a local schema nested deeper than MaxSchemaDepth.
var errTooDeep = errors.New(tooDeep)

// displayURL writes a URL under the judge base as the relative reference
// the user wrote.
func displayURL(u string) string {
	if rest, ok := strings.CutPrefix(u, BaseURI); ok {
		return rest
	}
	if rest, ok := strings.CutPrefix(u, baseDir); ok {
		return rest
	}
	return u
}

// builder holds what compile derives from the inputs before compiling.
type builder struct {
	draft   *jsonschema.Draft
	mainURL string
	docs    map[string]any    // local schemas by resolved URL: keys, and $id aliases
	names   map[string]string // document URL -> how InputError locations name it
	byURL   map[string]any    // document URL -> document, the expected schema included
	raw     map[string]any    // local schemas by key as given, without fragment
}

func newBuilder(expected any, locals map[string]any) *builder {
	b := &builder{names: map[string]string{}, byURL: map[string]any{}, docs: map[string]any{}}
	keys := slices.Sorted(maps.Keys(locals))

	// Draft of the expected schema: its $schema, followed through local
	// meta-schemas by their keys as given; draft-07 when it names none.
	b.raw = map[string]any{}
	for _, k := range keys {
		b.raw[stripFragment(k)] = locals[k]
	}
	b.draft = draftOf(expected, b.raw, jsonschema.Draft7)

	// The expected schema is found under its absolute $id, unless that is
	// a URL of json-schema.org, where the built-in meta-schemas live (a
	// copy of a meta-schema is a fine expected schema).
	b.mainURL = BaseURI
	if id := absoluteID(expected, b.draft); id != "" && !isMetaURL(id) {
		b.mainURL = id
	}
	b.names[b.mainURL] = "expected_schema"
	b.byURL[b.mainURL] = expected

	// Relative keys resolve against the expected schema's base URI, or
	// against BaseURI when that base is opaque (a URN).
	base, err := gourl.Parse(b.mainURL)
	if err != nil || base.Opaque != "" {
		base, _ = gourl.Parse(BaseURI)
	}
	for _, k := range keys {
		u := resolveKey(base, k)
		if _, ok := b.byURL[u]; ok {
			continue
		}
		b.docs[u] = locals[k]
		b.names[u] = "schemas[" + quoteJSON(k) + "]"
		b.byURL[u] = locals[k]
	}
	// A local schema is also found by its absolute $id, when that URI is
	// not taken.
	for _, k := range keys {
		doc := locals[k]
		id := absoluteID(doc, draftOf(doc, b.raw, b.draft))
		if id == "" || isMetaURL(id) {
			continue
		}
		if _, ok := b.byURL[id]; ok {
			continue
		}
		b.docs[id] = doc
		b.names[id] = "schemas[" + quoteJSON(k) + "]"
		b.byURL[id] = doc
	}
	return b
}

// resolveKey makes a key of the local schemas absolute: a key with a scheme
// is taken as it is (without fragment), a relative one is resolved against
// base.
func resolveKey(base *gourl.URL, key string) string {
	key = stripFragment(key)
	ref, err := gourl.Parse(key)
	if err != nil || ref.IsAbs() {
		return key
	}
	return base.ResolveReference(ref).String()
}

func stripFragment(u string) string {
	u, _, _ = strings.Cut(u, "#")
	return u
}

// absoluteID returns the absolute $id (id for draft-04) of a schema
// document without fragment, or "". As in drafts before 2019-09, an id
// beside $ref is ignored.
func absoluteID(doc any, draft *jsonschema.Draft) string {
	obj, ok := doc.(map[string]any)
	if !ok {
		return ""
	}
	kw := "$id"
	if draft == jsonschema.Draft4 {
		kw = "id"
	}
	if _, ok := obj["$ref"]; ok && draftVersion(draft) < 2019 {
		return ""
	}
	id, ok := obj[kw].(string)
	if !ok {
		return ""
	}
	id = stripFragment(id)
	u, err := gourl.Parse(id)
	if err != nil || !u.IsAbs() {
		return ""
	}
	return id
}

// isMetaURL reports whether u is on json-schema.org, whose meta-schemas
// are built in and cannot be replaced.
func isMetaURL(u string) bool {
	return strings.HasPrefix(u, "http://json-schema.org/") || strings.HasPrefix(u, "https://json-schema.org/")
}

// draftOf returns the draft a document is written for: the one its $schema
// names, directly or through meta-schemas among docs (by URL), else
// fallback.
func draftOf(doc any, docs map[string]any, fallback *jsonschema.Draft) *jsonschema.Draft {
	for range 8 {
		obj, ok := doc.(map[string]any)
		if !ok {
			return fallback
		}
		s, ok := obj["$schema"].(string)
		if !ok {
			return fallback
		}
		if d := knownDraft(s); d != nil {
			return d
		}
		if doc, ok = docs[stripFragment(s)]; !ok {
			return fallback
		}
	}
	return fallback
}

// knownDraft returns the draft whose meta-schema URL is u, or nil.
func knownDraft(u string) *jsonschema.Draft {
	u, frag, _ := strings.Cut(u, "#")
	if frag != "" {
		return nil
	}
	u = strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://")
	switch u {
	case "json-schema.org/schema", "json-schema.org/draft/2020-12/schema":
		return jsonschema.Draft2020
	case "json-schema.org/draft/2019-09/schema":
		return jsonschema.Draft2019
	case "json-schema.org/draft-07/schema":
		return jsonschema.Draft7
	case "json-schema.org/draft-06/schema":
		return jsonschema.Draft6
	case "json-schema.org/draft-04/schema":
		return jsonschema.Draft4
	}
	return nil
}

func draftVersion(d *jsonschema.Draft) int {
	switch d {
	case jsonschema.Draft4:
		return 4
	case jsonschema.Draft6:
		return 6
	case jsonschema.Draft7:
		return 7
	case jsonschema.Draft2019:
		return 2019
	}
	return 2020
}

// draftName is how messages name a draft.
func draftName(version int) string {
	switch version {
	case 4, 6, 7:
		return fmt.Sprintf("draft-%02d", version)
	case 2019:
		return "2019-09"
	}
	return "2020-12"
}

// schemaLoc renders a schema URL (with a JSON Pointer fragment) as an
// InputError location: "expected_schema/properties/age".
func (c *compiled) schemaLoc(u string) string { return schemaLoc(c.names, u) }

func schemaLoc(names map[string]string, u string) string {
	doc, frag, _ := strings.Cut(u, "#")
	name, ok := names[doc]
	if !ok {
		name = displayURL(doc)
	}
	if f, err := gourl.PathUnescape(frag); err == nil {
		frag = f
	}
	switch {
	case frag == "":
		return name
	case strings.HasPrefix(frag, "/"):
		return name + frag
	default:
		return name + "#" + frag
	}
}

// depth returns how deeply v nests arrays and objects, counting no further
// than limit.
func depth(v any, limit int) int {
	if limit <= 0 {
		return 0
	}
	d := 0
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			d = max(d, depth(e, limit-1))
		}
	case []any:
		for _, e := range v {
			d = max(d, depth(e, limit-1))
		}
	default:
		return 0
	}
	return d + 1
}
