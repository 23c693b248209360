// Command funclen lists the functions longer than -max lines (100 by
// default) in the Go files below the directories given (. by default),
// test files, testdata and node_modules left out, longest first, and exits
// 1 when there is any: STYLE.md wants a function split where a name would
// explain a part, and issue 25 none over 100 lines outside tests.
//
//	go run ./scripts/funclen
//	go run ./scripts/funclen -max 80 ./layer ./toolcall
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// long is a function over the limit.
type long struct {
	lines int
	where string // file:line name
}

func main() {
	maxLines := flag.Int("max", 100, "the most lines a function may have")
	flag.Parse()
	dirs := flag.Args()
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	var found []long
	for _, d := range dirs {
		l, err := scan(d, *maxLines)
		if err != nil {
			fmt.Fprintln(os.Stderr, "funclen:", err)
			os.Exit(2)
		}
		found = append(found, l...)
	}
	slices.SortStableFunc(found, func(a, b long) int { return b.lines - a.lines })
	for _, f := range found {
		fmt.Printf("%4d %s\n", f.lines, f.where)
	}
	if len(found) > 0 {
		os.Exit(1)
	}
}

// scan returns the functions over maxLines in the non-test Go files
// below root.
func scan(root string, maxLines int) ([]long, error) {
	fset := token.NewFileSet()
	var out []long
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			start := fset.Position(fd.Pos())
			if n := fset.Position(fd.End()).Line - start.Line + 1; n > maxLines {
				out = append(out, long{n, fmt.Sprintf("%s:%d %s", p, start.Line, funcName(fd))})
			}
		}
		return nil
	})
	return out, err
}

// funcName is fd's name, with its receiver's type for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}
