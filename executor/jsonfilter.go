package executor

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentjudge/judge/manifest"
)

// Filter selectors of RFC 9535 (section 2.3.5): a logical expression
// tested on each child of an array or object, with @ the child and $ the
// document's root.

// maxFilterRegexp bounds a pattern given to match() or search().
const maxFilterRegexp = 1000

// jpLogical is a logical expression of a filter.
type jpLogical interface {
	test(e *jpEval, cur any) (bool, error)
}

// jpComparable is what a comparison compares: a literal, a singular query
// or a function giving a value. ok is false for Nothing (no value).
type jpComparable interface {
	value(e *jpEval, cur any) (v any, ok bool, err error)
}

type (
	jpOr  []jpLogical
	jpAnd []jpLogical
	jpNot struct{ x jpLogical }
	// jpExists is a query used as a test: true when it selects a node.
	jpExists  struct{ q *jpQuery }
	jpCompare struct {
		op   string
		l, r jpComparable
	}
	// jpFuncTest is match() or search() used as a test.
	jpFuncTest struct{ f *jpFunc }
	jpLiteral  struct{ v any }
)

// jpQuery is a query inside a filter: relative to @, or absolute from $.
type jpQuery struct {
	relative bool
	segs     []jpSegment
	singular bool
}

// jpFunc is a call of one of the standard functions.
type jpFunc struct {
	name string
	args []jpArg
	re   *regexp.Regexp // match or search with a literal pattern, compiled once
}

// jpArg is a function argument: a query (its nodes) or a value.
type jpArg struct {
	q *jpQuery
	v jpComparable
}

func (x jpOr) test(e *jpEval, cur any) (bool, error) {
	for _, t := range x {
		if ok, err := t.test(e, cur); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

func (x jpAnd) test(e *jpEval, cur any) (bool, error) {
	for _, t := range x {
		if ok, err := t.test(e, cur); !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

func (x jpNot) test(e *jpEval, cur any) (bool, error) {
	ok, err := x.x.test(e, cur)
	return !ok && err == nil, err
}

func (x jpExists) test(e *jpEval, cur any) (bool, error) {
	nodes, err := x.q.nodes(e, cur)
	return len(nodes) > 0, err
}

func (x jpFuncTest) test(e *jpEval, cur any) (bool, error) {
	v, ok, err := x.f.value(e, cur)
	return ok && v == true, err
}

func (x jpCompare) test(e *jpEval, cur any) (bool, error) {
	if err := e.step(); err != nil {
		return false, err
	}
	l, lok, err := x.l.value(e, cur)
	if err != nil {
		return false, err
	}
	r, rok, err := x.r.value(e, cur)
	if err != nil {
		return false, err
	}
	eq := func() bool { return lok == rok && (!lok || jpEqual(l, r)) }
	less := func(a, b any) bool { return lok && rok && jpLess(a, b) }
	switch x.op {
	case "==":
		return eq(), nil
	case "!=":
		return !eq(), nil
	case "<":
		return less(l, r), nil
	case "<=":
		return less(l, r) || eq(), nil
	case ">":
		return less(r, l), nil
	default: // ">="
		return less(r, l) || eq(), nil
	}
}

func (x jpLiteral) value(*jpEval, any) (any, bool, error) { return x.v, true, nil }

func (q *jpQuery) nodes(e *jpEval, cur any) ([]any, error) {
	start := cur
	if !q.relative {
		start = e.root
	}
	return e.nodes(q.segs, start)
}

// value is a singular query's one node, or Nothing.
func (q *jpQuery) value(e *jpEval, cur any) (any, bool, error) {
	nodes, err := q.nodes(e, cur)
	if err != nil || len(nodes) != 1 {
		return nil, false, err
	}
	return nodes[0], true, nil
}

func (f *jpFunc) value(e *jpEval, cur any) (any, bool, error) {
	if err := e.step(); err != nil {
		return nil, false, err
	}
	switch f.name {
	case "count":
		nodes, err := f.args[0].q.nodes(e, cur)
		return json.Number(strconv.Itoa(len(nodes))), err == nil, err
	case "value":
		return f.args[0].q.value(e, cur)
	}
	a, ok, err := f.args[0].value(e, cur)
	if err != nil || !ok {
		return nil, false, err
	}
	if f.name == "length" {
		switch x := a.(type) {
		case string:
			return json.Number(strconv.Itoa(utf8.RuneCountInString(x))), true, nil
		case []any:
			return json.Number(strconv.Itoa(len(x))), true, nil
		case map[string]any:
			return json.Number(strconv.Itoa(len(x))), true, nil
		}
		return nil, false, nil
	}
	// match or search: LogicalType, false unless both are strings and the
	// pattern is a valid one.
	s, isStr := a.(string)
	if !isStr {
		return false, true, nil
	}
	re := f.re
	if re == nil {
		p, ok, err := f.args[1].value(e, cur)
		if err != nil {
			return nil, false, err
		}
		pat, isStr := p.(string)
		if !ok || !isStr {
			return false, true, nil
		}
		if re, err = iRegexp(pat, f.name == "match"); err != nil {
			return false, true, nil
		}
	}
	return re.MatchString(s), true, nil
}

// value of an argument given to a function that takes a value: a
// singular query's node, or the value.
func (a jpArg) value(e *jpEval, cur any) (any, bool, error) {
	if a.q != nil {
		return a.q.value(e, cur)
	}
	return a.v.value(e, cur)
}

// applyFilter adds the children of n (array elements in order, object
// members by sorted name) for which the filter holds.
func (sel jpSelector) applyFilter(e *jpEval, n any, add func(any) error) error {
	try := func(child any) error {
		if err := e.step(); err != nil {
			return err
		}
		ok, err := sel.filter.test(e, child)
		if err != nil || !ok {
			return err
		}
		return add(child)
	}
	switch x := n.(type) {
	case []any:
		for _, el := range x {
			if err := try(el); err != nil {
				return err
			}
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if err := try(x[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// jpNumber reads a JSON number (json.Number from documents, float64 from
// literals).
func jpNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		return f, err == nil
	case float64:
		return x, true
	}
	return 0, false
}

// jpEqual is the equality of RFC 9535 section 2.3.5.2.2: numbers by value,
// arrays and objects member by member.
func jpEqual(a, b any) bool {
	if x, ok := jpNumber(a); ok {
		y, ok := jpNumber(b)
		return ok && x == y
	}
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jpEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !jpEqual(xv, yv) {
				return false
			}
		}
		return true
	case string, bool, nil:
		return a == b
	}
	return false
}

// jpLess orders two numbers, or two strings by their code points; any
// other pair is unordered.
func jpLess(a, b any) bool {
	if x, ok := jpNumber(a); ok {
		y, ok := jpNumber(b)
		return ok && x < y
	}
	x, ok := a.(string)
	y, ok2 := b.(string)
	return ok && ok2 && x < y // UTF-8 byte order is code point order
}

// iRegexp compiles an I-Regexp (RFC 9485) pattern for match (whole
// string) or search (a substring): its "." matches any character but a
// line break, which Go's does not exclude \r from. Go's RE2 runs in time
// linear in the input.
func iRegexp(pat string, whole bool) (*regexp.Regexp, error) {
	if len(pat) > maxFilterRegexp {
		return nil, &manifest.JSONPathError{Msg: "the pattern is longer than " + strconv.Itoa(maxFilterRegexp) + " bytes"}
	}
	var sb strings.Builder
	inClass, esc := false, false
	for _, r := range pat {
		switch {
		case esc:
			esc = false
		case r == '\\':
			esc = true
		case inClass:
			inClass = r != ']'
		case r == '[':
			inClass = true
		case r == '.':
			sb.WriteString(`[^\n\r]`)
			continue
		}
		sb.WriteRune(r)
	}
	expr := sb.String()
	if whole {
		expr = `^(?:` + expr + `)$`
	}
	return regexp.Compile(expr)
}

// The filter's parser. manifest.ParseJSONPath has checked the syntax; this
// also checks what the RFC calls well-typedness (a comparison takes
// singular queries, a test takes a query or match/search).

func (c *jpCompiler) nestErr(depth int) error {
	if depth > manifest.MaxJSONPathDepth {
		return c.errf("the filter nests deeper than %d levels", manifest.MaxJSONPathDepth)
	}
	return nil
}

func (c *jpCompiler) logicalOr(depth int) (jpLogical, error) {
	if err := c.nestErr(depth); err != nil {
		return nil, err
	}
	var or jpOr
	for {
		and, err := c.logicalAnd(depth)
		if err != nil {
			return nil, err
		}
		or = append(or, and)
		c.space()
		if !strings.HasPrefix(c.s[c.i:], "||") {
			break
		}
		c.i += 2
		c.space()
	}
	if len(or) == 1 {
		return or[0], nil
	}
	return or, nil
}

func (c *jpCompiler) logicalAnd(depth int) (jpLogical, error) {
	var and jpAnd
	for {
		b, err := c.basic(depth)
		if err != nil {
			return nil, err
		}
		and = append(and, b)
		c.space()
		if !strings.HasPrefix(c.s[c.i:], "&&") {
			break
		}
		c.i += 2
		c.space()
	}
	if len(and) == 1 {
		return and[0], nil
	}
	return and, nil
}

// compareOps are the comparison operators, longest first.
var compareOps = [...]string{"==", "!=", "<=", ">=", "<", ">"}

func (c *jpCompiler) compareOp() string {
	for _, op := range compareOps {
		if strings.HasPrefix(c.s[c.i:], op) {
			return op
		}
	}
	return ""
}

func (c *jpCompiler) basic(depth int) (jpLogical, error) {
	negate := false
	if c.peek() == '!' {
		negate = true
		c.i++
		c.space()
	}
	var x jpLogical
	var err error
	if c.peek() == '(' {
		c.i++
		c.space()
		if x, err = c.logicalOr(depth + 1); err != nil {
			return nil, err
		}
		c.space()
		if c.peek() != ')' {
			return nil, c.errf("expected ')'")
		}
		c.i++
	} else if x, err = c.testOrComparison(depth, negate); err != nil {
		return nil, err
	}
	if negate {
		return jpNot{x}, nil
	}
	return x, nil
}

// testOrComparison reads a query or function call used as a test, or a
// comparison (not after '!', which negates tests only).
func (c *jpCompiler) testOrComparison(depth int, negated bool) (jpLogical, error) {
	at := c.i
	left, q, f, err := c.operand(depth)
	if err != nil {
		return nil, err
	}
	c.space()
	op := c.compareOp()
	if op == "" || negated {
		switch {
		case q != nil:
			return jpExists{q}, nil
		case f != nil && (f.name == "match" || f.name == "search"):
			return jpFuncTest{f}, nil
		case f != nil:
			c.i = at
			return nil, c.errf("%s() gives a value, not true or false: compare it, as in %s(...) > 0", f.name, f.name)
		}
		return nil, c.errf("a literal alone is not a test: compare it with ==, !=, <, <=, > or >=")
	}
	if err := c.comparableCheck(at, left, q, f); err != nil {
		return nil, err
	}
	c.i += len(op)
	c.space()
	rat := c.i
	right, rq, rf, err := c.operand(depth)
	if err != nil {
		return nil, err
	}
	if err := c.comparableCheck(rat, right, rq, rf); err != nil {
		return nil, err
	}
	return jpCompare{op: op, l: left, r: right}, nil
}

// comparableCheck refuses what a comparison cannot take: a query that may
// select more than one node, or match/search.
func (c *jpCompiler) comparableCheck(at int, _ jpComparable, q *jpQuery, f *jpFunc) error {
	switch {
	case q != nil && !q.singular:
		c.i = at
		return c.errf("a comparison takes a singular query (names and indexes only), not one that may select several nodes")
	case f != nil && (f.name == "match" || f.name == "search"):
		c.i = at
		return c.errf("%s() gives true or false, which is not compared: use it alone as a test", f.name)
	}
	return nil
}

// operand reads a literal, a query or a function call; q or f is set for
// the last two.
func (c *jpCompiler) operand(depth int) (jpComparable, *jpQuery, *jpFunc, error) {
	ch := c.peek()
	switch {
	case ch == '@' || ch == '$':
		c.i++
		segs, singular, err := c.segments(depth)
		if err != nil {
			return nil, nil, nil, err
		}
		q := &jpQuery{relative: ch == '@', segs: segs, singular: singular}
		return q, q, nil, nil
	case ch == '\'' || ch == '"':
		s, err := c.quoted()
		return jpLiteral{s}, nil, nil, err
	case ch == '-' || (ch >= '0' && ch <= '9'):
		return c.number()
	}
	for _, lit := range []struct {
		word string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if strings.HasPrefix(c.s[c.i:], lit.word) {
			c.i += len(lit.word)
			return jpLiteral{lit.v}, nil, nil, nil
		}
	}
	start := c.i
	for c.i < len(c.s) && (c.s[c.i] >= 'a' && c.s[c.i] <= 'z' || c.s[c.i] == '_' || c.i > start && c.s[c.i] >= '0' && c.s[c.i] <= '9') {
		c.i++
	}
	if c.i > start && c.peek() == '(' {
		f, err := c.function(c.s[start:c.i], depth)
		return f, nil, f, err
	}
	c.i = start
	return nil, nil, nil, c.errf("expected a query, a literal or a function call in the filter")
}

func (c *jpCompiler) number() (jpComparable, *jpQuery, *jpFunc, error) {
	start := c.i
	if c.peek() == '-' {
		c.i++
	}
	for c.i < len(c.s) && strings.IndexByte("0123456789.eE+-", c.s[c.i]) >= 0 {
		c.i++
	}
	f, err := strconv.ParseFloat(c.s[start:c.i], 64)
	if err != nil {
		c.i = start
		return nil, nil, nil, c.errf("%q is not a number", c.s[start:c.i])
	}
	return jpLiteral{f}, nil, nil, nil
}

// function reads the arguments of a call of name, checking them against
// the function's parameters.
func (c *jpCompiler) function(name string, depth int) (*jpFunc, error) {
	at := c.i - len(name)
	want := map[string]string{"length": "v", "count": "n", "value": "n", "match": "vv", "search": "vv"}[name]
	if want == "" {
		c.i = at
		return nil, c.errf("unknown function %s(): the filter functions are length, count, match, search and value", name)
	}
	if err := c.nestErr(depth + 1); err != nil {
		return nil, err
	}
	c.i++ // (
	f := &jpFunc{name: name}
	for {
		c.space()
		if c.peek() == ')' && len(f.args) == 0 {
			break
		}
		argAt := c.i
		v, q, g, err := c.operand(depth + 1)
		if err != nil {
			return nil, err
		}
		k := len(f.args)
		if k >= len(want) {
			c.i = argAt
			return nil, c.errf("%s() takes %d argument(s)", name, len(want))
		}
		switch {
		case want[k] == 'n' && q == nil:
			c.i = argAt
			return nil, c.errf("%s() takes a query (its nodes)", name)
		case want[k] == 'v' && q != nil && !q.singular:
			c.i = argAt
			return nil, c.errf("%s() takes a value: give a singular query (names and indexes only)", name)
		case want[k] == 'v' && g != nil && (g.name == "match" || g.name == "search"):
			c.i = argAt
			return nil, c.errf("%s() takes a value, not the true or false of %s()", name, g.name)
		}
		f.args = append(f.args, jpArg{q: q, v: v})
		c.space()
		if c.peek() == ',' {
			c.i++
			continue
		}
		break
	}
	if c.peek() != ')' {
		return nil, c.errf("expected ',' or ')' in the arguments of %s()", name)
	}
	c.i++
	if len(f.args) != len(want) {
		c.i = at
		return nil, c.errf("%s() takes %d argument(s), not %d", name, len(want), len(f.args))
	}
	if name == "match" || name == "search" {
		if lit, ok := f.args[1].v.(jpLiteral); ok && f.args[1].q == nil {
			if pat, ok := lit.v.(string); ok {
				re, err := iRegexp(pat, name == "match")
				if err != nil {
					c.i = at
					return nil, c.errf("the pattern of %s() does not compile: %v", name, err)
				}
				f.re = re
			}
		}
	}
	return f, nil
}
