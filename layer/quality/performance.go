package quality

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/agentjudge/judge/internal/code"
	"github.com/agentjudge/judge/result"
)

// loopKinds are the loop statements of the languages.
var loopKinds = map[string]bool{
	"for_statement": true, "while_statement": true, "for_in_statement": true, "do_statement": true,
	"c_style_for_statement": true, "list_comprehension": true, "set_comprehension": true,
	"dictionary_comprehension": true, "generator_expression": true,
}

// jsLengthBound matches a C-style loop condition bounded by a collection's
// length: "i < items.length", "i < len(items)".
var jsLengthBound = regexp.MustCompile(`<=?\s*(?:len\(\s*([\w.]+)\s*\)|([\w.]+)\.length)\b`)

// iterated returns the text of the collection a loop walks over, or "".
func (u *unit) iterated(loop *code.Node) string {
	switch loop.Kind {
	case "for_statement":
		if r := loop.Child("right"); r != nil && u.f.Lang == code.Python {
			return u.f.Text(r)
		}
		for _, c := range loop.Children {
			if c.Kind == "range_clause" {
				if r := c.Child("right"); r != nil {
					return u.f.Text(r)
				}
			}
			if c.Kind == "for_clause" || c.Field == "condition" {
				if m := jsLengthBound.FindStringSubmatch(u.f.Text(c)); m != nil {
					return m[1] + m[2]
				}
			}
		}
	case "for_in_statement":
		if r := loop.Child("right"); r != nil {
			return u.f.Text(r)
		}
	}
	return ""
}

func (u *unit) performance() {
	u.nestedLoops(u.f.Root, nil)
	u.loopBodies()
}

// nestedLoops reports a loop over a collection nested in a loop over the
// same collection.
func (u *unit) nestedLoops(n *code.Node, outer []string) {
	for _, c := range n.Children {
		next := outer
		if loopKinds[c.Kind] {
			if it := u.iterated(c); it != "" {
				for _, o := range outer {
					if o == it {
						u.at(c, result.Warning, result.PerformanceIssue, "performance.nested_loop",
							fmt.Sprintf("Nested loops over '%s' result in O(n²) complexity", it),
							"Use a set-based approach for O(n) complexity: index the items once in a set or map and look them up in one loop")
						break
					}
				}
				next = append(append([]string(nil), outer...), it)
			}
		}
		if c.Kind == "function_definition" || c.Kind == "function_declaration" || c.Kind == "arrow_function" || c.Kind == "method_definition" || c.Kind == "func_literal" {
			next = nil
		}
		u.nestedLoops(c, next)
	}
}

// loopBodies reports, inside loops, string concatenation into a variable
// and membership tests on lists.
func (u *unit) loopBodies() {
	strs, lists := u.bindings()
	seen := map[string]bool{}
	var walk func(n *code.Node, inLoop bool)
	walk = func(n *code.Node, inLoop bool) {
		for _, c := range n.Children {
			in := inLoop || loopKinds[c.Kind]
			if inLoop {
				u.concat(c, strs, seen)
			}
			if in {
				u.membership(c, lists, seen)
			}
			walk(c, in)
		}
	}
	walk(u.f.Root, false)
}

// scoped keys a variable name by the function that holds node n, so that
// a name bound in one function says nothing about the same name in
// another.
func (u *unit) scoped(n *code.Node, name string) string {
	return u.enclosing(n.Start) + "\x00" + name
}

// bindings finds the variables assigned a string literal and those
// assigned a list, keyed by scoped.
func (u *unit) bindings() (strs, lists map[string]bool) {
	strs, lists = map[string]bool{}, map[string]bool{}
	u.f.Root.Walk(func(n *code.Node) bool {
		var name, value *code.Node
		switch n.Kind {
		case "assignment", "variable_declarator", "short_var_declaration", "var_spec":
			name, value = first(n, "left", "name"), first(n, "right", "value")
		}
		if name == nil || value == nil {
			return true
		}
		if value.Kind == "expression_list" && len(value.Children) == 1 {
			value = value.Children[0]
		}
		key := u.scoped(name, u.f.Text(name))
		switch {
		case stringLit(u, value) != nil:
			strs[key] = true
		case value.Kind == "list" || value.Kind == "array" || value.Kind == "list_comprehension" ||
			value.Kind == "call" && u.f.Text(value.Child("function")) == "list":
			lists[key] = true
		}
		return true
	})
	if u.f.Lang == code.Go {
		// var s string
		u.f.Root.Walk(func(n *code.Node) bool {
			if n.Kind == "var_spec" && n.Child("value") == nil {
				if t := n.Child("type"); t != nil && u.f.Text(t) == "string" {
					if name := n.Child("name"); name != nil {
						strs[u.scoped(name, u.f.Text(name))] = true
					}
				}
			}
			return true
		})
	}
	return strs, lists
}

// concat reports s += … (or s = s + …) on a string variable.
func (u *unit) concat(n *code.Node, strs, seen map[string]bool) {
	var target string
	switch n.Kind {
	case "augmented_assignment", "augmented_assignment_expression", "assignment_statement":
		if op := u.f.Text(n.Child("operator")); op == "+=" {
			target = u.f.Text(n.Child("left"))
		}
	case "assignment", "assignment_expression":
		l, r := n.Child("left"), n.Child("right")
		if l != nil && r != nil && (r.Kind == "binary_operator" || r.Kind == "binary_expression") && u.f.Text(r.Child("operator")) == "+" {
			if rl := r.Child("left"); rl != nil && u.f.Text(rl) == u.f.Text(l) {
				target = u.f.Text(l)
			}
		}
	}
	if target == "" || !strs[u.scoped(n, target)] || seen["concat:"+target] {
		return
	}
	seen["concat:"+target] = true
	join := map[code.Language]string{
		code.Python: "collect the parts in a list and ''.join(parts) once after the loop",
		code.Go:     "write the parts to a strings.Builder and call String() once",
	}[u.f.Lang]
	if join == "" {
		join = "push the parts to an array and join('') once after the loop"
	}
	u.at(n, result.Warning, result.PerformanceIssue, "performance.string_concat",
		fmt.Sprintf("String '%s' is built by repeated concatenation in a loop, which copies it each time (O(n²))", target),
		"Instead, "+join)
}

// membership reports x in LIST (Python), LIST.includes/indexOf (JS),
// slices.Contains(LIST, …) (Go) on a list variable, inside a loop.
func (u *unit) membership(n *code.Node, lists, seen map[string]bool) {
	var list string
	switch n.Kind {
	case "comparison_operator":
		if n.Has("in") || n.Has("not in") {
			if len(n.Children) >= 3 {
				r := n.Children[len(n.Children)-1]
				if lists[u.scoped(r, u.f.Text(r))] {
					list = u.f.Text(r)
				}
			}
		}
	case "call_expression":
		fn := n.Child("function")
		if fn == nil {
			return
		}
		t := u.f.Text(fn)
		switch {
		case strings.HasSuffix(t, ".includes") || strings.HasSuffix(t, ".indexOf"):
			obj := strings.TrimSuffix(strings.TrimSuffix(t, ".includes"), ".indexOf")
			if lists[u.scoped(n, obj)] {
				list = obj
			}
		case t == "slices.Contains" || t == "slices.Index":
			if args := n.Child("arguments"); args != nil {
				for _, a := range args.Children {
					if a.Named {
						list = u.f.Text(a)
						break
					}
				}
			}
		}
	}
	if list == "" || seen["member:"+list] {
		return
	}
	seen["member:"+list] = true
	set := map[code.Language]string{code.Python: "set(" + list + ")", code.Go: "a map[T]struct{}"}[u.f.Lang]
	if set == "" {
		set = "new Set(" + list + ")"
	}
	u.at(n, result.Warning, result.PerformanceIssue, "performance.list_membership",
		fmt.Sprintf("Membership test on list '%s' inside a loop scans the list each time (O(n·m))", list),
		fmt.Sprintf("Build %s once before the loop and test membership in it (O(1) per lookup)", set))
}
