//go:build cgo

package code

/*
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

// tree-sitter's C API, compiled in go-tree-sitter's package. The types
// are api.h's, under this package's names; the functions are declared
// weak, so that this package's own link check passes without them (the
// program's link resolves them), and a missing one is seen as NULL.
typedef struct { uint32_t context[4]; const void *id; const void *tree; } judge_ts_node;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } judge_ts_cursor;

extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *)) __attribute__((weak));
extern uint32_t ts_node_descendant_count(judge_ts_node) __attribute__((weak));
extern judge_ts_cursor ts_tree_cursor_new(judge_ts_node) __attribute__((weak));
extern void ts_tree_cursor_delete(judge_ts_cursor *) __attribute__((weak));
extern judge_ts_node ts_tree_cursor_current_node(const judge_ts_cursor *) __attribute__((weak));
extern uint16_t ts_tree_cursor_current_field_id(const judge_ts_cursor *) __attribute__((weak));
extern bool ts_tree_cursor_goto_first_child(judge_ts_cursor *) __attribute__((weak));
extern bool ts_tree_cursor_goto_next_sibling(judge_ts_cursor *) __attribute__((weak));
extern bool ts_tree_cursor_goto_parent(judge_ts_cursor *) __attribute__((weak));
extern uint32_t ts_node_start_byte(judge_ts_node) __attribute__((weak));
extern uint32_t ts_node_end_byte(judge_ts_node) __attribute__((weak));
extern uint16_t ts_node_symbol(judge_ts_node) __attribute__((weak));
extern bool ts_node_is_named(judge_ts_node) __attribute__((weak));
extern bool ts_node_is_missing(judge_ts_node) __attribute__((weak));

// judge_c_allocator makes tree-sitter allocate with the C library's
// malloc, calloc, realloc and free (its defaults), and reports whether it
// could.
static int judge_c_allocator(void) {
	if (!ts_set_allocator) {
		return 0;
	}
	ts_set_allocator(NULL, NULL, NULL, NULL);
	return 1;
}

// judge_flat_ok reports whether every function judge_flatten calls is
// linked.
static int judge_flat_ok(void) {
	return ts_node_descendant_count && ts_tree_cursor_new && ts_tree_cursor_delete &&
		ts_tree_cursor_current_node && ts_tree_cursor_current_field_id &&
		ts_tree_cursor_goto_first_child && ts_tree_cursor_goto_next_sibling &&
		ts_tree_cursor_goto_parent && ts_node_start_byte && ts_node_end_byte &&
		ts_node_symbol && ts_node_is_named && ts_node_is_missing;
}

// judge_rec is one node of the tree, in the order of a depth-first walk.
typedef struct {
	uint32_t start, end, depth;
	uint16_t symbol, field;
	uint8_t named, missing;
} judge_rec;

// judge_flatten walks the tree under root with one cursor, depth first,
// and writes a record per node into out, at most cap of them. It returns
// how many it wrote, or cap+1 when the tree has more nodes. missing asks
// for the MISSING mark (only a tree with errors has any).
static uint32_t judge_flatten(judge_ts_node root, judge_rec *out, uint32_t cap, int missing) {
	judge_ts_cursor c = ts_tree_cursor_new(root);
	uint32_t n = 0, depth = 0;
	for (;;) {
		if (n == cap) {
			ts_tree_cursor_delete(&c);
			return cap + 1;
		}
		judge_ts_node node = ts_tree_cursor_current_node(&c);
		judge_rec *r = &out[n++];
		r->start = ts_node_start_byte(node);
		r->end = ts_node_end_byte(node);
		r->depth = depth;
		r->symbol = ts_node_symbol(node);
		r->field = ts_tree_cursor_current_field_id(&c);
		r->named = ts_node_is_named(node);
		r->missing = missing ? ts_node_is_missing(node) : 0;
		if (ts_tree_cursor_goto_first_child(&c)) {
			depth++;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) {
				ts_tree_cursor_delete(&c);
				return n;
			}
			depth--;
		}
	}
}
*/
import "C"

import (
	"context"
	"fmt"
	"sort"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsbash "github.com/tree-sitter/tree-sitter-bash/bindings/go"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// The tree-sitter grammars are C, built with cgo: this file is the parser
// of a cgo build; parse_nocgo.go stands in for it without one.

// cAllocator is true when tree-sitter allocates with the C library
// directly. go-tree-sitter's init routes every allocation of the parser
// (a few per node) through a Go callback, a crossing from C into Go that
// cost as much as the parse itself; judge sets the C library's functions
// back, once, before its first parse. They are what those callbacks
// called, so memory allocated before is freed alike.
var cAllocator = C.judge_c_allocator() != 0

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
	hasErrors := false
	if flatWalk {
		f.Root, hasErrors, err = convertFlat(tree, g, src)
	} else {
		c := newConverter(tree, g, src)
		f.Root, err = c.convert(0)
		c.cursor.Close()
		hasErrors = c.errors
	}
	if err != nil {
		return nil, err
	}
	if hasErrors || f.Root.Error {
		f.Syntax = firstSyntaxError(f)
	}
	return f, nil
}

// flatWalk is true when Parse copies the tree with judge_flatten, one call
// into C for the whole tree, rather than a cursor driven from Go (seven
// calls into C per node, which cost more than the parse): its functions
// are linked, and go-tree-sitter's Node is the TSNode this file declares.
var flatWalk = C.judge_flat_ok() != 0 && unsafe.Sizeof(sitter.Node{}) == unsafe.Sizeof(C.judge_ts_node{})

// convertFlat copies the tree into Nodes as converter does, from the
// records judge_flatten writes: the nodes and their child lists each take
// one allocation, kind and field names are looked up once per grammar
// symbol, and lines are found from byte offsets. It also reports whether
// the tree has errors.
func convertFlat(tree *sitter.Tree, g *sitter.Language, src []byte) (*Node, bool, error) {
	root := tree.RootNode()
	croot := *(*C.judge_ts_node)(unsafe.Pointer(root))
	hasErrors := root.HasError()
	missing := C.int(0)
	if hasErrors {
		missing = 1
	}
	recs := make([]C.judge_rec, max(int(C.ts_node_descendant_count(croot)), 1))
	for {
		n := int(C.judge_flatten(croot, &recs[0], C.uint32_t(len(recs)), missing))
		if n <= len(recs) {
			recs = recs[:n]
			break
		}
		recs = make([]C.judge_rec, 2*len(recs))
	}

	lines := lineStarts(src)
	kinds := make([]kindInfo, g.NodeKindCount())
	fields := make([]string, g.FieldCount()+1)
	nodes := make([]Node, len(recs))
	// Each node's children are a range of one array, in the order of
	// the walk: counted first, then filled.
	count := make([]int32, len(recs))
	stack := make([]int32, 0, 64)
	for i := range recs {
		d := int(recs[i].depth)
		stack = append(stack[:d], int32(i))
		if d > 0 {
			count[stack[d-1]]++
		}
	}
	kids := make([]*Node, max(len(recs)-1, 0))
	off := 0
	for i, c := range count {
		if c > 0 {
			nodes[i].Children = kids[off : off : off+int(c)]
			off += int(c)
		}
	}
	stack = stack[:0]
	line := 0 // the line of the last start: starts rarely go back
	for i := range recs {
		r := &recs[i]
		n := &nodes[i]
		n.Start, n.End = int(r.start), int(r.end)
		line = lineOf(lines, n.Start, line)
		n.Line, n.Col = line+1, n.Start-lines[line]+1
		n.EndLine = n.Line
		if n.End > n.Start {
			n.EndLine = lineOf(lines, n.End-1, line) + 1
		}
		sym := int(r.symbol)
		if sym >= len(kinds) {
			kinds = append(kinds, make([]kindInfo, sym+1-len(kinds))...)
		}
		k := &kinds[sym]
		if !k.seen {
			*k = kindInfo{name: g.NodeKindForId(uint16(sym)), seen: true}
		}
		n.Kind, n.Named, n.Missing = k.name, r.named != 0, r.missing != 0
		n.Error = k.name == "ERROR"
		if fid := int(r.field); fid != 0 {
			if fid >= len(fields) {
				fields = append(fields, make([]string, fid+1-len(fields))...)
			}
			if fields[fid] == "" {
				fields[fid] = g.FieldNameForId(uint16(fid))
			}
			n.Field = fields[fid]
		}
		d := int(r.depth)
		if d > MaxDepth {
			return nil, false, &LimitError{Line: n.Line, Col: n.Col, Msg: fmt.Sprintf("the syntax tree is nested deeper than %d levels", MaxDepth)}
		}
		stack = append(stack[:d], int32(i))
		if d > 0 {
			p := &nodes[stack[d-1]]
			p.Children = append(p.Children, n)
		}
	}
	return &nodes[0], hasErrors, nil
}

// lineStarts returns the byte offset of each line's start.
func lineStarts(src []byte) []int {
	lines := make([]int, 1, len(src)/32+1)
	for i, b := range src {
		if b == '\n' {
			lines = append(lines, i+1)
		}
	}
	return lines
}

// lineOf returns the 0-based line of byte offset off, given lines (see
// lineStarts) and a guess: the following lines are tried first.
func lineOf(lines []int, off, guess int) int {
	if lines[guess] <= off {
		for i := guess; i < len(lines) && i < guess+8; i++ {
			if i+1 == len(lines) || lines[i+1] > off {
				return i
			}
		}
	}
	return sort.Search(len(lines), func(i int) bool { return lines[i] > off }) - 1
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
	seen  bool // convertFlat's table: name is looked up
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
