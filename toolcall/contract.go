package toolcall

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/llm"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/layer/criteria"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
)

// Contract is a tool's compiled contract: its schemas compiled, its rules
// compiled, its parameters listed for repair feedback. A Contract is
// immutable and safe for concurrent use; checking a call never compiles.
type Contract struct {
	// Name is the tool's name.
	Name string
	// Kind is the kind of definition it came from (KindMCP, …).
	Kind string
	// Description is the tool's description as given.
	Description string
	// Intent is the first sentence of the description, at most 200
	// characters: what the repair feedback says the tool is for.
	Intent string
	// Params are the parameters of the input schema, sorted by name.
	Params []Param
	// NextTools are the declared follow-up tools.
	NextTools []string
	// WhenToUse and WhenNotToUse are the tool's usage guidance.
	WhenToUse, WhenNotToUse string
	// Tier is the tool's visibility tier.
	Tier int
	// Deprecated is true when the description marks the tool deprecated
	// ("DEPRECATED: use read_text_file instead"): it is never suggested.
	Deprecated bool
	// Writes is true when the tool changes what it acts on: annotated
	// destructive or not read-only, else named with a writing verb
	// (create_, write_, delete_, move_, …).
	Writes bool

	def          Definition
	digest       string
	input        *schemaCheck
	output       *schemaCheck // nil without an output schema
	rules        []compiledRule
	props        map[string]any // the root properties of the input schema
	patterns     bool           // the root has patternProperties
	checkUnknown bool           // unknown parameters are reported by judge
	required     []string
	propNames    []string         // the keys of props, sorted
	coercible    []coercibleParam // the props coerce can change, sorted
	scoped       []string         // the keys of def.AppliesWhen, sorted
	// defaults are the root properties' defaults that their own schema
	// accepts: the only ones normalization fills in.
	defaults     map[string]any
	defaultNames []string // the keys of defaults, sorted
	// keys are the root parameters with what normalization may do to
	// each, for the arguments Check answers without decoding.
	keys map[string]keyInfo
	// closed, when not nil, returns the input schema with unknown
	// parameters made errors (nil if it does not compile), compiled on
	// the first call that needs it: its fast path alone decides the
	// undecoded path (see closable).
	closed func() *schema.Validator
	// defaultMembers are the defaults as object members ("name":value) and
	// defaultIssues their info issues, by index in defaultNames; nil when
	// the undecoded path fills in no default.
	defaultMembers [][]byte
	defaultIssues  []result.Issue
}

// Param is one parameter of a contract, as the repair feedback lists it.
type Param struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"` // "string", "integer|null", "array<string>", "any"
	Required    bool     `json:"required"`
	Description string   `json:"description,omitempty"`
	Enum        []string `json:"enum,omitempty"`
	Default     any      `json:"default,omitempty"`
	// Intent says what the value is for and AntiPatterns what to avoid
	// (the property's x-intent and x-anti-patterns).
	Intent       string   `json:"intent,omitempty"`
	AntiPatterns []string `json:"anti_patterns,omitempty"`
}

// schemaCheck is a JSON Schema compiled once, with the contract (which
// the Checker caches by the definition's digest): each value is checked
// through the compiled schema, with no cache look-up.
type schemaCheck struct {
	// noun is how the schema layer's messages name the value checked:
	// "the arguments", "the structuredContent".
	noun string
	// fast is the compiled schema: the fast path's verdict on a valid
	// value (valid) and the schema layer's findings (validate).
	fast *schema.Validator
}

// compiledRule is a rule with its programs.
type compiledRule struct {
	Rule
	expr, when *criteria.Expr
}

// Checker compiles contracts and checks tool calls before and after they
// run. Make one with [New] and keep it: it holds the CEL environment, a
// cache of compiled contracts by content, and the session store. A Checker
// is safe for concurrent use.
type Checker struct {
	env    *criteria.Env
	limits Limits
	store  Store
	budget int
	model  *llm.Client // decides goals the rules cannot; nil without one
	// noCompact leaves Outcome.Compacted nil (WithoutCompaction).
	noCompact bool

	mu        sync.Mutex
	contracts map[string]*contractEntry
}

type contractEntry struct {
	once sync.Once
	c    *Contract
	err  error
}

// maxCachedContracts bounds the contract cache; it starts over when full.
const maxCachedContracts = 4096

// Option configures a Checker.
type Option func(*Checker)

// WithStore sets the session store; the default is a [MemoryStore] with
// DefaultSessionTTL and DefaultMaxSessions.
func WithStore(s Store) Option { return func(c *Checker) { c.store = s } }

// WithLimits sets the progress limits; zero fields take their defaults
// (see [Limits]).
func WithLimits(l Limits) Option { return func(c *Checker) { c.limits = l } }

// WithCompactBudget sets the character budget of compacted results;
// DefaultCompactBudget when n <= 0.
func WithCompactBudget(n int) Option { return func(c *Checker) { c.budget = n } }

// New returns a Checker. It fails only when the CEL environment cannot be
// built.
func New(opts ...Option) (*Checker, error) {
	env, err := criteria.NewEnv("args")
	if err != nil {
		return nil, fmt.Errorf("toolcall: %w", err)
	}
	c := &Checker{env: env, contracts: map[string]*contractEntry{}}
	for _, o := range opts {
		o(c)
	}
	c.limits = c.limits.withDefaults()
	if c.budget <= 0 {
		c.budget = DefaultCompactBudget
	}
	if c.store == nil {
		c.store = NewMemoryStore(DefaultSessionTTL, DefaultMaxSessions)
	}
	return c, nil
}

// Limits returns the progress limits in force.
func (c *Checker) Limits() Limits { return c.limits }

// Compile compiles a definition into its contract, or returns the one
// compiled before for the same content. A broken rule or invalid schema is
// a *DefinitionError located at the definition's Where.
func (c *Checker) Compile(d Definition) (*Contract, error) {
	digest, err := digestOf(d)
	if err != nil {
		return nil, &DefinitionError{Path: d.Where, Msg: "the definition is not plain JSON: " + err.Error(), Err: err}
	}
	c.mu.Lock()
	e, ok := c.contracts[digest]
	if !ok {
		if len(c.contracts) >= maxCachedContracts {
			clear(c.contracts)
		}
		e = &contractEntry{}
		c.contracts[digest] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				e.err = fmt.Errorf("toolcall: compiling %q panicked: %v", d.Name, r)
			}
		}()
		e.c, e.err = c.compile(d, digest)
	})
	if e.err != nil {
		var de *DefinitionError
		if errors.As(e.err, &de) {
			// The cached error may have been placed for another
			// document: place a copy here.
			cp := *de
			cp.File, cp.Path = d.File, relocate(cp.Path, d.Where)
			return nil, &cp
		}
		return nil, e.err
	}
	return e.c, nil
}

// relocate replaces the definition prefix of path (everything before the
// first field of the definition) with where.
func relocate(path, where string) string {
	i := strings.Index(path, "\x00")
	if i < 0 {
		return path
	}
	return joinPath(where, path[i+1:])
}

// placed marks a path inside a definition so that relocate can move it.
func placed(field string) string { return "\x00" + field }

// digestOf is the hex SHA-256 of the definition's canonical JSON (without
// File and Where): encoding/json writes map keys sorted.
func digestOf(d Definition) (string, error) {
	d.File, d.Where = "", ""
	b, err := json.Marshal(d)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

func (c *Checker) compile(d Definition, digest string) (*Contract, error) {
	ct := &Contract{
		Name: d.Name, Kind: d.Kind, Description: d.Description, Intent: intent(d.Description),
		NextTools: slices.Clone(d.NextTools), def: d, digest: digest,
		Deprecated: deprecatedText.MatchString(d.Description), Writes: writes(d),
	}
	in := d.InputSchema
	if in == nil {
		in = map[string]any{"type": "object"}
	}
	var err error
	if ct.input, err = compileSchema(in, "the arguments"); err != nil {
		return nil, schemaError(err, "inputSchema", d.Kind)
	}
	if d.OutputSchema != nil {
		if ct.output, err = compileSchema(d.OutputSchema, "the structuredContent"); err != nil {
			return nil, schemaError(err, "outputSchema", d.Kind)
		}
	}
	root, _ := in.(map[string]any)
	ct.WhenToUse, ct.WhenNotToUse, ct.Tier = d.WhenToUse, d.WhenNotToUse, d.Tier
	if ct.WhenToUse == "" && ct.WhenNotToUse == "" {
		g := manifest.SchemaGuidance(root)
		ct.WhenToUse, ct.WhenNotToUse = strings.TrimSpace(g.WhenToUse), strings.TrimSpace(g.WhenNotToUse)
	}
	ct.props, _ = root["properties"].(map[string]any)
	_, ct.patterns = root["patternProperties"]
	_, hasAP := root["additionalProperties"]
	_, hasUP := root["unevaluatedProperties"]
	_, hasRef := root["$ref"]
	// judge reports unknown parameters itself, with the closest names,
	// where the schema leaves them open and can be read: properties at
	// the root (also under allOf, anyOf, oneOf), no $ref.
	ct.checkUnknown = !d.AllowUnknown && !hasAP && !hasUP && !hasRef
	if ct.checkUnknown {
		ct.props = mergeProps(root)
	}
	ct.required = asStrings(root["required"])
	ct.Params = params(root, ct.props, ct.required)
	ct.propNames = slices.Sorted(maps.Keys(ct.props))
	ct.coercible = coercibleParams(ct.props)
	ct.scoped = slices.Sorted(maps.Keys(d.AppliesWhen))
	ct.defaults = ct.validDefaults()
	ct.defaultNames = slices.Sorted(maps.Keys(ct.defaults))
	ct.compilePlain()
	if ct.closable(root) {
		ct.closed = sync.OnceValue(func() *schema.Validator { return closedSchema(root) })
	}
	for i, p := range ct.Params {
		if _, ok := ct.defaults[p.Name]; !ok {
			ct.Params[i].Default = nil
		}
	}
	for param, sel := range d.AppliesWhen {
		if _, ok := ct.props[param]; !ok && ct.props != nil && len(ct.props) > 0 {
			return nil, &DefinitionError{Path: placed("applies_when." + param),
				Msg: fmt.Sprintf("parameter %q is not among the schema's properties (%s)", param, strings.Join(slices.Sorted(maps.Keys(ct.props)), ", "))}
		}
		for field := range sel {
			if _, ok := ct.props[field]; !ok && len(ct.props) > 0 {
				return nil, &DefinitionError{Path: placed("applies_when." + param + "." + field),
					Msg: fmt.Sprintf("the selecting field %q is not among the schema's properties", field)}
			}
		}
	}
	for i, r := range d.Rules {
		cr := compiledRule{Rule: r}
		if cr.expr, err = c.env.Compile(r.Expression); err != nil {
			return nil, ruleError(err, fmt.Sprintf("rules[%d].expression", i))
		}
		if r.When != "" {
			if cr.when, err = c.env.Compile(r.When); err != nil {
				return nil, ruleError(err, fmt.Sprintf("rules[%d].when", i))
			}
		}
		ct.rules = append(ct.rules, cr)
	}
	return ct, nil
}

// validDefaults returns the defaults of the root properties that the
// input schema accepts for their parameter. A default its own parameter
// rejects ({"type": "string", "default": null} is common in real
// definitions) is left out: filling it would make a valid call invalid.
// judge tools lint reports such a default as a warning.
func (ct *Contract) validDefaults() map[string]any {
	out := map[string]any{}
	for _, k := range slices.Sorted(maps.Keys(ct.props)) {
		d, ok := asMap(ct.props[k])["default"]
		if !ok {
			continue
		}
		// Detached on purpose: a contract is compiled once and shared by
		// every caller (Checker.Compile), so no one caller's cancellation
		// may end it; and a default is one small value.
		found, err := ct.input.validate(context.Background(), map[string]any{k: d})
		if err != nil {
			continue
		}
		if !slices.ContainsFunc(found, func(f schema.Finding) bool { return len(f.Path) > 0 && f.Path[0] == k }) {
			out[k] = d
		}
	}
	return out
}

// compileSchema compiles s with the schema package's value-level API, so
// that the schema is read exactly as the schema layer reads an expected
// schema; the contract keeps the compiled form.
func compileSchema(s any, noun string) (*schemaCheck, error) {
	v, err := schema.CompileValue(s, schema.Options{})
	if err != nil {
		return nil, err
	}
	sc := &schemaCheck{noun: noun, fast: v}
	// Detached on purpose, as in validDefaults: the compiled schema is
	// shared by every caller. Validating {} finds a $ref cycle now, as a
	// definition error, rather than in the first call.
	if _, err := sc.validate(context.Background(), map[string]any{}); err != nil {
		return nil, err
	}
	return sc, nil
}

// valid reports whether the schema layer's fast path finds v valid for
// sure, in which case the layer has no finding for it; false means only
// that validate must decide. raw, when not nil, is v's JSON, read as it
// is; else v is encoded.
func (sc *schemaCheck) valid(v any, raw json.RawMessage) bool {
	doc := []byte(raw)
	if doc == nil {
		var err error
		if doc, err = jsonvalue.Append(nil, v); err != nil {
			return false
		}
	}
	ok, sure := sc.fast.Check(doc, 0)
	return ok && sure
}

// validate checks v against the schema and returns the schema layer's
// findings, their messages naming v as sc.noun does.
func (sc *schemaCheck) validate(ctx context.Context, v any) ([]schema.Finding, error) {
	return sc.fast.Findings(ctx, v, sc.noun)
}

// schemaError places an invalid schema in the definition.
func schemaError(err error, field, kind string) error {
	if kind == KindOpenAI {
		field = "function.parameters"
	}
	var ie *layer.InputError
	if errors.As(err, &ie) {
		loc := strings.TrimPrefix(ie.Location, "expected_schema")
		return &DefinitionError{Path: placed(field + loc), Msg: "invalid JSON Schema: " + ie.Msg, Err: err}
	}
	return &DefinitionError{Path: placed(field), Msg: "invalid JSON Schema: " + err.Error(), Err: err}
}

// ruleError places a rule that does not compile.
func ruleError(err error, field string) error {
	var ee *criteria.ExprError
	if errors.As(err, &ee) {
		return &DefinitionError{Path: placed(field), Line: ee.Line, Col: ee.Col, Msg: ee.Msg, Err: err}
	}
	return &DefinitionError{Path: placed(field), Msg: err.Error(), Err: err}
}

// mergeProps returns the properties of the root and of its allOf, anyOf
// and oneOf branches.
func mergeProps(root map[string]any) map[string]any {
	props := map[string]any{}
	maps.Copy(props, asMap(root["properties"]))
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		for _, b := range asList(root[kw]) {
			for k, v := range asMap(asMap(b)["properties"]) {
				if _, ok := props[k]; !ok {
					props[k] = v
				}
			}
		}
	}
	return props
}

// params lists the parameters for repair feedback.
func params(root, props map[string]any, required []string) []Param {
	var ps []Param
	for _, name := range slices.Sorted(maps.Keys(props)) {
		s := asMap(props[name])
		p := Param{Name: name, Type: typeName(s), Required: slices.Contains(required, name),
			Description: result.Clip(strings.Join(strings.Fields(str(s["description"])), " "), 120)}
		for _, e := range asList(s["enum"]) {
			if len(p.Enum) == 20 {
				p.Enum = append(p.Enum, "…")
				break
			}
			p.Enum = append(p.Enum, fmt.Sprint(e))
		}
		if d, ok := s["default"]; ok {
			p.Default = d
		}
		p.Intent = result.Clip(strings.Join(strings.Fields(str(s[manifest.KeyIntent])), " "), 200)
		for _, a := range asStrings(s[manifest.KeyAntiPatterns]) {
			if a = strings.TrimSpace(a); a != "" && len(p.AntiPatterns) < 10 {
				p.AntiPatterns = append(p.AntiPatterns, result.Clip(a, 120))
			}
		}
		ps = append(ps, p)
	}
	return ps
}

// typeName renders a property schema's type for repair feedback.
func typeName(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		if t == "array" {
			if it := typeName(asMap(s["items"])); it != "any" {
				return "array<" + it + ">"
			}
		}
		return t
	case []any:
		var ts []string
		for _, x := range t {
			ts = append(ts, fmt.Sprint(x))
		}
		return strings.Join(ts, "|")
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if alts := asList(s[kw]); len(alts) > 0 {
			var ts []string
			for _, a := range alts {
				if n := typeName(asMap(a)); !slices.Contains(ts, n) {
					ts = append(ts, n)
				}
			}
			return strings.Join(ts, "|")
		}
	}
	if _, ok := s["enum"]; ok {
		return "enum"
	}
	if _, ok := s["const"]; ok {
		return "const"
	}
	return "any"
}

// intent is the first sentence of a description, at most 200 characters.
func intent(desc string) string {
	d := strings.Join(strings.Fields(desc), " ")
	for i := 0; i < len(d); i++ {
		if (d[i] == '.' || d[i] == '!' || d[i] == '?') && (i+1 == len(d) || d[i+1] == ' ') {
			d = d[:i+1]
			break
		}
	}
	if len([]rune(d)) > 200 {
		return result.Clip(d, 200)
	}
	return d
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func asStrings(v any) []string {
	var ss []string
	for _, x := range asList(v) {
		if s, ok := x.(string); ok {
			ss = append(ss, s)
		}
	}
	return ss
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// Toolset is a set of compiled contracts by tool name, the tools a call
// may name. It is immutable and safe for concurrent use.
type Toolset struct {
	checker   *Checker
	contracts map[string]*Contract
	names     []string
}

// NewToolset compiles definitions into a Toolset. Every error is a
// *DefinitionError; a name defined twice is one.
func (c *Checker) NewToolset(defs ...Definition) (*Toolset, error) {
	ts := &Toolset{checker: c, contracts: make(map[string]*Contract, len(defs))}
	for _, d := range defs {
		if _, dup := ts.contracts[d.Name]; dup {
			return nil, &DefinitionError{File: d.File, Path: joinPath(d.Where, "name"), Msg: fmt.Sprintf("tool %q is defined twice", d.Name)}
		}
		ct, err := c.Compile(d)
		if err != nil {
			return nil, err
		}
		ts.contracts[d.Name] = ct
	}
	ts.names = slices.Sorted(maps.Keys(ts.contracts))
	return ts, nil
}

// Contract returns the contract of the tool named name.
func (ts *Toolset) Contract(name string) (*Contract, bool) {
	ct, ok := ts.contracts[name]
	return ct, ok
}

// Names returns the tools' names, sorted.
func (ts *Toolset) Names() []string { return slices.Clone(ts.names) }

// digestBytes is a short hex digest of b: the first 16 bytes of its
// SHA-256.
func digestBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}
