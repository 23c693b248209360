package criteria

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
)

// Env compiles boolean CEL expressions over variables of the caller's
// choosing (rules of tool contracts read "args"), with the functions,
// limits and guards of criteria rules: the same cost limit, the same
// guards against calls that build huge values, the same deadline checks.
// An Env is safe for concurrent use.
type Env struct {
	env  *cel.Env
	vars []string
}

// NewEnv returns an Env declaring vars, each of any type. It is costly (a
// few milliseconds): make one and keep it.
func NewEnv(vars ...string) (*Env, error) {
	base, err := env()
	if err != nil {
		return nil, fmt.Errorf("criteria: CEL environment: %w", err)
	}
	opts := make([]cel.EnvOption, 0, len(vars))
	for _, v := range vars {
		opts = append(opts, cel.Variable(v, cel.DynType))
	}
	e, err := base.Extend(opts...)
	if err != nil {
		return nil, fmt.Errorf("criteria: CEL environment: %w", err)
	}
	// As in env: build the checker's catalog before the Env is shared.
	e.Compile("undeclared_reference_to_build_the_catalog")
	return &Env{env: e, vars: slices.Clone(vars)}, nil
}

// ExprError is an expression that does not compile. Line and Col are
// 1-based and locate the first error in the expression; Msg renders every
// error as cel-go does, with a caret under the position.
type ExprError struct {
	Line, Col int
	Msg       string
}

func (e *ExprError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// Expr is a compiled boolean expression; it is immutable and safe for
// concurrent use.
type Expr struct {
	prg *program
}

// Compile type-checks text as an expression yielding a bool that reads
// only the Env's variables, and plans its program under [CostLimit]. A text
// that does not compile, yields another type or reads another variable
// gives an *ExprError.
func (e *Env) Compile(text string) (*Expr, error) {
	if strings.TrimSpace(text) == "" {
		return nil, &ExprError{Line: 1, Col: 1, Msg: "the expression is empty"}
	}
	p, err := compileIn(e.env, ruleExpr, CostLimit, text)
	if err != nil {
		var ce *compileError
		if errors.As(err, &ce) {
			line, col := 1, 1
			if len(ce.errs) > 0 {
				line, col = position(ce.errs[0])
			}
			return nil, &ExprError{Line: line, Col: col, Msg: ce.render("<expression>")}
		}
		return nil, err
	}
	// The checker rejects names no environment declares; the variables
	// of criteria rules are declared in the base environment, so a
	// reference to one that this Env does not declare is refused here.
	for _, name := range p.refs {
		if isRuleVar(name) && !slices.Contains(e.vars, name) {
			return nil, &ExprError{Line: 1, Col: 1, Msg: fmt.Sprintf("undeclared reference to '%s' (the expression may read %s)",
				name, strings.Join(e.vars, ", "))}
		}
	}
	return &Expr{prg: p}, nil
}

// StoppedError is an evaluation stopped before it finished: by the cost
// limit, a guard or the context. Its outcome is undecided, not false.
type StoppedError struct {
	Reason string // "cost limit of 1000000 exceeded"
}

func (e *StoppedError) Error() string { return "evaluation stopped: " + e.Reason }

// MissingKeyError is an evaluation that read a key the values do not
// have ("args.limit" of a call without limit). Key is the key as CEL
// names it; Err is the evaluation's error, whose text is cel-go's.
type MissingKeyError struct {
	Key string
	Err error
}

func (e *MissingKeyError) Error() string { return e.Err.Error() }

func (e *MissingKeyError) Unwrap() error { return e.Err }

// missingKey is err as a *MissingKeyError when cel-go says a key was
// missing. cel-go exports no type for it, so its text is read here, the
// one place that knows it.
func missingKey(err error) (*MissingKeyError, bool) {
	if mk := (*MissingKeyError)(nil); errors.As(err, &mk) {
		return mk, true
	}
	if key, ok := strings.CutPrefix(err.Error(), "no such key: "); ok {
		return &MissingKeyError{Key: key, Err: err}, true
	}
	return nil, false
}

// Eval evaluates the expression with vars (decoded JSON values; numbers as
// json.Number or float64 are read as CEL int where integral). It returns
// the bool the expression yields and a nil error; a *StoppedError when
// the evaluation was stopped; a *MissingKeyError when it read a key the
// values do not have; or another error when the expression failed on these
// values otherwise or yielded something other than a bool.
func (x *Expr) Eval(ctx context.Context, vars map[string]any) (bool, error) {
	act := make(map[string]any, len(vars))
	for k, v := range vars {
		act[k] = celValue(v)
	}
	return x.EvalValues(ctx, act)
}

// Value converts a decoded JSON value as Eval converts its variables
// (json.Number and integral floats to int64, objects and arrays copied).
// A caller evaluating many expressions over the same large values
// converts them once with Value and evaluates with EvalValues.
func Value(v any) any { return celValue(v) }

// EvalValues is Eval over variables already converted by Value: they are
// read as they are, so a json.Number left in them is not a number.
func (x *Expr) EvalValues(ctx context.Context, vars map[string]any) (bool, error) {
	val, _, err := x.prg.prg.ContextEval(ctx, vars)
	if err != nil {
		if why, ok := (config{costLimit: CostLimit}).stopped(ctx, err); ok {
			return false, &StoppedError{Reason: why}
		}
		if mk, ok := missingKey(err); ok {
			return false, mk
		}
		return false, err
	}
	b, ok := val.(types.Bool)
	if !ok {
		return false, fmt.Errorf("the expression yielded %s, not a bool", display(val))
	}
	return bool(b), nil
}

// isRuleVar reports whether name is a variable env declares for criteria
// rules.
func isRuleVar(name string) bool {
	return name == "output" || name == "text" || name == "context"
}
