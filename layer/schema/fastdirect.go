package schema

import (
	"bytes"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentjudge/judge/internal/location"
	"github.com/agentjudge/judge/result"
)

// The issues the report scan writes itself. A failed type, required,
// enum, const, additionalProperties false, minLength, maxLength,
// pattern or numeric bound keyword is the most common error of a tool
// call's arguments, and the reporter (issues.go) would only walk through the
// errors above it (a schema's group, $ref, allOf: see reporter.walk) to
// word it alone. So, where no anyOf, oneOf or propertyNames above it needs
// the error tree (scanner.tree is 0), the scan writes its issue directly:
// every text into one buffer (scanner.text), turned into one string at
// the end, with no error, token or finding allocated; at the root or a
// member of the root, the texts a node kept from an earlier document
// (cachedText) are taken as they are, and nothing is built. The words are the
// reporter's (wrongType, required, addFieldSuggestion, constant, enum,
// addlDeclared and addlWords, minLengthWords, maxLengthWords,
// patternWords, numberWords, multipleOfWords, reporter.at), which the
// tests hold them to: they compare the fast
// path's issues with the slow path's on the JSON Schema Test Suite, the
// corpus and a fuzz target.

// directIssue is an issue the report scan wrote: its type and rule, and
// its texts as ranges of scanner.text, or ready when a node kept them
// from an earlier document (see cachedText).
type directIssue struct {
	typ            result.Type
	rule           string
	msg, loc, sugg [2]int
	ready          *cachedText
}

// cachedText is the texts of a direct issue at a site of at most one key
// (the root, or a member of the root), as directIssues cuts them, which a
// node keeps for the next documents (node.texts): they depend only on the
// node, the site and what failed (the type met, the missing name, or the
// bytes of a scalar value that a const or enum refuses), not on the rest
// of the document. A tool call's invalid arguments fail the
// same few keywords at the same few places call after call, and building
// their texts was as costly as reading the document.
type cachedText struct {
	key  string // the site's key; "" at the root
	root bool
	// got is the JSON type met, for a type issue (name -1), or the
	// value's bytes, for a failed const (name -2), enum (-3) or a keyword
	// of valueIssue (valueIssueName); else name is the missing name's
	// index in nodeWords.required, for a required issue.
	got            string
	name           int
	msg, loc, sugg string
}

// maxCachedTexts is the most cachedTexts a node keeps, and
// maxCachedKey the longest key of a site whose texts are kept: the keys
// come from documents (under additionalProperties, any name), so what a
// node keeps is bounded, and past it texts are built each time.
const (
	maxCachedTexts = 16
	maxCachedKey   = 64
)

// cacheSite returns the site of the value being read when its texts may
// be kept: at the root (root true) or at a member of the root (its key).
func (s *scanner) cacheSite() (key []byte, root, ok bool) {
	toks := s.path[s.pathBase:]
	switch {
	case len(toks) == 0:
		return nil, true, true
	case len(toks) == 1 && toks[0].index < 0 && toks[0].end-toks[0].start <= maxCachedKey:
		return s.data[toks[0].start:toks[0].end], false, true
	}
	return nil, false, false
}

// cached returns the texts n keeps for the site (key, root) and what
// failed (got, name), or nil.
func (n *node) cached(key []byte, root bool, got string, name int) *cachedText {
	p := n.texts.Load()
	if p == nil {
		return nil
	}
	for i := range *p {
		e := &(*p)[i]
		if e.name == name && e.got == got && e.root == root && e.key == string(key) {
			return e
		}
	}
	return nil
}

// full reports whether n keeps as many texts as it may.
func (n *node) full() bool {
	p := n.texts.Load()
	return p != nil && len(*p) >= maxCachedTexts
}

// remember keeps the texts e on n, unless n keeps as many as it may
// already. The slice is never changed once stored: a reader holds a
// pointer into it.
func (n *node) remember(e cachedText) {
	for {
		old := n.texts.Load()
		var cur []cachedText
		if old != nil {
			cur = *old
		}
		if len(cur) >= maxCachedTexts {
			return
		}
		next := append(cur[:len(cur):len(cur)], e)
		if n.texts.CompareAndSwap(old, &next) {
			return
		}
	}
}

// keep has n remember the texts of the issue just written (the last of
// s.found, its texts at the end of b) for the site (key, root).
func (s *scanner) keep(n *node, b []byte, key []byte, root bool, got string, name int) {
	f := &s.found[len(s.found)-1]
	n.remember(cachedText{key: string(key), root: root, got: got, name: name,
		msg:  result.Clip(string(b[f.msg[0]:f.msg[1]]), result.MaxTextLen),
		loc:  string(b[f.loc[0]:f.loc[1]]),
		sugg: result.Clip(string(b[f.sugg[0]:f.sugg[1]]), result.MaxTextLen)})
}

// directSite is where a direct issue is, as reporter.at names it: the
// ranges in scanner.text of its location, of the location cut for a
// sentence (clipLeft), and of the name its subject gives it (the field's
// name, cut; or the cut location of an item); root is true at the root.
type directSite struct {
	loc, clip, name [2]int
	root, item      bool
}

// site appends the location of the value being read to b (the end of
// s.text) and returns it as a directSite. The texts are written to a
// local slice, stored back in s.text once an issue is written: a write
// to the scanner, on the heap, costs a write barrier while the collector
// runs.
func (s *scanner) site(b []byte) ([]byte, directSite) {
	toks := s.path[s.pathBase:]
	start := len(b)
	var d directSite
	if len(toks) == 0 {
		b = append(b, "root"...)
		d.loc, d.root = [2]int{start, len(b)}, true
		return b, d
	}
	for j, t := range toks {
		if t.index >= 0 {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(t.index), 10)
			b = append(b, ']')
		} else {
			b = location.AppendKey(b, s.data[t.start:t.end], j == 0)
		}
	}
	d.loc = [2]int{start, len(b)}
	d.clip = d.loc
	if d.loc[1]-d.loc[0] > maxShown && utf8.RuneCount(b[start:]) > maxShown {
		b, d.clip = appendRange(b, clipLeft(string(b[start:]), maxShown))
	}
	last := toks[len(toks)-1]
	if last.index >= 0 {
		d.item, d.name = true, d.clip
		return b, d
	}
	key := s.data[last.start:last.end]
	if len(key) <= maxName {
		ns := len(b)
		b = append(b, key...)
		d.name = [2]int{ns, len(b)}
	} else {
		b, d.name = appendRange(b, result.Clip(string(key), maxName))
	}
	return b, d
}

// appendRange appends t to b and returns the range it takes.
func appendRange(b []byte, t string) ([]byte, [2]int) {
	start := len(b)
	b = append(b, t...)
	return b, [2]int{start, len(b)}
}

// again appends the range r of b to it once more.
func again(b []byte, r [2]int) []byte {
	return append(b, b[r[0]:r[1]]...)
}

// appendRef appends how a sentence names the site (site.ref): "'email'",
// "tasks[2]", "the output".
func appendRef(b []byte, d directSite) []byte {
	switch {
	case d.root:
		return append(b, defaultNoun...)
	case d.item:
		return again(b, d.name)
	}
	b = append(b, '\'')
	b = again(b, d.name)
	return append(b, '\'')
}

// appendSubj appends how a message starts naming the site (site.subj):
// "Field 'email'", "Item tasks[2]", "The output".
func appendSubj(b []byte, d directSite) []byte {
	switch {
	case d.root:
		return append(b, "The output"...)
	case d.item:
		b = append(b, "Item "...)
		return again(b, d.name)
	}
	b = append(b, "Field "...)
	return appendRef(b, d)
}

// appendPlace appends "in user" or "at root" (site.where) when in is
// true, else "to user" or "to the output" (site.into).
func appendPlace(b []byte, d directSite, in bool) []byte {
	switch {
	case d.root && in:
		return append(b, "at root"...)
	case d.root:
		return append(b, "to "+defaultNoun...)
	case in:
		b = append(b, "in "...)
	default:
		b = append(b, "to "...)
	}
	return again(b, d.clip)
}

// typeIssue writes the issue of the value being read, of JSON type got,
// which n's type keyword does not accept: reporter.wrongType's.
func (s *scanner) typeIssue(n *node, got string) {
	key, root, keep := s.cacheSite()
	if keep {
		if e := n.cached(key, root, got, -1); e != nil {
			s.addFound(result.InvalidType, "schema.type", e, [2]int{}, [2]int{}, [2]int{})
			s.checkBudget()
			return
		}
		keep = !n.full()
	}
	w := s.words(n)
	b, d := s.site(s.text)
	ms := len(b)
	b = appendSubj(b, d)
	b = append(b, " has type "...)
	b = append(b, got...)
	b = append(b, ", expected "...)
	b = append(b, w.want...)
	msg := [2]int{ms, len(b)}
	ss := len(b)
	b = append(b, "Change "...)
	b = appendRef(b, d)
	b = append(b, " to "...)
	b = append(b, w.wantArticle...)
	b = append(b, ' ')
	b = append(b, w.want...)
	b = append(b, " value"...)
	s.text = b
	s.addFound(result.InvalidType, "schema.type", nil, msg, d.loc, [2]int{ss, len(b)})
	if keep {
		s.keep(n, b, key, root, got, -1)
	}
	s.checkBudget()
}

// keptConstEnum writes the issue of the value being read, raw its bytes,
// which n's const (isConst) or else its enum does not allow, from the
// texts n kept for this site and these bytes, and reports whether it had
// them. Only a scalar's texts are kept: its bytes decode to the same
// value whatever the document and its depth limit.
func (s *scanner) keptConstEnum(n *node, raw []byte, isConst bool) bool {
	if !keepValue(raw) {
		return false
	}
	key, root, keep := s.cacheSite()
	if !keep {
		return false
	}
	e := n.cachedValue(key, root, raw, constEnumName(isConst))
	if e == nil {
		return false
	}
	s.addFound(result.ConstraintViolation, constEnumRule(isConst), e, [2]int{}, [2]int{}, [2]int{})
	s.checkBudget()
	return true
}

// keepValue reports whether the texts of a failed const or enum may be
// kept for a value of these bytes: a scalar, short.
func keepValue(raw []byte) bool {
	return len(raw) > 0 && len(raw) <= maxCachedKey && raw[0] != '{' && raw[0] != '['
}

// constEnumName is cachedText.name for a failed const (isConst) or enum.
func constEnumName(isConst bool) int {
	if isConst {
		return -2
	}
	return -3
}

// constEnumRule is the rule of a failed const (isConst) or enum.
func constEnumRule(isConst bool) string {
	if isConst {
		return "schema.const"
	}
	return "schema.enum"
}

// cachedValue is cached for a failed const or enum, whose texts n keeps
// by the value's bytes (raw, in cachedText.got).
func (n *node) cachedValue(key []byte, root bool, raw []byte, name int) *cachedText {
	p := n.texts.Load()
	if p == nil {
		return nil
	}
	for i := range *p {
		e := &(*p)[i]
		if e.name == name && e.root == root && e.got == string(raw) && e.key == string(key) {
			return e
		}
	}
	return nil
}

// constEnumIssue writes the issue of the value being read, decoded as
// got from its bytes raw, which n's const (isConst) or else its enum does
// not allow: reporter.constant's or reporter.enum's.
func (s *scanner) constEnumIssue(n *node, got any, raw []byte, isConst bool) {
	key, root, keep := s.cacheSite()
	keep = keep && keepValue(raw) && !n.full()
	w := s.words(n)
	shown := show(got)
	b, d := s.site(s.text)
	ms := len(b)
	b = appendSubj(b, d)
	b = append(b, " is "...)
	b = append(b, shown...)
	var ss int
	switch {
	case isConst || w.enumOne:
		reason, want := ", but must be the constant ", w.constWant
		if !isConst {
			reason, want = ", but the only allowed value is ", w.enumWant
		}
		b = append(b, reason...)
		b = append(b, want...)
		ss = len(b)
		b = append(b, "Set "...)
		b = appendRef(b, d)
		b = append(b, " to "...)
		b = append(b, want...)
	default:
		b = append(b, ", not one of the allowed values"...)
		if w.enumInReason {
			b = append(b, ' ')
			b = append(b, w.enumList...)
		}
		ss = len(b)
		b = append(b, "Use one of the allowed values for "...)
		b = appendRef(b, d)
		b = append(b, ": "...)
		b = append(b, w.enumList...)
	}
	s.text = b
	s.addFound(result.ConstraintViolation, constEnumRule(isConst), nil, [2]int{ms, ss}, d.loc, [2]int{ss, len(b)})
	if keep {
		s.keep(n, b, key, root, string(raw), constEnumName(isConst))
	}
	s.checkBudget()
}

// addlIssues writes the issues of the members of the object being read
// (objKeys: the offsets of all its keys) whose keys n's
// additionalProperties false refuses (keys), one a key in the keys'
// order: reporter.additionalProperties's. It stops, as checkBudget does,
// past MaxIssues.
func (s *scanner) addlIssues(n *node, objKeys, keys [][2]int) {
	w := s.words(n)
	// Which declared names the object has (the suggestion skips them),
	// from its keys: the scan refuses repeated and escaped keys, so a
	// key's bytes are its name, once.
	var presentBuf [64]bool
	var present []bool
	if len(w.declared) <= len(presentBuf) {
		present = presentBuf[:len(w.declared)]
	} else {
		present = make([]bool, len(w.declared))
	}
	for _, k := range objKeys {
		key := s.data[k[0]:k[1]]
		if j, ok := slices.BinarySearchFunc(w.declared, key, compareNameBytes); ok {
			present[j] = true
		}
	}
	isPresent := func(j int) bool { return present[j] }
	slices.SortFunc(keys, func(a, b [2]int) int {
		return bytes.Compare(s.data[a[0]:a[1]], s.data[b[0]:b[1]])
	})
	b, d := s.site(s.text)
	// The object's place, as site.where and site.into (without "to ")
	// word it.
	ws := len(b)
	b = appendPlace(b, d, true)
	where := string(b[ws:])
	into := defaultNoun
	if !d.root {
		into = string(b[d.clip[0]:d.clip[1]])
	}
	for _, k := range keys {
		if len(s.found) > MaxIssues {
			break // checkBudget's bail, below
		}
		prop := string(s.data[k[0]:k[1]])
		msg, sugg := addlWords(result.Clip(prop, maxName), nearest(prop, w.declared, isPresent), w.allowed, where, into)
		s.path = append(s.path, pathTok{start: k[0], end: k[1], index: -1})
		var c directSite
		var mr, sr [2]int
		b, c = s.site(b)
		s.path = s.path[:len(s.path)-1]
		b, mr = appendRange(b, msg)
		b, sr = appendRange(b, sugg)
		s.addFound(result.ConstraintViolation, "schema.additionalProperties", nil, mr, c.loc, sr)
	}
	s.text = b
	s.checkBudget()
}

// compareNameBytes orders a name against a key's bytes as strings order.
func compareNameBytes(name string, key []byte) int {
	for i := 0; i < len(name) && i < len(key); i++ {
		if name[i] != key[i] {
			return int(name[i]) - int(key[i])
		}
	}
	return len(name) - len(key)
}

// valueIssue writes the issue of the string or number being read, raw
// its bytes, which n's keyword refuses (minLength, maxLength, pattern;
// minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf): the
// reporter's words, from the functions both call (minLengthWords,
// maxLengthWords, patternWords; numberWords, multipleOfWords). str is a
// string's text and l its length in characters. The texts are kept by
// the value's bytes, as a const's or enum's.
func (s *scanner) valueIssue(n *node, keyword string, raw, str []byte, l int) {
	name := valueIssueName(keyword)
	key, root, keep := s.cacheSite()
	keep = keep && keepValue(raw)
	if keep {
		if e := n.cachedValue(key, root, raw, name); e != nil {
			s.addFound(result.ConstraintViolation, ruleOf(keyword), e, [2]int{}, [2]int{}, [2]int{})
			s.checkBudget()
			return
		}
		keep = !n.full()
	}
	b, d := s.site(s.text)
	ref := len(b)
	b = appendRef(b, d)
	refText := string(b[ref:])
	b = b[:ref]
	var reason, sugg string
	holder := n.bounds()
	switch keyword {
	case "minLength":
		reason, sugg = minLengthWords(show(string(str)), l, n.minLen, refText, holder)
	case "maxLength":
		reason, sugg = maxLengthWords(l, n.maxLen, refText, holder)
	case "pattern":
		reason, sugg = patternWords(show(string(str)), n.pattern.String(), refText)
	case "multipleOf":
		reason, sugg = multipleOfWords(result.Clip(string(raw), maxShown), n.multipleOf.rat, refText)
	default:
		reason, sugg = numberWords(keyword, result.Clip(string(raw), maxShown), n.bound(keyword).rat, refText, holder)
	}
	ms := len(b)
	b = appendSubj(b, d)
	b = append(b, ' ')
	b = append(b, reason...)
	msg := [2]int{ms, len(b)}
	b, sr := appendRange(b, sugg)
	s.text = b
	s.addFound(result.ConstraintViolation, ruleOf(keyword), nil, msg, d.loc, sr)
	if keep {
		s.keep(n, b, key, root, string(raw), name)
	}
	s.checkBudget()
}

// bounds is a schema holding only n's length and numeric bounds: what
// the words of a failed length or numeric keyword read of the failed
// schema (lengthSuggestion, numberBounds), without its full form, which
// a schema the fast path covers may have to compile again (compiled.form).
func (n *node) bounds() *jsonschema.Schema {
	h := &jsonschema.Schema{}
	if n.minLen >= 0 {
		h.MinLength = &n.minLen
	}
	if n.maxLen >= 0 {
		h.MaxLength = &n.maxLen
	}
	h.Minimum, h.Maximum, h.ExclusiveMinimum, h.ExclusiveMaximum = n.minimum.ratOf(), n.maximum.ratOf(), n.exMin.ratOf(), n.exMax.ratOf()
	return h
}

// ratOf is b's value, nil for no bound.
func (b *bound) ratOf() *big.Rat {
	if b == nil {
		return nil
	}
	return b.rat
}

// bound is n's bound of a numeric keyword.
func (n *node) bound(keyword string) *bound {
	switch keyword {
	case "minimum":
		return n.minimum
	case "maximum":
		return n.maximum
	case "exclusiveMinimum":
		return n.exMin
	case "exclusiveMaximum":
		return n.exMax
	}
	return n.multipleOf
}

// valueIssueName is cachedText.name for a failed keyword of valueIssue.
func valueIssueName(keyword string) int {
	switch keyword {
	case "minLength":
		return -4
	case "maxLength":
		return -5
	case "pattern":
		return -6
	case "minimum":
		return -7
	case "maximum":
		return -8
	case "exclusiveMinimum":
		return -9
	case "exclusiveMaximum":
		return -10
	}
	return -11
}

// nodeWords is what report mode writes of a node's issues, the same for
// every document: the names the node requires that the scan tracks, in
// the order of its required keyword, and the types it accepts.
type nodeWords struct {
	required []requiredName
	// want is what the type keyword accepts, as reporter.wrongType
	// words it ("string or null"), and wantArticle its article.
	want, wantArticle string
	// constWant is the const value as reporter.constant shows it; for
	// the enum keyword, enumOne is true when it allows one value, shown in
	// enumWant, else enumList lists them (showList), and enumInReason is
	// true when the message lists them too (reporter.enum).
	constWant, enumWant, enumList string
	enumOne, enumInReason         bool
	// declared and allowed are addlDeclared's, for a node whose
	// additionalProperties is false.
	declared []string
	allowed  string
}

// requiredName is a required name as reporter.required words it: cut,
// its bit among the node's tracked names, and what addFieldSuggestion
// says of its property's schema.
type requiredName struct {
	name    string
	bit     int
	field   fieldDesc
	article string
}

// words returns n's nodeWords, working them out the first time.
func (s *scanner) words(n *node) *nodeWords {
	if w := n.words.Load(); w != nil {
		return w
	}
	full := s.comp.form(false)
	sch := full.index[n.loc]
	w := &nodeWords{want: strings.Join(n.typeNames, " or ")}
	w.wantArticle = article(w.want)
	if n.hasConst {
		w.constWant = show(*sch.Const)
	}
	if n.hasEnum {
		want := sch.Enum.Values
		if w.enumOne = len(want) == 1; w.enumOne {
			w.enumWant = show(want[0])
		} else {
			w.enumList = showList(want, 10)
			w.enumInReason = len(want) <= 5 && utf8.RuneCountInString(w.enumList) <= 150
		}
	}
	holder := sch
	if n.addlFalse {
		w.declared, w.allowed = addlDeclared(holder)
	}
	r := reporter{c: s.comp, held: full}
	for _, full := range sch.Required {
		b, ok := n.names[full]
		if !ok {
			continue // as missingNames: not tracked, never missing
		}
		// Named cut, its property's schema found by the whole name, as
		// reporter.required does.
		name := result.Clip(full, maxName)
		w.required = append(w.required, requiredName{name: name, bit: b,
			field: r.fieldInfo(propertySchema(holder, full)), article: article(name)})
	}
	n.words.Store(w)
	return w
}

// requiredIssues writes the issues of the names n requires that the
// object being read lacks (by n's bits of present names), one a name:
// reporter.required's. It reports whether it wrote any.
func (s *scanner) requiredIssues(n *node, present uint64) bool {
	if present&n.required == n.required {
		return false
	}
	var d directSite
	wrote, sited := false, false
	key, root, keep := s.cacheSite()
	b := s.text
	// By index: a requiredName is 72 bytes, which a range would copy for
	// every name, missing or not.
	req := s.words(n).required
	for k := range req {
		rn := &req[k]
		if present&(1<<rn.bit) != 0 {
			continue
		}
		wrote = true
		if keep {
			if e := n.cached(key, root, "", k); e != nil {
				s.addFound(result.MissingField, "schema.required", e, [2]int{}, [2]int{}, [2]int{})
				continue
			}
		}
		if !sited {
			b, d = s.site(b)
			sited = true
		}
		ms := len(b)
		b = append(b, "Missing required field '"...)
		b = append(b, rn.name...)
		b = append(b, "' "...)
		b = appendPlace(b, d, true)
		msg := [2]int{ms, len(b)}
		// addFieldSuggestion's words.
		ss := len(b)
		f := rn.field
		b = append(b, "Add "...)
		b = append(b, rn.article...)
		b = append(b, " '"...)
		b = append(b, rn.name...)
		b = append(b, "' field"...)
		switch {
		case f.types != "" && f.desc != "":
			b = append(append(append(append(b, " ("...), f.types...), "): "...), f.desc...)
		case f.types != "":
			b = append(append(append(b, " ("...), f.types...), ") "...)
			b = appendPlace(b, d, false)
		case f.desc != "":
			b = append(append(b, ": "...), f.desc...)
		default:
			b = append(b, ' ')
			b = appendPlace(b, d, false)
		}
		s.addFound(result.MissingField, "schema.required", nil, msg, d.loc, [2]int{ss, len(b)})
		if keep && !n.full() {
			s.keep(n, b, key, root, "", k)
		}
	}
	s.text = b
	s.checkBudget()
	return wrote
}

// addFound appends an issue to s.found, its fields stored one by one
// (every one: the slot may hold an earlier document's issue): a struct
// appended whole is copied through a bulk write barrier while the
// collector runs.
func (s *scanner) addFound(typ result.Type, rule string, ready *cachedText, msg, loc, sugg [2]int) {
	n := len(s.found)
	if n < cap(s.found) {
		s.found = s.found[:n+1]
	} else {
		s.found = append(s.found, directIssue{})
	}
	f := &s.found[n]
	f.typ = typ
	f.rule = rule
	f.ready = ready
	f.msg = msg
	f.loc = loc
	f.sugg = sugg
}

// checkBudget stops the scan (s.bail) once it has written more issues
// than MaxIssues: which ones are kept depends on the reporter's order
// over all of them, so the document is read again without writing any
// (fastIssuesUnguarded), and the rest of a large invalid document is not
// worth writing first (fastReport returns the issues written so far).
func (s *scanner) checkBudget() {
	if len(s.found) > MaxIssues {
		s.bail = true
	}
}

// directIssues returns the issues the scan wrote, their texts cut from
// one string (nil when there are none).
func (s *scanner) directIssues() []result.Issue {
	if len(s.found) == 0 {
		return nil
	}
	// The texts built for this document, if any, as one string; kept
	// texts are a node's already.
	var text string
	for i := range s.found {
		if s.found[i].ready == nil {
			text = string(s.text)
			break
		}
	}
	var out []result.Issue
	if s.inRoom {
		s.room, out = result.NewRoom(len(s.found))
	} else {
		out = make([]result.Issue, len(s.found))
	}
	for i := range s.found {
		f := &s.found[i]
		// Field by field: a whole struct written to the heap would go
		// through a bulk write barrier.
		is := &out[i]
		is.Severity, is.Type, is.Rule = result.Error, f.typ, f.rule
		if e := f.ready; e != nil {
			is.Message, is.Location, is.Suggestion = e.msg, e.loc, e.sugg
			continue
		}
		is.Message = result.Clip(text[f.msg[0]:f.msg[1]], result.MaxTextLen)
		is.Location = text[f.loc[0]:f.loc[1]]
		is.Suggestion = result.Clip(text[f.sugg[0]:f.sugg[1]], result.MaxTextLen)
	}
	return out
}
