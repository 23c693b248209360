package code

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestFunctionsComplexity(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		lang Language
		src  string
		want map[string]int // function name -> complexity
	}{
		{"python branches", Python, `
def f(a, b=1 if x else 2):
    if a and b or c:
        pass
    elif b:
        pass
    for i in a:
        pass
    else:
        pass
    while a:
        break
    try:
        pass
    except A:
        pass
    except B:
        pass
    else:
        pass
    finally:
        pass
    return [i for i in a if i if not i] or (lambda: a and b)
`, map[string]int{"f": 16}},
		{"python assert and match count as radon does", Python, `
def g(x):
    assert x and x
    match x:
        case 1 if x:
            pass
    with x:
        pass
`, map[string]int{"g": 2}},
		{"python closures and methods", Python, `
class A:
    def m(self):
        def inner():
            return a or b
        return inner
def h():
    class Local:
        def hidden(self):
            if x: pass
    return 1
`, map[string]int{"A.m": 1, "inner": 2, "h": 1}},
		{"go", Go, `package p
func F(a int) int {
	if a > 0 && a < 10 || a == 20 {
		return 1
	}
	for i := range 3 { _ = i }
	switch a {
	case 1, 2:
	case 3:
	default:
	}
	f := func() bool { return a == 1 || a == 2 }
	_ = f
	select {
	case <-ch:
	default:
	}
	return 0
}
func (r *T[K]) M() {}
var V = func() { if true {} }
`, map[string]int{"F": 9, "(*T).M": 1, "V": 2}},
		{"javascript", JavaScript, `
function f(a = 1, {b = 2} = {}) {
  if (a && b || c ?? d) {}
  x ||= 1; y &&= 2; z ??= 3;
  const v = a?.b?.c ? 1 : 2;
  for (;;) {} for (const k in o) {} for (const k of o) {} while (a) {} do {} while (b);
  try {} catch (e) {} finally {}
  switch (a) { case 1: break; case 2: break; default: }
  return () => a || b;
}
class C {
  field = a || b;
  static { if (x) {} }
  method() { return this.x?.(); }
}
`, map[string]int{"f": 22, "<anonymous>": 2, "C.field (field initializer)": 2, "C.static block": 2, "C.method": 2}},
		{"typescript", TypeScript, `
interface I { a?: number }
function g(x: number): number { return x > 0 ? x : -x; }
const h = (s: string): boolean => s === "a" || s === "b";
function d(a: number = 1, cb?: () => void): void { cb?.(); }
`, map[string]int{"g": 2, "h": 2, "d": 3}},
		{"bash", Bash, `#!/bin/bash
deploy() {
  if [[ -z "$1" ]] || [[ -z "$2" ]]; then
    exit 1
  elif true; then :; fi
  for f in *; do echo "$f"; done
  case "$1" in
    a) echo a ;;
    *) echo other ;;
  esac
}
`, map[string]int{"deploy": 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := Parse(context.Background(), tt.lang, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if f.Syntax != nil {
				t.Fatalf("unexpected syntax error %v", f.Syntax)
			}
			got := map[string]int{}
			for _, fn := range f.Functions() {
				got[fn.Name] = fn.Complexity
			}
			for name, want := range tt.want {
				if got[name] != want {
					t.Errorf("%s: complexity %d, want %d (all: %v)", name, got[name], want, got)
				}
			}
			if len(got) != len(tt.want) {
				t.Errorf("functions %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFunctionLinesAndLength(t *testing.T) {
	t.Parallel()
	src := "import x\n\n@decorator\ndef f():\n    a = 1\n    return a\n\nclass K:\n    async def m(self):\n        pass\n"
	f, err := Parse(context.Background(), Python, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	fns := f.Functions()
	if len(fns) != 2 {
		t.Fatalf("got %d functions, want 2", len(fns))
	}
	if fns[0].Name != "f" || fns[0].Line != 4 || fns[0].Length() != 3 || fns[0].Kind != "function" {
		t.Errorf("f: %+v", fns[0])
	}
	if fns[1].Name != "K.m" || fns[1].Line != 9 || fns[1].Length() != 2 || fns[1].Kind != "method" {
		t.Errorf("K.m: %+v", fns[1])
	}
}

func TestSyntaxError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang      Language
		src       string
		line, col int
		msg       string
	}{
		{Python, "def f():\n    return (1,\n", 0, 0, ""},
		{Python, "x = 1\ny = = 2\n", 2, 5, "unexpected \"=\""},
		{Go, "package p\nfunc f() {\n\tx := \n}\n", 0, 0, ""},
		{JavaScript, "function f() {\n  return 1;\n", 0, 0, "missing"},
		{JavaScript, "const s = 'é' + ;\n", 1, 15, ""},
		{TypeScript, "let x: = 1;\n", 1, 0, ""},
		{Bash, "if true; then\n  echo\n", 0, 0, ""},
	}
	for _, tt := range tests {
		f, err := Parse(context.Background(), tt.lang, []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		if f.Syntax == nil {
			t.Errorf("%s %q: no syntax error", tt.lang, tt.src)
			continue
		}
		e := f.Syntax
		if tt.line > 0 && e.Line != tt.line || tt.col > 0 && e.Col != tt.col || !strings.Contains(e.Msg, tt.msg) {
			t.Errorf("%s %q: got %v, want %d:%d %q", tt.lang, tt.src, e, tt.line, tt.col, tt.msg)
		}
		if e.Line < 1 || e.Col < 1 || e.Msg == "" {
			t.Errorf("%s %q: position or message missing: %+v", tt.lang, tt.src, e)
		}
	}
}

func TestParseLimits(t *testing.T) {
	t.Parallel()
	if _, err := Parse(context.Background(), "cobol", []byte("x")); !errors.As(err, new(*LanguageError)) {
		t.Errorf("unknown language: %v", err)
	}
	big := []byte(strings.Repeat("x = 1\n", MaxSourceBytes/6+1))
	if _, err := Parse(context.Background(), Python, big); !errors.As(err, new(*LimitError)) {
		t.Errorf("large source: %v", err)
	}
	deep := []byte("x = " + strings.Repeat("(", 5000) + strings.Repeat(")", 5000) + "\n")
	var le *LimitError
	if _, err := Parse(context.Background(), Python, deep); !errors.As(err, &le) || le.Line != 1 {
		t.Errorf("deep source: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Parse(ctx, Go, []byte("package p")); !errors.Is(err, ErrCanceled) || !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
}

func TestDetect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want Language
	}{
		{"#!/usr/bin/env python3\nprint(1)\n", Python},
		{"#!/bin/bash\necho hi\n", Bash},
		{"import os\n\ndef main():\n    print(os.getcwd())\n", Python},
		{"package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(1)\n}\n", Go},
		{"const add = (a, b) => a + b;\nconsole.log(add(1, 2));\n", JavaScript},
		{"interface User { name: string }\nfunction greet(u: User): string {\n  return u.name;\n}\n", TypeScript},
		{"set -euo pipefail\nfor f in *.txt; do\n  echo \"$f\"\ndone\n", Bash},
	}
	for _, tt := range tests {
		got, ok := Detect(context.Background(), tt.src)
		if !ok || got != tt.want {
			t.Errorf("Detect(%q) = %q, %v; want %q", tt.src, got, ok, tt.want)
		}
	}
	if got, ok := Detect(context.Background(), "The meeting is at noon. Bring the report."); ok {
		t.Errorf("prose detected as %q", got)
	}
}

func TestLookupLanguage(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]Language{"PY": Python, "ts": TypeScript, "golang": Go, "sh": Bash, "node": JavaScript} {
		if got, ok := LookupLanguage(name); !ok || got != want {
			t.Errorf("LookupLanguage(%q) = %q, %v", name, got, ok)
		}
	}
	if _, ok := LookupLanguage("rust"); ok {
		t.Error("rust is not supported")
	}
	if l, ok := ByExtension("dir.v2/main.go"); !ok || l != Go {
		t.Errorf("ByExtension: %q %v", l, ok)
	}
}
