package schema

import (
	"encoding/json"
	"math/big"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/result"
)

// The fast path's issues. In report mode the scanner does not stop at the
// first failed keyword: it reads the whole document once and builds, from
// its bytes, the tree of *jsonschema.ValidationError that santhosh-tekuri's
// validator would build for the decoded document (the same errors, kinds,
// instance and schema locations, grouped the same way), and the reporter
// of the slow path (issues.go) turns that tree into issues, reading values
// from the bytes through rawDoc. Messages therefore come from one place.
// Where the fast path cannot be sure (see fastscan.go), it gives up and the
// slow path decides, as for a valid verdict.
//
// The rules of the tree follow santhosh-tekuri's validator.go: a failed
// type, const, enum or format ends the checks of a schema; $ref wraps its
// errors in a Reference; a schema with several errors groups them; allOf,
// anyOf and oneOf wrap their branches' errors; the errors of then, else,
// dependencies and dependentSchemas join their schema's; not, if and
// contains only ask whether a value matches (the scanner's check).

// pathTok is one token of the instance location being read in report
// mode: an object key (its offsets in the document) or an array index.
type pathTok struct {
	start, end int // the key's bytes, when index < 0
	index      int
}

// tokens returns the instance location being read, as santhosh-tekuri's
// validator gives it: empty (not nil) at the root of a validation.
func (s *scanner) tokens() []string {
	toks := make([]string, 0, len(s.path)-s.pathBase)
	for _, t := range s.path[s.pathBase:] {
		if t.index >= 0 {
			toks = append(toks, strconv.Itoa(t.index))
		} else {
			toks = append(toks, string(s.data[t.start:t.end]))
		}
	}
	return toks
}

// newError is an error of kind k of n's schema at the value being read.
func (s *scanner) newError(n *node, k jsonschema.ErrorKind) *jsonschema.ValidationError {
	return &jsonschema.ValidationError{SchemaURL: n.loc, InstanceLocation: s.tokens(), ErrorKind: k}
}

// errorOf is an error and its kind, allocated together.
type errorOf[K any] struct {
	e jsonschema.ValidationError
	k K
}

// newErr is newError of kind k, with the error and its kind in one
// allocation.
func newErr[K any, PK interface {
	*K
	jsonschema.ErrorKind
}](s *scanner, n *node, k K) *jsonschema.ValidationError {
	toks := s.tokens()
	p := &errorOf[K]{k: k}
	// Field by field: a whole struct written to the heap object would go
	// through a bulk write barrier.
	p.e.SchemaURL, p.e.InstanceLocation, p.e.ErrorKind = n.loc, toks, PK(&p.k)
	return &p.e
}

// addErr adds newErr's error to s.errs.
func addErr[K any, PK interface {
	*K
	jsonschema.ErrorKind
}](s *scanner, n *node, k K) {
	s.errs = append(s.errs, newErr[K, PK](s, n, k))
}

// addParent replaces the errors from start on with one error of kind k
// holding them as its causes, or with a nil one when all of them are nil
// (their issues written directly).
func addParent[K any, PK interface {
	*K
	jsonschema.ErrorKind
}](s *scanner, n *node, start int, k K) {
	if s.nilsFrom(start) {
		// Only issues written directly (a wrong member beside a missing
		// one): the nil at start stands for them all, and those after it
		// are nil already, with nothing to clear.
		s.errs = s.errs[:start+1]
		return
	}
	causes := s.pop(start)
	if causes == nil {
		s.errs = append(s.errs, nil)
		return
	}
	e := newErr[K, PK](s, n, k)
	e.Causes = causes
	s.errs = append(s.errs, e)
}

// nilsFrom reports whether the errors from start on are all nil (issues
// written directly); there is at least one.
func (s *scanner) nilsFrom(start int) bool {
	for _, e := range s.errs[start:] {
		if e != nil {
			return false
		}
	}
	return true
}

// pop removes and returns the errors from start on, but for the nil ones
// (issues written directly): nil when all are.
func (s *scanner) pop(start int) []*jsonschema.ValidationError {
	var out []*jsonschema.ValidationError
	if n := len(s.errs[start:]) - count(s.errs[start:], nil); n > 0 {
		out = make([]*jsonschema.ValidationError, 0, n)
		for _, e := range s.errs[start:] {
			if e != nil {
				out = append(out, e)
			}
		}
	}
	clear(s.errs[start:])
	s.errs = s.errs[:start]
	return out
}

// count is how many of errs are e.
func count(errs []*jsonschema.ValidationError, e *jsonschema.ValidationError) int {
	n := 0
	for _, x := range errs {
		if x == e {
			n++
		}
	}
	return n
}

// popOne removes and returns the one error at start, the last.
func (s *scanner) popOne(start int) *jsonschema.ValidationError {
	e := s.errs[start]
	s.errs[start] = nil
	s.errs = s.errs[:start]
	return e
}

// causesOf is what a wrapper of e holds: a group's errors, or e.
func causesOf(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if _, ok := e.ErrorKind.(*kind.Group); ok {
		return e.Causes
	}
	return []*jsonschema.ValidationError{e}
}

// decodeAt decodes the value at data[i:end], for an error that quotes it.
func (s *scanner) decodeAt(i, end int) (any, bool) {
	v, err := jsonvalue.Decode(s.data[i:end], s.maxDepth)
	if err != nil {
		s.bail = true
		return nil, false
	}
	return v, true
}

// schemaOf returns the schema n was compiled from, for an error the
// reporter will word: the full form is kept from then on (compiled.form).
func (s *scanner) schemaOf(n *node) *jsonschema.Schema {
	return s.comp.form(true).index[n.loc]
}

// fastReport validates doc against c's fast path in report mode and
// returns the validator's error for it (nil when doc is valid, or when the
// scan wrote all its issues directly) without its root wrapper (a
// kind.Schema of the root schema, holding the error's causes), and the
// issues the scan wrote directly when direct is true (see
// scanner.direct), with sure false when the fast path cannot decide.
func fastReport(c *compiled, doc []byte, maxDepth int, direct bool) (ve *jsonschema.ValidationError, arrays map[int][]int, issues []result.Issue, sure bool) {
	if maxDepth <= 0 {
		maxDepth = jsonvalue.DefaultMaxDepth
	}
	s := scannerPool.Get().(*scanner)
	ve, arrays, issues, sure = s.report(c, doc, maxDepth, direct)
	s.release()
	return ve, arrays, issues, sure
}

// report is fastReport with the scanner s (maxDepth set).
func (s *scanner) report(c *compiled, doc []byte, maxDepth int, direct bool) (ve *jsonschema.ValidationError, arrays map[int][]int, issues []result.Issue, sure bool) {
	// (One slice a statement, pointers stored only when they change: see
	// setData and release.)
	s.setData(doc)
	s.maxDepth, s.depth, s.inPlace, s.maxPlace, s.bail, s.negated = maxDepth, 0, 0, c.nodes+1, false, 0
	s.errs = s.errs[:0]
	s.path = s.path[:0]
	s.elemAt = s.elemAt[:0]
	s.text = s.text[:0]
	s.found = s.found[:0]
	if s.indexed != nil {
		s.indexed = nil
	}
	s.pathBase, s.direct, s.tree, s.comp = 0, direct, 0, c
	end, ok := s.rcheck(c.fast, skipWS(doc, 0))
	if !s.bail && skipWS(doc, end) != len(doc) {
		s.bail = true
	}
	sure = !s.bail
	if s.bail && len(s.found) > MaxIssues {
		issues = s.directIssues() // over the budget (checkBudget)
	} else if sure && !ok && len(s.errs) == 1 {
		// The validator wraps it in a kind.Schema of the root, which the
		// reporter walks through as it walks a group: left out.
		ve = s.errs[0]
		issues = s.directIssues()
		if ve == nil && issues == nil {
			sure = false // cannot happen: a nil error stands for issues written
		}
	} else if sure && (!ok || len(s.errs) > 0) {
		sure = false // cannot happen: a failed schema leaves one error
	}
	// The errors are cleared for the pool, but not through a bulk write
	// barrier when they are only the nils that stand for issues written
	// directly (the common case). s.data goes in release.
	for _, e := range s.errs {
		if e != nil {
			clear(s.errs)
			break
		}
	}
	arrays = s.indexed
	s.errs = s.errs[:0]
	s.path = s.path[:0]
	if s.indexed != nil {
		s.indexed = nil
	}
	s.comp = nil
	return ve, arrays, issues, sure
}

// fastIssues is the fast path's answer for doc: its issues (none when it
// is valid), as the slow path gives them, or sure false when the slow path
// must decide. A panic of the report (a case it does not know) leaves the
// document to the slow path rather than failing it; the tests call
// fastIssuesUnguarded, so that such a panic fails them instead of hiding.
func (c *compiled) fastIssues(doc []byte, maxDepth int) (issues []result.Issue, sure bool) {
	issues, _, sure = c.fastIssuesGuarded(doc, maxDepth, false)
	return issues, sure
}

// fastIssuesGuarded is fastIssuesIn with fastIssues' recover.
func (c *compiled) fastIssuesGuarded(doc []byte, maxDepth int, inRoom bool) (issues []result.Issue, room result.Room, sure bool) {
	return c.fastIssuesIn(doc, maxDepth, inRoom, true)
}

// fastIssuesUnguarded is fastIssues without its recover.
func (c *compiled) fastIssuesUnguarded(doc []byte, maxDepth int) ([]result.Issue, bool) {
	issues, _, sure := c.fastIssuesIn(doc, maxDepth, false, false)
	return issues, sure
}

// fastIssuesIn is fastIssuesUnguarded that, when inRoom, writes the issues
// the scan writes itself in a result.Room (a result allocated with them)
// and returns it; the issues are the room's unless the reporter added
// some (result.FoundIn tells). When guarded, a panic is recovered as
// fastIssues says (in this frame: a function of its own that only
// deferred the recover cost a second call for every document).
func (c *compiled) fastIssuesIn(doc []byte, maxDepth int, inRoom, guarded bool) (issues []result.Issue, room result.Room, sure bool) {
	if c.fast == nil {
		return nil, result.Room{}, false
	}
	if guarded {
		defer func() {
			if p := recover(); p != nil {
				issues, room, sure = nil, result.Room{}, false
			}
		}()
	}
	// The verdict scan first: a valid document is read once by it, which
	// costs less than report mode's bookkeeping (about a fifth less CPU on
	// the corpus's large document); an invalid one is then read in report
	// mode, after the verdict scan's prefix up to its first failed keyword.
	// One scanner from the pool serves both readings.
	if maxDepth <= 0 {
		maxDepth = jsonvalue.DefaultMaxDepth
	}
	// (Not released by a defer: a scanner a panic left is not pooled.)
	s := scannerPool.Get().(*scanner)
	if valid, sure := s.verdict(c.fast, c.nodes, doc, maxDepth); !sure || valid {
		s.release()
		return nil, result.Room{}, sure
	}
	s.inRoom = inRoom
	issues, sure = c.reportIssues(s, doc, maxDepth, true)
	if !sure && issues != nil {
		// More issues than the budget: which ones are kept depends on the
		// reporter's order over all of them, so none is written directly.
		issues, sure = c.reportIssues(s, doc, maxDepth, false)
	}
	room = s.room
	s.inRoom, s.room = false, result.Room{}
	s.release()
	return issues, room, sure
}

// reportIssues reads doc with s in report mode (direct as fastReport)
// and returns its issues, sorted; sure is false when the fast path cannot
// decide, and then issues is not nil when only the budget is the reason
// (more issues than MaxIssues, some written directly).
func (c *compiled) reportIssues(s *scanner, doc []byte, maxDepth int, direct bool) ([]result.Issue, bool) {
	ve, arrays, issues, sure := s.report(c, doc, maxDepth, direct)
	switch {
	case !sure || len(issues) > MaxIssues:
		return issues, false
	case ve == nil:
		// Issues equal by CompareIssues are equal: any sort gives the
		// reporter's order.
		sortIssues(issues)
		return issues, true
	}
	if maxDepth <= 0 {
		maxDepth = jsonvalue.DefaultMaxDepth
	}
	// The reporter, its instance and room for its first finding (most
	// invalid documents have one) in one allocation.
	one := &struct {
		r     reporter
		doc   rawDoc
		found [1]finding
	}{doc: rawDoc{data: doc, root: skipWS(doc, 0), maxDepth: maxDepth, arrays: arrays}}
	one.r = reporter{c: c, doc: &one.doc, noun: defaultNoun, budget: MaxIssues, found: one.found[:0]}
	r := &one.r
	r.walk(ve)
	switch {
	case r.err != nil:
		return nil, false
	case len(issues) == 0:
		return r.issues(), true
	case len(r.found)+r.skipped+len(issues) > MaxIssues:
		return issues, false
	}
	for i := range r.found {
		issues = append(issues, r.found[i].issue)
	}
	sortIssues(issues)
	return issues, true
}

// smallSort is the most issues sortIssues sorts by insertion.
const smallSort = 12

// sortIssues sorts issues by result.CompareIssues. A few (the scan's one
// to three issues of a tool call's arguments, nearly always in order
// already) are sorted by insertion, compared in place: in order, they
// cost one comparison a neighbour and no move, where slices.SortFunc
// copied both 112-byte issues into every comparison through a function
// value. Issues equal by CompareIssues are equal, so any sort gives the
// same order.
func sortIssues(issues []result.Issue) {
	if len(issues) > smallSort {
		slices.SortFunc(issues, result.CompareIssues)
		return
	}
	for i := 1; i < len(issues); i++ {
		for j := i; j > 0 && issueBefore(&issues[j], &issues[j-1]); j-- {
			issues[j], issues[j-1] = issues[j-1], issues[j]
		}
	}
}

// issueBefore reports whether a orders before b under
// result.CompareIssues, deciding by the locations alone when they differ
// (issues the scan writes nearly always do), without copying the issues.
func issueBefore(a, b *result.Issue) bool {
	if c := result.CompareLocations(a.Location, b.Location); c != 0 {
		return c < 0
	}
	return result.CompareIssues(*a, *b) < 0
}

// rcheck is check in report mode: it validates the value at data[i]
// against n, leaves the error of n's schema (one, grouped) on s.errs when
// the value is invalid, and returns the offset after the value, which is
// meaningful whenever s.bail is not set.
func (s *scanner) rcheck(n *node, i int) (int, bool) {
	if s.bail {
		return 0, false
	}
	switch n.always {
	case 1:
		return s.skip(i)
	case -1:
		end, ok := s.skip(i)
		if !ok {
			return 0, false
		}
		addErr(s, n, kind.FalseSchema{})
		return end, false
	}
	if i >= len(s.data) {
		return s.fail()
	}
	if n.plain != 0 {
		if end, ok, done := s.plain(n.plain, i); done {
			return end, ok
		}
	}
	start := len(s.errs)
	end, done := s.rown(n, i)
	if s.bail {
		return 0, false
	}
	if !done && (n.not != nil || n.allOf != nil || n.anyOf != nil || n.oneOf != nil || n.ifN != nil) {
		s.inPlace++
		if s.inPlace > s.maxPlace {
			return s.fail()
		}
		s.rapplicators(n, i)
		s.inPlace--
		if s.bail {
			return 0, false
		}
	}
	if len(s.errs)-start > 1 {
		addParent(s, n, start, kind.Group{})
	}
	return end, len(s.errs) == start
}

// valueKind is the kind (kObject, …) and JSON type name of the value that
// starts with c, or 0 when no value starts so.
func valueKind(c byte) (k int, name string) {
	switch {
	case c == '{':
		return kObject, "object"
	case c == '[':
		return kArray, "array"
	case c == '"':
		return kString, "string"
	case c == 't' || c == 'f':
		return kBool, "boolean"
	case c == 'n':
		return kNull, "null"
	case c == '-' || isDigit(c):
		return kNumber, "number"
	}
	return 0, ""
}

// rown checks n's type, const, enum, format, $ref and the keywords of the
// value's type, in the validator's order; done is true when the validator
// stops there (a failed type, const, enum or format, or a $ref before
// 2019-09).
func (s *scanner) rown(n *node, i int) (end int, done bool) {
	k, name := valueKind(s.data[i])
	if k == 0 {
		s.fail()
		return 0, true
	}
	var dec decimal
	numEnd := 0
	if k == kNumber {
		var ok bool
		if numEnd, ok = s.number(i); !ok {
			return 0, true
		}
		if needsDecimal(n) {
			if dec, ok = parseDecimal(s.data[i:numEnd]); !ok {
				s.fail()
				return 0, true
			}
		}
	}
	if n.types != 0 && n.types&k == 0 && !(k == kNumber && n.types&kInteger != 0 && dec.isInt()) {
		end, ok := s.skip(i)
		switch {
		case ok && s.direct && s.tree == 0:
			s.typeIssue(n, name)
			s.errs = append(s.errs, nil)
		case ok:
			addErr(s, n, kind.Type{Got: name, Want: n.typeNames})
		}
		return end, true
	}
	if n.hasConst || n.hasEnum {
		if end, stop := s.rconstEnum(n, i); stop {
			return end, true
		}
	}
	if n.format != nil {
		if end, stop := s.rformat(n, k, i, numEnd); stop {
			return end, true
		}
	}
	if n.ref != nil {
		s.inPlace++
		if s.inPlace > s.maxPlace {
			s.fail()
			return 0, true
		}
		rs := len(s.errs)
		end, ok := s.rcheck(n.ref, i)
		s.inPlace--
		if s.bail {
			return 0, true
		}
		if !ok {
			if e := s.popOne(rs); e == nil {
				s.errs = append(s.errs, nil) // written directly
			} else {
				ref := newErr(s, n, kind.Reference{Keyword: "$ref", URL: n.ref.loc})
				ref.Causes = causesOf(e)
				s.errs = append(s.errs, ref)
			}
		}
		if n.draft < 2019 {
			return end, true
		}
	}
	switch k {
	case kObject:
		if n.obj {
			return s.robject(n, i), false
		}
	case kArray:
		if n.arr {
			return s.rarray(n, i), false
		}
	case kString:
		if n.str {
			return s.rstring(n, i), false
		}
	case kNumber:
		if n.num {
			s.rnumber(n, s.data[i:numEnd], dec)
		}
		return numEnd, false
	}
	end, _ = s.skip(i)
	return end, false
}

// rconstEnum checks n's const and enum in report mode; stop is true when
// the value fails them (its error added, end the offset after it) or the
// scan gives up.
func (s *scanner) rconstEnum(n *node, i int) (end int, stop bool) {
	cs := len(s.canon)
	end, ok := s.appendCanon(i)
	if !ok {
		s.canon = s.canon[:cs]
		return 0, true
	}
	form := s.canon[cs:]
	constOK := !n.hasConst || string(form) == n.constCanon
	enumOK := true
	if n.hasEnum {
		_, enumOK = n.enum[string(form)]
	}
	s.canon = s.canon[:cs]
	if constOK && enumOK {
		return end, false
	}
	direct := s.direct && s.tree == 0
	if direct && s.keptConstEnum(n, s.data[i:end], !constOK) {
		s.errs = append(s.errs, nil)
		return end, true
	}
	v, ok := s.decodeAt(i, end)
	if !ok {
		return 0, true
	}
	if direct {
		s.constEnumIssue(n, v, s.data[i:end], !constOK)
		s.errs = append(s.errs, nil)
		return end, true
	}
	if !constOK {
		addErr(s, n, kind.Const{Got: v, Want: *s.schemaOf(n).Const})
	} else {
		addErr(s, n, kind.Enum{Got: v, Want: s.schemaOf(n).Enum.Values})
	}
	return end, true
}

// rformat checks n's format in report mode on the value at data[i] of
// kind k (a number ends at numEnd), as rconstEnum.
func (s *scanner) rformat(n *node, k, i, numEnd int) (end int, stop bool) {
	var v any
	switch k {
	case kString:
		str, _, ok := s.str(i)
		if !ok {
			return 0, true
		}
		v = string(str)
	case kNumber:
		v = json.Number(s.data[i:numEnd])
	case kBool:
		v = s.data[i] == 't'
	case kNull:
		v = nil
	default:
		s.fail()
		return 0, true
	}
	err := n.format.Validate(v)
	if err == nil {
		return 0, false
	}
	end, ok := s.skip(i)
	if ok {
		addErr(s, n, kind.Format{Got: v, Want: n.format.Name, Err: err})
	}
	return end, true
}

// rapplicators checks n's not, allOf, anyOf, oneOf and if in report mode.
func (s *scanner) rapplicators(n *node, i int) {
	if n.not != nil {
		s.negated++
		_, ok := s.check(n.not, i)
		s.negated--
		if s.bail {
			return
		}
		if ok {
			addErr(s, n, kind.Not{})
		}
	}
	if n.allOf != nil {
		as := len(s.errs)
		for _, sub := range n.allOf {
			if s.rcheck(sub, i); s.bail {
				return
			}
		}
		if len(s.errs) > as {
			addParent(s, n, as, kind.AllOf{})
		}
	}
	if n.anyOf != nil {
		matched := false
		for _, sub := range n.anyOf {
			if _, ok := s.check(sub, i); ok {
				matched = true
				break
			}
			if s.bail {
				return
			}
		}
		if !matched {
			s.branchErrors(n, i, n.anyOf, &kind.AnyOf{})
		}
	}
	if n.oneOf != nil {
		first, second := -1, -1
		s.negated++
		for k, sub := range n.oneOf {
			if _, ok := s.check(sub, i); ok {
				if first >= 0 {
					second = k
					break
				}
				first = k
			}
			if s.bail {
				break
			}
		}
		s.negated--
		switch {
		case s.bail:
			return
		case second >= 0:
			addErr(s, n, kind.OneOf{Subschemas: []int{first, second}})
		case first < 0:
			s.branchErrors(n, i, n.oneOf, &kind.OneOf{})
		}
	}
	if n.ifN != nil {
		s.negated++
		_, ok := s.check(n.ifN, i)
		s.negated--
		if s.bail {
			return
		}
		next := n.elseN
		if ok {
			next = n.thenN
		}
		if next != nil {
			s.rcheck(next, i)
		}
	}
}

// branchErrors adds the error of an anyOf or oneOf none of whose branches
// matched: each branch's errors, read again in report mode.
func (s *scanner) branchErrors(n *node, i int, branches []*node, k jsonschema.ErrorKind) {
	as := len(s.errs)
	// The reporter judges the branches' errors as a whole: a tree.
	s.tree++
	defer func() { s.tree-- }()
	for _, sub := range branches {
		if s.rcheck(sub, i); s.bail {
			return
		}
	}
	if len(s.errs)-as != len(branches) {
		s.bail = true // a branch the check found invalid and the report not
		return
	}
	e := s.newError(n, k)
	e.Causes = s.pop(as)
	s.errs = append(s.errs, e)
}

// robject checks the object keywords of n in report mode.
func (s *scanner) robject(n *node, i int) int {
	start := len(s.errs)
	var present uint64
	reqSeen := 0
	var addl []string
	var addlAt [][2]int // the keys additionalProperties false refuses, when written directly
	direct := s.direct && s.tree == 0
	// The object's keys, for the suggestions of those additionalProperties
	// false refuses, when written directly (see addlIssues).
	var keyBuf [16][2]int
	objKeys := keyBuf[:0]
	collect := direct && n.addlFalse
	var names []*jsonschema.ValidationError
	objPath := len(s.path)
	count, end, ok := s.members(i, func(keyAt int, key []byte, at int) (int, bool) {
		// n.member written out, as in object: table.find inlines here.
		k, known := keyInfo{}, false
		if n.table != nil {
			k, known = n.table.find(key)
		} else {
			k, known = n.member(key)
		}
		if known && k.bit >= 0 {
			present |= 1 << k.bit
		}
		if known && k.req {
			reqSeen++
		}
		if n.propNames != nil {
			if names = s.rpropName(n, keyAt, key, names); s.bail {
				return 0, false
			}
		}
		if collect {
			objKeys = append(objKeys, [2]int{keyAt + 1, keyAt + 1 + len(key)})
		}
		s.path = append(s.path, pathTok{start: keyAt + 1, end: keyAt + 1 + len(key), index: -1})
		evaluated := false
		end := 0
		if known && k.n != nil {
			evaluated = true
			end, _ = s.rcheck(k.n, at)
		}
		for _, pp := range n.patProps {
			if !s.bail && pp.re.Match(key) {
				evaluated = true
				end, _ = s.rcheck(pp.n, at)
			}
		}
		if !evaluated && !s.bail {
			switch {
			case n.addlFalse && direct:
				addlAt = append(addlAt, [2]int{keyAt + 1, keyAt + 1 + len(key)})
				end, _ = s.skip(at)
			case n.addlFalse:
				addl = append(addl, string(key))
				end, _ = s.skip(at)
			case n.addl != nil:
				end, _ = s.rcheck(n.addl, at)
			default:
				end, _ = s.skip(at)
			}
		}
		s.path = s.path[:objPath]
		return end, !s.bail
	})
	if !ok || s.bail {
		s.path = s.path[:objPath]
		s.bail = true
		return 0
	}
	after, ok := s.objectCounts(n, start, count, reqSeen, present)
	if !ok {
		return 0
	}
	if len(addl) > 0 {
		addErr(s, n, kind.AdditionalProperties{Properties: addl})
	}
	if len(addlAt) > 0 {
		s.addlIssues(n, objKeys, addlAt)
		s.errs = append(s.errs, nil)
	}
	// (Appended only when there is something to append: storing the
	// slice back costs a write barrier while the collector runs.)
	if len(names) > 0 {
		s.errs = append(s.errs, names...)
	}
	for _, ds := range n.depSch {
		if present&(1<<ds.prop) != 0 {
			if s.rcheck(ds.n, i); s.bail {
				return 0
			}
		}
	}
	if len(after) > 0 {
		s.errs = append(s.errs, after...)
	}
	return end
}

// rpropName validates the key at keyAt against n's propertyNames, on its
// own at its own root, and returns names with its error appended when it
// fails.
func (s *scanner) rpropName(n *node, keyAt int, key []byte, names []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	base := s.pathBase
	s.pathBase = len(s.path)
	es := len(s.errs)
	s.tree++ // the reporter reads the name's errors again
	_, ok := s.rcheck(n.propNames, keyAt)
	s.tree--
	s.pathBase = base
	if ok || s.bail {
		return names
	}
	e := s.popOne(es)
	return append(names, &jsonschema.ValidationError{SchemaURL: n.propNames.loc,
		InstanceLocation: s.tokens(), ErrorKind: &kind.PropertyNames{Property: string(key)}, Causes: causesOf(e)})
}

// objectCounts inserts at start on s.errs the errors the validator gives
// of an object before those of its members (minProperties,
// maxProperties, required, dependencies), from the object's count of
// members, of required ones, and its bits of present names, and returns
// those it gives after them (dependentRequired); ok is false when it
// cannot tell.
func (s *scanner) objectCounts(n *node, start, count, reqSeen int, present uint64) (after []*jsonschema.ValidationError, ok bool) {
	if reqSeen != n.reqCount {
		// Which of more than 64 required names are missing is not known.
		s.bail = true
		return nil, false
	}
	var preBuf [2]*jsonschema.ValidationError
	pre := preBuf[:0]
	if n.minProps >= 0 && count < n.minProps {
		pre = append(pre, newErr(s, n, kind.MinProperties{Got: count, Want: n.minProps}))
	}
	if n.maxProps >= 0 && count > n.maxProps {
		pre = append(pre, newErr(s, n, kind.MaxProperties{Got: count, Want: n.maxProps}))
	}
	// The nil standing for required issues written directly is appended,
	// not inserted: where a nil stands among a schema's errors does not
	// matter (pop drops them), and an insertion moves the pointers after
	// it through a write barrier.
	direct := false
	if s.direct && s.tree == 0 {
		direct = s.requiredIssues(n, present)
	} else if missing := missingNames(n, present, s.schemaOf(n).Required); missing != nil {
		pre = append(pre, newErr(s, n, kind.Required{Missing: missing}))
	}
	for _, dr := range n.depReq {
		if present&(1<<dr.prop) == 0 {
			continue
		}
		if missing := missingNames(n, present, dr.names); missing != nil {
			if dr.dependent {
				after = append(after, newErr(s, n, kind.DependentRequired{Prop: dr.name, Missing: missing}))
			} else {
				pre = append(pre, newErr(s, n, kind.Dependency{Prop: dr.name, Missing: missing}))
			}
		}
	}
	if len(pre) > 0 {
		s.errs = slices.Insert(s.errs, start, pre...)
	}
	if direct {
		s.errs = append(s.errs, nil)
	}
	return after, true
}

// missingNames returns the names of ps that the object lacks (by n's bits
// of present names), or nil.
func missingNames(n *node, present uint64, ps []string) []string {
	var missing []string
	for _, p := range ps {
		if b, ok := n.names[p]; ok && present&(1<<b) == 0 {
			missing = append(missing, p)
		}
	}
	return missing
}

// rarray checks the array keywords of n in report mode.
func (s *scanner) rarray(n *node, i int) int {
	spanStart, canonStart, elemStart, errStart := len(s.spans), len(s.canon), len(s.elemAt), len(s.errs)
	end := s.rarrayItems(n, i, spanStart)
	// The elements' offsets of an array with errors under it, for the
	// reporter, which would else read the array again to find them.
	if len(s.errs)-errStart > count(s.errs[errStart:], nil) && !s.bail {
		if s.indexed == nil {
			s.indexed = map[int][]int{}
		}
		s.indexed[i] = slices.Clone(s.elemAt[elemStart:])
	}
	s.spans, s.canon, s.elemAt = s.spans[:spanStart], s.canon[:canonStart], s.elemAt[:elemStart]
	return end
}

func (s *scanner) rarrayItems(n *node, i, spanStart int) int {
	start := len(s.errs)
	var matched []int
	dupI, dupJ := -1, -1
	extra := 0
	arrPath := len(s.path)
	count, end, ok := s.elements(i, func(k, at int) (int, bool) {
		s.elemAt = append(s.elemAt, at)
		if n.contains != nil {
			s.negated++
			_, ok := s.check(n.contains, at)
			s.negated--
			if s.bail {
				return 0, false
			}
			if ok {
				matched = append(matched, k)
			}
		}
		if n.unique && dupI < 0 {
			cs := len(s.canon)
			if _, ok := s.appendCanon(at); !ok {
				return 0, false
			}
			form := s.canon[cs:]
			for j, sp := range s.spans[spanStart:] {
				if string(s.canon[sp[0]:sp[1]]) == string(form) {
					dupI, dupJ = j, k
					break
				}
			}
			if len(s.spans)-spanStart > 256 {
				s.bail = true
				return 0, false
			}
			s.spans = append(s.spans, [2]int{cs, len(s.canon)})
		}
		sub := n.rest
		if k < len(n.prefix) {
			sub = n.prefix[k]
		}
		s.path = append(s.path, pathTok{index: k})
		var end int
		switch {
		case sub != nil && sub.noItems:
			extra++
			end, _ = s.skip(at)
		case sub != nil:
			end, _ = s.rcheck(sub, at)
		default:
			end, _ = s.skip(at)
		}
		s.path = s.path[:arrPath]
		return end, !s.bail
	})
	if !ok || s.bail {
		s.path = s.path[:arrPath]
		s.bail = true
		return 0
	}
	var pre []*jsonschema.ValidationError
	if n.minItems >= 0 && count < n.minItems {
		pre = append(pre, newErr(s, n, kind.MinItems{Got: count, Want: n.minItems}))
	}
	if n.maxItems >= 0 && count > n.maxItems {
		pre = append(pre, newErr(s, n, kind.MaxItems{Got: count, Want: n.maxItems}))
	}
	if dupI >= 0 {
		pre = append(pre, newErr(s, n, kind.UniqueItems{Duplicates: [2]int{dupI, dupJ}}))
	}
	if len(pre) > 0 {
		s.errs = slices.Insert(s.errs, start, pre...)
	}
	if extra > 0 {
		addErr(s, n, kind.AdditionalItems{Count: extra})
	}
	if n.contains != nil {
		if n.minContains >= 0 {
			if len(matched) < n.minContains {
				addErr(s, n, kind.MinContains{Got: matched, Want: n.minContains})
			}
		} else if len(matched) == 0 {
			addErr(s, n, kind.Contains{})
		}
		if n.maxContains >= 0 && len(matched) > n.maxContains {
			addErr(s, n, kind.MaxContains{Got: matched, Want: n.maxContains})
		}
	}
	return end
}

// rstring checks minLength, maxLength and pattern in report mode.
func (s *scanner) rstring(n *node, i int) int {
	str, end, ok := s.str(i)
	if !ok {
		return 0
	}
	direct := s.direct && s.tree == 0
	if n.minLen >= 0 || n.maxLen >= 0 {
		l := utf8.RuneCount(str)
		switch {
		case n.minLen >= 0 && l < n.minLen && direct:
			s.valueIssue(n, "minLength", s.data[i:end], str, l)
			s.errs = append(s.errs, nil)
		case n.minLen >= 0 && l < n.minLen:
			addErr(s, n, kind.MinLength{Got: l, Want: n.minLen})
		}
		switch {
		case n.maxLen >= 0 && l > n.maxLen && direct:
			s.valueIssue(n, "maxLength", s.data[i:end], str, l)
			s.errs = append(s.errs, nil)
		case n.maxLen >= 0 && l > n.maxLen:
			addErr(s, n, kind.MaxLength{Got: l, Want: n.maxLen})
		}
	}
	if n.pattern != nil {
		match := false
		if n.simple != nil {
			match = n.simple.match(str)
		} else {
			match = n.pattern.Match(str)
		}
		switch {
		case !match && direct:
			s.valueIssue(n, "pattern", s.data[i:end], str, 0)
			s.errs = append(s.errs, nil)
		case !match:
			addErr(s, n, kind.Pattern{Got: string(str), Want: n.pattern.String()})
		}
	}
	return end
}

// rnumber checks the numeric keywords in report mode.
func (s *scanner) rnumber(n *node, t []byte, d decimal) {
	var rat *big.Rat
	num := func() *big.Rat {
		if rat == nil {
			rat, _ = new(big.Rat).SetString(string(t))
		}
		return rat
	}
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
		return num().Cmp(b.rat)
	}
	// Written directly where the reporter would only walk through the
	// errors above (see directIssue), else added to the tree.
	direct := s.direct && s.tree == 0
	if n.minimum != nil && cmp(n.minimum) < 0 {
		if direct {
			s.numberIssue(n, "minimum", t)
		} else {
			addErr(s, n, kind.Minimum{Got: num(), Want: n.minimum.rat})
		}
	}
	if n.maximum != nil && cmp(n.maximum) > 0 {
		if direct {
			s.numberIssue(n, "maximum", t)
		} else {
			addErr(s, n, kind.Maximum{Got: num(), Want: n.maximum.rat})
		}
	}
	if n.exMin != nil && cmp(n.exMin) <= 0 {
		if direct {
			s.numberIssue(n, "exclusiveMinimum", t)
		} else {
			addErr(s, n, kind.ExclusiveMinimum{Got: num(), Want: n.exMin.rat})
		}
	}
	if n.exMax != nil && cmp(n.exMax) >= 0 {
		if direct {
			s.numberIssue(n, "exclusiveMaximum", t)
		} else {
			addErr(s, n, kind.ExclusiveMaximum{Got: num(), Want: n.exMax.rat})
		}
	}
	if n.multipleOf != nil && !multipleOf(n.multipleOf, t, d, rat) {
		if direct {
			s.numberIssue(n, "multipleOf", t)
		} else {
			addErr(s, n, kind.MultipleOf{Got: num(), Want: n.multipleOf.rat})
		}
	}
}

// numberIssue writes the issue of the number t being read, which n's
// keyword refuses (see valueIssue), and stands it on the error stack.
func (s *scanner) numberIssue(n *node, keyword string, t []byte) {
	s.valueIssue(n, keyword, t, nil, 0)
	s.errs = append(s.errs, nil)
}
