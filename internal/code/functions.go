package code

import (
	"slices"
	"strings"
)

// Function is one function of a File with its metrics, counted as the
// reference tool of the language counts them (see the package
// documentation).
type Function struct {
	// Name is the function's name as the reference tool shows it: "f",
	// "Class.method" (Python, JavaScript), "(*T).Method" (Go), the
	// variable an anonymous function is assigned to, or "<anonymous>".
	Name string
	// Line is the 1-based line the reference tool reports: the def or func
	// keyword, a method's key, an arrow function's "=>".
	Line int
	// StartLine and EndLine span the whole function (without decorators).
	StartLine, EndLine int
	// Complexity is the cyclomatic complexity.
	Complexity int
	// Kind is "function", "method", "closure" (a function inside another),
	// "initializer" (a JavaScript class field) or "static_block".
	Kind string
	// Node is the function's syntax node.
	Node *Node
	// Body is the node holding the function's statements, or nil.
	Body *Node
}

// Length is the number of lines the function spans.
func (fn Function) Length() int { return fn.EndLine - fn.StartLine + 1 }

// Functions returns the functions of f in source order, each with its
// complexity.
func (f *File) Functions() []Function {
	w := &walker{f: f}
	switch f.Lang {
	case Python:
		w.python(f.Root, false, "")
	case Go:
		w.goFile()
	case JavaScript, TypeScript:
		w.js(f.Root, nil, "")
	case Bash:
		w.bash(f.Root, nil)
	}
	slices.SortStableFunc(w.out, func(a, b Function) int {
		if a.StartLine != b.StartLine {
			return a.StartLine - b.StartLine
		}
		return a.Node.Start - b.Node.Start
	})
	return w.out
}

type walker struct {
	f   *File
	out []Function
}

func (w *walker) text(n *Node) string {
	if n == nil {
		return ""
	}
	return w.f.Text(n)
}

// add records a function and returns its index in w.out.
func (w *walker) add(fn Function) int {
	if fn.Name == "" {
		fn.Name = "<anonymous>"
	}
	if fn.StartLine == 0 {
		fn.StartLine = fn.Node.Line
	}
	if fn.EndLine == 0 {
		fn.EndLine = fn.Node.EndLine
	}
	fn.Complexity = 1
	w.out = append(w.out, fn)
	return len(w.out) - 1
}

// ---- Python: radon cc ----

// python walks n. inFunc tells whether n is inside a function (then a class
// is dropped, as radon drops it); class is the enclosing class's name for
// methods.
func (w *walker) python(n *Node, inFunc bool, class string) {
	for _, c := range n.Children {
		switch c.Kind {
		case "function_definition":
			w.pyFunction(c, inFunc, class)
		case "class_definition":
			if inFunc {
				continue
			}
			if body := c.Child("body"); body != nil {
				w.python(body, false, w.text(c.Child("name")))
			}
		default:
			w.python(c, inFunc, class)
		}
	}
}

func (w *walker) pyFunction(n *Node, inFunc bool, class string) {
	name := w.text(n.Child("name"))
	kind := "function"
	switch {
	case inFunc:
		kind = "closure"
	case class != "":
		kind, name = "method", class+"."+name
	}
	i := w.add(Function{Name: name, Line: n.Line, Kind: kind, Node: n, Body: n.Child("body")})
	if body := n.Child("body"); body != nil {
		w.out[i].Complexity += w.pyDecisions(body)
	}
}

// pyDecisions counts radon's decisions under n, reporting nested functions
// as closures and dropping classes.
func (w *walker) pyDecisions(n *Node) int {
	d := 0
	for _, c := range n.Children {
		switch c.Kind {
		case "function_definition":
			w.pyFunction(c, true, "")
			continue
		case "class_definition":
			continue
		case "decorated_definition":
			// Decorators of a nested function are not visited.
			if def := c.Child("definition"); def != nil && def.Kind == "function_definition" {
				w.pyFunction(def, true, "")
			}
			continue
		case "assert_statement":
			d++ // its expression is not visited
			continue
		case "if_statement", "elif_clause", "conditional_expression", "boolean_operator", "for_in_clause":
			d++
		case "if_clause":
			if isComprehension(n.Kind) {
				d++
			}
		case "for_statement", "while_statement":
			d++
			if c.Has("else_clause") {
				d++
			}
		case "try_statement":
			// radon 5.1 counts the handlers and else clause of a Try node
			// but not of a TryStar (try/except*).
			star := false
			for _, cc := range c.Children {
				if cc.Kind == "except_clause" && cc.Has("*") || cc.Kind == "except_group_clause" {
					star = true
				}
			}
			for _, cc := range c.Children {
				if !star && (cc.Kind == "except_clause" || cc.Kind == "else_clause") {
					d++
				}
			}
		}
		d += w.pyDecisions(c)
	}
	return d
}

func isComprehension(kind string) bool {
	switch kind {
	case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
		return true
	}
	return false
}

// ---- Go: gocyclo ----

func (w *walker) goFile() {
	for i, c := range w.f.Root.Children {
		switch c.Kind {
		case "function_declaration", "method_declaration":
			if w.goIgnored(i) {
				continue
			}
			name := w.text(c.Child("name"))
			kind := "function"
			if recv := c.Child("receiver"); recv != nil {
				kind, name = "method", "("+w.goRecv(recv)+")."+name
			}
			i := w.add(Function{Name: name, Line: c.Line, Kind: kind, Node: c, Body: c.Child("body")})
			w.out[i].Complexity += goDecisions(c, w)
		case "var_declaration":
			if w.goIgnored(i) {
				continue
			}
			c.Walk(func(n *Node) bool {
				if n.Kind != "var_spec" {
					return true
				}
				name := w.text(n.Child("name"))
				if vals := n.Child("value"); vals != nil {
					for _, v := range vals.Children {
						if v.Kind == "func_literal" {
							i := w.add(Function{Name: name, Line: v.Line, Kind: "function", Node: v, Body: v.Child("body")})
							w.out[i].Complexity += goDecisions(v, w)
						}
					}
				}
				return false
			})
		}
	}
}

// goIgnored reports whether the doc comment of the i-th top-level
// declaration holds gocyclo's "//gocyclo:ignore" directive.
func (w *walker) goIgnored(i int) bool {
	parent := w.f.Root
	line := parent.Children[i].Line
	for j := i - 1; j >= 0; j-- {
		c := parent.Children[j]
		if c.Kind != "comment" || c.EndLine < line-1 {
			return false
		}
		if strings.HasPrefix(w.text(c), "//gocyclo:ignore") {
			return true
		}
		line = c.Line
	}
	return false
}

// goRecv renders a receiver as gocyclo does: "T", "*T", type arguments
// dropped.
func (w *walker) goRecv(recv *Node) string {
	for _, p := range recv.Children {
		if p.Kind != "parameter_declaration" {
			continue
		}
		return goRecvType(w, p.Child("type"))
	}
	return "BADRECV"
}

func goRecvType(w *walker, t *Node) string {
	if t == nil {
		return "BADRECV"
	}
	switch t.Kind {
	case "type_identifier":
		return w.text(t)
	case "pointer_type":
		for _, c := range t.Children {
			if c.Named {
				return "*" + goRecvType(w, c)
			}
		}
	case "generic_type":
		return goRecvType(w, t.Child("type"))
	case "parenthesized_type":
		for _, c := range t.Children {
			if c.Named {
				return goRecvType(w, c)
			}
		}
	}
	return "BADRECV"
}

func goDecisions(n *Node, w *walker) int {
	d := 0
	n.Walk(func(c *Node) bool {
		switch c.Kind {
		case "if_statement", "for_statement", "expression_case", "type_case", "communication_case":
			d++
		case "binary_expression":
			if op := w.text(c.Child("operator")); op == "&&" || op == "||" {
				d++
			}
		}
		return true
	})
	return d
}

// ---- JavaScript and TypeScript: ESLint's complexity rule ----

var jsFunctionKinds = map[string]bool{
	"function_declaration": true, "function_expression": true, "function": true,
	"generator_function_declaration": true, "generator_function": true,
	"arrow_function": true, "method_definition": true,
}

// js walks n, counting decisions into cur (nil at the top level, where
// nothing is reported). class is the enclosing class's name.
func (w *walker) js(n *Node, cur *int, class string) {
	for _, c := range n.Children {
		switch {
		case jsFunctionKinds[c.Kind]:
			if c.Child("body") == nil {
				// An overload or abstract signature: no code.
				continue
			}
			i := w.add(Function{Name: w.jsName(c, class), Line: w.jsLine(c), Kind: jsKind(c, cur), Node: c, Body: c.Child("body")})
			var d int
			w.js(c, &d, class)
			w.out[i].Complexity += d
			continue
		case c.Kind == "class_declaration" || c.Kind == "class" || c.Kind == "abstract_class_declaration":
			name := w.text(c.Child("name"))
			if name == "" {
				name = class
			}
			w.js(c, cur, name)
			continue
		case c.Kind == "field_definition" || c.Kind == "public_field_definition":
			if v := c.Child("value"); v != nil {
				for _, cc := range c.Children {
					if cc != v {
						w.js(&Node{Children: []*Node{cc}}, cur, class)
					}
				}
				i := w.add(Function{Name: jsJoin(class, w.text(jsKey(c))) + " (field initializer)", Line: v.Line, Kind: "initializer", Node: v})
				var d int
				w.js(&Node{Kind: "initializer", Children: []*Node{v}}, &d, class)
				w.out[i].Complexity += d
				continue
			}
		case c.Kind == "class_static_block":
			i := w.add(Function{Name: jsJoin(class, "static block"), Line: c.Line, Kind: "static_block", Node: c, Body: c.Child("body")})
			var d int
			w.js(c, &d, class)
			w.out[i].Complexity += d
			continue
		}
		if cur != nil {
			*cur += w.jsDecision(c)
		}
		w.js(c, cur, class)
	}
}

func jsKind(n *Node, cur *int) string {
	switch {
	case n.Kind == "method_definition":
		return "method"
	case cur != nil:
		return "closure"
	}
	return "function"
}

func (w *walker) jsDecision(c *Node) int {
	switch c.Kind {
	case "if_statement", "ternary_expression", "for_statement", "for_in_statement",
		"while_statement", "do_statement", "catch_clause", "switch_case",
		"assignment_pattern", "object_assignment_pattern", "?.":
		return 1
	case "optional_chain":
		// JavaScript's grammar makes "?." an optional_chain leaf;
		// TypeScript's wraps the "?." token, or leaves it bare in a call.
		if len(c.Children) == 0 {
			return 1
		}
	case "required_parameter", "optional_parameter":
		// A TypeScript parameter with a default value: ESLint's
		// AssignmentPattern.
		if c.Child("value") != nil {
			return 1
		}
	case "binary_expression":
		switch w.text(c.Child("operator")) {
		case "&&", "||", "??":
			return 1
		}
	case "augmented_assignment_expression":
		switch w.text(c.Child("operator")) {
		case "&&=", "||=", "??=":
			return 1
		}
	}
	return 0
}

// jsKey is the key node of a method, pair or field.
func jsKey(n *Node) *Node {
	if k := n.Child("name"); k != nil {
		return k
	}
	if k := n.Child("property"); k != nil {
		return k
	}
	return n.Child("key")
}

func jsJoin(class, name string) string {
	if class == "" {
		return name
	}
	return class + "." + name
}

// jsName names a function as it is referred to: its own name, its key, or
// the variable or property it is assigned to.
func (w *walker) jsName(fn *Node, class string) string {
	if fn.Kind == "method_definition" {
		return jsJoin(class, w.text(fn.Child("name")))
	}
	if name := fn.Child("name"); name != nil {
		return w.text(name)
	}
	p := w.jsParent(fn)
	if p == nil {
		return ""
	}
	switch p.Kind {
	case "variable_declarator":
		return w.text(p.Child("name"))
	case "pair":
		return w.text(p.Child("key"))
	case "assignment_expression":
		l := p.Child("left")
		if l != nil && l.Kind == "member_expression" {
			return w.text(l.Child("property"))
		}
		return w.text(l)
	case "field_definition", "public_field_definition":
		return jsJoin(class, w.text(jsKey(p)))
	}
	return ""
}

// jsParent finds the parent of n by a search from the root; only used for
// naming, once per function.
func (w *walker) jsParent(n *Node) *Node {
	var parent *Node
	var find func(p *Node) bool
	find = func(p *Node) bool {
		if n.Start < p.Start || n.End > p.End {
			return false
		}
		for _, c := range p.Children {
			if c == n {
				parent = p
				return true
			}
			if find(c) {
				return true
			}
		}
		return false
	}
	find(w.f.Root)
	return parent
}

// jsLine is the line ESLint reports: a method's or property's key, an
// arrow's "=>", else the function's start.
func (w *walker) jsLine(fn *Node) int {
	if p := w.jsParent(fn); p != nil {
		switch p.Kind {
		case "pair", "field_definition", "public_field_definition":
			return p.Line
		}
	}
	if fn.Kind == "arrow_function" {
		for _, c := range fn.Children {
			if c.Kind == "=>" {
				return c.Line
			}
		}
	}
	return fn.Line
}

// ---- Bash ----

// bash walks n, counting decisions into cur. judge counts a Bash function
// as a Go function is counted: +1 per if, elif, loop, case item other than
// "*" and per && or ||; no reference tool exists to agree with.
func (w *walker) bash(n *Node, cur *int) {
	for _, c := range n.Children {
		if c.Kind == "function_definition" {
			kind := "function"
			if cur != nil {
				kind = "closure"
			}
			i := w.add(Function{Name: w.text(c.Child("name")), Line: c.Line, Kind: kind, Node: c, Body: c.Child("body")})
			var d int
			w.bash(c, &d)
			w.out[i].Complexity += d
			continue
		}
		if cur != nil {
			switch c.Kind {
			case "if_statement", "elif_clause", "for_statement", "c_style_for_statement", "while_statement", "&&", "||":
				*cur++
			case "case_item":
				if v := c.Child("value"); v == nil || strings.TrimSpace(w.text(v)) != "*" {
					*cur++
				}
			}
		}
		w.bash(c, cur)
	}
}
