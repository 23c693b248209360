package schema

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/agentjudge/judge/internal/jsontoken"
	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/result"
)

// Streaming validation. A Stream reads a document in chunks and reports a
// violation as soon as no continuation of what it has read could make the
// document valid. It keeps, for the value being read, the schemas that
// value must match for the document to be valid (its necessary schemas):
// the root schema, and from each necessary schema its $ref and allOf
// branches, and for a member or an item the schemas of properties,
// patternProperties, additionalProperties, prefixItems, items and
// additionalItems that apply to it. anyOf, oneOf, not and if lead to no
// necessary schema: a value may fail one alternative and still match
// another. Each check below fails only when the value fails a necessary
// schema whatever comes next, so a violation it reports is certain.

// StreamOptions configure a Stream.
type StreamOptions struct {
	// DuplicateRule and DuplicateWhere word the duplicate_key warning of a
	// repeated key (see jsonvalue.Duplicate.Issue): the rule id
	// ("output.duplicate_key") and where the document is ("of the output").
	DuplicateRule, DuplicateWhere string
	// MaxDepth is how deeply the document may nest; 0 means the
	// Validator's (Options.MaxDepth, else jsonvalue.DefaultMaxDepth).
	MaxDepth int
}

// Event is what a Stream reports while it reads: new certain violations
// (errors), or the duplicate_key warning of a repeated key.
type Event struct {
	// At is how many bytes had been written (a byte-order mark included)
	// when the event became certain: the byte of the value's first
	// character for a value of a type the schema cannot accept, the end
	// of a key, string or container, the byte after a number, or the end
	// of the chunk for a string already too long or no allowed value
	// starts with.
	At int64
	// Issues are the new issues, worded as the schema layer words them.
	Issues []result.Issue
}

// Stream validates one document read in chunks. Make one per document
// with Validator.Stream. A Stream is not safe for concurrent use; the
// Validator it came from is.
type Stream struct {
	v      *Validator
	cache  *streamCache
	opts   StreamOptions
	tk     *jsontoken.Tokenizer
	raw    []byte // the bytes written, a byte-order mark included
	frames []frame
	events []Event
	// next holds the necessary schemas of the value about to start in the
	// innermost object (set at its key).
	next []*splan
	// scalar is the scalar being read whose start was checked.
	scalar  scalarState
	dupes   int
	emitFn  func(*jsontoken.Token) error
	closing bool // Close is ending the document
	// incomplete is set when the stream cannot vouch for the document:
	// a violation, a repeated key, or a keyword it left to the final
	// validation.
	incomplete bool
}

// frame is one open array or object. token writes a reused frame field
// by field: a field added here must be set there.
type frame struct {
	plans    []*splan
	reported []*splan // schemas already failed at the container's start
	array    bool
	begin    int64
	count    int      // items, or members
	keys     []string // the keys read, for objects, in order
	// keySet holds the keys too once there are more than a few.
	keySet map[string]struct{}
	key    string // the key of the current member
	// seen marks the keys read that the first plan declares in its
	// properties list, by their index there.
	seen uint64
}

// has reports whether the object has read key.
func (f *frame) has(key string) bool {
	if f.keySet != nil {
		_, ok := f.keySet[key]
		return ok
	}
	return slices.Contains(f.keys, key)
}

// hasDeclared reports whether the object has read the key at index idx
// of the first plan's properties list (-1: not in that list).
func (f *frame) hasDeclared(key string, idx int) bool {
	if idx >= 0 {
		return f.seen&(1<<idx) != 0
	}
	return f.has(key)
}

// add records key.
func (f *frame) add(key string) {
	f.keys = append(f.keys, key)
	switch {
	case f.keySet != nil:
		f.keySet[key] = struct{}{}
	case len(f.keys) > 16:
		f.keySet = make(map[string]struct{}, 2*len(f.keys))
		for _, k := range f.keys {
			f.keySet[k] = struct{}{}
		}
	}
}

// pathOf returns the path of the value held by frames[:depth]: the keys
// and indices that lead to it.
func (s *Stream) pathOf(depth int) []string {
	path := make([]string, 0, depth)
	for i := range depth {
		f := &s.frames[i]
		if f.array {
			path = append(path, strconv.Itoa(f.count-1))
		} else {
			path = append(path, f.key)
		}
	}
	return path
}

type scalarState struct {
	begin    int64 // -1: none
	plans    []*splan
	reported []*splan
}

// splan is what a Stream checks of one schema.
type splan struct {
	// The fields read for every value come first, to share its first
	// cache lines.

	kinds  int // the kinds of values s can accept
	maxLen int // -1: none
	minLen int // 0: none
	// closedScalar and closedContainer say whether a closed value must be
	// validated against s: s has a keyword the stream does not check
	// itself.
	closedScalar, closedContainer bool
	// closedString is closedScalar for a string, whose maxLength and
	// exact enum (exact: enum or const, of strings only) the stream
	// checks itself.
	closedString, exact bool
	// patternOnly says that closedString comes from pattern alone, which
	// the stream matches itself as the fast path does.
	patternOnly bool
	// numericOnly says that, for a number, closedScalar comes only from
	// bounds, multipleOf and integer, which the stream checks itself with
	// the fast path's comparisons; integerOnly that the type is integer.
	numericOnly, integerOnly bool
	// anyInteger says that numericOnly comes from integer alone (no
	// bounds, no multipleOf): every number written without a fraction or
	// an exponent is valid.
	anyInteger bool
	enumed     bool // s has enum or const
	// required says that s has required; reqBits that every required name
	// has a seen bit, whose mask is reqMask.
	required, reqBits bool
	// plainKeys says that a key needs only props, addl and the seen bits:
	// no maxProperties, patternProperties or propertyNames (set by build).
	plainKeys bool
	addlFalse bool // additionalProperties is false
	reqMask   uint64
	// props, addl and items are the closures of the schemas of
	// properties, additionalProperties and of every item, when the
	// schema has them (items: a single schema for all items).
	props props
	addl  []*splan
	items []*splan

	s       *jsonschema.Schema
	closure []*splan // s, then the schemas it always leads to ($ref, allOf)
	// typeKinds are the kinds its type keyword accepts (all without one).
	typeKinds int
	strs      []string // the strings enum and const accept, with enumed
	// reqIdx holds, for each name of required, its index in props.list,
	// or -1.
	reqIdx []int

	fastOnce sync.Once
	fast     *node
	nodes    int
}

// kinds of values, for splan.kinds.
const (
	vNull = 1 << iota
	vBool
	vNumber
	vString
	vArray
	vObject
	vAll = vNull | vBool | vNumber | vString | vArray | vObject
)

// streamCache holds the plans of a compiled schema's subschemas, built as
// streams meet them and shared by every stream of the schema.
type streamCache struct {
	once sync.Once
	// plans holds the plan of every schema of the compiled schema's
	// index, built once and then only read.
	plans map[*jsonschema.Schema]*splan
	// extra holds, under mu, plans of schemas met outside the index.
	mu    sync.Mutex
	extra map[*jsonschema.Schema]*splan
	// building is set while once builds plans.
	building bool
	// root is the closure of the compiled schema's root.
	root []*splan
	// dynamic is set when some subschema has $dynamicRef or
	// $recursiveRef, whose target depends on where validation started: a
	// subschema cannot then be validated alone, and closed values are
	// left to the final validation.
	dynamic bool
}

// Stream returns a new Stream that validates one document against v.
func (v *Validator) Stream(opts StreamOptions) *Stream {
	c := v.c
	c.stream.once.Do(func() { c.stream.build(c) })
	s := streamPool.Get().(*Stream)
	s.v, s.cache, s.opts = v, &c.stream, opts
	depth := v.maxDepth
	if opts.MaxDepth > 0 {
		depth = opts.MaxDepth
	}
	s.tk.Reset(depth)
	s.scalar.begin = -1
	return s
}

// streamPool keeps released Streams, with their buffers, for reuse.
var streamPool = sync.Pool{New: func() any {
	s := &Stream{tk: jsontoken.New(0)}
	s.emitFn = s.token
	return s
}}

// Release ends the Stream's use: its buffers may serve another Stream,
// and it must not be used after (Document and Raw included).
func (s *Stream) Release() {
	if cap(s.raw) > 1<<18 || cap(s.frames) > 1<<10 {
		return // do not keep large buffers alive
	}
	// The frames are not cleared: a frame reused is written whole (its
	// keys buffer aside, whose old strings are never read), and what they
	// hold (plans, keys read) lives at most until the pool drops the
	// stream, two collections.
	tk, emitFn, raw, frames := s.tk, s.emitFn, s.raw[:0], s.frames[:0]
	*s = Stream{}
	s.tk, s.emitFn, s.raw, s.frames = tk, emitFn, raw, frames
	streamPool.Put(s)
}

// Valid reports, once Close has returned no error, whether the stream
// found the document valid by itself: it checked every keyword of every
// schema the document had to match and none failed, and no key repeated.
// False means only that the whole document's validation decides.
func (s *Stream) Valid() bool {
	return s.closing && s.tk.Err() == nil && s.tk.Done() && !s.incomplete
}

// Raw returns the bytes written, a byte-order mark included.
func (s *Stream) Raw() []byte { return s.raw }

// build makes the plans of every schema of c's index, with their
// closures and the closures of their members' and items' schemas.
func (sc *streamCache) build(c *compiled) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.building = true
	sc.plans = map[*jsonschema.Schema]*splan{}
	f := c.form(true)
	for _, s := range f.index {
		if s.DynamicRef != nil || s.RecursiveRef != nil {
			sc.dynamic = true
		}
		sc.planLocked(s)
	}
	for _, p := range slices.Collect(maps.Values(sc.plans)) {
		s := p.s
		if len(s.Properties) > 0 {
			list := make([]prop, 0, len(s.Properties))
			for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
				list = append(list, prop{name: k, closure: sc.planLocked(s.Properties[k]).closure})
			}
			p.props.set(list)
		}
		if len(s.Required) > 0 {
			p.reqIdx = make([]int, len(s.Required))
			p.reqBits = true
			for i, name := range s.Required {
				p.reqIdx[i] = -1
				if pr := p.props.find([]byte(name)); pr != nil && pr.idx >= 0 {
					p.reqIdx[i] = pr.idx
					p.reqMask |= 1 << pr.idx
				} else {
					p.reqBits = false
				}
			}
		}
		// Keys need only the properties list, additionalProperties and
		// seen bits when no other keyword of the object reads them.
		p.plainKeys = s.MaxProperties == nil && len(s.PatternProperties) == 0 && s.PropertyNames == nil
		if b, ok := s.AdditionalProperties.(bool); ok && !b {
			p.addlFalse = true
		}
		if add, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
			p.addl = sc.planLocked(add).closure
		}
		if items, ok := s.Items.(*jsonschema.Schema); ok && len(s.PrefixItems) == 0 && s.Items2020 == nil {
			p.items = sc.planLocked(items).closure
		}
		if s.Items2020 != nil && len(s.PrefixItems) == 0 {
			p.items = sc.planLocked(s.Items2020).closure
		}
	}
	sc.root = sc.planLocked(f.sch).closure
	sc.building = false
}

// planLocked returns the plan of sch with its closure: sch, then the
// schemas its $ref and allOf lead to, transitively. sc.mu is held.
func (sc *streamCache) planLocked(sch *jsonschema.Schema) *splan {
	p := sc.get(sch)
	if p.closure != nil {
		return p
	}
	closure := []*splan{p}
	for i := 0; i < len(closure); i++ {
		s := closure[i].s
		next := slices.Clone(s.AllOf)
		if s.Ref != nil {
			next = append(next, s.Ref)
		}
		for _, n := range next {
			if q := sc.get(n); !slices.Contains(closure, q) {
				closure = append(closure, q)
			}
		}
	}
	p.closure = closure
	return p
}

// get returns the plan of sch, made without its closure when new. sc.mu
// is held.
func (sc *streamCache) get(sch *jsonschema.Schema) *splan {
	if p, ok := sc.plans[sch]; ok {
		return p
	}
	if sc.building {
		p := newPlan(sch)
		sc.plans[sch] = p
		return p
	}
	if sc.extra == nil {
		sc.extra = map[*jsonschema.Schema]*splan{}
	}
	p, ok := sc.extra[sch]
	if !ok {
		p = newPlan(sch)
		sc.extra[sch] = p
	}
	return p
}

// lookup returns the closure of sch's plan, without a lock for a schema
// of the index.
func (sc *streamCache) lookup(sch *jsonschema.Schema) []*splan {
	if p, ok := sc.plans[sch]; ok && p.closure != nil {
		return p.closure
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.planLocked(sch).closure
}

// props are the properties a schema declares, in a list; a key is found
// by the fast path's keyTable (a slot from its length and three bytes,
// then one comparison) or, when the names share slots, a map.
type props struct {
	list  []prop
	table *keyTable      // keyInfo.bit is the index in list
	m     map[string]int // when table is nil: name -> index in list
}

// maxTracked is how many declared names a frame marks in its seen bits.
const maxTracked = 64

// set makes ps the properties of list, indexed.
func (ps *props) set(list []prop) {
	ps.list = list
	keys := make(map[string]keyInfo, len(list))
	for i := range list {
		list[i].idx = -1
		if i < maxTracked {
			list[i].idx = i
		}
		keys[list[i].name] = keyInfo{bit: i}
	}
	if ps.table = newKeyTable(keys); ps.table == nil {
		ps.m = make(map[string]int, len(list))
		for i := range list {
			ps.m[list[i].name] = i
		}
	}
}

// find returns the property named key, or nil.
func (ps *props) find(key []byte) *prop {
	switch {
	case ps.table != nil:
		if ki, ok := ps.table.find(key); ok {
			return &ps.list[ki.bit]
		}
	case ps.m != nil:
		if i, ok := ps.m[string(key)]; ok {
			return &ps.list[i]
		}
	}
	return nil
}

// prop is a property a schema declares: its name (so that a key read need
// not be copied) and the closure of its schema.
type prop struct {
	name    string
	idx     int // its index in the list, the frame's seen bit; -1 past maxTracked
	closure []*splan
}

func newPlan(s *jsonschema.Schema) *splan {
	p := &splan{s: s, kinds: vAll, typeKinds: vAll, maxLen: -1}
	if s.Bool != nil {
		if !*s.Bool {
			p.kinds = 0
		}
		return p
	}
	integerOnly := false
	if s.Types != nil {
		p.typeKinds = 0
		hasNumber := false
		for _, t := range s.Types.ToStrings() {
			switch t {
			case "null":
				p.typeKinds |= vNull
			case "boolean":
				p.typeKinds |= vBool
			case "number":
				p.typeKinds |= vNumber
				hasNumber = true
			case "integer":
				p.typeKinds |= vNumber
				integerOnly = true
			case "string":
				p.typeKinds |= vString
			case "array":
				p.typeKinds |= vArray
			case "object":
				p.typeKinds |= vObject
			}
		}
		integerOnly = integerOnly && !hasNumber
		p.kinds = p.typeKinds
	}
	var vals []any
	if s.Enum != nil {
		vals = s.Enum.Values
		p.enumed = true
	}
	if s.Const != nil {
		vals = append(slices.Clone(vals), *s.Const)
		p.enumed = true
	}
	if p.enumed {
		ek := 0
		for _, v := range vals {
			ek |= kindOf(v)
			if str, ok := v.(string); ok {
				p.strs = append(p.strs, str)
			}
		}
		if s.Enum != nil && s.Const != nil {
			// Both apply: a string must be among the enum's strings and
			// equal the const; checking prefixes against the union is
			// weaker, never wrong.
			ek = kindOf(*s.Const) & enumKinds(s.Enum.Values)
		}
		p.kinds &= ek
	}
	if s.MaxLength != nil {
		p.maxLen = *s.MaxLength
	}
	p.required = len(s.Required) > 0
	dyn := s.DynamicRef != nil || s.RecursiveRef != nil || len(s.Extensions) > 0
	alt := s.Not != nil || len(s.AnyOf) > 0 || len(s.OneOf) > 0 || s.If != nil
	p.closedScalar = dyn || alt || integerOnly || p.enumed || s.Format != nil ||
		s.MinLength != nil || s.MaxLength != nil || s.Pattern != nil ||
		s.ContentEncoding != nil || s.ContentMediaType != nil || s.ContentSchema != nil ||
		s.Maximum != nil || s.Minimum != nil || s.ExclusiveMaximum != nil || s.ExclusiveMinimum != nil || s.MultipleOf != nil
	p.exact = (s.Enum != nil) != (s.Const != nil) && len(p.strs) == len(vals)
	if s.MinLength != nil {
		p.minLen = *s.MinLength
	}
	p.closedString = dyn || alt || s.Format != nil || s.Pattern != nil ||
		s.ContentEncoding != nil || s.ContentMediaType != nil || s.ContentSchema != nil || (p.enumed && !p.exact)
	p.patternOnly = s.Pattern != nil && !dyn && !alt && s.Format == nil &&
		s.ContentEncoding == nil && s.ContentMediaType == nil && s.ContentSchema == nil && !(p.enumed && !p.exact)
	p.integerOnly = integerOnly
	p.numericOnly = !dyn && !alt && !p.enumed && s.Format == nil
	p.anyInteger = p.numericOnly && integerOnly && s.Maximum == nil && s.Minimum == nil &&
		s.ExclusiveMaximum == nil && s.ExclusiveMinimum == nil && s.MultipleOf == nil
	p.closedContainer = dyn || alt || p.enumed || s.Format != nil ||
		s.MinProperties != nil || len(s.Dependencies) > 0 || len(s.DependentRequired) > 0 || len(s.DependentSchemas) > 0 ||
		s.UnevaluatedProperties != nil || s.MinItems != nil || s.UniqueItems || s.Contains != nil ||
		s.MinContains != nil || s.MaxContains != nil || s.UnevaluatedItems != nil
	return p
}

func enumKinds(vals []any) int {
	k := 0
	for _, v := range vals {
		k |= kindOf(v)
	}
	return k
}

// kindOf is the kind of a decoded JSON value.
func kindOf(v any) int {
	switch v.(type) {
	case nil:
		return vNull
	case bool:
		return vBool
	case string:
		return vString
	case []any:
		return vArray
	case map[string]any:
		return vObject
	}
	return vNumber // json.Number, float64, and the integer types
}

// closureOf returns the union of the closures of the plans of schemas,
// each once.
func (sc *streamCache) closureOf(schemas []*jsonschema.Schema) []*splan {
	if len(schemas) == 0 {
		return nil
	}
	if len(schemas) == 1 {
		return sc.lookup(schemas[0]) // shared, never changed
	}
	var out []*splan
	for _, sch := range schemas {
		out = union(out, sc.lookup(sch))
	}
	return out
}

// union adds to out the plans of ps it does not hold.
func union(out, ps []*splan) []*splan {
	for _, q := range ps {
		if !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	return out
}

// Write reads the next bytes of the document and returns the events that
// became certain. It returns a *jsonvalue.SyntaxError, at its byte, when
// the document is malformed or refused (too deep, invalid UTF-8, a number
// too large); the Stream then refuses further input.
func (s *Stream) Write(p []byte) ([]Event, error) {
	s.raw = append(s.raw, p...)
	if err := s.tk.Write(p, s.emitFn); err != nil {
		return s.flush(), err
	}
	s.pending()
	return s.flush(), nil
}

// Close ends the document and returns the last events; its error is
// Write's, or one wrapping io.ErrUnexpectedEOF for a document cut short.
func (s *Stream) Close() ([]Event, error) {
	s.closing = true
	err := s.tk.Close(s.emitFn)
	return s.flush(), err
}

// Document returns the document's bytes read so far (after a byte-order
// mark at its start), to validate whole once it is complete.
func (s *Stream) Document() []byte { return s.raw[s.tk.BOM():] }

// docBytes returns the document bytes [begin, end).
func (s *Stream) docBytes(begin, end int64) []byte {
	b := int64(s.tk.BOM())
	return s.raw[begin+b : end+b]
}

func (s *Stream) flush() []Event {
	if len(s.events) == 0 {
		return nil
	}
	ev := s.events
	s.events = nil
	slices.SortStableFunc(ev, func(a, b Event) int { return int(a.At - b.At) })
	return ev
}

// at converts a document offset to bytes written.
func (s *Stream) at(off int64) int64 { return off + int64(s.tk.BOM()) }

func (s *Stream) report(at int64, issues []result.Issue) {
	if len(issues) > 0 {
		s.events = append(s.events, Event{At: s.at(at), Issues: issues})
		s.incomplete = true
	}
}

// token handles one token of the tokenizer.
func (s *Stream) token(t *jsontoken.Token) error {
	switch t.Kind {
	case jsontoken.Key:
		s.key(t)
	case jsontoken.BeginObject, jsontoken.BeginArray:
		plans := s.valueStart(t.Begin)
		reported := s.startCheck(plans, len(s.frames), kindOfToken(t.Kind), t.Begin+1)
		n := len(s.frames)
		if n < cap(s.frames) {
			s.frames = s.frames[:n+1] // a closed frame, written over field by field
		} else {
			s.frames = append(s.frames, frame{})
		}
		f := &s.frames[n]
		f.plans, f.reported, f.array, f.begin = plans, reported, t.Kind == jsontoken.BeginArray, t.Begin
		f.count, f.keys, f.keySet, f.key, f.seen = 0, f.keys[:0], nil, "", 0 // the keys' buffer reused
	case jsontoken.EndObject, jsontoken.EndArray:
		s.containerEnd(t)
	default:
		s.scalarEnd(t)
	}
	return nil
}

func kindOfToken(k jsontoken.Kind) int {
	switch k {
	case jsontoken.BeginObject:
		return vObject
	case jsontoken.BeginArray:
		return vArray
	case jsontoken.String, jsontoken.Key:
		return vString
	case jsontoken.Number:
		return vNumber
	case jsontoken.True, jsontoken.False:
		return vBool
	}
	return vNull
}

// valueStart returns the necessary schemas and the path of the value
// starting now, and makes the checks of its container that its start
// decides (maxItems, additionalItems false).
func (s *Stream) valueStart(begin int64) []*splan {
	if len(s.frames) == 0 {
		return s.cache.root
	}
	f := &s.frames[len(s.frames)-1]
	if !f.array {
		return s.next
	}
	idx := f.count
	f.count++
	if p := f.plans; len(p) == 1 && p[0].items != nil && (p[0].s.MaxItems == nil || f.count <= *p[0].s.MaxItems) {
		return p[0].items // one schema for every item, and not one item too many
	}
	var next []*jsonschema.Schema
	for _, p := range f.plans {
		sch := p.s
		if sch.MaxItems != nil && f.count == *sch.MaxItems+1 && !slices.Contains(f.reported, p) {
			s.containerIssue(len(s.frames)-1, p, "maxItems",
				fmt.Sprintf("has more than %s, the maximum", plural(*sch.MaxItems, "item")),
				fmt.Sprintf("Remove items from %%s until it has at most %d", *sch.MaxItems), begin+1)
		}
		switch {
		case sch.PrefixItems != nil || sch.Items2020 != nil:
			if idx < len(sch.PrefixItems) {
				next = append(next, sch.PrefixItems[idx])
			} else if sch.Items2020 != nil {
				next = append(next, sch.Items2020)
			}
		default:
			switch items := sch.Items.(type) {
			case *jsonschema.Schema:
				next = append(next, items)
			case []*jsonschema.Schema:
				if idx < len(items) {
					next = append(next, items[idx])
					break
				}
				switch add := sch.AdditionalItems.(type) {
				case *jsonschema.Schema:
					next = append(next, add)
				case bool:
					if !add && idx == len(items) && !slices.Contains(f.reported, p) {
						s.containerIssue(len(s.frames)-1, p, "additionalItems",
							fmt.Sprintf("has more than %s, but the schema allows only the first %d (additionalItems is false)", plural(len(items), "item"), len(items)),
							fmt.Sprintf("Remove the items after the first %d from %%s", len(items)), begin+1)
					}
				}
			}
		}
	}
	return s.cache.closureOf(next)
}

// startCheck checks the kind of a value starting (kind) against its
// necessary schemas, reports those it fails at at, and returns them.
func (s *Stream) startCheck(plans []*splan, depth int, k int, at int64) []*splan {
	for _, p := range plans {
		if p.kinds&k == 0 {
			return s.startFailed(plans, depth, k, at)
		}
	}
	return nil
}

// startFailed is startCheck once some plan fails.
func (s *Stream) startFailed(plans []*splan, depth int, k int, at int64) []*splan {
	var failed []*splan
	for _, p := range plans {
		if p.kinds&k != 0 {
			continue
		}
		failed = append(failed, p)
		path := s.pathOf(depth)
		r := s.reporter(len(s.frames), nil)
		site := r.at(path)
		switch {
		case p.s.Bool != nil:
			r.leaf(&jsonschema.ValidationError{SchemaURL: p.s.Location, InstanceLocation: path, ErrorKind: &kind.FalseSchema{}})
		case p.typeKinds&k == 0:
			r.leaf(&jsonschema.ValidationError{SchemaURL: p.s.Location, InstanceLocation: path,
				ErrorKind: &kind.Type{Got: kindName(k), Want: p.s.Types.ToStrings()}})
		default:
			kw, vals := "enum", []any(nil)
			if p.s.Enum != nil {
				vals = p.s.Enum.Values
			}
			if p.s.Const != nil && (p.s.Enum == nil || kindOf(*p.s.Const)&k == 0) {
				kw, vals = "const", []any{*p.s.Const}
			}
			list := showList(vals, 10)
			r.addf(site, result.ConstraintViolation, kw,
				fmt.Sprintf("is %s %s, but no allowed value is: the allowed values are %s", article(kindName(k)), kindName(k), list),
				fmt.Sprintf("Use one of the allowed values for %s: %s", site.ref, list))
		}
		s.report(at, r.issues())
	}
	return failed
}

func kindName(k int) string {
	switch k {
	case vNull:
		return "null"
	case vBool:
		return "boolean"
	case vNumber:
		return "number"
	case vString:
		return "string"
	case vArray:
		return "array"
	}
	return "object"
}

// reporter returns a reporter whose document is the skeleton of the
// frames[:depth] around leaf, so that locations render as in the
// document.
func (s *Stream) reporter(depth int, leaf any) *reporter {
	return newReporter(s.v.c, s.skeleton(depth, leaf), MaxIssues)
}

// skeleton builds the part of the document the open containers
// frames[:depth] show, with leaf as the value of the innermost's current
// member or item.
func (s *Stream) skeleton(depth int, leaf any) any {
	cur := leaf
	for i := depth - 1; i >= 0; i-- {
		f := &s.frames[i]
		if f.array {
			a := make([]any, max(f.count, 1))
			a[len(a)-1] = cur
			cur = a
			continue
		}
		m := make(map[string]any, len(f.keys))
		for _, k := range f.keys {
			m[k] = nil
		}
		m[f.key] = cur
		cur = m
	}
	return cur
}

// containerLeaf is the skeleton of the container frames[i] itself.
func (s *Stream) containerLeaf(i int) any {
	f := &s.frames[i]
	if f.array {
		return make([]any, f.count)
	}
	m := make(map[string]any, len(f.keys))
	for _, k := range f.keys {
		m[k] = nil
	}
	return m
}

// containerIssue reports a violation of the container frames[i] of the
// keyword of p, worded reason and suggestion (a format with one %s for
// the container's reference).
func (s *Stream) containerIssue(i int, p *splan, keyword, reason, suggestion string, at int64) {
	r := s.reporter(i, s.containerLeaf(i))
	site := r.at(s.pathOf(i))
	r.addf(site, result.ConstraintViolation, keyword, reason, fmt.Sprintf(suggestion, site.ref))
	s.report(at, r.issues())
}

// key handles an object's key.
func (s *Stream) key(t *jsontoken.Token) {
	f := &s.frames[len(s.frames)-1]
	// The first schema's property of that name, looked up once; its name
	// spares a copy of the key.
	var first *prop
	if len(f.plans) > 0 {
		first = f.plans[0].props.find(t.Text)
	}
	key, idx := "", -1
	if first != nil {
		key, idx = first.name, first.idx
	} else {
		key = string(t.Text)
	}
	f.count++
	if f.hasDeclared(key, idx) {
		s.duplicate(key, t.Begin, t.End)
	}
	f.add(key)
	if idx >= 0 {
		f.seen |= 1 << idx
	}
	f.key = key
	i := len(s.frames) - 1
	if len(f.plans) == 1 && f.plans[0].plainKeys {
		// One schema whose keys need only its properties and
		// additionalProperties: the member's schemas without the loop
		// of memberPlans.
		p := f.plans[0]
		switch {
		case first != nil:
			s.next = first.closure
		case p.addl != nil:
			s.next = p.addl
		default:
			s.next = nil
			if p.addlFalse && !slices.Contains(f.reported, p) {
				s.forbiddenKey(i, p, key, t.End)
			}
		}
		return
	}
	s.next = s.memberPlans(i, first, key, t.End)
}

// memberPlans returns the necessary schemas of the member key of the
// object frames[i], first its property in the first plan, and reports
// what the key decides (maxProperties, additionalProperties false,
// propertyNames) at at.
func (s *Stream) memberPlans(i int, first *prop, key string, at int64) []*splan {
	f := &s.frames[i]
	// next is the union of the closures of the member's schemas, shared
	// with a plan when only one contributes.
	var next []*splan
	shared := true
	add := func(ps []*splan) {
		switch {
		case len(ps) == 0:
		case next == nil:
			next = ps
		default:
			if shared {
				next, shared = slices.Clone(next), false
			}
			next = union(next, ps)
		}
	}
	for _, p := range f.plans {
		sch := p.s
		if sch.MaxProperties != nil && f.count == *sch.MaxProperties+1 && !slices.Contains(f.reported, p) {
			s.containerIssue(i, p, "maxProperties",
				fmt.Sprintf("has more than %s, the maximum", plural(*sch.MaxProperties, "property")),
				fmt.Sprintf("Remove properties from %%s until it has at most %d", *sch.MaxProperties), at)
		}
		matched := false
		pr := first
		if p != f.plans[0] {
			pr = p.props.find([]byte(key))
		}
		if pr != nil {
			add(pr.closure)
			matched = true
		} else if ps, ok := sch.Properties[key]; ok {
			add(s.cache.lookup(ps)) // a plan made outside the index
			matched = true
		}
		if len(sch.PatternProperties) > 0 {
			for re, ps := range sch.PatternProperties {
				if re.MatchString(key) {
					add(s.cache.lookup(ps))
					matched = true
				}
			}
		}
		if !matched {
			switch addl := sch.AdditionalProperties.(type) {
			case *jsonschema.Schema:
				if p.addl != nil {
					add(p.addl)
				} else {
					add(s.cache.lookup(addl))
				}
			case bool:
				if !addl && !slices.Contains(f.reported, p) {
					s.forbiddenKey(i, p, key, at)
				}
			}
		}
		if sch.PropertyNames != nil && s.cache.dynamic {
			s.incomplete = true // the name's schema cannot be validated alone
		} else if sch.PropertyNames != nil && !slices.Contains(f.reported, p) {
			if verr := sch.PropertyNames.Validate(key); verr != nil {
				if ve, ok := verr.(*jsonschema.ValidationError); ok {
					r := s.reporter(i, s.containerLeaf(i))
					r.leaf(&jsonschema.ValidationError{SchemaURL: sch.Location, InstanceLocation: s.pathOf(i),
						ErrorKind: &kind.PropertyNames{Property: key}, Causes: []*jsonschema.ValidationError{ve}})
					s.report(at, r.issues())
				}
			}
		}
	}
	return next
}

// forbiddenKey reports the key of the object frames[i] that p's
// additionalProperties false forbids.
func (s *Stream) forbiddenKey(i int, p *splan, key string, at int64) {
	r := s.reporter(i, s.containerLeaf(i))
	r.leaf(&jsonschema.ValidationError{SchemaURL: p.s.Location, InstanceLocation: s.pathOf(i),
		ErrorKind: &kind.AdditionalProperties{Properties: []string{key}}})
	s.report(at, r.issues())
}

// duplicate reports the duplicate_key warning of a repeated key.
func (s *Stream) duplicate(key string, begin, end int64) {
	if s.dupes >= jsonvalue.MaxDuplicates {
		return
	}
	s.dupes++
	s.incomplete = true
	n := len(s.frames)
	path := append(s.pathOf(n-1), key)
	line, col := jsonvalue.Position(s.docBytes(0, begin), begin)
	d := jsonvalue.Duplicate{Key: key, Path: InstanceLocation(s.skeleton(n, nil), path), Offset: begin, Line: line, Col: col}
	rule, where := s.opts.DuplicateRule, s.opts.DuplicateWhere
	if rule == "" {
		rule, where = "schema.duplicate_key", "of the document"
	}
	s.report(end, []result.Issue{d.Issue(rule, where)})
}

// containerEnd handles the end of an array or object.
func (s *Stream) containerEnd(t *jsontoken.Token) {
	i := len(s.frames) - 1
	f := &s.frames[i]
	if !f.array {
		for _, p := range f.plans {
			if p.required && !(p == f.plans[0] && p.reqBits && f.seen&p.reqMask == p.reqMask) {
				s.requiredCheck(i, p, t.End) // not every required name read for sure
			}
		}
	}
	for _, p := range f.plans {
		switch {
		case !p.closedContainer || f.reported != nil && slices.Contains(f.reported, p):
		case i > 0 && !s.cache.dynamic:
			s.closedCheck(p, i, f.begin, t.End, t.End)
		default:
			s.incomplete = true // the final validation decides
		}
	}
	s.frames = s.frames[:i]
}

// requiredCheck reports at at the names p requires that the object
// frames[i], closing, lacks.
func (s *Stream) requiredCheck(i int, p *splan, at int64) {
	f := &s.frames[i]
	if slices.Contains(f.reported, p) {
		return // failed already
	}
	var missing []string
	for j, name := range p.s.Required {
		idx := -1
		if p == f.plans[0] && j < len(p.reqIdx) {
			idx = p.reqIdx[j]
		}
		if !f.hasDeclared(name, idx) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		r := s.reporter(i, s.containerLeaf(i))
		r.leaf(&jsonschema.ValidationError{SchemaURL: p.s.Location, InstanceLocation: s.pathOf(i),
			ErrorKind: &kind.Required{Missing: missing}})
		s.report(at, r.issues())
	}
}

// scalarEnd handles a complete scalar.
func (s *Stream) scalarEnd(t *jsontoken.Token) {
	var plans, reported []*splan
	if s.scalar.begin == t.Begin {
		// Its start was checked when a chunk ended inside it.
		plans, reported = s.scalar.plans, s.scalar.reported
		s.scalar.begin = -1
	} else {
		plans = s.valueStart(t.Begin)
		reported = s.startCheck(plans, len(s.frames), kindOfToken(t.Kind), t.Begin+1)
	}
	if len(s.frames) == 0 || s.cache.dynamic {
		for _, p := range plans {
			if p.closedScalar {
				s.incomplete = true // the final validation decides
			}
		}
		return
	}
	for _, p := range plans {
		if !p.closedScalar || reported != nil && slices.Contains(reported, p) {
			continue
		}
		switch t.Kind {
		case jsontoken.Number:
			if p.numericOnly && (p.anyInteger && !fractional(t.Text) || s.numberValid(p, t.Text)) {
				continue
			}
		case jsontoken.String:
			if (!p.closedString || p.patternOnly && patternValid(p, t.Text)) && stringValid(p, t.Text) {
				continue
			}
		}
		at := t.End
		if t.Kind == jsontoken.Number && !s.closing {
			at = t.End + 1 // a number is complete only once the byte after it is read
		}
		s.closedCheck(p, len(s.frames), t.Begin, t.End, at)
	}
}

// stringValid reports whether text meets p's exact enum, maxLength and
// minLength, the only keywords p has for a string when it is not
// closedString; false sends it to the validator, which words a failure.
func stringValid(p *splan, text []byte) bool {
	if p.exact && !hasString(p.strs, text) {
		return false
	}
	if p.maxLen >= 0 || p.minLen > 0 {
		n := utf8.RuneCount(text)
		return (p.maxLen < 0 || n <= p.maxLen) && n >= p.minLen
	}
	return true
}

// numberValid reports whether the number text surely meets p's numeric
// keywords, compared as the fast path compares them; false sends it to the
// validator.
func (s *Stream) numberValid(p *splan, text []byte) bool {
	p.fastOnce.Do(func() { p.fast, p.nodes, _ = compileFast(p.s) })
	if p.fast == nil || p.fast.always != 0 {
		return false
	}
	if p.integerOnly && fractional(text) {
		return false // 1.0 and 1e2 are integers in some drafts only
	}
	if valid, ok := quickNumber(p.fast, text); ok {
		return valid
	}
	d, ok := parseDecimal(text)
	if !ok {
		return false
	}
	var sc *scanner // numberCheck reads no scanner state
	return sc.numberCheck(p.fast, text, d)
}

// quickNumber compares a number written with at most 15 digits and no
// exponent to n's bounds as numberCheck compares them, by their float64
// values (exact for such a number, whose value is its digits over a power
// of ten, and for a short bound). ok is false when it cannot: another
// number, a bound that is not short, or multipleOf.
func quickNumber(n *node, text []byte) (valid, ok bool) {
	if n.multipleOf != nil {
		return false, false
	}
	i, neg := 0, false
	if len(text) > 0 && text[0] == '-' {
		i, neg = 1, true
	}
	var mant uint64
	digits, frac, dot := 0, 0, false
	for ; i < len(text); i++ {
		switch c := text[i]; {
		case '0' <= c && c <= '9':
			mant = mant*10 + uint64(c-'0')
			digits++
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return false, false
		}
	}
	if digits == 0 || digits > 15 {
		return false, false
	}
	f := float64(mant) / pow10[frac]
	if neg {
		f = -f
	}
	for _, b := range [...]*bound{n.minimum, n.maximum, n.exMin, n.exMax} {
		if b != nil && !b.short {
			return false, false
		}
	}
	fails := n.minimum != nil && f < n.minimum.f || n.maximum != nil && f > n.maximum.f ||
		n.exMin != nil && f <= n.exMin.f || n.exMax != nil && f >= n.exMax.f
	return !fails, true
}

// patternValid reports whether the string text matches p's pattern,
// matched as the fast path matches it; false sends it to the validator.
func patternValid(p *splan, text []byte) bool {
	p.fastOnce.Do(func() { p.fast, p.nodes, _ = compileFast(p.s) })
	switch n := p.fast; {
	case n == nil:
		return false
	case n.simple != nil:
		return n.simple.match(text)
	case n.pattern != nil:
		return n.pattern.Match(text)
	}
	return false
}

// fractional reports whether the number text has a fraction or an
// exponent.
func fractional(text []byte) bool {
	for _, c := range text {
		if c == '.' || c == 'e' || c == 'E' {
			return true
		}
	}
	return false
}

// hasString reports whether strs holds text.
func hasString(strs []string, text []byte) bool {
	for _, str := range strs {
		if str == string(text) {
			return true
		}
	}
	return false
}

// closedCheck validates the closed value at path, document bytes
// [begin, end), against p, and reports its issues at at. depth is how many
// frames hold the value.
func (s *Stream) closedCheck(p *splan, depth int, begin, end, at int64) {
	raw := s.docBytes(begin, end)
	p.fastOnce.Do(func() { p.fast, p.nodes, _ = compileFast(p.s) })
	if p.fast != nil {
		if valid, sure := fastValid(p.fast, p.nodes, raw, s.v.maxDepth); sure && valid {
			return
		}
	}
	val, err := jsonvalue.Decode(raw, s.v.maxDepth)
	if err != nil {
		s.incomplete = true // the final validation reports it
		return
	}
	verr := p.s.Validate(val)
	if verr == nil {
		return
	}
	ve, ok := verr.(*jsonschema.ValidationError)
	if !ok {
		s.incomplete = true
		return
	}
	prefix(ve, s.pathOf(depth))
	r := s.reporter(depth, val)
	r.walk(ve)
	if r.err != nil {
		s.incomplete = true
		return
	}
	s.report(at, r.issues())
}

// prefix puts path before the instance locations of e and its causes.
func prefix(e *jsonschema.ValidationError, path []string) {
	if len(path) == 0 {
		return
	}
	e.InstanceLocation = append(slices.Clone(path), e.InstanceLocation...)
	for _, c := range e.Causes {
		prefix(c, path)
	}
}

// pending checks the token a chunk ended inside: the start of a scalar,
// and a string already too long or that no allowed value starts with.
func (s *Stream) pending() {
	k, begin, text, ok := s.tk.Pending()
	if !ok || k == jsontoken.Key {
		return
	}
	if s.scalar.begin != begin {
		plans := s.valueStart(begin)
		s.scalar.begin, s.scalar.plans = begin, plans
		s.scalar.reported = s.startCheck(plans, len(s.frames), kindOfToken(k), begin+1)
	}
	if k != jsontoken.String {
		return
	}
	at := s.tk.Offset()
	for _, p := range s.scalar.plans {
		if slices.Contains(s.scalar.reported, p) {
			continue
		}
		switch {
		case p.maxLen >= 0 && utf8.RuneCount(text) > p.maxLen:
			r := s.reporter(len(s.frames), "")
			site := r.at(s.pathOf(len(s.frames)))
			r.addf(site, result.ConstraintViolation, "maxLength",
				fmt.Sprintf("is already longer than the maximum length %d (%s read so far)", p.maxLen, plural(utf8.RuneCount(text), "character")),
				lengthSuggestion(site.ref, p.s, fmt.Sprintf("Shorten %s to at most %s", site.ref, plural(p.maxLen, "character"))))
			s.report(at, r.issues())
		case p.enumed && p.kinds&vString != 0 && !anyHasPrefix(p.strs, text):
			kw := "enum"
			vals := []any(nil)
			if p.s.Enum != nil {
				vals = p.s.Enum.Values
			} else {
				kw = "const"
				vals = []any{*p.s.Const}
			}
			r := s.reporter(len(s.frames), "")
			site := r.at(s.pathOf(len(s.frames)))
			list := showList(vals, 10)
			r.addf(site, result.ConstraintViolation, kw,
				fmt.Sprintf("starts with %s, which no allowed value starts with: the allowed values are %s", show(string(text)), list),
				fmt.Sprintf("Use one of the allowed values for %s: %s", site.ref, list))
			s.report(at, r.issues())
		default:
			continue
		}
		s.scalar.reported = append(s.scalar.reported, p)
	}
}

func anyHasPrefix(strs []string, p []byte) bool {
	for _, str := range strs {
		if strings.HasPrefix(str, string(p)) {
			return true
		}
	}
	return false
}
