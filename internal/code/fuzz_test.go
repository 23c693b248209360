package code

import (
	"context"
	"testing"
)

// FuzzParse feeds arbitrary bytes to Parse, Functions and Detect in every
// language: none may panic or hang, and positions stay within the source.
func FuzzParse(f *testing.F) {
	seeds := []string{
		"def f(a):\n    if a and b:\n        return [x for x in a if x]\n",
		"package p\nfunc F() { if a && b { for range x {} } }\n",
		"function f(a = 1) { return a?.b ?? c; }\nclass C { x = 1; static {} }\n",
		"let x: number = (y as any)!;\ninterface I<T> { a?: T }\n",
		"#!/bin/sh\nf() { [ -n \"$1\" ] && echo ok || exit 1; }\n",
		"def f(:\n", "func {", "((((", "\x00\xff\xfe", "",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		lines := 1
		for i := range len(src) {
			if src[i] == '\n' {
				lines++
			}
		}
		for _, lang := range Languages {
			file, err := Parse(context.Background(), lang, []byte(src))
			if err != nil {
				continue
			}
			if e := file.Syntax; e != nil && (e.Line < 1 || e.Line > lines || e.Col < 1 || e.Msg == "") {
				t.Fatalf("%s: syntax error out of the source: %+v", lang, e)
			}
			for _, fn := range file.Functions() {
				if fn.Complexity < 1 || fn.Line < 1 || fn.Line > lines || fn.Length() < 1 {
					t.Fatalf("%s: bad function %+v", lang, fn)
				}
			}
		}
		Detect(context.Background(), src)
	})
}
