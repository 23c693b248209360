package manifest

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of [ParseJSONPath].
const (
	// MaxJSONPathLen is the longest JSONPath accepted, in bytes.
	MaxJSONPathLen = 4096
	// MaxJSONPathDepth is how deeply filter expressions may nest.
	MaxJSONPathDepth = 32
)

// JSONPath is a parsed JSONPath expression (RFC 9535 syntax: name and
// wildcard selectors, indexes, slices, unions, descendant segments and
// filter expressions). It is only checked, never evaluated here.
type JSONPath struct {
	src string
	// Segments is the number of segments after the root "$".
	Segments int
}

// String returns the expression as written.
func (p *JSONPath) String() string { return p.src }

// JSONPathError is a JSONPath that does not parse; Offset is the 0-based
// byte offset of the error.
type JSONPathError struct {
	Offset int
	Msg    string
}

// Error renders the error with its location.
func (e *JSONPathError) Error() string {
	return fmt.Sprintf("jsonpath: at offset %d: %s", e.Offset, e.Msg)
}

// ParseJSONPath checks the syntax of a JSONPath expression. It takes time
// linear in the length of s, which is at most [MaxJSONPathLen] bytes, and
// returns a *JSONPathError at the first error.
func ParseJSONPath(s string) (*JSONPath, error) {
	if len(s) > MaxJSONPathLen {
		return nil, &JSONPathError{Offset: MaxJSONPathLen, Msg: fmt.Sprintf("longer than %d bytes", MaxJSONPathLen)}
	}
	if !utf8.ValidString(s) {
		return nil, &JSONPathError{Msg: "not valid UTF-8"}
	}
	p := &jpParser{s: s}
	n, err := p.query('$', 0)
	if err != nil {
		return nil, err
	}
	if p.i < len(s) {
		return nil, p.errf("unexpected %q after the end of the path", p.s[p.i])
	}
	return &JSONPath{src: s, Segments: n}, nil
}

type jpParser struct {
	s string
	i int
}

func (p *jpParser) errf(format string, args ...any) error {
	return &JSONPathError{Offset: p.i, Msg: fmt.Sprintf(format, args...)}
}

func (p *jpParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *jpParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

// query parses root ('$' or '@') and its segments, returning how many.
func (p *jpParser) query(root byte, depth int) (int, error) {
	if p.peek() != root {
		return 0, p.errf("a path starts with %q", root)
	}
	p.i++
	n := 0
	for p.i < len(p.s) {
		switch p.peek() {
		case '.':
			p.i++
			if p.peek() == '.' {
				p.i++
				if p.peek() == '[' {
					if err := p.bracket(depth); err != nil {
						return 0, err
					}
				} else if err := p.dotMember(); err != nil {
					return 0, err
				}
			} else if err := p.dotMember(); err != nil {
				return 0, err
			}
		case '[':
			if err := p.bracket(depth); err != nil {
				return 0, err
			}
		default:
			return n, nil
		}
		n++
	}
	return n, nil
}

// dotMember parses the name or '*' after '.' or '..'.
func (p *jpParser) dotMember() error {
	if p.peek() == '*' {
		p.i++
		return nil
	}
	start := p.i
	for p.i < len(p.s) {
		r, size := utf8.DecodeRuneInString(p.s[p.i:])
		first := p.i == start
		if r == '_' || unicode.IsLetter(r) || r >= 0x80 || (!first && unicode.IsDigit(r)) {
			p.i += size
			continue
		}
		break
	}
	if p.i == start {
		return p.errf("a member name or '*' must follow '.'")
	}
	return nil
}

// bracket parses [selector, selector, ...].
func (p *jpParser) bracket(depth int) error {
	p.i++ // [
	for {
		p.space()
		if err := p.selector(depth); err != nil {
			return err
		}
		p.space()
		switch p.peek() {
		case ',':
			p.i++
		case ']':
			p.i++
			return nil
		case 0:
			return p.errf("'[' is never closed")
		default:
			return p.errf("expected ',' or ']', found %q", p.peek())
		}
	}
}

func (p *jpParser) selector(depth int) error {
	switch c := p.peek(); {
	case c == '\'' || c == '"':
		return p.quoted()
	case c == '*':
		p.i++
		return nil
	case c == '?':
		p.i++
		p.space()
		return p.logical(depth + 1)
	case c == ':' || c == '-' || (c >= '0' && c <= '9'):
		return p.sliceOrIndex()
	case c == 0:
		return p.errf("'[' is never closed")
	default:
		return p.errf("unexpected %q in a bracket selector", c)
	}
}

func (p *jpParser) quoted() error {
	q := p.s[p.i]
	p.i++
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '\\':
			p.i += 2
			continue
		case q:
			p.i++
			return nil
		}
		p.i++
	}
	p.i = len(p.s)
	return p.errf("a quoted name is never closed")
}

// skipDigits moves past the ASCII digits at the current offset and returns
// how many there were.
func (p *jpParser) skipDigits() int {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i - start
}

// integer parses an optional '-' and digits; ok is false when none.
func (p *jpParser) integer() (bool, error) {
	start := p.i
	if p.peek() == '-' {
		p.i++
	}
	digits := p.i
	if p.skipDigits() == 0 {
		if p.i > start {
			return false, p.errf("'-' must be followed by digits")
		}
		return false, nil
	}
	if p.i-digits > 16 {
		return false, &JSONPathError{Offset: start, Msg: "the integer is out of range"}
	}
	if p.s[digits] == '0' && p.i-digits > 1 {
		return false, &JSONPathError{Offset: digits, Msg: "an integer has no leading zeros"}
	}
	return true, nil
}

func (p *jpParser) sliceOrIndex() error {
	if _, err := p.integer(); err != nil {
		return err
	}
	p.space()
	for range 2 {
		if p.peek() != ':' {
			return nil
		}
		p.i++
		p.space()
		if _, err := p.integer(); err != nil {
			return err
		}
		p.space()
	}
	return nil
}

// logical parses a filter expression: or-expressions of and-expressions
// of (possibly negated) basic expressions.
func (p *jpParser) logical(depth int) error {
	if depth > MaxJSONPathDepth {
		return p.errf("the filter nests deeper than %d levels", MaxJSONPathDepth)
	}
	for {
		if err := p.basic(depth); err != nil {
			return err
		}
		p.space()
		if strings.HasPrefix(p.s[p.i:], "&&") || strings.HasPrefix(p.s[p.i:], "||") {
			p.i += 2
			p.space()
			continue
		}
		return nil
	}
}

func (p *jpParser) basic(depth int) error {
	if p.peek() == '!' {
		p.i++
		p.space()
	}
	if p.peek() == '(' {
		p.i++
		p.space()
		if err := p.logical(depth + 1); err != nil {
			return err
		}
		p.space()
		if p.peek() != ')' {
			return p.errf("expected ')'")
		}
		p.i++
		return nil
	}
	if err := p.comparable(depth); err != nil {
		return err
	}
	p.space()
	for _, op := range []string{"==", "!=", "<=", ">=", "<", ">"} {
		if strings.HasPrefix(p.s[p.i:], op) {
			p.i += len(op)
			p.space()
			return p.comparable(depth)
		}
	}
	return nil
}

// comparable parses a literal, a relative or absolute query, or a
// function call.
func (p *jpParser) comparable(depth int) error {
	c := p.peek()
	switch {
	case c == '@' || c == '$':
		_, err := p.query(c, depth+1)
		return err
	case c == '\'' || c == '"':
		return p.quoted()
	case c == '-' || (c >= '0' && c <= '9'):
		ok, err := p.integer()
		if err != nil || !ok {
			return err
		}
		if p.peek() == '.' {
			p.i++
			if p.skipDigits() == 0 {
				return p.errf("a fraction needs digits after '.'")
			}
		}
		if c := p.peek(); c == 'e' || c == 'E' {
			p.i++
			if c := p.peek(); c == '+' || c == '-' {
				p.i++
			}
			if p.skipDigits() == 0 {
				return p.errf("an exponent needs digits")
			}
		}
		return nil
	}
	for _, lit := range []string{"true", "false", "null"} {
		if strings.HasPrefix(p.s[p.i:], lit) {
			p.i += len(lit)
			return nil
		}
	}
	start := p.i
	for p.i < len(p.s) && (p.s[p.i] >= 'a' && p.s[p.i] <= 'z' || p.s[p.i] == '_' || p.i > start && p.s[p.i] >= '0' && p.s[p.i] <= '9') {
		p.i++
	}
	if p.i > start && p.peek() == '(' {
		if depth+1 > MaxJSONPathDepth {
			return p.errf("the filter nests deeper than %d levels", MaxJSONPathDepth)
		}
		p.i++
		p.space()
		if p.peek() == ')' {
			p.i++
			return nil
		}
		for {
			if err := p.logical(depth + 1); err != nil {
				return err
			}
			p.space()
			switch p.peek() {
			case ',':
				p.i++
				p.space()
			case ')':
				p.i++
				return nil
			default:
				return p.errf("expected ',' or ')' in the function's arguments")
			}
		}
	}
	p.i = start
	if c == 0 {
		return p.errf("the filter expression ends early")
	}
	return p.errf("unexpected %q in a filter expression", c)
}
