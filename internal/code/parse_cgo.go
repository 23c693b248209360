//go:build cgo

package code

import (
	"context"
	"fmt"
	"sort"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsbash "github.com/tree-sitter/tree-sitter-bash/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// The tree-sitter grammars are C, built with cgo: this file is the parser
// of a cgo build; parse_nocgo.go stands in for it without one.

// grammar returns the tree-sitter grammar of l.
func grammar(l Language) (*sitter.Language, error) {
	switch l {
	case Python:
		return sitter.NewLanguage(tspython.Language()), nil
	case JavaScript:
		return sitter.NewLanguage(tsjs.Language()), nil
	case TypeScript:
		return sitter.NewLanguage(tsts.LanguageTypescript()), nil
	case Go:
		return sitter.NewLanguage(tsgo.Language()), nil
	case Bash:
		return sitter.NewLanguage(tsbash.Language()), nil
	}
	return nil, &LanguageError{Name: string(l)}
}

// Parse parses src as lang. A syntax error is not an error: it is in
// File.Syntax, and the tree holds what tree-sitter recovered. Parse returns
// a *LanguageError for an unknown language, a *LimitError for a source over
// MaxSourceBytes or nested deeper than MaxDepth, and an error wrapping
// ErrCanceled and ctx.Err() when ctx ends first. It is safe for concurrent
// use: each call has its own parser, and all C memory is freed before it
// returns.
func Parse(ctx context.Context, lang Language, src []byte) (*File, error) {
	g, err := grammar(lang)
	if err != nil {
		return nil, err
	}
	if len(src) > MaxSourceBytes {
		return nil, &LimitError{Msg: fmt.Sprintf("the source is %d bytes, over the limit of %d", len(src), MaxSourceBytes)}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCanceled, err)
	}
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(g); err != nil {
		return nil, fmt.Errorf("code: %s grammar: %w", lang, err)
	}
	done := ctx.Done()
	read := func(off int, _ sitter.Point) []byte {
		if off >= len(src) {
			return nil
		}
		return src[off:min(off+chunk, len(src))]
	}
	tree := p.ParseWithOptions(read, nil, &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}})
	if tree == nil {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrCanceled, err)
		}
		return nil, fmt.Errorf("code: tree-sitter returned no tree for the %s source", lang)
	}
	defer tree.Close()
	f := &File{Lang: lang, Src: src}
	c := newConverter(tree, g, src)
	defer c.cursor.Close()
	if f.Root, err = c.convert(0); err != nil {
		return nil, err
	}
	if c.errors || f.Root.Error {
		f.Syntax = firstSyntaxError(f)
	}
	return f, nil
}

// converter copies a tree-sitter tree into Nodes, interning kind and field
// names. It keeps the calls into C (each costs far more than a Go call)
// to a few per node: positions come from byte offsets and a table of line
// starts, and what depends only on the kind is looked up once per kind.
type converter struct {
	cursor *sitter.TreeCursor
	kinds  map[uint16]kindInfo
	fields map[uint16]string
	g      *sitter.Language
	// lines holds the byte offset of each line's start.
	lines []int
	// errors is true when the tree has errors, so that MISSING nodes must
	// be looked for.
	errors bool
}

type kindInfo struct {
	name  string
	named bool
}

func newConverter(tree *sitter.Tree, g *sitter.Language, src []byte) *converter {
	lines := []int{0}
	for i, b := range src {
		if b == '\n' {
			lines = append(lines, i+1)
		}
	}
	return &converter{cursor: tree.Walk(), kinds: map[uint16]kindInfo{}, fields: map[uint16]string{}, g: g, lines: lines, errors: tree.RootNode().HasError()}
}

// line returns the 1-based line and byte column of offset off.
func (c *converter) line(off int) (int, int) {
	i := sort.Search(len(c.lines), func(i int) bool { return c.lines[i] > off }) - 1
	return i + 1, off - c.lines[i] + 1
}

func (c *converter) convert(depth int) (*Node, error) {
	tn := c.cursor.Node()
	start, end := int(tn.StartByte()), int(tn.EndByte())
	n := &Node{Start: start, End: end}
	n.Line, n.Col = c.line(start)
	n.EndLine = n.Line
	if end > start {
		n.EndLine, _ = c.line(end - 1)
	}
	id := tn.KindId()
	k, ok := c.kinds[id]
	if !ok {
		k = kindInfo{name: tn.Kind(), named: tn.IsNamed()}
		c.kinds[id] = k
	}
	n.Kind, n.Named = k.name, k.named
	n.Error = k.name == "ERROR"
	if c.errors {
		n.Missing = tn.IsMissing()
	}
	if fid := c.cursor.FieldId(); fid != 0 {
		f, ok := c.fields[fid]
		if !ok {
			f = c.g.FieldNameForId(fid)
			c.fields[fid] = f
		}
		n.Field = f
	}
	if depth > MaxDepth {
		return nil, &LimitError{Line: n.Line, Col: n.Col, Msg: fmt.Sprintf("the syntax tree is nested deeper than %d levels", MaxDepth)}
	}
	if c.cursor.GotoFirstChild() {
		for {
			child, err := c.convert(depth + 1)
			if err != nil {
				return nil, err
			}
			n.Children = append(n.Children, child)
			if !c.cursor.GotoNextSibling() {
				break
			}
		}
		c.cursor.GotoParent()
	}
	return n, nil
}
