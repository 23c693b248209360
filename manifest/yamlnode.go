package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// Limits on what one manifest file may hold.
const (
	// MaxFileBytes is the largest manifest, script or Markdown file read.
	MaxFileBytes = 1 << 20
	// MaxDepth is how deeply a manifest may nest mappings and sequences.
	MaxDepth = 64
	// MaxNodes is how many values a manifest may expand to, counting every
	// use of an alias, so that an alias bomb stops early.
	MaxNodes = 100_000
)

// bom is the UTF-8 byte-order mark, skipped at the start of a file.
const bom = "\xef\xbb\xbf"

// Pos is a 1-based line and column in a file.
type Pos struct {
	Line, Col int
}

// kind is the kind of a YAML value.
type kind int

const (
	kindNull kind = iota
	kindScalar
	kindMap
	kindSeq
)

// node is a decoded YAML value with the position goccy/go-yaml gives each
// token: the position of a value, and of each mapping key.
type node struct {
	kind   kind
	value  any    // scalar: string, int64, uint64, float64 or bool
	text   string // scalar: the token's source text
	pos    Pos
	keys   []string // mapping keys in order
	fields map[string]*node
	keyPos map[string]Pos
	items  []*node
	size   int // values in this subtree, aliases expanded
}

// field returns the value of key in a mapping, or nil.
func (n *node) field(key string) *node {
	if n == nil || n.kind != kindMap {
		return nil
	}
	return n.fields[key]
}

// str returns a scalar's value as a string and whether it is a string.
func (n *node) str() (string, bool) {
	if n == nil || n.kind != kindScalar {
		return "", false
	}
	s, ok := n.value.(string)
	return s, ok
}

// number returns a numeric scalar as a float64.
func (n *node) number() (float64, bool) {
	if n == nil || n.kind != kindScalar {
		return 0, false
	}
	switch v := n.value.(type) {
	case int64:
		return float64(v), true
	case uint64:
		return float64(v), true
	case float64:
		return v, !math.IsNaN(v) && !math.IsInf(v, 0)
	}
	return 0, false
}

// describe names the kind of n for messages: "a string", "a mapping".
func (n *node) describe() string {
	if n == nil {
		return "absent"
	}
	switch n.kind {
	case kindNull:
		return "null"
	case kindMap:
		return "a mapping"
	case kindSeq:
		return "a list"
	}
	switch n.value.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, uint64:
		return "an integer"
	default:
		return "a number"
	}
}

// toAny converts n to plain Go values as encoding/json decodes them:
// map[string]any, []any, string, float64, bool, nil. Integers become
// float64, as in JSON.
func (n *node) toAny() any {
	if n == nil {
		return nil
	}
	switch n.kind {
	case kindMap:
		m := make(map[string]any, len(n.keys))
		for _, k := range n.keys {
			m[k] = n.fields[k].toAny()
		}
		return m
	case kindSeq:
		s := make([]any, len(n.items))
		for i, it := range n.items {
			s[i] = it.toAny()
		}
		return s
	case kindScalar:
		if f, ok := n.number(); ok {
			return f
		}
		if _, isNum := n.value.(float64); isNum {
			return n.text // NaN and infinities have no JSON form
		}
		return n.value
	}
	return nil
}

// YAMLError is a file that is not well-formed YAML, or that breaks a
// limit, with the position of the first error.
type YAMLError struct {
	File string
	Pos  Pos
	Msg  string
	Err  error
}

// Error renders the error with its location.
func (e *YAMLError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// Unwrap returns the underlying error, if any.
func (e *YAMLError) Unwrap() error { return e.Err }

// decodeYAML parses src, shifting every position by the line and column
// offsets (for YAML embedded in a script or Markdown file). An empty
// document decodes to a null node.
func decodeYAML(file string, src []byte, lineOff, colOff int) (*node, error) {
	if len(src) > MaxFileBytes {
		return nil, &YAMLError{File: file, Pos: Pos{1, 1}, Msg: fmt.Sprintf("the file is larger than %d bytes", MaxFileBytes)}
	}
	if lineOff == 0 && colOff == 0 {
		src = bytes.TrimPrefix(src, []byte(bom)) // a whole file; columns count from after the mark
	}
	if p, msg, ok := prescan(src); !ok {
		return nil, &YAMLError{File: file, Pos: Pos{p.Line + lineOff, p.Col + colOff}, Msg: msg}
	}
	f, err := parser.ParseBytes(src, 0, parser.AllowDuplicateMapKey()) // duplicates are found by the decoder, in linear time
	if err != nil {
		pos := Pos{1 + lineOff, 1 + colOff}
		msg := err.Error()
		var se *yaml.SyntaxError
		if errors.As(err, &se) {
			msg = se.GetMessage()
			if t := se.GetToken(); t != nil && t.Position != nil {
				pos = shift(t.Position, lineOff, colOff)
			}
		}
		return nil, &YAMLError{File: file, Pos: pos, Msg: "YAML syntax error: " + msg, Err: err}
	}
	d := &decoder{file: file, lineOff: lineOff, colOff: colOff, anchors: map[string]*node{}}
	if len(f.Docs) > 1 {
		return nil, &YAMLError{File: file, Pos: d.pos(f.Docs[1]), Msg: "the file holds more than one YAML document; a manifest is one document"}
	}
	if len(f.Docs) == 0 || f.Docs[0].Body == nil {
		return &node{kind: kindNull, pos: Pos{1 + lineOff, 1 + colOff}, size: 1}, nil
	}
	return d.node(f.Docs[0].Body, 0)
}

// MaxIndent is the deepest indentation, in columns, a manifest line may
// have.
const MaxIndent = 4 * MaxDepth

// MaxBlockLines is how many lines of block YAML (outside flow brackets) a
// manifest may have: the parser's time grows with the square of a block
// mapping's size (5,000 keys take about half a second, 80,000 a minute).
const MaxBlockLines = 5000

// prescan bounds the nesting of src before the YAML parser sees it: the
// parser's time grows much faster than linearly with nesting (100,000
// unclosed '[' take minutes), so flow brackets, "- " chains and
// indentation are limited first, in one linear pass. Brackets inside
// strings, comments and block scalars count too (decisions §31: telling
// them apart needs YAML's context rules, and a mismatch with the parser
// would let real nesting through), and a manifest never needs 64 unclosed
// ones. Lines of
// block YAML are limited to MaxBlockLines; JSON, all flow, parses in
// linear time and is not.
func prescan(src []byte) (Pos, string, bool) {
	depth, line, col := 0, 1, 1
	indent, atStart, dashes := 0, true, 0
	blockLines := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '\n':
			line, col, indent, atStart, dashes = line+1, 1, 0, true, 0
			continue
		case '[', '{':
			depth++
			if depth > MaxDepth {
				return Pos{line, col}, fmt.Sprintf("brackets nest deeper than %d levels: more than %d '[' or '{' are open here (counted everywhere before parsing, also inside quoted strings and comments, so that nesting cannot hide from the limit); close them, or write fewer in a row", MaxDepth, MaxDepth), false
			}
		case ']', '}':
			depth = max(depth-1, 0)
		}
		if atStart {
			switch {
			case c == ' ' || c == '\t':
				indent++
				if indent > MaxIndent {
					return Pos{line, col}, fmt.Sprintf("a line is indented deeper than %d columns", MaxIndent), false
				}
			case (c == '-' || c == '?') && i+1 < len(src) && (src[i+1] == ' ' || src[i+1] == '\t'):
				dashes++
				if dashes > MaxDepth {
					return Pos{line, col}, fmt.Sprintf("a line opens more than %d nested sequences", MaxDepth), false
				}
			default:
				atStart = false
				if depth == 0 || (depth == 1 && (c == '[' || c == '{')) {
					blockLines++
					if blockLines > MaxBlockLines {
						return Pos{line, col}, fmt.Sprintf("the manifest has more than %d lines of block YAML", MaxBlockLines), false
					}
				}
			}
		}
		col++
	}
	return Pos{}, "", true
}

func shift(p *token.Position, lineOff, colOff int) Pos {
	return Pos{p.Line + lineOff, p.Column + colOff}
}

type decoder struct {
	file            string
	lineOff, colOff int
	anchors         map[string]*node
	total           int // values decoded, each use of an alias counting its target's
	aliased         int // the part of total that came from aliases
}

func (d *decoder) pos(n ast.Node) Pos {
	if n == nil {
		return Pos{1 + d.lineOff, 1 + d.colOff}
	}
	t := n.GetToken()
	if t == nil || t.Position == nil {
		return Pos{1 + d.lineOff, 1 + d.colOff}
	}
	return shift(t.Position, d.lineOff, d.colOff)
}

func (d *decoder) fail(n ast.Node, format string, args ...any) error {
	return &YAMLError{File: d.file, Pos: d.pos(n), Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) count(n ast.Node, size int) error {
	d.total += size
	if d.total <= MaxNodes {
		return nil
	}
	if d.aliased == 0 {
		return d.fail(n, "the document has more than %d values (scalars, lists and mappings, counted one by one); a manifest is smaller", MaxNodes)
	}
	return d.fail(n, "the document expands to more than %d values, %d of them through aliases (each use of an alias counts its anchor's values again); a manifest is smaller", MaxNodes, d.aliased)
}

func (d *decoder) node(n ast.Node, depth int) (*node, error) {
	if depth > MaxDepth {
		return nil, d.fail(n, "the document nests deeper than %d levels", MaxDepth)
	}
	switch v := n.(type) {
	case *ast.DocumentNode:
		if v.Body == nil {
			return &node{kind: kindNull, pos: d.pos(n), size: 1}, nil
		}
		return d.node(v.Body, depth)
	case *ast.CommentGroupNode, *ast.CommentNode:
		return &node{kind: kindNull, pos: d.pos(n), size: 1}, nil
	case *ast.TagNode:
		if v.Value == nil {
			return &node{kind: kindNull, pos: d.pos(n), size: 1}, nil
		}
		return d.node(v.Value, depth)
	case *ast.AnchorNode:
		out, err := d.node(v.Value, depth)
		if err != nil {
			return nil, err
		}
		if v.Name != nil {
			d.anchors[v.Name.GetToken().Value] = out
		}
		return out, nil
	case *ast.AliasNode:
		name := ""
		if v.Value != nil {
			name = v.Value.GetToken().Value
		}
		target, ok := d.anchors[name]
		if !ok {
			return nil, d.fail(n, "alias *%s names no anchor defined before it", name)
		}
		d.aliased += target.size
		if err := d.count(n, target.size); err != nil {
			return nil, err
		}
		return target, nil
	case *ast.MappingNode:
		out, err := d.mapping(n, v.Values, depth)
		if err == nil && v.IsFlowStyle && v.Start != nil && v.Start.Position != nil {
			out.pos = shift(v.Start.Position, d.lineOff, d.colOff)
		}
		return out, err
	case *ast.MappingValueNode:
		return d.mapping(n, []*ast.MappingValueNode{v}, depth)
	case *ast.SequenceNode:
		out := &node{kind: kindSeq, pos: d.pos(n), size: 1}
		for _, it := range v.Values {
			c, err := d.node(it, depth+1)
			if err != nil {
				return nil, err
			}
			out.items = append(out.items, c)
			out.size += c.size
		}
		return out, d.count(n, 1)
	case *ast.NullNode:
		return &node{kind: kindNull, pos: d.pos(n), size: 1}, d.count(n, 1)
	case *ast.StringNode:
		return d.scalar(n, v.Value, v.GetToken().Value)
	case *ast.LiteralNode:
		s := ""
		if v.Value != nil {
			s = v.Value.Value
		}
		return d.scalar(n, s, s)
	case *ast.IntegerNode:
		switch iv := v.Value.(type) {
		case int64:
			return d.scalar(n, iv, v.GetToken().Value)
		case uint64:
			return d.scalar(n, iv, v.GetToken().Value)
		default:
			f, err := strconv.ParseFloat(v.GetToken().Value, 64)
			if err != nil {
				return d.scalar(n, v.GetToken().Value, v.GetToken().Value)
			}
			return d.scalar(n, f, v.GetToken().Value)
		}
	case *ast.FloatNode:
		return d.scalar(n, v.Value, v.GetToken().Value)
	case *ast.InfinityNode:
		return d.scalar(n, v.Value, v.GetToken().Value)
	case *ast.NanNode:
		return d.scalar(n, math.NaN(), v.GetToken().Value)
	case *ast.BoolNode:
		return d.scalar(n, v.Value, v.GetToken().Value)
	}
	return nil, d.fail(n, "unsupported YAML node %s", n.Type())
}

func (d *decoder) scalar(n ast.Node, v any, text string) (*node, error) {
	return &node{kind: kindScalar, value: v, text: text, pos: d.pos(n), size: 1}, d.count(n, 1)
}

func (d *decoder) mapping(n ast.Node, values []*ast.MappingValueNode, depth int) (*node, error) {
	out := &node{kind: kindMap, pos: d.pos(n), fields: map[string]*node{}, keyPos: map[string]Pos{}, size: 1}
	if len(values) > 0 {
		out.pos = d.pos(values[0].Key)
	}
	for _, mv := range values {
		val, err := d.node(mv.Value, depth+1)
		if err != nil {
			return nil, err
		}
		if _, merge := mv.Key.(*ast.MergeKeyNode); merge {
			if val.kind != kindMap {
				return nil, d.fail(mv.Key, "a merge key (<<) needs a mapping, not %s", val.describe())
			}
			for _, k := range val.keys {
				if _, ok := out.fields[k]; !ok {
					out.keys = append(out.keys, k)
					out.fields[k] = val.fields[k]
					out.keyPos[k] = val.keyPos[k]
				}
			}
			out.size += val.size
			continue
		}
		key, err := d.node(mv.Key, depth+1)
		if err != nil {
			return nil, err
		}
		if key.kind != kindScalar {
			return nil, d.fail(mv.Key, "a mapping key must be a scalar, not %s", key.describe())
		}
		k := key.text
		if s, ok := key.value.(string); ok {
			k = s
		}
		if _, dup := out.fields[k]; dup {
			return nil, d.fail(mv.Key, "mapping key %q is repeated", k)
		}
		out.keys = append(out.keys, k)
		out.fields[k] = val
		out.keyPos[k] = key.pos
		out.size += val.size
	}
	return out, d.count(n, 1)
}
