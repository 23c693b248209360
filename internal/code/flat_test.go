//go:build cgo

package code

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// copied is a tree as one of the two copies gives it: its root, whether
// the tree has errors, and the copy's error.
type copied struct {
	root      *Node
	hasErrors bool
	err       error
}

// treeBoth parses src as lang and copies the tree both ways: with the
// cursor driven from Go (converter) and with judge_flatten (convertFlat).
func treeBoth(t *testing.T, lang Language, src []byte) (slow, flat copied) {
	t.Helper()
	g, err := grammar(lang)
	if err != nil {
		t.Fatal(err)
	}
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(g); err != nil {
		t.Fatal(err)
	}
	tree := p.Parse(src, nil)
	if tree == nil {
		t.Fatal("no tree")
	}
	defer tree.Close()
	c := newConverter(tree, g, src)
	slow.root, slow.err = c.convert(0)
	c.cursor.Close()
	slow.hasErrors = c.errors
	flat.root, flat.hasErrors, flat.err = convertFlat(tree, g, src)
	return slow, flat
}

// judge_flatten copies a syntax tree into exactly the Nodes the cursor
// driven from Go gives, node for node: on real files of every language
// (the Python standard library's largest, the Go sources of this
// repository, ESLint's JavaScript), on sources with syntax errors and
// MISSING nodes, on empty ones, and on a tree nested past MaxDepth (the
// same LimitError).
func TestFlatWalkSameTree(t *testing.T) {
	t.Parallel()
	if !flatWalk {
		t.Fatal("judge_flatten is not available: tree-sitter's functions are not linked or go-tree-sitter's Node changed")
	}
	if !cAllocator {
		t.Fatal("tree-sitter still allocates through go-tree-sitter's Go callbacks: ts_set_allocator is not linked")
	}
	type source struct {
		lang Language
		name string
		src  []byte
	}
	var srcs []source
	add := func(lang Language, pattern string, most int) {
		files, _ := filepath.Glob(pattern)
		for _, f := range files[:min(most, len(files))] {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, source{lang, f, b})
		}
	}
	add(Python, "/usr/lib/python3.*/_pydecimal.py", 1)
	add(Python, "/usr/lib/python3.*/os.py", 1)
	add(Go, "*.go", 20)
	add(JavaScript, "testdata/node/node_modules/eslint/lib/linter/*.js", 5)
	add(TypeScript, "testdata/node/node_modules/ajv/lib/compile/*.ts", 5)
	if len(srcs) < 10 {
		t.Fatalf("only %d source files found", len(srcs))
	}
	srcs = append(srcs, []source{
		{Python, "syntax error", []byte("def f(:\n  return (1,\nclass\n")},
		{Python, "missing", []byte("x = (1 + \n")},
		{JavaScript, "missing brace", []byte("function f() { if (a) { return 1;\n")},
		{Go, "garbage", []byte("package p\nfunc ) { ]]]\n")},
		{Bash, "script", []byte("#!/bin/sh\nif [ -f x ]; then\n  echo \"é $HOME\"\nfi\n")},
		{Python, "empty", nil},
		{Python, "unicode", []byte("s = 'é☃𝄞'\r\nt = 1\n")},
		{Python, "too deep", []byte("x = " + strings.Repeat("[", 1100) + "1" + strings.Repeat("]", 1100) + "\n")},
	}...)
	for _, s := range srcs {
		slow, flat := treeBoth(t, s.lang, s.src)
		if !reflect.DeepEqual(slow.err, flat.err) || slow.hasErrors != flat.hasErrors {
			t.Fatalf("%s: errors %v / %v (tree errors %v / %v)", s.name, slow.err, flat.err, slow.hasErrors, flat.hasErrors)
		}
		if _, isLimit := flat.err.(*LimitError); isLimit != (s.name == "too deep") {
			t.Fatalf("%s: error %v", s.name, flat.err)
		}
		if !reflect.DeepEqual(slow.root, flat.root) {
			t.Fatalf("%s: the trees differ", s.name)
		}
	}
	// And through Parse, whose syntax error is found on the tree.
	f, err := Parse(context.Background(), Python, []byte("x = (1 + \n"))
	if err != nil || f.Syntax == nil {
		t.Fatalf("Parse of a source with a MISSING node: %v, syntax %v", err, f.Syntax)
	}
}

// FuzzFlatWalk: on any source in every language, judge_flatten's copy
// of the tree is the cursor's, node for node, errors included.
func FuzzFlatWalk(f *testing.F) {
	for _, s := range []string{
		"def f(a):\n    if a and b:\n        return [x for x in a if x]\n",
		"package p\nfunc F() { if a && b { for range x {} } }\n",
		"function f(a = 1) { return a?.b ?? c; }\n", "let x: number = (y as any)!;\n",
		"f() { [ -n \"$1\" ] && echo ok; }\n", "def f(:\n", "((((", "\x00\xff\xfe", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, lang := range Languages {
			slow, flat := treeBoth(t, lang, []byte(src))
			if !reflect.DeepEqual(slow, flat) {
				t.Fatalf("%s: the copies differ on %q", lang, src)
			}
		}
	})
}
