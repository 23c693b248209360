package code

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Language is a programming language that Parse understands.
type Language string

// The languages of the quality layer.
const (
	Python     Language = "python"
	JavaScript Language = "javascript"
	TypeScript Language = "typescript"
	Go         Language = "go"
	Bash       Language = "bash"
)

// Languages lists every Language, in documentation order.
var Languages = []Language{Python, JavaScript, TypeScript, Go, Bash}

// aliases maps the names a Markdown fence or a user may give a language
// (lower case) to the Language.
var aliases = map[string]Language{
	"python": Python, "py": Python, "python3": Python, "py3": Python,
	"javascript": JavaScript, "js": JavaScript, "jsx": JavaScript, "mjs": JavaScript, "cjs": JavaScript, "node": JavaScript, "nodejs": JavaScript,
	"typescript": TypeScript, "ts": TypeScript, "tsx": TypeScript, "mts": TypeScript, "cts": TypeScript,
	"go": Go, "golang": Go,
	"bash": Bash, "sh": Bash, "shell": Bash, "zsh": Bash, "ksh": Bash, "shellscript": Bash,
}

// LookupLanguage returns the Language a name stands for: "python", "py",
// "js", "ts", "golang", "sh" and the like, in any case. It reports false for
// a name it does not know.
func LookupLanguage(name string) (Language, bool) {
	l, ok := aliases[strings.ToLower(strings.TrimSpace(name))]
	return l, ok
}

// Limits of Parse.
const (
	// MaxSourceBytes is the largest source Parse accepts: 1 MiB.
	MaxSourceBytes = 1 << 20
	// MaxDepth is the deepest syntax tree Parse accepts.
	MaxDepth = 1000
)

// LanguageError is a language name that Parse does not know.
type LanguageError struct {
	Name string
}

func (e *LanguageError) Error() string {
	return fmt.Sprintf("unknown language %q (known: python, javascript, typescript, go, bash)", e.Name)
}

// LimitError is a source too large or too deeply nested to analyse.
type LimitError struct {
	// Line and Col locate the node that went too deep (1-based); 0 for a
	// source that is too large.
	Line, Col int
	Msg       string
}

func (e *LimitError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
	}
	return e.Msg
}

// ErrCanceled is wrapped by the error of a parse stopped by its context.
var ErrCanceled = errors.New("parse canceled")

// SyntaxError is the first syntax error of a source: where tree-sitter
// found an ERROR node or inserted a MISSING one.
type SyntaxError struct {
	// Line and Col are 1-based; Col counts characters, not bytes.
	Line, Col int
	// Msg says what is wrong: "unexpected 'x'" or "missing ')'".
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// Node is one node of a syntax tree, copied out of tree-sitter so that no C
// memory outlives Parse. Anonymous nodes (keywords, operators) are kept:
// the complexity counts need them.
type Node struct {
	// Kind is the grammar's node type: "if_statement", "&&".
	Kind string
	// Field is the field name under which the parent holds the node
	// ("name", "body"), or "".
	Field string
	// Start and End are byte offsets into the source.
	Start, End int
	// Line and Col are the 1-based start (Col in bytes); EndLine is the
	// 1-based line of the last byte.
	Line, Col, EndLine int
	// Named is false for anonymous nodes such as keywords and operators.
	Named bool
	// Error and Missing mark tree-sitter's error recovery nodes.
	Error, Missing bool
	Children       []*Node
}

// Child returns the first child held under field, or nil.
func (n *Node) Child(field string) *Node {
	for _, c := range n.Children {
		if c.Field == field {
			return c
		}
	}
	return nil
}

// Has reports whether n has a direct child of the given kind.
func (n *Node) Has(kind string) bool {
	for _, c := range n.Children {
		if c.Kind == kind {
			return true
		}
	}
	return false
}

// Walk calls fn on n and its descendants in source order; when fn returns
// false the node's children are skipped.
func (n *Node) Walk(fn func(*Node) bool) {
	if !fn(n) {
		return
	}
	for _, c := range n.Children {
		c.Walk(fn)
	}
}

// File is a parsed source.
type File struct {
	Lang Language
	Src  []byte
	Root *Node
	// Syntax is the first syntax error, or nil when the source parsed
	// cleanly.
	Syntax *SyntaxError
}

// Text returns the source text of n.
func (f *File) Text(n *Node) string { return string(f.Src[n.Start:n.End]) }

// Lines returns the number of lines of the source.
func (f *File) Lines() int {
	if len(f.Src) == 0 {
		return 0
	}
	n := strings.Count(string(f.Src), "\n")
	if f.Src[len(f.Src)-1] != '\n' {
		n++
	}
	return n
}

// chunk is how many bytes the parser is handed per read.
const chunk = 32 << 10

// firstSyntaxError finds the first ERROR or MISSING node in source order.
func firstSyntaxError(f *File) *SyntaxError {
	var found *Node
	f.Root.Walk(func(n *Node) bool {
		if found != nil {
			return false
		}
		if n.Error || n.Missing {
			found = n
			return false
		}
		return true
	})
	if found == nil {
		found = f.Root
	}
	e := &SyntaxError{Line: found.Line, Col: charCol(f.Src, found.Start)}
	switch {
	case found.Missing:
		e.Msg = fmt.Sprintf("missing %s", quoteKind(found.Kind))
	case found.End > found.Start:
		text := string(f.Src[found.Start:found.End])
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			text = text[:i]
		}
		if utf8.RuneCountInString(text) > 40 {
			text = string([]rune(text)[:40]) + "…"
		}
		e.Msg = fmt.Sprintf("unexpected %q", strings.TrimSpace(text))
		if strings.TrimSpace(text) == "" {
			e.Msg = "unexpected input"
		}
	default:
		e.Msg = "unexpected end of input"
	}
	return e
}

func quoteKind(k string) string {
	if k == "" {
		return "token"
	}
	return "'" + k + "'"
}

// charCol is the 1-based character column of byte offset off in src.
func charCol(src []byte, off int) int {
	start := off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	return utf8.RuneCount(src[start:off]) + 1
}

// ErrNoCgo is wrapped by the error of Parse in a judge built without cgo
// (CGO_ENABLED=0, or no C compiler when it was built): the tree-sitter
// grammars are C, so such a build checks no code.
var ErrNoCgo = errors.New("judge was built without cgo, so it cannot parse code: the tree-sitter grammars are C and need cgo and a C compiler")
