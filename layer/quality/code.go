package quality

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentjudge/judge/internal/code"
	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

// unit is a parsed piece of code with what the checks share.
type unit struct {
	*reporter
	f   *code.File
	fns []code.Function
	cfg config
	// lines holds the byte offset of each line's start, once needed.
	lines []int
	// byStart orders fns by start, parent[k] is the position in byStart
	// of the function that holds byStart[k], or -1; built once needed.
	byStart, parent []int
}

// checkCode parses one piece of code and runs every code check on it.
func checkCode(ctx context.Context, p *layer.Pass, pc piece, cfg config) error {
	f, err := code.Parse(ctx, pc.lang, []byte(pc.text))
	if err != nil {
		return err
	}
	u := &unit{reporter: newReporter(p, pc), f: f, fns: f.Functions(), cfg: cfg}
	defer u.flush()
	if e := f.Syntax; e != nil {
		col := e.Col
		if e.Line >= 1 && e.Line <= len(pc.indent) {
			col += pc.indent[e.Line-1]
		}
		u.p.Report(result.Issue{
			Severity: result.Error, Type: result.SyntaxError, Rule: "syntax.error",
			Location:   pc.prefix + fmt.Sprintf("line:%d:column:%d", e.Line+pc.lineOffset, col),
			Message:    fmt.Sprintf("The %s code does not parse: %s at line %d, column %d", pc.label, e.Msg, e.Line+pc.lineOffset, col),
			Suggestion: "Fix the syntax at that position (a missing bracket, colon or quote is the usual cause) so that the code runs at all",
		})
	}
	u.complexity()
	u.lengthAndDocs()
	u.naming()
	u.lineLength()
	u.security()
	u.performance()
	return nil
}

// enclosing returns the name of the innermost function holding byte offset
// off, or "". Functions nest or are disjoint, so the innermost one is the
// last to start at or before off that still holds it: found by a binary
// search and a walk up the parents, as deep as functions nest.
func (u *unit) enclosing(off int) string {
	if u.byStart == nil {
		u.byStart = make([]int, len(u.fns))
		for i := range u.fns {
			u.byStart[i] = i
		}
		sort.SliceStable(u.byStart, func(a, b int) bool { return u.fns[u.byStart[a]].Node.Start < u.fns[u.byStart[b]].Node.Start })
		u.parent = make([]int, len(u.byStart))
		var stack []int
		for k, i := range u.byStart {
			for len(stack) > 0 && u.fns[u.byStart[stack[len(stack)-1]]].Node.End <= u.fns[i].Node.Start {
				stack = stack[:len(stack)-1]
			}
			u.parent[k] = -1
			if len(stack) > 0 {
				u.parent[k] = stack[len(stack)-1]
			}
			stack = append(stack, k)
		}
	}
	k := sort.Search(len(u.byStart), func(k int) bool { return u.fns[u.byStart[k]].Node.Start > off }) - 1
	for k >= 0 {
		if n := u.fns[u.byStart[k]].Node; n.Start <= off && off < n.End {
			return u.fns[u.byStart[k]].Name
		}
		k = u.parent[k]
	}
	return ""
}

// at reports a finding at node n: its line and enclosing function.
func (u *unit) at(n *code.Node, sev result.Severity, typ result.Type, rule, msg, suggestion string) {
	u.report(sev, typ, rule, u.enclosing(n.Start), n.Line, msg, suggestion)
}

func (u *unit) complexity() {
	tool := map[code.Language]string{code.Python: "radon", code.Go: "gocyclo", code.JavaScript: "ESLint", code.TypeScript: "ESLint", code.Bash: "judge"}[u.f.Lang]
	for _, fn := range u.fns {
		if fn.Complexity <= u.cfg.maxComplexity {
			continue
		}
		u.report(result.Warning, result.ComplexityIssue, "complexity.cyclomatic", fn.Name, 0,
			fmt.Sprintf("Function '%s' has cyclomatic complexity of %d (recommended max: %d; counted as %s counts it)", fn.Name, fn.Complexity, u.cfg.maxComplexity, tool),
			fmt.Sprintf("Refactor '%s' into smaller helper functions, or replace branches with a lookup table or early returns", fn.Name))
	}
}

func (u *unit) lengthAndDocs() {
	for _, fn := range u.fns {
		if n := fn.Length(); n > u.cfg.maxFunction {
			u.report(result.Warning, result.ReadabilityIssue, "readability.function_length", fn.Name, 0,
				fmt.Sprintf("Function '%s' is %d lines long (recommended max: %d)", fn.Name, n, u.cfg.maxFunction),
				fmt.Sprintf("Split '%s' into functions that each do one thing", fn.Name))
		}
		if u.f.Lang == code.Python && u.public(fn) && !u.typed(fn) {
			u.report(result.Info, result.Optimization, "readability.type_hints", fn.Name, 0,
				fmt.Sprintf("Consider adding type hints to '%s' for better code clarity", fn.Name),
				fmt.Sprintf("Add type hints to the parameters and return value of '%s', like 'def f(items: list[int]) -> int:'", fn.Name))
		}
		if u.public(fn) && !u.documented(fn) {
			what := map[code.Language]string{code.Python: "a docstring", code.Go: "a doc comment starting with its name"}[u.f.Lang]
			if what == "" {
				what = "a /** JSDoc */ comment"
			}
			u.report(result.Warning, result.ReadabilityIssue, "readability.missing_docstring", fn.Name, 0,
				fmt.Sprintf("Public function '%s' has no docstring or doc comment", fn.Name),
				fmt.Sprintf("Add %s explaining parameters, return value, and example usage", what))
		}
	}
}

// public reports whether fn is part of the code's interface: not a closure
// or initializer, not private by the language's convention; in JavaScript
// and TypeScript, exported.
func (u *unit) public(fn code.Function) bool {
	if fn.Kind != "function" && fn.Kind != "method" {
		return false
	}
	base := fn.Name[strings.LastIndexAny(fn.Name, ".")+1:]
	switch u.f.Lang {
	case code.Python:
		return !strings.HasPrefix(base, "_")
	case code.Go:
		r, _ := utf8.DecodeRuneInString(base)
		return unicode.IsUpper(r)
	case code.JavaScript, code.TypeScript:
		return fn.Kind == "function" && strings.HasPrefix(strings.TrimSpace(string(u.f.Src[u.lineStart(fn.StartLine):fn.Node.Start])), "export")
	}
	return false
}

// lineStart is the byte offset of the 1-based line.
func (u *unit) lineStart(line int) int {
	if u.lines == nil {
		u.lines = []int{0}
		for i, b := range u.f.Src {
			if b == '\n' {
				u.lines = append(u.lines, i+1)
			}
		}
	}
	if line-1 >= len(u.lines) {
		return len(u.f.Src)
	}
	return u.lines[max(line-1, 0)]
}

// typed reports whether a Python function annotates its return value
// and every parameter but self and cls.
func (u *unit) typed(fn code.Function) bool {
	if fn.Node.Child("return_type") == nil {
		return false
	}
	params := fn.Node.Child("parameters")
	if params == nil {
		return true
	}
	for _, p := range params.Children {
		switch p.Kind {
		case "identifier":
			if t := u.f.Text(p); t != "self" && t != "cls" {
				return false
			}
		case "default_parameter", "list_splat_pattern", "dictionary_splat_pattern":
			return false
		}
	}
	return true
}

// documented reports whether fn has a docstring (Python) or a comment
// just above it (others).
func (u *unit) documented(fn code.Function) bool {
	if u.f.Lang == code.Python {
		if fn.Body == nil || len(fn.Body.Children) == 0 {
			return false
		}
		first := fn.Body.Children[0]
		return first.Kind == "expression_statement" && len(first.Children) > 0 && first.Children[0].Kind == "string"
	}
	lines := strings.Split(string(u.f.Src), "\n")
	i := fn.StartLine - 2
	for i >= 0 && strings.TrimSpace(lines[i]) == "" {
		i--
	}
	if i < 0 {
		return false
	}
	prev := strings.TrimSpace(lines[i])
	return strings.HasPrefix(prev, "//") || strings.HasSuffix(prev, "*/") || strings.HasPrefix(prev, "#")
}

var (
	snakeCase  = regexp.MustCompile(`^_*[a-z][a-z0-9_]*$|^__[a-z0-9_]+__$`)
	pascalCase = regexp.MustCompile(`^_*[A-Z][a-zA-Z0-9]*$`)
)

func (u *unit) naming() {
	for _, fn := range u.fns {
		if fn.Kind == "initializer" || fn.Kind == "static_block" || fn.Name == "<anonymous>" {
			continue
		}
		base := fn.Name[strings.LastIndexAny(fn.Name, ".")+1:]
		switch u.f.Lang {
		case code.Python:
			if !snakeCase.MatchString(base) && !pythonAPINames[base] && !strings.HasPrefix(base, "visit_") && !strings.HasPrefix(base, "depart_") {
				u.report(result.Warning, result.StyleIssue, "style.naming", fn.Name, 0,
					fmt.Sprintf("Function name '%s' is not snake_case as PEP 8 asks for Python functions", base),
					fmt.Sprintf("Rename to '%s' to follow Python naming conventions", toSnake(base)))
			}
		case code.JavaScript, code.TypeScript:
			if strings.Contains(base, "_") && !strings.HasPrefix(base, "_") && !pascalCase.MatchString(base) && strings.ToUpper(base) != base {
				u.report(result.Warning, result.StyleIssue, "style.naming", fn.Name, 0,
					fmt.Sprintf("Function name '%s' is not camelCase as JavaScript convention asks", base),
					fmt.Sprintf("Rename to '%s'", toCamel(base)))
			}
		case code.Go:
			if strings.Contains(strings.Trim(base, "_"), "_") && !strings.HasPrefix(base, "Test") && !strings.HasPrefix(base, "Benchmark") && !strings.HasPrefix(base, "Example") && !strings.HasPrefix(base, "Fuzz") {
				u.report(result.Warning, result.StyleIssue, "style.naming", fn.Name, 0,
					fmt.Sprintf("Function name '%s' uses underscores; Go names are MixedCaps", base),
					fmt.Sprintf("Rename to '%s'", toCamel(base)))
			}
		}
	}
	u.shortNames()
}

// pythonAPINames are method names that frameworks impose in camelCase
// (unittest, logging, threading); visit_* and depart_* methods name the
// node class they visit (ast.NodeVisitor, docutils).
var pythonAPINames = map[string]bool{
	"setUp": true, "tearDown": true, "setUpClass": true, "tearDownClass": true, "setUpModule": true,
	"tearDownModule": true, "asyncSetUp": true, "asyncTearDown": true, "addCleanup": true,
	"doCleanups": true, "shortDescription": true, "countTestCases": true, "defaultTestResult": true,
	"emit": true, "handleError": true, "getMessage": true, "setLevel": true, "setFormatter": true,
}

func toSnake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

func toCamel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// meaningless are names that say nothing about what they hold.
var meaningless = map[string]bool{
	"foo": true, "bar": true, "baz": true, "qux": true, "tmp": true, "temp": true, "thing": true, "stuff": true,
	"data2": true, "var1": true, "var2": true, "myvar": true, "asdf": true, "blah": true,
}

// shortNames reports one-letter and meaningless variable and parameter
// names, outside loops, comprehensions, lambdas and exception handlers.
func (u *unit) shortNames() {
	seen := map[string]bool{}
	check := func(n *code.Node, kind string) {
		name := u.f.Text(n)
		bad := meaningless[strings.ToLower(name)]
		if !bad && utf8.RuneCountInString(name) == 1 && name != "_" && u.f.Lang != code.Go {
			bad = true
		}
		fn := u.enclosing(n.Start)
		key := fn + "\x00" + name
		if !bad || seen[key] {
			return
		}
		seen[key] = true
		u.report(result.Warning, result.ReadabilityIssue, "readability.short_name", fn, n.Line,
			fmt.Sprintf("%s name '%s' is not descriptive", kind, name),
			fmt.Sprintf("Rename '%s' to a name that says what it holds, like 'user_count' or 'total_items'", name))
	}
	var walk func(n *code.Node, inLoop bool)
	walk = func(n *code.Node, inLoop bool) {
		switch n.Kind {
		case "lambda", "arrow_function", "for_in_clause", "except_clause", "catch_clause", "lambda_parameters":
			return
		case "for_statement", "for_in_statement", "range_clause":
			// The loop variable itself is fine; its body is checked.
			for _, c := range n.Children {
				if c.Field == "body" {
					walk(c, true)
				}
			}
			return
		}
		switch u.f.Lang {
		case code.Python:
			switch n.Kind {
			case "assignment", "augmented_assignment":
				if l := n.Child("left"); l != nil && l.Kind == "identifier" && !isConstant(u.f.Text(l)) {
					check(l, "Variable")
				}
			case "parameters":
				for _, c := range n.Children {
					id := c
					if c.Kind == "default_parameter" || c.Kind == "typed_parameter" || c.Kind == "typed_default_parameter" {
						id = c.Child("name")
						if id == nil && len(c.Children) > 0 {
							id = c.Children[0]
						}
					}
					if id != nil && id.Kind == "identifier" && u.f.Text(id) != "self" && u.f.Text(id) != "cls" {
						check(id, "Parameter")
					}
				}
			}
		case code.JavaScript, code.TypeScript:
			switch n.Kind {
			case "variable_declarator":
				if l := n.Child("name"); l != nil && l.Kind == "identifier" {
					check(l, "Variable")
				}
			case "formal_parameters":
				for _, c := range n.Children {
					id := c
					if c.Kind == "required_parameter" || c.Kind == "optional_parameter" || c.Kind == "assignment_pattern" {
						id = c.Child("pattern")
						if id == nil {
							id = c.Child("left")
						}
					}
					if id != nil && id.Kind == "identifier" {
						check(id, "Parameter")
					}
				}
			}
		case code.Go:
			if n.Kind == "short_var_declaration" || n.Kind == "var_spec" {
				l := n.Child("left")
				if l == nil {
					l = n.Child("name")
				}
				if l != nil {
					l.Walk(func(c *code.Node) bool {
						if c.Kind == "identifier" {
							check(c, "Variable")
						}
						return true
					})
				}
			}
		}
		for _, c := range n.Children {
			walk(c, inLoop)
		}
	}
	walk(u.f.Root, false)
}

func isConstant(name string) bool { return strings.ToUpper(name) == name && len(name) > 1 }

func (u *unit) lineLength() {
	limit := u.cfg.lineLimit(u.f.Lang)
	for i, line := range strings.Split(string(u.f.Src), "\n") {
		n := utf8.RuneCountInString(strings.TrimRight(line, "\r"))
		if n <= limit {
			continue
		}
		guide := map[code.Language]string{code.Python: "PEP 8 as black sets it"}[u.f.Lang]
		if guide == "" {
			guide = "the usual limit"
		}
		u.report(result.Info, result.StyleIssue, "style.line_length", "", i+1,
			fmt.Sprintf("Line length of %d exceeds %d characters (%s)", n, limit, guide),
			"Break line into multiple lines, or name an intermediate value")
	}
}
