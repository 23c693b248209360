package schema

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"math/bits"
	"regexp"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The fast path. At compile time, every schema that santhosh-tekuri's
// compiler built (its $ref already resolved, its draft known) becomes a
// node: the keywords it checks, specialised, with its subschemas as nodes.
// A node answers one question about a document's bytes, without decoding
// them into Go values: is this value valid? It answers only when it is
// sure; on any doubt (a duplicate key, invalid UTF-8, a number over the
// decoder's limits, malformed JSON, a $ref loop) it gives up, and the slow
// path decides. For an invalid document, report mode (fastreport.go)
// builds the validator's errors from the bytes, and the slow path's
// reporter turns them into issues. A schema using a keyword the
// nodes do not cover is not compiled at all: it takes the slow path for
// every document, never an approximation.

// kinds of JSON values, as bits of node.types.
const (
	kNull = 1 << iota
	kBool
	kNumber
	kInteger
	kString
	kArray
	kObject
)

// node is one compiled schema of the fast path.
type node struct {
	// draft is the DraftVersion of the schema the node was compiled
	// from (see loc).
	draft  int16
	always int8 // 1: the schema true, -1: false, 0: check the keywords
	// plain holds the kinds of value (kString, …) the node accepts
	// whatever they hold once well formed: the scan only skips them (see
	// plainKinds, scanner.plain). Most properties of a tool's arguments
	// are a type alone.
	plain uint8
	// noItems marks the node of additionalItems false: an item it meets
	// is one error of the array's (additionalItems), not of the item.
	noItems bool
	types   int // allowed kinds, 0 when the schema has no type keyword
	// typeNames are the type keyword's names, as the validator's
	// kind.Type lists them; shared by every error of the node, read only.
	typeNames []string
	// consts are the canonical forms (see canon) of const and of every enum
	// value: hasConst and hasEnum say which apply.
	hasConst, hasEnum bool
	constCanon        string
	enum              map[string]struct{}
	format            *jsonschema.Format
	ref               *node

	// objects
	obj      bool           // any keyword for objects
	minProps int            // -1: none
	maxProps int            // -1: none
	names    map[string]int // names whose presence is tracked -> bit
	required uint64         // bits of names that must be present
	// reqCount is, for an object schema requiring more than 64 names
	// and declaring no dependencies, how many names it requires; the
	// keys of those names are marked req and counted instead of given
	// bits (the scanner refuses duplicate keys, so each counts once).
	reqCount int
	props    map[string]*node
	// keys joins names and props, for one lookup per member; table finds
	// them faster when the names allow it.
	keys      map[string]keyInfo
	table     *keyTable
	probe     *probeTable // when table is nil
	patProps  []patProp
	addl      *node // additionalProperties as a schema, or nil
	addlFalse bool
	depReq    []depReq
	depSch    []depSch
	propNames *node

	// arrays
	arr                bool
	minItems, maxItems int // -1: none
	unique             bool
	prefix             []*node
	rest               *node // items after the prefix, or nil
	contains           *node
	minContains        int // -1: none (contains then needs one match)
	maxContains        int // -1: none

	// strings
	str            bool
	minLen, maxLen int // -1: none; in code points
	pattern        *regexp.Regexp
	simple         *simplePattern // pattern without the regexp, when it allows

	// numbers
	num                            bool
	minimum, maximum, exMin, exMax *bound
	multipleOf                     *bound

	not                 *node
	allOf, anyOf, oneOf []*node
	ifN, thenN, elseN   *node

	// words holds what report mode writes of the node's issues, worked
	// out at the first invalid document (see nodeWords).
	words atomic.Pointer[nodeWords]
	// texts holds the texts of the issues the report scan wrote directly
	// at a site of at most one key, kept for the next documents (see
	// cachedText).
	texts atomic.Pointer[[]cachedText]
	// loc is the Location of the schema the node was compiled from, which
	// the fast path's issues name ("" for the additionalItems false of
	// noItems); the schema itself is found by it in the full form, when
	// an issue needs more of it (scanner.schemaOf). Read by report mode
	// only, so it sits with the other such fields, after the scan's.
	loc string
}

// keyInfo is what a node knows of one property name: its schema in
// properties (or nil) and its bit among the tracked names (or -1).
type keyInfo struct {
	n   *node
	bit int
	req bool // a required name counted, not given a bit (see node.reqCount)
}

// maxPerfectKeys is the most names a keyTable is tried for.
const maxPerfectKeys = 64

// keyTable finds the keyInfo of a property name without hashing all of
// it: a slot from the name's length and its first, middle and last bytes,
// then one comparison. It exists for a node of at most maxPerfectKeys
// names that take distinct slots under one of a few multipliers; else a
// probeTable, or failing that the node's map, serves.
type keyTable struct {
	mul   uint32
	shift uint32
	slots []keySlot
}

type keySlot struct {
	name string
	info keyInfo
	used bool
}

func keySummary(key []byte) uint32 {
	if len(key) == 0 {
		return 0
	}
	return uint32(len(key)) ^ uint32(key[0])<<8 ^ uint32(key[len(key)/2])<<16 ^ uint32(key[len(key)-1])<<24
}

func newKeyTable(keys map[string]keyInfo) *keyTable {
	if len(keys) > maxPerfectKeys {
		return nil // distinct slots for more names are unlikely: probeTable serves
	}
	muls := [...]uint32{0x9e3779b1, 0x85ebca6b, 0xc2b2ae35, 0x27d4eb2f, 0x165667b1, 0xd3a2646d, 0xfd7046c5, 0xb55a4f09}
	for bits := 1; bits <= 12; bits++ {
		size := 1 << bits
		if size < 2*len(keys) {
			continue
		}
		if size > 16*len(keys) && size > 16 {
			break
		}
		for _, mul := range muls {
			t := &keyTable{mul: mul, shift: uint32(32 - bits), slots: make([]keySlot, size)}
			ok := true
			for name, info := range keys {
				sl := &t.slots[(keySummary([]byte(name))*mul)>>t.shift]
				if sl.used {
					ok = false
					break
				}
				*sl = keySlot{name: name, info: info, used: true}
			}
			if ok {
				return t
			}
		}
	}
	return nil
}

// find returns the keyInfo of key.
func (t *keyTable) find(key []byte) (keyInfo, bool) {
	sl := &t.slots[(keySummary(key)*t.mul)>>t.shift]
	if sl.used && sl.name == string(key) {
		return sl.info, true
	}
	return keyInfo{}, false
}

// probeTable finds the keyInfo of a property name, for a node whose names
// get no keyTable (more than maxPerfectKeys, or alike at their first,
// middle and last bytes, as field_100 … field_199), without hashing all
// of it: a slot from the name's length and its first and last four bytes
// (probeSummary), then a comparison with the names of that summary from
// there on (open addressing, at most half the slots used). It exists for a
// node whose names find their slots within maxKeyProbes; else (names alike
// at both ends, which a hash of all their bytes would tell apart) the
// node's map serves.
type probeTable struct {
	mul   uint32
	shift uint32
	slots []probeSlot
}

type probeSlot struct {
	name    string
	info    keyInfo
	summary uint32
	used    bool
}

// maxKeyProbes bounds the slots a lookup in a probeTable reads.
const maxKeyProbes = 4

// maxTableKeys is the most names a probeTable holds.
const maxTableKeys = 4096

// probeSummary is a hash of key's length and its first and last four bytes
// (all of a shorter key).
func probeSummary(key []byte) uint32 {
	n := len(key)
	var first, last uint32
	if n >= 4 {
		first = binary.LittleEndian.Uint32(key)
		last = binary.LittleEndian.Uint32(key[n-4:])
	} else {
		for _, c := range key {
			first = first<<8 | uint32(c)
		}
	}
	return (first ^ bits.RotateLeft32(last, 15) ^ uint32(n)<<26) * 0x9e3779b1
}

func newProbeTable(keys map[string]keyInfo) *probeTable {
	if len(keys) > maxTableKeys {
		return nil
	}
	size := 4
	for size < 2*len(keys) {
		size *= 2
	}
	shift := uint32(32 - bits.TrailingZeros(uint(size)))
	names := slices.Sorted(maps.Keys(keys))
	muls := [...]uint32{1, 0x85ebca6b, 0xc2b2ae35, 0x27d4eb2f}
	for _, mul := range muls {
		t := &probeTable{mul: mul, shift: shift, slots: make([]probeSlot, size)}
		ok := true
		for _, name := range names {
			sum := probeSummary([]byte(name))
			at, probes := (sum*mul)>>shift, 1
			for t.slots[at].used {
				at = (at + 1) & uint32(size-1)
				if probes++; probes > maxKeyProbes {
					ok = false
					break
				}
			}
			if !ok {
				break
			}
			t.slots[at] = probeSlot{name: name, info: keys[name], summary: sum, used: true}
		}
		if ok {
			return t
		}
	}
	return nil
}

// find returns the keyInfo of key.
func (t *probeTable) find(key []byte) (keyInfo, bool) {
	sum := probeSummary(key)
	mask := uint32(len(t.slots) - 1)
	at := (sum * t.mul) >> t.shift
	for range maxKeyProbes {
		sl := &t.slots[at]
		if !sl.used {
			break
		}
		if sl.summary == sum && sl.name == string(key) {
			return sl.info, true
		}
		at = (at + 1) & mask
	}
	return keyInfo{}, false
}

type patProp struct {
	re *regexp.Regexp
	n  *node
}

// depReq is a dependency on other names: when prop is present, every name
// of the bits must be.
type depReq struct {
	prop int // bit of the name
	bits uint64
	// name and names are the dependency's property and the names it
	// requires, in the schema's order; dependent says it came from
	// dependentRequired rather than dependencies.
	name      string
	names     []string
	dependent bool
}

// depSch is a dependency on a schema: when the name is present, the object
// must match it.
type depSch struct {
	prop int
	n    *node
}

// bound is a number of a schema keyword, kept exact and, when it allows,
// as a float64 or an int64 for comparisons without big.Rat.
type bound struct {
	rat *big.Rat
	// f is the bound as a float64, valid when short: the bound is a decimal
	// of at most 15 significant digits, whose order against another such
	// decimal their float64 values keep exactly.
	f     float64
	short bool
	// i is the bound as an int64, valid when isInt.
	i     int64
	isInt bool
}

func newBound(r *big.Rat) *bound {
	if r == nil {
		return nil
	}
	b := &bound{rat: r}
	if r.IsInt() && r.Num().IsInt64() {
		b.i, b.isInt = r.Num().Int64(), true
	}
	f, _ := r.Float64()
	if !math.IsInf(f, 0) && f != 0 || r.Sign() == 0 {
		if back, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', 15, 64)); ok && back.Cmp(r) == 0 && math.Abs(f) < 1e280 && (f == 0 || math.Abs(f) > 1e-280) {
			b.f, b.short = f, true
		}
	}
	return b
}

// fastCompiler turns santhosh-tekuri's compiled schemas into nodes.
type fastCompiler struct {
	nodes map[*jsonschema.Schema]*node
	why   string // the first reason the schema cannot take the fast path
	count int
}

// maxFastNodes bounds the nodes of one schema on the fast path; larger
// schemas take the slow path.
const maxFastNodes = 100000

// compileFast compiles root for the fast path, or returns nil and why it
// cannot be.
func compileFast(root *jsonschema.Schema) (*node, int, string) {
	fc := &fastCompiler{nodes: map[*jsonschema.Schema]*node{}}
	n := fc.node(root)
	if fc.why != "" {
		return nil, 0, fc.why
	}
	return n, fc.count, ""
}

func (fc *fastCompiler) fail(format string, args ...any) {
	if fc.why == "" {
		fc.why = fmt.Sprintf(format, args...)
	}
}

func (fc *fastCompiler) node(s *jsonschema.Schema) *node {
	if s == nil {
		return nil
	}
	if n, ok := fc.nodes[s]; ok {
		return n
	}
	n := &node{loc: s.Location, draft: int16(s.DraftVersion), minProps: -1, maxProps: -1, minItems: -1, maxItems: -1, minContains: -1, maxContains: -1, minLen: -1, maxLen: -1}
	fc.nodes[s] = n
	fc.count++
	if fc.count > maxFastNodes || fc.why != "" {
		fc.fail("the schema has more than %d subschemas", maxFastNodes)
		return n
	}
	if s.Bool != nil {
		n.always = -1
		if *s.Bool {
			n.always = 1
		}
		return n
	}
	loc := schemaLocShort(s.Location)
	switch {
	case s.RecursiveRef != nil:
		fc.fail("%s uses $recursiveRef", loc)
	case s.DynamicRef != nil:
		fc.fail("%s uses $dynamicRef", loc)
	case len(s.Extensions) > 0:
		fc.fail("%s uses a vocabulary extension", loc)
	}
	if s.Types != nil {
		n.typeNames = slices.Clip(s.Types.ToStrings())
		for _, t := range n.typeNames {
			n.types |= kindBit(t)
		}
	}
	if s.Const != nil {
		c, err := canonValue(*s.Const)
		if err != nil {
			fc.fail("%s/const: %v", loc, err)
		}
		n.hasConst, n.constCanon = true, c
	}
	if s.Enum != nil {
		n.hasEnum, n.enum = true, make(map[string]struct{}, len(s.Enum.Values))
		for _, v := range s.Enum.Values {
			c, err := canonValue(v)
			if err != nil {
				fc.fail("%s/enum: %v", loc, err)
			}
			n.enum[c] = struct{}{}
		}
	}
	n.format = s.Format
	if s.Ref != nil {
		n.ref = fc.node(s.Ref)
		if s.DraftVersion < 2019 {
			// Before 2019-09 the validator ignores the keywords beside
			// $ref, once type, const, enum and format passed.
			return n
		}
	}
	fc.object(n, s, loc)
	fc.array(n, s)
	fc.str(n, s, loc)
	n.num = s.Minimum != nil || s.Maximum != nil || s.ExclusiveMinimum != nil || s.ExclusiveMaximum != nil || s.MultipleOf != nil
	n.minimum, n.maximum = newBound(s.Minimum), newBound(s.Maximum)
	n.exMin, n.exMax, n.multipleOf = newBound(s.ExclusiveMinimum), newBound(s.ExclusiveMaximum), newBound(s.MultipleOf)
	if s.UnevaluatedProperties != nil || s.UnevaluatedItems != nil {
		fc.fail("%s uses unevaluatedProperties or unevaluatedItems", loc)
	}
	n.not = fc.node(s.Not)
	for _, sub := range s.AllOf {
		n.allOf = append(n.allOf, fc.node(sub))
	}
	for _, sub := range s.AnyOf {
		n.anyOf = append(n.anyOf, fc.node(sub))
	}
	for _, sub := range s.OneOf {
		n.oneOf = append(n.oneOf, fc.node(sub))
	}
	if s.If != nil {
		n.ifN, n.thenN, n.elseN = fc.node(s.If), fc.node(s.Then), fc.node(s.Else)
	}
	n.plain = plainKinds(n)
	return n
}

// plainKinds is the kinds of value n accepts whatever they hold, once
// well formed (see node.plain): none when n has a keyword that looks at
// every value (const, enum, format, $ref, an applicator), else those its
// type allows and no keyword of theirs constrains. kInteger stands for
// the numbers written as integers when n allows integers but not all
// numbers.
func plainKinds(n *node) uint8 {
	if n.always != 0 || n.hasConst || n.hasEnum || n.format != nil || n.ref != nil || n.not != nil ||
		n.allOf != nil || n.anyOf != nil || n.oneOf != nil || n.ifN != nil {
		return 0
	}
	types := n.types
	if types == 0 {
		types = kNull | kBool | kNumber | kString | kArray | kObject
	}
	p := types & (kNull | kBool)
	switch {
	case n.num:
	case types&kNumber != 0:
		p |= kNumber
	case types&kInteger != 0:
		p |= kInteger
	}
	if !n.str {
		p |= types & kString
	}
	if !n.arr {
		p |= types & kArray
	}
	if !n.obj {
		p |= types & kObject
	}
	return uint8(p)
}

func (fc *fastCompiler) object(n *node, s *jsonschema.Schema, loc string) {
	name := func(p string) int {
		if n.names == nil {
			n.names = map[string]int{}
		}
		if b, ok := n.names[p]; ok {
			return b
		}
		if len(n.names) == 64 {
			fc.fail("%s names more than 64 properties in required and dependencies", loc)
			return 0
		}
		n.names[p] = len(n.names)
		return n.names[p]
	}
	bits := func(ps []string) uint64 {
		var b uint64
		for _, p := range ps {
			b |= 1 << name(p)
		}
		return b
	}
	if s.MinProperties != nil {
		n.minProps = *s.MinProperties
	}
	if s.MaxProperties != nil {
		n.maxProps = *s.MaxProperties
	}
	var reqNames []string
	if req := slices.Compact(slices.Sorted(slices.Values(s.Required))); len(req) > 64 &&
		len(s.Dependencies)+len(s.DependentRequired)+len(s.DependentSchemas) == 0 {
		reqNames, n.reqCount = req, len(req)
	} else {
		n.required = bits(s.Required)
	}
	for _, p := range slices.Sorted(mapKeys(s.Dependencies)) {
		switch d := s.Dependencies[p].(type) {
		case []string:
			n.depReq = append(n.depReq, depReq{prop: name(p), bits: bits(d), name: p, names: d})
		case *jsonschema.Schema:
			n.depSch = append(n.depSch, depSch{prop: name(p), n: fc.node(d)})
		}
	}
	if len(s.Properties) > 0 {
		n.props = make(map[string]*node, len(s.Properties))
		for p, sub := range s.Properties {
			n.props[p] = fc.node(sub)
		}
	}
	for re, sub := range s.PatternProperties {
		gre, ok := re.(*regexp.Regexp)
		if !ok {
			fc.fail("%s/patternProperties: a regular expression engine other than Go's", loc)
			continue
		}
		n.patProps = append(n.patProps, patProp{gre, fc.node(sub)})
	}
	slices.SortFunc(n.patProps, func(a, b patProp) int { return compareStrings(a.re.String(), b.re.String()) })
	switch a := s.AdditionalProperties.(type) {
	case bool:
		n.addlFalse = !a
	case *jsonschema.Schema:
		n.addl = fc.node(a)
	}
	if s.DraftVersion > 4 {
		n.propNames = fc.node(s.PropertyNames)
	}
	if s.DraftVersion > 6 {
		for _, p := range slices.Sorted(mapKeys(s.DependentSchemas)) {
			n.depSch = append(n.depSch, depSch{prop: name(p), n: fc.node(s.DependentSchemas[p])})
		}
		for _, p := range slices.Sorted(mapKeys(s.DependentRequired)) {
			n.depReq = append(n.depReq, depReq{prop: name(p), bits: bits(s.DependentRequired[p]), name: p, names: s.DependentRequired[p], dependent: true})
		}
	}
	if len(n.names)+len(n.props)+len(reqNames) > 0 {
		n.keys = make(map[string]keyInfo, len(n.names)+len(n.props)+len(reqNames))
		for p, sub := range n.props {
			n.keys[p] = keyInfo{n: sub, bit: -1}
		}
		for p, b := range n.names {
			k := n.keys[p]
			k.bit = b
			n.keys[p] = k
		}
		for _, p := range reqNames {
			k, ok := n.keys[p]
			if !ok {
				k.bit = -1
			}
			k.req = true
			n.keys[p] = k
		}
		if n.table = newKeyTable(n.keys); n.table == nil {
			n.probe = newProbeTable(n.keys)
		}
	}
	n.obj = n.minProps >= 0 || n.maxProps >= 0 || n.names != nil || n.reqCount > 0 || n.props != nil || n.patProps != nil ||
		n.addl != nil || n.addlFalse || n.propNames != nil
}

func (fc *fastCompiler) array(n *node, s *jsonschema.Schema) {
	if s.MinItems != nil {
		n.minItems = *s.MinItems
	}
	if s.MaxItems != nil {
		n.maxItems = *s.MaxItems
	}
	n.unique = s.UniqueItems
	restOf := func(a any) *node {
		switch a := a.(type) {
		case bool:
			if !a {
				return &node{always: -1, noItems: true}
			}
		case *jsonschema.Schema:
			return fc.node(a)
		}
		return nil
	}
	if s.DraftVersion < 2020 {
		switch items := s.Items.(type) {
		case *jsonschema.Schema:
			n.rest = fc.node(items)
		case []*jsonschema.Schema:
			for _, sub := range items {
				n.prefix = append(n.prefix, fc.node(sub))
			}
			n.rest = restOf(s.AdditionalItems)
		default:
			n.rest = restOf(s.AdditionalItems)
		}
	} else {
		for _, sub := range s.PrefixItems {
			n.prefix = append(n.prefix, fc.node(sub))
		}
		n.rest = fc.node(s.Items2020)
	}
	if s.Contains != nil {
		n.contains = fc.node(s.Contains)
		if s.MinContains != nil {
			n.minContains = *s.MinContains
		}
		if s.MaxContains != nil {
			n.maxContains = *s.MaxContains
		}
	}
	n.arr = n.minItems >= 0 || n.maxItems >= 0 || n.unique || n.prefix != nil || n.rest != nil || n.contains != nil
}

func (fc *fastCompiler) str(n *node, s *jsonschema.Schema, loc string) {
	if s.MinLength != nil {
		n.minLen = *s.MinLength
	}
	if s.MaxLength != nil {
		n.maxLen = *s.MaxLength
	}
	if s.Pattern != nil {
		re, ok := s.Pattern.(*regexp.Regexp)
		if !ok {
			fc.fail("%s/pattern: a regular expression engine other than Go's", loc)
		}
		n.pattern, n.simple = re, newSimplePattern(re)
	}
	if s.DraftVersion != 6 && (s.ContentEncoding != nil || s.ContentMediaType != nil || s.ContentSchema != nil) {
		fc.fail("%s uses contentEncoding, contentMediaType or contentSchema", loc)
	}
	n.str = n.minLen >= 0 || n.maxLen >= 0 || n.pattern != nil
}

func kindBit(t string) int {
	switch t {
	case "null":
		return kNull
	case "boolean":
		return kBool
	case "number":
		return kNumber
	case "integer":
		return kInteger
	case "string":
		return kString
	case "array":
		return kArray
	case "object":
		return kObject
	}
	return 0
}

// schemaLocShort is how explain names a schema: its location without the
// judge base URL.
func schemaLocShort(u string) string {
	return schemaLoc(map[string]string{BaseURI: "expected_schema"}, u)
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// canonValue is the canonical form of a decoded JSON value, equal for two
// values exactly when santhosh-tekuri's equality holds between them.
func canonValue(v any) (string, error) {
	b, err := appendCanonValue(nil, v)
	return string(b), err
}

func appendCanonValue(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, 'n'), nil
	case bool:
		if v {
			return append(b, 't'), nil
		}
		return append(b, 'f'), nil
	case string:
		return appendCanonString(b, []byte(v)), nil
	case json.Number:
		return appendCanonNumber(b, []byte(v))
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("the number %v", v)
		}
		return appendCanonNumber(b, []byte(fmt.Sprint(v)))
	case []any:
		b = appendCount(append(b, '['), len(v))
		for _, e := range v {
			var err error
			if b, err = appendCanonValue(b, e); err != nil {
				return nil, err
			}
		}
		return b, nil
	case map[string]any:
		ms := make([]string, 0, len(v))
		for k, e := range v {
			m := appendCanonString(nil, []byte(k))
			m, err := appendCanonValue(m, e)
			if err != nil {
				return nil, err
			}
			ms = append(ms, string(m))
		}
		slices.Sort(ms)
		b = appendCount(append(b, '{'), len(v))
		for _, m := range ms {
			b = append(b, m...)
		}
		return b, nil
	}
	return nil, fmt.Errorf("a value of Go type %T", v)
}

func appendCanonString(b, s []byte) []byte {
	b = append(b, 's')
	b = binaryAppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendCount appends a count of elements or members in five bytes: a
// fixed width lets the scanner write it after the values it counts.
func appendCount(b []byte, n int) []byte {
	for k := range 5 {
		b = append(b, byte(n>>(7*(4-k))&0x7f))
	}
	return b
}

func binaryAppendUvarint(b []byte, x uint64) []byte {
	for x >= 0x80 {
		b = append(b, byte(x)|0x80)
		x >>= 7
	}
	return append(b, byte(x))
}

// appendCanonNumber appends the canonical form of the JSON number text t:
// 'N', a sign, the significant digits without leading or trailing zeros,
// 'e' and the decimal exponent; "N0" for zero. Two numbers have the same
// form exactly when their values are equal.
func appendCanonNumber(b, t []byte) ([]byte, error) {
	d, ok := parseDecimal(t)
	if !ok {
		return nil, fmt.Errorf("the number %q", t)
	}
	if d.zero() {
		return append(b, 'N', '0'), nil
	}
	b = append(b, 'N')
	if d.neg {
		b = append(b, '-')
	}
	for _, c := range t[d.first:d.last] {
		if c != '.' {
			b = append(b, c)
		}
	}
	b = append(b, 'e')
	return strconv.AppendInt(b, int64(d.exp), 10), nil
}
