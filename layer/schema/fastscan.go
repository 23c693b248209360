package schema

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"math/big"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentjudge/judge/internal/jsontoken/lex"
	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/result"
)

// decimal is what the fast path reads of a number's text: its sign, where
// its significant digits are, and the exponent of the last of them.
type decimal struct {
	neg         bool
	first, last int // t[first:last] spans the significant digits (and maybe a '.')
	exp         int // value = digits × 10^exp
	sig         int // number of significant digits
	mant        uint64
}

func (d decimal) zero() bool { return d.sig == 0 }

// isInt reports whether the number is an integer (1.0 and 1e2 are).
func (d decimal) isInt() bool { return d.sig == 0 || d.exp >= 0 }

// pow10 holds the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// float returns the number as a correctly rounded float64 when it has at
// most 15 significant digits and a small exponent, whose order against
// another such decimal its float64 keeps exactly.
func (d decimal) float() (float64, bool) {
	if d.sig > 15 || d.exp > 22 || d.exp < -22 {
		return 0, false
	}
	f := float64(d.mant)
	if d.exp >= 0 {
		f *= pow10[d.exp]
	} else {
		f /= pow10[-d.exp]
	}
	if d.neg {
		f = -f
	}
	return f, true
}

// parseDecimal reads a JSON number's text. It reports false for text that
// is not a JSON number.
func parseDecimal(t []byte) (decimal, bool) {
	var d decimal
	i := 0
	if i < len(t) && t[i] == '-' {
		d.neg = true
		i++
	}
	mstart := i
	dot := -1
	for i < len(t) && (isDigit(t[i]) || t[i] == '.') {
		if t[i] == '.' {
			if dot >= 0 {
				return d, false
			}
			dot = i
		}
		i++
	}
	mend := i
	if mend == mstart {
		return d, false
	}
	if dot < 0 {
		dot = mend
	}
	e := 0
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		eneg := false
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			eneg = t[i] == '-'
			i++
		}
		if i == len(t) {
			return d, false
		}
		for ; i < len(t); i++ {
			if !isDigit(t[i]) {
				return d, false
			}
			e = min(e*10+int(t[i]-'0'), 1<<20)
		}
		if eneg {
			e = -e
		}
	}
	if i != len(t) {
		return d, false
	}
	d.first, d.last = -1, -1
	for k := mstart; k < mend; k++ {
		if t[k] != '.' && t[k] != '0' {
			if d.first < 0 {
				d.first = k
			}
			d.last = k + 1
		}
	}
	if d.first < 0 {
		return decimal{}, true // zero, of either sign
	}
	for k := d.first; k < d.last; k++ {
		if t[k] == '.' {
			continue
		}
		d.sig++
		if d.sig <= 19 {
			d.mant = d.mant*10 + uint64(t[k]-'0')
		}
	}
	l := d.last - 1
	if l < dot {
		d.exp = e + dot - l - 1
	} else {
		d.exp = e - (l - dot)
	}
	return d, true
}

// scanner is the state of one fast validation. It is pooled: a valid
// document allocates nothing.
type scanner struct {
	data     []byte
	maxDepth int
	depth    int
	inPlace  int // nested checks of the same value, to stop $ref loops
	maxPlace int
	// bail is set when the fast path cannot be sure; the verdict is then
	// the slow path's.
	bail bool
	// negated counts the checks under way whose failure can make a value
	// valid (not, oneOf, if, contains): there an invalid verdict must hold
	// for the value the slow path decodes too (see members).
	negated int

	sbuf  []byte   // the unescaped text of the string being checked
	canon []byte   // canonical forms being built
	spans [][2]int // scratch: ranges of canonical forms
	keys  [][2]int // scratch: ranges of the keys of the objects being read
	stack []byte   // scratch: closing bytes of the containers being skipped
	// objs holds, for each object being skipped, where its keys start in
	// keys: a skipped object's duplicate keys bail too, since the decoder
	// reports them (a duplicate_key warning) whatever the schema checks.
	objs []skipObj
	// escaped is whether the string skipString read last holds an escape.
	escaped bool

	// Report mode (fastreport.go): the errors of the schemas being
	// checked, the instance location being read, and where in path the
	// location starts (a property name is validated at its own root).
	errs     []*jsonschema.ValidationError
	path     []pathTok
	pathBase int
	// elemAt is scratch: the offsets of the elements of the arrays being
	// read; indexed keeps them, by the array's offset, for each array
	// under which an error was found, for the reporter (see rawDoc).
	elemAt  []int
	indexed map[int][]int
	// direct, in report mode, has the scan write the issues of a failed
	// type, required, enum, const, additionalProperties false, string
	// or numeric keyword itself (see directIssue) where the reporter
	// would only walk through the errors above them: not under an anyOf
	// or oneOf none of whose branches matched, nor under propertyNames
	// (tree counts those being read). A nil error on errs stands for such
	// issues. comp is the compiled schema, text holds the issues' texts
	// and found the issues.
	direct bool
	tree   int
	comp   *compiled
	text   []byte
	found  []directIssue
	// inRoom has directIssues write the issues in a result.Room, kept in
	// room (see fastIssuesIn).
	inRoom bool
	room   result.Room

	// tab holds the hash tables of the keys of the objects being read
	// (see keySet), hashed with seed.
	tab  []uint64
	seed maphash.Seed

	// dups, when not nil, makes a repeated key of a skipped object no
	// reason to give up: the key's offset is added to dups.keys and the
	// earlier members of its key to dups.drop (see collectDuplicates).
	dups *dupKeys
}

// skipObj is an object being skipped: where its keys start in
// scanner.keys, and a mask of bits of the keys read (see skipKey).
type skipObj struct {
	start int
	mask  uint64
}

var scannerPool = sync.Pool{New: func() any { return &scanner{seed: maphash.MakeSeed()} }}

// fastValid reports whether doc, one JSON value, is valid against root:
// sure is false when the fast path cannot decide and the slow path must.
func fastValid(root *node, nodes int, doc []byte, maxDepth int) (valid, sure bool) {
	if maxDepth <= 0 {
		maxDepth = jsonvalue.DefaultMaxDepth
	}
	s := scannerPool.Get().(*scanner)
	valid, sure = s.verdict(root, nodes, doc, maxDepth)
	s.release()
	return valid, sure
}

// verdict is fastValid with the scanner s (maxDepth set).
func (s *scanner) verdict(root *node, nodes int, doc []byte, maxDepth int) (valid, sure bool) {
	s.setData(doc)
	s.maxDepth, s.depth, s.inPlace, s.maxPlace, s.bail, s.negated = maxDepth, 0, 0, nodes+1, false, 0
	i := skipWS(doc, 0)
	end, ok := s.check(root, i)
	if ok && !s.bail {
		if skipWS(doc, end) != len(doc) {
			s.bail = true
		}
	}
	// (s.data is dropped by release: the report scan that may follow
	// reads the same document.)
	return ok && !s.bail, !s.bail
}

// setData has s read doc. A pointer stored on the scanner, which lives on
// the heap, costs a write barrier while the collector runs: the report
// scan after the verdict scan finds the document in place.
func (s *scanner) setData(doc []byte) {
	if len(s.data) != len(doc) || len(doc) > 0 && &s.data[0] != &doc[0] {
		s.data = doc
	}
}

// release drops the document s read and puts s back into scannerPool,
// unless its scratch grew large.
func (s *scanner) release() {
	if s.data != nil {
		s.data = nil
	}
	if cap(s.sbuf) <= 1<<16 && cap(s.canon) <= 1<<16 && cap(s.spans) <= 1<<12 && cap(s.errs) <= 1<<12 && cap(s.elemAt) <= 1<<16 &&
		cap(s.text) <= 1<<16 && cap(s.found) <= 1<<10 {
		// One slice a statement: the compiler then stores the length
		// alone, where a tuple assignment stores each slice whole,
		// through a write barrier while the collector runs.
		s.sbuf = s.sbuf[:0]
		s.canon = s.canon[:0]
		s.spans = s.spans[:0]
		s.text = s.text[:0]
		s.found = s.found[:0]
		scannerPool.Put(s)
	}
}

// needsDecimal reports whether n reads a number's value: for its numeric
// keywords, or to tell an integer from another number when its type
// allows integers but not all numbers. Elsewhere the number's text,
// which s.number has read and checked against the decoder's grammar and
// limits (so parseDecimal would accept it), is all n needs.
func needsDecimal(n *node) bool {
	return n.num || n.types&kInteger != 0 && n.types&kNumber == 0
}

func skipWS(d []byte, i int) int { return lex.SkipSpace(d, i) }

func isDigit(c byte) bool { return lex.IsDigit(c) }

// fail gives up on the document: the slow path decides.
func (s *scanner) fail() (int, bool) {
	s.bail = true
	return 0, false
}

// check validates the value at data[i] (not white space) against n and
// returns the offset after it. When it returns false the value is invalid
// or s.bail is set; the returned offset is then meaningless.
func (s *scanner) check(n *node, i int) (int, bool) {
	if s.bail {
		return 0, false
	}
	switch n.always {
	case 1:
		return s.skip(i)
	case -1:
		return 0, false
	}
	if i >= len(s.data) {
		return s.fail()
	}
	if n.plain != 0 {
		if end, ok, done := s.plain(n.plain, i); done {
			return end, ok
		}
	}
	end, ok := s.own(n, i)
	if !ok {
		return 0, false
	}
	if n.ref == nil && n.not == nil && n.allOf == nil && n.anyOf == nil && n.oneOf == nil && n.ifN == nil {
		return end, true
	}
	s.inPlace++
	if s.inPlace > s.maxPlace {
		return s.fail() // a loop of schemas over the same value
	}
	ok = s.applicators(n, i)
	s.inPlace--
	if !ok {
		return 0, false
	}
	return end, true
}

// valueKinds maps the first byte of a value to its kind, but for numbers
// (0 for a byte no value starts with).
var valueKinds = [256]uint8{'{': kObject, '[': kArray, '"': kString, 't': kBool, 'f': kBool, 'n': kNull}

// plain reads the value at data[i] (i within data) when it is of one of
// the kinds p, a node's plain kinds, and so valid once well formed: done
// is true, and end and ok are check's answer. Otherwise done is false and
// the node's keywords decide (a number written 1.0 or 1e2 under a plain
// integer included).
func (s *scanner) plain(p uint8, i int) (end int, ok, done bool) {
	c := s.data[i]
	switch {
	case c == '"':
		if p&kString != 0 {
			end, ok = s.skipString(i)
			return end, ok, true
		}
	case c == '-' || isDigit(c):
		if p&(kNumber|kInteger) == 0 {
			return 0, false, false
		}
		if end, ok = s.number(i); !ok || p&kNumber != 0 || intText(s.data[i:end]) {
			return end, ok, true
		}
	case valueKinds[c]&p != 0:
		end, ok = s.skip(i)
		return end, ok, true
	}
	return 0, false, false
}

// intText reports whether the number of text t (well formed) is written
// as an integer: no fraction, no exponent.
func intText(t []byte) bool {
	for _, c := range t {
		if c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}

// applicators checks n's $ref, not, allOf, anyOf, oneOf and if over the
// value at data[i].
func (s *scanner) applicators(n *node, i int) bool {
	if n.ref != nil {
		if _, ok := s.check(n.ref, i); !ok {
			return false
		}
	}
	if n.not != nil {
		s.negated++
		_, ok := s.check(n.not, i)
		s.negated--
		if ok || s.bail {
			return false
		}
	}
	for _, sub := range n.allOf {
		if _, ok := s.check(sub, i); !ok {
			return false
		}
	}
	if n.anyOf != nil {
		// A branch found invalid by mistake (see members) changes
		// nothing: anyOf is valid when another branch is, and an invalid
		// verdict is the slow path's.
		matched := false
		for _, sub := range n.anyOf {
			if _, ok := s.check(sub, i); ok {
				matched = true
				break
			}
			if s.bail {
				return false
			}
		}
		if !matched {
			return false
		}
	}
	if n.oneOf != nil {
		matched := 0
		s.negated++
		for _, sub := range n.oneOf {
			if _, ok := s.check(sub, i); ok {
				matched++
			}
			if s.bail || matched > 1 {
				break
			}
		}
		s.negated--
		if s.bail || matched != 1 {
			return false
		}
	}
	if n.ifN != nil {
		s.negated++
		_, ok := s.check(n.ifN, i)
		s.negated--
		if s.bail {
			return false
		}
		next := n.elseN
		if ok {
			next = n.thenN
		}
		if next != nil {
			if _, ok := s.check(next, i); !ok {
				return false
			}
		}
	}
	return true
}

// own checks n's keywords other than $ref and the applicators over the
// value at data[i].
func (s *scanner) own(n *node, i int) (int, bool) {
	c := s.data[i]
	kind := 0
	switch {
	case c == '{':
		kind = kObject
	case c == '[':
		kind = kArray
	case c == '"':
		kind = kString
	case c == 't' || c == 'f':
		kind = kBool
	case c == 'n':
		kind = kNull
	case c == '-' || isDigit(c):
		kind = kNumber
	default:
		return s.fail()
	}
	var dec decimal
	numEnd := 0
	if kind == kNumber {
		var ok bool
		if numEnd, ok = s.number(i); !ok {
			return 0, false
		}
		if needsDecimal(n) {
			if dec, ok = parseDecimal(s.data[i:numEnd]); !ok {
				return s.fail()
			}
		}
	}
	if n.types != 0 && n.types&kind == 0 {
		if !(kind == kNumber && n.types&kInteger != 0 && dec.isInt()) {
			// The value is of the wrong type: invalid, once it is known
			// to be well formed (the slow path decides either way).
			return 0, false
		}
	}
	if n.hasConst || n.hasEnum {
		start := len(s.canon)
		end, ok := s.appendCanon(i)
		if !ok {
			s.canon = s.canon[:start]
			return 0, false
		}
		form := s.canon[start:]
		match := true
		if n.hasConst && string(form) != n.constCanon {
			match = false
		}
		if match && n.hasEnum {
			_, match = n.enum[string(form)]
		}
		s.canon = s.canon[:start]
		if !match {
			return 0, false
		}
		_ = end
	}
	if n.format != nil {
		if !s.checkFormat(n, i, kind, numEnd) {
			return 0, false
		}
	}
	switch kind {
	case kObject:
		if n.obj {
			return s.object(n, i)
		}
	case kArray:
		if n.arr {
			return s.array(n, i)
		}
	case kString:
		if n.str {
			return s.stringCheck(n, i)
		}
	case kNumber:
		if n.num && !s.numberCheck(n, s.data[i:numEnd], dec) {
			return 0, false
		}
		return numEnd, true
	}
	return s.skip(i)
}

func (s *scanner) checkFormat(n *node, i, kind, numEnd int) bool {
	var v any
	switch kind {
	case kString:
		str, _, ok := s.str(i)
		if !ok {
			return false
		}
		v = string(str)
	case kNumber:
		v = json.Number(s.data[i:numEnd])
	case kBool:
		v = s.data[i] == 't'
	case kNull:
		v = nil
	default:
		s.bail = true
		return false
	}
	return n.format.Validate(v) == nil
}

// numberCheck checks minimum, maximum, the exclusive ones and multipleOf.
func (s *scanner) numberCheck(n *node, t []byte, d decimal) bool {
	var rat *big.Rat
	cmp := func(b *bound) int {
		if f, ok := d.float(); ok && b.short {
			switch {
			case f < b.f:
				return -1
			case f > b.f:
				return 1
			}
			return 0
		}
		if rat == nil {
			rat, _ = new(big.Rat).SetString(string(t))
		}
		return rat.Cmp(b.rat)
	}
	if n.minimum != nil && cmp(n.minimum) < 0 {
		return false
	}
	if n.maximum != nil && cmp(n.maximum) > 0 {
		return false
	}
	if n.exMin != nil && cmp(n.exMin) <= 0 {
		return false
	}
	if n.exMax != nil && cmp(n.exMax) >= 0 {
		return false
	}
	if m := n.multipleOf; m != nil {
		return multipleOf(m, t, d, rat)
	}
	return true
}

// multipleOf reports whether the number of text t, read as d (and as rat
// when not nil), is a multiple of m.
func multipleOf(m *bound, t []byte, d decimal, rat *big.Rat) bool {
	if m.isInt && m.i > 0 && d.isInt() && d.sig <= 18 && d.exp <= 18-d.sig {
		v := d.mant
		for range d.exp {
			v *= 10
		}
		return v%uint64(m.i) == 0
	}
	if !d.isInt() && m.isInt {
		return false // a non-integer is no multiple of an integer
	}
	if rat == nil {
		rat, _ = new(big.Rat).SetString(string(t))
	}
	return new(big.Rat).Quo(rat, m.rat).IsInt()
}

// stringCheck checks minLength, maxLength and pattern.
func (s *scanner) stringCheck(n *node, i int) (int, bool) {
	str, end, ok := s.str(i)
	if !ok {
		return 0, false
	}
	if n.minLen >= 0 || n.maxLen >= 0 {
		l := utf8.RuneCount(str)
		if n.minLen >= 0 && l < n.minLen || n.maxLen >= 0 && l > n.maxLen {
			return 0, false
		}
	}
	if n.simple != nil {
		if !n.simple.match(str) {
			return 0, false
		}
	} else if n.pattern != nil && !n.pattern.Match(str) {
		return 0, false
	}
	return end, true
}

// str reads the string at data[i] and returns its text, decoded into
// s.sbuf when it has escapes (lex.ReadString), and the offset after it.
// It bails on invalid UTF-8 and unpaired surrogates, which the decoder
// replaces.
func (s *scanner) str(i int) ([]byte, int, bool) {
	b, end, f, code := lex.ReadString(s.data, i, &s.sbuf)
	if code != lex.OK || f&(lex.BadUTF8|lex.Lone) != 0 {
		s.bail = true
		return nil, 0, false
	}
	return b, end, true
}

// number reads the number at data[i] and returns the offset after it,
// bailing on malformed numbers and on those over the decoder's limits
// (lex.NumberLimit: Decode rejects them).
func (s *scanner) number(i int) (int, bool) {
	var n lex.NumberScan
	end := n.Scan(s.data, i)
	if n.End() != lex.OK || !n.Small(end-i) && lex.NumberLimit(s.data[i:end], n.Exp) != lex.OK {
		return s.fail()
	}
	return end, true
}

func (s *scanner) literal(i int, lit string) (int, bool) {
	end, code := lex.ScanLiteral(s.data, i, lit)
	if code != lex.OK {
		return s.fail()
	}
	return end, true
}

func (s *scanner) push() bool {
	s.depth++
	if s.depth > s.maxDepth || s.depth > 10000 {
		s.bail = true
		return false
	}
	return true
}

// skip reads the value at data[i], checking only that it is well formed,
// and returns the offset after it.
func (s *scanner) skip(i int) (int, bool) {
	d := s.data
	if i >= len(d) {
		return s.fail()
	}
	switch c := d[i]; {
	case c == '"':
		return s.skipString(i)
	case c == '{' || c == '[':
		return s.skipContainer(i)
	case c == 't':
		return s.literal(i, "true")
	case c == 'f':
		return s.literal(i, "false")
	case c == 'n':
		return s.literal(i, "null")
	case c == '-' || isDigit(c):
		return s.number(i)
	}
	return s.fail()
}

// skipString reads a string without unescaping it (lex.SkipString). It
// bails on invalid UTF-8, which the decoder refuses although no keyword
// looks at the text.
func (s *scanner) skipString(i int) (int, bool) {
	end, f, code := lex.SkipString(s.data, i)
	s.escaped = f&lex.Escaped != 0
	if code != lex.OK || f&lex.BadUTF8 != 0 {
		return s.fail()
	}
	return end, true
}

// skipContainer reads an array or object without recursion.
func (s *scanner) skipContainer(i int) (int, bool) {
	base, depth, keys, objs := len(s.stack), s.depth, len(s.keys), len(s.objs)
	end, ok := s.skipContainerFrom(i, base)
	// (One slice a statement: see release.)
	s.stack = s.stack[:base]
	s.keys = s.keys[:keys]
	s.objs = s.objs[:objs]
	s.depth = depth
	return end, ok
}

func (s *scanner) skipContainerFrom(i, base int) (int, bool) {
	d := s.data
	for {
		// A value starts at data[i].
		var ok bool
		switch d[i] {
		case '{', '[':
			if !s.push() {
				return 0, false
			}
			closing := byte(']')
			if d[i] == '{' {
				closing = '}'
			}
			i = skipWS(d, i+1)
			if i >= len(d) {
				return s.fail()
			}
			if d[i] != closing {
				s.stack = append(s.stack, closing)
				if s.dups != nil {
					s.dups.index = append(s.dups.index, 0)
				}
				if closing == '}' {
					s.objs = append(s.objs, skipObj{start: len(s.keys)})
					if i, ok = s.skipKey(i); !ok {
						return 0, false
					}
				}
				continue
			}
			s.depth--
			i++
		default:
			if i, ok = s.skip(i); !ok {
				return 0, false
			}
		}
		// After a value: close containers until one goes on.
		for {
			if len(s.stack) == base {
				return i, true
			}
			i = skipWS(d, i)
			if i >= len(d) {
				return s.fail()
			}
			top := s.stack[len(s.stack)-1]
			if d[i] == top {
				if top == '}' && !s.closeObject() {
					return 0, false
				}
				s.stack = s.stack[:len(s.stack)-1]
				if s.dups != nil {
					s.dups.index = s.dups.index[:len(s.stack)]
				}
				s.depth--
				i++
				continue
			}
			if d[i] != ',' {
				return s.fail()
			}
			if i = skipWS(d, i+1); i >= len(d) {
				return s.fail()
			}
			if top == '}' {
				if i, ok = s.skipKey(i); !ok {
					return 0, false
				}
			} else if s.dups != nil {
				s.dups.index[len(s.stack)-1]++
			}
			break
		}
	}
}

// skipKey reads `"key" :` and the white space after it, within the
// object skipped last (see scanner.objs): it bails when the key repeats
// one of the object's first linearKeys keys, or holds an escape (whose
// text only the decoder compares).
func (s *scanner) skipKey(i int) (int, bool) {
	d := s.data
	if d[i] != '"' {
		return s.fail()
	}
	j, ok := s.skipString(i)
	if !ok {
		return 0, false
	}
	if s.escaped {
		return s.fail()
	}
	key := d[i+1 : j-1]
	// A key is compared with the object's others only when one of them
	// shares its length and its first and last bytes' bit in the mask.
	o := &s.objs[len(s.objs)-1]
	bit := uint64(1) << ((uint(len(key))*7 + uint(d[i+1])*3 + uint(d[j-2])) & 63)
	if o.mask&bit != 0 && len(s.keys)-o.start < linearKeys {
		last := -1 // the key's last earlier occurrence
		for k, sp := range s.keys[o.start:] {
			if sp[1]-sp[0] == len(key) && string(d[sp[0]:sp[1]]) == string(key) {
				if s.dups == nil {
					return s.fail()
				}
				last = o.start + k
			}
		}
		if last >= 0 {
			if len(s.dups.keys) >= jsonvalue.MaxDuplicates {
				return s.fail() // past what the decoder lists
			}
			// The earlier member goes, from its key to the next key (an
			// occurrence before it went when this one's predecessor was
			// read).
			next := i
			if last+1 < len(s.keys) {
				next = s.keys[last+1][0] - 1
			}
			s.dups.drop = append(s.dups.drop, [2]int{s.keys[last][0] - 1, next})
			s.dups.keys = append(s.dups.keys, i)
			s.dups.paths = append(s.dups.paths, s.duplicatePath(key))
		}
	}
	o.mask |= bit
	s.keys = append(s.keys, [2]int{i + 1, j - 1})
	j = skipWS(d, j)
	if j >= len(d) || d[j] != ':' {
		return s.fail()
	}
	j = skipWS(d, j+1)
	if j >= len(d) {
		return s.fail()
	}
	return j, true
}

// closeObject ends the object skipped last: past linearKeys keys, its
// keys are sorted to find a duplicate, which bails.
func (s *scanner) closeObject() bool {
	start := s.objs[len(s.objs)-1].start
	if len(s.keys)-start > linearKeys && s.duplicateKeys(start) {
		s.bail = true
		return false
	}
	s.keys, s.objs = s.keys[:start], s.objs[:len(s.objs)-1]
	return true
}

// members calls f for each member of the object at data[i] with the
// key's offset, its raw text (without quotes) and the value's offset; f
// returns the offset after the value. members returns the offset after
// the object. Keys with escapes or invalid UTF-8 and duplicate keys bail.
func (s *scanner) members(i int, f func(keyAt int, key []byte, at int) (int, bool)) (count, end int, ok bool) {
	if !s.push() {
		return 0, 0, false
	}
	keyStart, tabTop := len(s.keys), len(s.tab)
	place := s.inPlace
	s.inPlace = 0
	count, end, ok = s.membersFrom(i, keyStart, f)
	s.depth--
	// (One slice a statement: see release.)
	s.keys = s.keys[:keyStart]
	s.tab = s.tab[:tabTop]
	s.inPlace = place
	if tabTop == 0 && cap(s.tab) > maxKeyTable {
		s.tab = nil // a pooled scanner keeps no large table
	}
	return count, end, ok
}

// maxKeyTable is the most slots of key tables (s.tab) a scanner keeps
// between objects of the outermost level.
const maxKeyTable = 1 << 14

// linearKeys is how many keys of a skipped object are compared with each
// other as they are read; past them, duplicates are found by sorting the
// keys once the object is read.
const linearKeys = 64

func (s *scanner) membersFrom(i, keyStart int, f func(keyAt int, key []byte, at int) (int, bool)) (count, end int, ok bool) {
	d := s.data
	var set keySet
	// The spans of the first smallObject keys, on the stack: appended to
	// s.keys as [2]int pairs, each pair was stored as two words and
	// loaded back as one, which the processor does not forward from its
	// store buffer (a stall that was ~8% of a small document's scan).
	// Past them the keys go to s.keys, for the object's hash table.
	var starts, ends [smallObject]int
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		return 0, i + 1, true
	}
	for {
		if i >= len(d) || d[i] != '"' {
			s.bail = true
			return 0, 0, false
		}
		ks := i + 1
		// A key of plain bytes is read here, inlined (lex.PlainRun,
		// lex.IsPlain); any other, by lex.SkipString: one with an
		// escape bails (only the decoder compares its text), as does
		// one that is not UTF-8.
		j := lex.PlainRun(d, ks)
		for j < len(d) && lex.IsPlain(d[j]) {
			j++
		}
		if j >= len(d) || d[j] != '"' {
			end, kf, code := lex.SkipString(d, i)
			if code != lex.OK || kf&(lex.Escaped|lex.BadUTF8) != 0 {
				s.bail = true
				return 0, 0, false
			}
			j = end - 1 // the closing quote
		}
		key := d[ks:j]
		if count < smallObject {
			// The length and the last byte first: names alike but for
			// their ends (field_1, field_2) are told apart without a call.
			last := byte(0)
			if len(key) > 0 {
				last = key[len(key)-1]
			}
			for k := range count {
				a, b := starts[k], ends[k]
				if b-a == len(key) && (b == a || d[b-1] == last) && string(d[a:b]) == string(key) {
					s.bail = true
					return 0, 0, false
				}
			}
			starts[count], ends[count] = ks, j
		} else {
			if count == smallObject {
				s.keys = slices.Grow(s.keys, smallObject)
				for k := range smallObject {
					s.keys = append(s.keys, [2]int{starts[k], ends[k]})
				}
			}
			if s.addKey(&set, keyStart, ks, j) {
				s.bail = true
				return 0, 0, false
			}
		}
		j = skipWS(d, j+1)
		if j >= len(d) || d[j] != ':' {
			s.bail = true
			return 0, 0, false
		}
		j = skipWS(d, j+1)
		if j >= len(d) {
			s.bail = true
			return 0, 0, false
		}
		count++
		end, ok := f(ks-1, key, j)
		if !ok {
			if s.negated > 0 && !s.bail {
				s.keyAgain(key, j)
			}
			return 0, 0, false
		}
		var more bool
		if i, more, ok = s.after(end, '}'); !ok || !more {
			return count, i, ok
		}
	}
}

// keyAgain is called when the member of key whose value is at data[at]
// was found invalid where that verdict can make a value valid: it bails
// when the key comes again later in the object, since the decoder keeps
// the last of duplicate keys, so that the slow path may find the object
// valid where the fast path checked the member it drops.
func (s *scanner) keyAgain(key []byte, at int) {
	end, ok := s.skip(at)
	for ok {
		var i int
		var more bool
		if i, more, ok = s.after(end, '}'); !ok || !more {
			return
		}
		if i >= len(s.data) || s.data[i] != '"' {
			s.bail = true
			return
		}
		var k []byte
		if k, i, ok = s.str(i); !ok {
			return
		}
		if bytes.Equal(k, key) {
			s.bail = true
			return
		}
		if i = skipWS(s.data, i); i >= len(s.data) || s.data[i] != ':' {
			s.bail = true
			return
		}
		end, ok = s.skip(skipWS(s.data, i+1))
	}
	s.bail = true
}

// duplicateKeys reports whether the keys of the object read last, from
// s.keys[keyStart:], hold one twice. It sorts them in place.
func (s *scanner) duplicateKeys(keyStart int) bool {
	d := s.data
	keys := s.keys[keyStart:]
	slices.SortFunc(keys, func(a, b [2]int) int { return bytes.Compare(d[a[0]:a[1]], d[b[0]:b[1]]) })
	for k := 1; k < len(keys); k++ {
		if bytes.Equal(d[keys[k-1][0]:keys[k-1][1]], d[keys[k][0]:keys[k][1]]) {
			return true
		}
	}
	return false
}

// after reads what follows a member or element ending at data[end]: a
// comma, after which more is true and i is the next one's offset, or the
// closing byte, after which i is the offset past it.
func (s *scanner) after(end int, closing byte) (i int, more, ok bool) {
	d := s.data
	i = skipWS(d, end)
	switch {
	case i >= len(d):
	case d[i] == ',':
		return skipWS(d, i+1), true, true
	case d[i] == closing:
		return i + 1, false, true
	}
	s.bail = true
	return 0, false, false
}

// elements calls f for each element of the array at data[i] with its
// index and offset; f returns the offset after it.
func (s *scanner) elements(i int, f func(k, at int) (int, bool)) (count, end int, ok bool) {
	if !s.push() {
		return 0, 0, false
	}
	place := s.inPlace
	s.inPlace = 0
	count, end, ok = s.elementsFrom(i, f)
	s.depth, s.inPlace = s.depth-1, place
	return count, end, ok
}

func (s *scanner) elementsFrom(i int, f func(k, at int) (int, bool)) (count, end int, ok bool) {
	d := s.data
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == ']' {
		return 0, i + 1, true
	}
	for {
		if i >= len(d) {
			s.bail = true
			return 0, 0, false
		}
		end, ok := f(count, i)
		if !ok {
			return 0, 0, false
		}
		count++
		var more bool
		if i, more, ok = s.after(end, ']'); !ok || !more {
			return count, i, ok
		}
	}
}

// member looks key up among n's declared names: its table when it has
// one, else its probe table, else its map.
func (n *node) member(key []byte) (keyInfo, bool) {
	switch {
	case n.table != nil:
		return n.table.find(key)
	case n.probe != nil:
		return n.probe.find(key)
	case n.keys != nil:
		k, ok := n.keys[string(key)]
		return k, ok
	}
	return keyInfo{}, false
}

func (s *scanner) object(n *node, i int) (int, bool) {
	var present uint64
	reqSeen := 0
	count, end, ok := s.members(i, func(keyAt int, key []byte, at int) (int, bool) {
		// n.member's lookup written out: table.find inlines here, which a
		// call to member would not (the verdict's hot loop).
		var k keyInfo
		var known bool
		if n.table != nil {
			k, known = n.table.find(key)
		} else if n.probe != nil {
			k, known = n.probe.find(key)
		} else if n.keys != nil {
			k, known = n.keys[string(key)]
		}
		if known && k.bit >= 0 {
			present |= 1 << k.bit
		}
		if known && k.req {
			reqSeen++
		}
		if n.propNames != nil {
			if _, ok := s.check(n.propNames, keyAt); !ok {
				return 0, false
			}
		}
		evaluated := false
		var end int
		if known && k.n != nil {
			evaluated = true
			e, ok := s.check(k.n, at)
			if !ok {
				return 0, false
			}
			end = e
		}
		for _, pp := range n.patProps {
			if pp.re.Match(key) {
				evaluated = true
				e, ok := s.check(pp.n, at)
				if !ok {
					return 0, false
				}
				end = e
			}
		}
		if !evaluated {
			switch {
			case n.addlFalse:
				return 0, false
			case n.addl != nil:
				return s.check(n.addl, at)
			}
			return s.skip(at)
		}
		return end, true
	})
	if !ok {
		return 0, false
	}
	if n.minProps >= 0 && count < n.minProps || n.maxProps >= 0 && count > n.maxProps {
		return 0, false
	}
	if present&n.required != n.required || reqSeen != n.reqCount {
		return 0, false
	}
	for _, dr := range n.depReq {
		if present&(1<<dr.prop) != 0 && present&dr.bits != dr.bits {
			return 0, false
		}
	}
	for _, ds := range n.depSch {
		if present&(1<<ds.prop) != 0 {
			if _, ok := s.check(ds.n, i); !ok {
				return 0, false
			}
		}
	}
	return end, true
}

func (s *scanner) array(n *node, i int) (int, bool) {
	spanStart, canonStart := len(s.spans), len(s.canon)
	end, ok := s.arrayItems(n, i, spanStart)
	s.spans, s.canon = s.spans[:spanStart], s.canon[:canonStart]
	return end, ok
}

func (s *scanner) arrayItems(n *node, i, spanStart int) (int, bool) {
	matched := 0
	count, end, ok := s.elements(i, func(k, at int) (int, bool) {
		if n.maxItems >= 0 && k >= n.maxItems {
			return 0, false
		}
		sub := n.rest
		if k < len(n.prefix) {
			sub = n.prefix[k]
		}
		if n.contains != nil {
			s.negated++
			_, ok := s.check(n.contains, at)
			s.negated--
			if ok {
				matched++
			} else if s.bail {
				return 0, false
			}
		}
		if n.unique {
			cs := len(s.canon)
			if _, ok := s.appendCanon(at); !ok {
				return 0, false
			}
			form := s.canon[cs:]
			for _, sp := range s.spans[spanStart:] {
				if bytes.Equal(s.canon[sp[0]:sp[1]], form) {
					return 0, false
				}
			}
			if len(s.spans)-spanStart > 256 {
				s.bail = true
				return 0, false
			}
			s.spans = append(s.spans, [2]int{cs, len(s.canon)})
		}
		if sub != nil {
			return s.check(sub, at)
		}
		return s.skip(at)
	})
	if !ok {
		return 0, false
	}
	if n.minItems >= 0 && count < n.minItems {
		return 0, false
	}
	if n.contains != nil {
		if n.minContains >= 0 {
			if matched < n.minContains {
				return 0, false
			}
		} else if matched == 0 {
			return 0, false
		}
		if n.maxContains >= 0 && matched > n.maxContains {
			return 0, false
		}
	}
	return end, true
}

// appendCanon appends the canonical form (see canonValue) of the value at
// data[i] to s.canon and returns the offset after the value.
func (s *scanner) appendCanon(i int) (int, bool) {
	d := s.data
	switch c := d[i]; {
	case c == 'n':
		s.canon = append(s.canon, 'n')
		return s.literal(i, "null")
	case c == 't':
		s.canon = append(s.canon, 't')
		return s.literal(i, "true")
	case c == 'f':
		s.canon = append(s.canon, 'f')
		return s.literal(i, "false")
	case c == '"':
		str, end, ok := s.str(i)
		if !ok {
			return 0, false
		}
		s.canon = appendCanonString(s.canon, str)
		return end, true
	case c == '-' || isDigit(c):
		end, ok := s.number(i)
		if !ok {
			return 0, false
		}
		b, err := appendCanonNumber(s.canon, d[i:end])
		if err != nil {
			return s.fail()
		}
		s.canon = b
		return end, true
	case c == '[':
		s.canon = append(s.canon, '[')
		at := len(s.canon)
		s.canon = append(s.canon, 0, 0, 0, 0, 0) // room for the count
		count, end, ok := s.elements(i, func(_, at int) (int, bool) { return s.appendCanon(at) })
		if !ok {
			return 0, false
		}
		s.fixCount(at, count)
		return end, true
	case c == '{':
		s.canon = append(s.canon, '{')
		at := len(s.canon)
		s.canon = append(s.canon, 0, 0, 0, 0, 0)
		memberStart := len(s.canon)
		spanStart := len(s.spans)
		count, end, ok := s.members(i, func(_ int, key []byte, at int) (int, bool) {
			ms := len(s.canon)
			s.canon = appendCanonString(s.canon, key)
			end, ok := s.appendCanon(at)
			s.spans = append(s.spans, [2]int{ms, len(s.canon)})
			return end, ok
		})
		if !ok {
			s.spans = s.spans[:spanStart]
			return 0, false
		}
		s.spans = s.spans[:spanStart+count]
		s.sortMembers(memberStart, s.spans[spanStart:])
		s.spans = s.spans[:spanStart]
		s.fixCount(at, count)
		return end, true
	}
	return s.fail()
}

// fixCount writes count in the five bytes reserved at at: a fixed-width
// count keeps the forms of the values after it in place.
func (s *scanner) fixCount(at, count int) {
	copy(s.canon[at:at+5], appendCount(nil, count))
}

// sortMembers orders the canonical members written from start on by their
// bytes, so that objects equal but for their order have one form.
func (s *scanner) sortMembers(start int, spans [][2]int) {
	if len(spans) < 2 {
		return
	}
	sorted := slices.IsSortedFunc(spans, func(a, b [2]int) int {
		return bytes.Compare(s.canon[a[0]:a[1]], s.canon[b[0]:b[1]])
	})
	if sorted {
		return
	}
	slices.SortFunc(spans, func(a, b [2]int) int {
		return bytes.Compare(s.canon[a[0]:a[1]], s.canon[b[0]:b[1]])
	})
	end := len(s.canon)
	for _, sp := range spans {
		s.canon = append(s.canon, s.canon[sp[0]:sp[1]]...)
	}
	copy(s.canon[start:], s.canon[end:])
	s.canon = s.canon[:end]
}
