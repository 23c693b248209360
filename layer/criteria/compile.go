package criteria

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/ext"

	"github.com/agentjudge/judge/layer"
)

// Limits of rule and message expressions.
const (
	// CostLimit is the most one evaluation of a rule or message expression
	// may cost, in CEL cost units: about one unit per operation, list
	// element or comprehension step, and one per ten bytes of every
	// string a call builds. A million takes some tens of milliseconds and
	// lets a rule build about 10 MB. The same limit as Kubernetes
	// validation rules.
	CostLimit = 1_000_000
	// MaxExpressionLen is the longest rule or message expression accepted,
	// in Unicode code points.
	MaxExpressionLen = 10_000
	// interruptCheckFrequency is how many comprehension steps run between
	// two looks at the deadline.
	interruptCheckFrequency = 100
	// maxRangeSize bounds lists.range(n).
	maxRangeSize = 100_000
)

// exprKind is what an expression must yield: a rule a bool, a message
// expression a string.
type exprKind string

const (
	ruleExpr    exprKind = "rule"
	messageExpr exprKind = "messageExpression"
)

// env is the CEL environment of every rule; a cel.Env is safe for
// concurrent use.
var env = sync.OnceValues(func() (*cel.Env, error) {
	e, err := cel.NewEnv(
		cel.Variable("output", cel.DynType),
		cel.Variable("text", cel.StringType),
		cel.Variable("context", cel.DynType),
		cel.OptionalTypes(),
		cel.CrossTypeNumericComparisons(true),
		cel.ExtendedValidations(),
		cel.ParserExpressionSizeLimit(MaxExpressionLen),
		ext.Strings(ext.StringsValidateFormatCalls(true)),
		ext.Lists(ext.ListsMaxRangeSize(maxRangeSize)),
		ext.Sets(),
		ext.Math(),
		// Version 0 has base64 only: json.encode, json.parse,
		// yaml.encode and yaml.parse build values unbounded by their
		// input (YAML aliases, a list holding one long string many
		// times) before the cost tracker sees them.
		ext.Encoders(ext.EncodersVersion(0)),
		ext.Bindings(),
		ext.TwoVarComprehensions(),
		ext.Regex(),
	)
	if err != nil {
		return nil, err
	}
	// cel-go v0.33.2 builds the checker's symbol catalog lazily, on the
	// first undeclared reference, and races with concurrent checks that
	// copy it. Building it once here, before the Env is shared, avoids
	// the race.
	e.Compile("undeclared_reference_to_build_the_catalog")
	return e, nil
})

// program is a compiled expression; it is immutable and safe for concurrent
// use.
type program struct {
	prg cel.Program
	// usesContext is true when the expression reads the context variable.
	usesContext bool
	// refs are the variables the expression reads, sorted.
	refs []string
	// textLen is the length of the expression's text (see Size).
	textLen int
}

// compileError is an expression that does not compile, kept in the cache
// without the criterion's position so that it serves every request.
type compileError struct {
	text string
	errs []*cel.Error
}

func (e *compileError) Error() string {
	return e.render("<input>")
}

// render writes the errors as cel-go does, with description as the source
// name of all but the first error, whose position is in the InputError's
// Location: "msg\n | rule\n | ...^".
func (e *compileError) render(description string) string {
	src := common.NewStringSource(e.text, description)
	var sb strings.Builder
	for i, ce := range e.errs {
		c := *ce
		if c.Location == nil {
			c.Location = common.NoLocation
		}
		s := c.ToDisplayString(src)
		if i == 0 {
			s = strings.TrimPrefix(s, fmt.Sprintf("ERROR: %s:%d:%d: ", description, c.Location.Line(), c.Location.Column()+1))
		} else {
			sb.WriteString("\n")
		}
		sb.WriteString(s)
	}
	return sb.String()
}

// position returns the 1-based line and column of a CEL error, 1:1 when it
// has none.
func position(ce *cel.Error) (line, col int) {
	if ce.Location == nil || ce.Location.Line() < 1 || ce.Location.Column() < 0 {
		return 1, 1
	}
	return ce.Location.Line(), ce.Location.Column() + 1
}

// inputError places a compile error at criterion i.
func (e *compileError) inputError(i int, kind exprKind) *layer.InputError {
	field := fmt.Sprintf("acceptance_criteria[%d].%s", i, kind)
	line, col := 1, 1
	if len(e.errs) > 0 {
		line, col = position(e.errs[0])
	}
	return &layer.InputError{
		Layer:    "criteria",
		Location: fmt.Sprintf("%s:%d:%d", field, line, col),
		Msg:      e.render(field),
		Err:      e,
	}
}

// cacheKey identifies a compiled expression: its kind, the cost limit its
// program enforces and a hash of its text.
func cacheKey(kind exprKind, costLimit uint64, text string) string {
	sum := sha256.Sum256([]byte(text))
	return fmt.Sprintf("criteria/%s/%d/%s", kind, costLimit, hex.EncodeToString(sum[:]))
}

// load returns the compiled program of text, compiling it on a cache miss.
// A text that does not compile yields a *compileError, cached as well.
func load(c *layer.Cache, kind exprKind, costLimit uint64, text string) (*program, error) {
	v, err := c.Load(cacheKey(kind, costLimit, text), func() (any, error) { return compile(kind, costLimit, text) })
	if err != nil {
		return nil, err
	}
	return v.(*program), nil
}

// compile type-checks text, checks what it yields and what it costs, and
// plans its program.
func compile(kind exprKind, costLimit uint64, text string) (*program, error) {
	e, err := env()
	if err != nil {
		return nil, fmt.Errorf("criteria: CEL environment: %w", err)
	}
	return compileIn(e, kind, costLimit, text)
}

// compileIn is compile in the environment e, which is env or an extension
// of it.
func compileIn(e *cel.Env, kind exprKind, costLimit uint64, text string) (*program, error) {
	ast, iss := e.Compile(text)
	if iss.Err() != nil {
		return nil, &compileError{text: text, errs: iss.Errors()}
	}
	// Report problems of the whole expression at its root, as cel-go's
	// own AST validators do.
	root := ast.NativeRep().Expr().ID()
	fail := func(format string, args ...any) error {
		errs := cel.NewIssuesWithSourceInfo(common.NewErrors(ast.Source()), ast.NativeRep().SourceInfo())
		errs.ReportErrorAtID(root, format, args...)
		return &compileError{text: text, errs: errs.Errors()}
	}
	want := cel.BoolType
	if kind == messageExpr {
		want = cel.StringType
	}
	if out := ast.OutputType(); out.Kind() != want.Kind() && out.Kind() != types.DynKind {
		return nil, fail("%s must yield a %s, not %s", kind, cel.FormatCELType(want), cel.FormatCELType(out))
	}
	// With output, text and context of unknown size the estimate has no
	// useful maximum; its minimum is what the expression costs on any
	// input, so an expression whose minimum exceeds the limit can never
	// finish.
	if est, err := e.EstimateCost(ast, nil); err == nil && est.Min > costLimit {
		return nil, fail("%s costs at least %d to evaluate on any output, more than the limit of %d", kind, est.Min, costLimit)
	}
	impls, err := guardedImpls()
	if err != nil {
		return nil, fmt.Errorf("criteria: CEL environment: %w", err)
	}
	prg, err := e.Program(ast,
		cel.CostLimit(costLimit),
		cel.CostTracking(buildCost{}),
		cel.CustomDecoratorV2(guardCalls(costLimit, impls)),
		cel.InterruptCheckFrequency(interruptCheckFrequency),
		cel.EvalOptions(cel.OptOptimize),
	)
	if err != nil {
		// Planning fails for what type-checking let through, such as
		// a constant regular expression that does not compile.
		return nil, fail("%s", err.Error())
	}
	pr := &program{prg: prg, textLen: len(text)}
	for _, r := range ast.NativeRep().ReferenceMap() {
		if r.Name == "context" {
			pr.usesContext = true
		}
		if r.Name != "" && r.Value == nil && !slices.Contains(pr.refs, r.Name) {
			pr.refs = append(pr.refs, r.Name)
		}
	}
	slices.Sort(pr.refs)
	return pr, nil
}
