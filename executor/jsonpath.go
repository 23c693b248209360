package executor

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentjudge/judge/manifest"
)

// MaxJSONPathNodes bounds the nodes a response_transform may select.
const MaxJSONPathNodes = 100000

// MaxJSONPathWork bounds the steps (nodes visited, filter expressions
// evaluated) one evaluation of a response_transform may take, so that a
// filter with nested descendant queries stays linear in practice.
const MaxJSONPathWork = 1000000

// jsonPath is a compiled response_transform: RFC 9535 name, wildcard,
// index and slice selectors, unions, descendant segments and filter
// selectors with comparisons, existence tests, logical operators and the
// five standard functions (length, count, match, search, value).
type jsonPath struct {
	src      string
	segs     []jpSegment
	singular bool // only names and indexes: the answer is one value, not a list
}

type jpSegment struct {
	descendant bool
	sels       []jpSelector
}

type jpKind int

const (
	jpName jpKind = iota
	jpWild
	jpIndex
	jpSlice
	jpFilter
)

type jpSelector struct {
	kind             jpKind
	name             string
	index            int
	start, end, step int
	hasStart, hasEnd bool
	filter           jpLogical
}

// compileJSONPath checks s with manifest.ParseJSONPath (the syntax lint
// reports) and compiles it for evaluation.
func compileJSONPath(s string) (*jsonPath, error) {
	if _, err := manifest.ParseJSONPath(s); err != nil {
		return nil, err
	}
	c := &jpCompiler{s: s}
	p, err := c.path()
	if err != nil {
		return nil, err
	}
	p.src = s
	return p, nil
}

type jpCompiler struct {
	s string
	i int
}

func (c *jpCompiler) errf(format string, args ...any) error {
	return &manifest.JSONPathError{Offset: c.i, Msg: fmt.Sprintf(format, args...)}
}

func (c *jpCompiler) peek() byte {
	if c.i < len(c.s) {
		return c.s[c.i]
	}
	return 0
}

func (c *jpCompiler) space() {
	for c.i < len(c.s) && strings.IndexByte(" \t\n\r", c.s[c.i]) >= 0 {
		c.i++
	}
}

func (c *jpCompiler) path() (*jsonPath, error) {
	if c.peek() != '$' {
		return nil, c.errf("a path starts with '$'")
	}
	c.i++
	segs, singular, err := c.segments(0)
	if err != nil {
		return nil, err
	}
	if c.i < len(c.s) {
		return nil, c.errf("unexpected %q", c.peek())
	}
	return &jsonPath{segs: segs, singular: singular}, nil
}

// segments reads the segments of a query up to the first character that
// cannot start one; singular is true when every segment is one name or
// index. depth is the filter nesting the query is in.
func (c *jpCompiler) segments(depth int) (segs []jpSegment, singular bool, err error) {
	singular = true
	for c.i < len(c.s) {
		if depth > 0 {
			// Inside a filter, blank space may separate segments, and the
			// query ends at the first character that starts none.
			at := c.i
			c.space()
			if ch := c.peek(); ch != '.' && ch != '[' {
				c.i = at
				return segs, singular, nil
			}
		}
		var seg jpSegment
		switch c.peek() {
		case '.':
			c.i++
			if c.peek() == '.' {
				c.i++
				seg.descendant = true
				if c.peek() == '[' {
					sels, err := c.bracket(depth)
					if err != nil {
						return nil, false, err
					}
					seg.sels = sels
					break
				}
			}
			sel, err := c.member()
			if err != nil {
				return nil, false, err
			}
			seg.sels = []jpSelector{sel}
		case '[':
			sels, err := c.bracket(depth)
			if err != nil {
				return nil, false, err
			}
			seg.sels = sels
		default:
			if depth > 0 {
				return segs, singular, nil
			}
			return nil, false, c.errf("unexpected %q", c.peek())
		}
		if seg.descendant || len(seg.sels) != 1 || (seg.sels[0].kind != jpName && seg.sels[0].kind != jpIndex) {
			singular = false
		}
		segs = append(segs, seg)
	}
	return segs, singular, nil
}

func (c *jpCompiler) member() (jpSelector, error) {
	if c.peek() == '*' {
		c.i++
		return jpSelector{kind: jpWild}, nil
	}
	start := c.i
	for c.i < len(c.s) {
		r, size := utf8.DecodeRuneInString(c.s[c.i:])
		if r == '_' || r >= 0x80 || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (c.i > start && r >= '0' && r <= '9') {
			c.i += size
			continue
		}
		break
	}
	if c.i == start {
		return jpSelector{}, c.errf("a member name or '*' must follow '.'")
	}
	return jpSelector{kind: jpName, name: c.s[start:c.i]}, nil
}

func (c *jpCompiler) bracket(depth int) ([]jpSelector, error) {
	c.i++ // [
	var out []jpSelector
	for {
		c.space()
		sel, err := c.selector(depth)
		if err != nil {
			return nil, err
		}
		out = append(out, sel)
		c.space()
		switch c.peek() {
		case ',':
			c.i++
		case ']':
			c.i++
			return out, nil
		default:
			return nil, c.errf("expected ',' or ']'")
		}
	}
}

func (c *jpCompiler) selector(depth int) (jpSelector, error) {
	switch ch := c.peek(); {
	case ch == '\'' || ch == '"':
		name, err := c.quoted()
		return jpSelector{kind: jpName, name: name}, err
	case ch == '*':
		c.i++
		return jpSelector{kind: jpWild}, nil
	case ch == '?':
		c.i++
		c.space()
		f, err := c.logicalOr(depth + 1)
		return jpSelector{kind: jpFilter, filter: f}, err
	default:
		return c.sliceOrIndex()
	}
}

// quoted reads a quoted name with RFC 9535 escapes.
func (c *jpCompiler) quoted() (string, error) {
	q := c.s[c.i]
	c.i++
	var sb strings.Builder
	for c.i < len(c.s) {
		ch := c.s[c.i]
		switch {
		case ch == q:
			c.i++
			return sb.String(), nil
		case ch == '\\':
			if c.i+1 >= len(c.s) {
				return "", c.errf("an escape is cut short")
			}
			e := c.s[c.i+1]
			c.i += 2
			switch e {
			case 'b':
				sb.WriteByte('\b')
			case 'f':
				sb.WriteByte('\f')
			case 'n':
				sb.WriteByte('\n')
			case 'r':
				sb.WriteByte('\r')
			case 't':
				sb.WriteByte('\t')
			case '/', '\\', '\'', '"':
				sb.WriteByte(e)
			case 'u':
				r, err := c.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) && strings.HasPrefix(c.s[c.i:], `\u`) {
					c.i += 2
					r2, err := c.hex4()
					if err != nil {
						return "", err
					}
					r = utf16.DecodeRune(r, r2)
				}
				sb.WriteRune(r)
			default:
				return "", c.errf("unknown escape \\%c", e)
			}
		default:
			sb.WriteByte(ch)
			c.i++
		}
	}
	return "", c.errf("a quoted name is never closed")
}

func (c *jpCompiler) hex4() (rune, error) {
	if c.i+4 > len(c.s) {
		return 0, c.errf("\\u needs four hex digits")
	}
	n, err := strconv.ParseUint(c.s[c.i:c.i+4], 16, 32)
	if err != nil {
		return 0, c.errf("\\u needs four hex digits")
	}
	c.i += 4
	return rune(n), nil
}

// integer reads an optional integer; ok is false when there is none.
func (c *jpCompiler) integer() (n int, ok bool, err error) {
	start := c.i
	if c.peek() == '-' {
		c.i++
	}
	for c.i < len(c.s) && c.s[c.i] >= '0' && c.s[c.i] <= '9' {
		c.i++
	}
	if c.i == start {
		return 0, false, nil
	}
	v, perr := strconv.ParseInt(c.s[start:c.i], 10, 64)
	if perr != nil || v > 1<<53 || v < -(1<<53) {
		return 0, false, c.errf("the integer is out of range")
	}
	return int(v), true, nil
}

func (c *jpCompiler) sliceOrIndex() (jpSelector, error) {
	first, hasFirst, err := c.integer()
	if err != nil {
		return jpSelector{}, err
	}
	c.space()
	if c.peek() != ':' {
		if !hasFirst {
			return jpSelector{}, c.errf("expected a name, '*', an index or a slice")
		}
		return jpSelector{kind: jpIndex, index: first}, nil
	}
	sel := jpSelector{kind: jpSlice, start: first, hasStart: hasFirst, step: 1}
	c.i++
	c.space()
	if sel.end, sel.hasEnd, err = c.integer(); err != nil {
		return jpSelector{}, err
	}
	c.space()
	if c.peek() == ':' {
		c.i++
		c.space()
		step, ok, err := c.integer()
		if err != nil {
			return jpSelector{}, err
		}
		if ok {
			sel.step = step
		}
	}
	return sel, nil
}

// Errors that stop an evaluation.
var (
	errTooManyNodes = errors.New("too many nodes")
	errTooMuchWork  = errors.New("too much work")
)

// jpEval is the state of one evaluation: the document's root, for $
// inside filters, and the steps left.
type jpEval struct {
	root any
	work int
}

// step spends one step of the evaluation's budget.
func (e *jpEval) step() error {
	e.work--
	if e.work < 0 {
		return errTooMuchWork
	}
	return nil
}

// nodes applies segs to start and returns the nodes selected.
func (e *jpEval) nodes(segs []jpSegment, start any) ([]any, error) {
	nodes := []any{start}
	for _, seg := range segs {
		var next []any
		for _, n := range nodes {
			if err := seg.apply(e, n, &next); err != nil {
				return nil, err
			}
		}
		nodes = next
	}
	return nodes, nil
}

// eval applies the path to a decoded JSON document. A singular path gives
// its one value (nil when it selects nothing); any other gives the list of
// selected values, in document order (object members by sorted name).
func (p *jsonPath) eval(doc any) any {
	e := &jpEval{root: doc, work: MaxJSONPathWork}
	nodes, err := e.nodes(p.segs, doc)
	switch {
	case errors.Is(err, errTooManyNodes):
		return fmt.Sprintf("response_transform %s selects more than %d values", p.src, MaxJSONPathNodes)
	case err != nil:
		return fmt.Sprintf("response_transform %s takes more than %d steps on this answer", p.src, MaxJSONPathWork)
	}
	if p.singular {
		if len(nodes) == 0 {
			return nil
		}
		return nodes[0]
	}
	if nodes == nil {
		nodes = []any{}
	}
	return nodes
}

func (s jpSegment) apply(e *jpEval, n any, out *[]any) error {
	if err := e.step(); err != nil {
		return err
	}
	for _, sel := range s.sels {
		if err := sel.apply(e, n, out); err != nil {
			return err
		}
	}
	if !s.descendant {
		return nil
	}
	switch x := n.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if err := s.apply(e, x[k], out); err != nil {
				return err
			}
		}
	case []any:
		for _, el := range x {
			if err := s.apply(e, el, out); err != nil {
				return err
			}
		}
	}
	return nil
}

func (sel jpSelector) apply(e *jpEval, n any, out *[]any) error {
	add := func(v any) error {
		if len(*out) >= MaxJSONPathNodes {
			return errTooManyNodes
		}
		*out = append(*out, v)
		return nil
	}
	if sel.kind == jpFilter {
		return sel.applyFilter(e, n, add)
	}
	switch x := n.(type) {
	case map[string]any:
		switch sel.kind {
		case jpName:
			if v, ok := x[sel.name]; ok {
				return add(v)
			}
		case jpWild:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if err := add(x[k]); err != nil {
					return err
				}
			}
		}
	case []any:
		l := len(x)
		switch sel.kind {
		case jpWild:
			for _, el := range x {
				if err := add(el); err != nil {
					return err
				}
			}
		case jpIndex:
			i := sel.index
			if i < 0 {
				i += l
			}
			if i >= 0 && i < l {
				return add(x[i])
			}
		case jpSlice:
			for _, i := range sliceIndexes(l, sel) {
				if err := add(x[i]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// sliceIndexes are the indexes a slice selects in an array of length l
// (RFC 9535 section 2.3.4.2.2).
func sliceIndexes(l int, sel jpSelector) []int {
	step := sel.step
	if step == 0 {
		return nil
	}
	norm := func(i int) int {
		if i >= 0 {
			return i
		}
		return l + i
	}
	var out []int
	if step > 0 {
		start, end := 0, l
		if sel.hasStart {
			start = norm(sel.start)
		}
		if sel.hasEnd {
			end = norm(sel.end)
		}
		lower, upper := min(max(start, 0), l), min(max(end, 0), l)
		for i := lower; i < upper; i += step {
			out = append(out, i)
		}
		return out
	}
	start, end := l-1, -l-1
	if sel.hasStart {
		start = norm(sel.start)
	}
	if sel.hasEnd {
		end = norm(sel.end)
	}
	upper, lower := min(max(start, -1), l-1), min(max(end, -1), l-1)
	for i := upper; lower < i; i += step {
		out = append(out, i)
	}
	return out
}
