package criteria

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
	"cel.dev/cel-go/interpreter"

	"github.com/agentjudge/judge/layer"
	"github.com/agentjudge/judge/result"
)

//go:embed doc.go
var docGo string

// Layer checks the output against the request's acceptance criteria; see
// the package documentation. It applies when the request has criteria.
var Layer = newLayer(config{costLimit: CostLimit})

// config is what a Layer value is made of. Tests build layers with other
// configs; the package's Layer uses the defaults.
type config struct {
	// costLimit bounds one evaluation of an expression, in CEL cost units.
	costLimit uint64
	// judge decides plain-language criteria; nil when no model is
	// configured, and then they are reported as not checked.
	judge judgeFunc
}

// judgeFunc decides the plain-language criteria crits of in, all at once,
// and returns one verdict per criterion, in order, with the prompt and
// completion tokens it spent. It is where a model plugs in.
type judgeFunc func(ctx context.Context, in *layer.Input, crits []plainCriterion) ([]verdict, [2]int64)

// plainCriterion is a criterion without a rule and its index in the
// request.
type plainCriterion struct {
	index int
	layer.Criterion
}

// verdict is a judge's decision on one criterion.
type verdict struct {
	met       bool
	certainty float64 // in [0, 1]
	reason    string  // why, for the message of a failure; may be empty
	model     string  // the model that answered, for metadata.model
	// err, when not nil, says why the criterion was not decided.
	err error
	// cannotTell is set with err when the model answered that the output
	// does not show whether the criterion holds: an answer, not a failure.
	cannotTell bool
}

func newLayer(cfg config) *layer.Layer {
	return &layer.Layer{
		Name:      "criteria",
		Doc:       layer.MustExtractDoc(docGo, "criteria"),
		Applies:   func(in *layer.Input) bool { return len(in.Criteria) > 0 },
		Run:       cfg.run,
		UsesModel: true,
		AppliesOn: layer.PartCriteria,
	}
}

// compiled are the programs of one criterion; nil where it has no such
// expression.
type compiled struct {
	rule, message *program
}

func (cfg config) run(ctx context.Context, p *layer.Pass) error {
	if m := judgeOf(p.Model); m != nil && cfg.judge == nil {
		cfg.judge = modelJudge(m)
	}
	crit := p.Input.Criteria

	// Compile everything first: a malformed criterion rejects the request
	// before anything is reported.
	progs := make([]compiled, len(crit))
	for i, c := range crit {
		if c.Name() == "" {
			return &layer.InputError{Layer: "criteria", Location: location(i),
				Msg: "the criterion has no description, id or rule"}
		}
		var err error
		if c.Rule != "" {
			if progs[i].rule, err = load(p.Cache, ruleExpr, cfg.costLimit, c.Rule); err != nil {
				return placeError(err, i, ruleExpr)
			}
		}
		if c.MessageExpression != "" {
			if progs[i].message, err = load(p.Cache, messageExpr, cfg.costLimit, c.MessageExpression); err != nil {
				return placeError(err, i, messageExpr)
			}
		}
	}

	for i, c := range crit {
		if c.Rule != "" {
			continue
		}
		if terms := vagueWords(c.Name()); len(terms) > 0 {
			msg, sug := ambiguity(c.Name(), terms)
			p.Report(result.Issue{Severity: result.Warning, Type: result.CriteriaAmbiguous,
				Location: location(i), Message: msg, Suggestion: sug, Rule: "criteria.ambiguous"})
		}
	}

	// Plain-language criteria go to the model together, before any is
	// reported.
	var verdicts map[int]verdict
	if cfg.judge != nil {
		var plain []plainCriterion
		for i, c := range crit {
			if progs[i].rule == nil {
				plain = append(plain, plainCriterion{i, c})
			}
		}
		if len(plain) > 0 {
			vs, tokens := cfg.judge(ctx, p.Input, plain)
			p.UsedTokens(tokens[0], tokens[1])
			verdicts = make(map[int]verdict, len(plain))
			for j, pc := range plain {
				if j < len(vs) {
					verdicts[pc.index] = vs[j]
				} else {
					verdicts[pc.index] = verdict{err: errors.New("the judge gave no verdict")}
				}
			}
		}
	}

	// Convert the output once, and only when some expression reads it.
	var vars map[string]any
	if slices.ContainsFunc(progs, func(c compiled) bool { return c.rule != nil || c.message != nil }) {
		vars = map[string]any{"output": celValue(p.Input.Output), "text": p.Input.Text, "context": celValue(p.Input.Context)}
	}
	var t tally
	for i, c := range crit {
		var o outcome
		if progs[i].rule != nil {
			o = cfg.checkRule(ctx, p, i, c, progs[i], vars)
		} else {
			o = cfg.checkPlain(ctx, p, i, c, progs[i], vars, verdicts[i])
		}
		t.add(c.Name(), o)
	}
	t.report(p)
	return nil
}

// placeError turns a compile error into the InputError of criterion i;
// other errors (the environment failed) pass through.
func placeError(err error, i int, kind exprKind) error {
	var ce *compileError
	if errors.As(err, &ce) {
		return ce.inputError(i, kind)
	}
	return err
}

// RuleModelFailed is the rule of the warning given for a plain-language
// criterion that the configured model failed to judge.
const RuleModelFailed = "criteria.model_failed"

func location(i int) string { return fmt.Sprintf("acceptance_criteria[%d]", i) }

// checkRule evaluates the rule of criterion i and reports the outcome.
func (cfg config) checkRule(ctx context.Context, p *layer.Pass, i int, c layer.Criterion, pr compiled, vars map[string]any) outcome {
	val, _, err := pr.rule.prg.ContextEval(ctx, vars)
	if err != nil {
		if why, ok := cfg.stopped(ctx, err); ok {
			p.Undecided(location(i),
				fmt.Sprintf("Rule of criterion '%s' was stopped: %s", c.Name(), why),
				stoppedSuggestion(why))
			return undecided
		}
		p.Decided(1)
		msg := fmt.Sprintf("%s (rule could not be evaluated on this output: %s)", cfg.failureMessage(ctx, c, pr, vars), err)
		cfg.reportFailure(p, i, c, msg, evalSuggestion(c, pr.rule, err))
		return failed
	}
	p.Decided(1)
	b, ok := val.(types.Bool)
	if !ok {
		msg := fmt.Sprintf("%s (rule yielded %s, not a bool)", cfg.failureMessage(ctx, c, pr, vars), display(val))
		cfg.reportFailure(p, i, c, msg, fmt.Sprintf("Change the rule of '%s' so that it yields true or false (rule: %s)", c.Name(), c.Rule))
		return failed
	}
	if b {
		return passed
	}
	cfg.reportFailure(p, i, c, cfg.failureMessage(ctx, c, pr, vars), holdSuggestion(c))
	return failed
}

// checkPlain reports the judge's verdict v on criterion i, which has no
// rule, or that it could not be decided.
func (cfg config) checkPlain(ctx context.Context, p *layer.Pass, i int, c layer.Criterion, pr compiled, vars map[string]any, v verdict) outcome {
	if cfg.judge == nil {
		p.Undecided(location(i),
			fmt.Sprintf("Criterion '%s' is plain language and was not checked: no model is configured to judge it", c.Name()),
			"Configure a model (JUDGE_LLM_BASE_URL and JUDGE_LLM_MODEL; see docs/llm.md), or give the criterion a CEL rule that states it")
		return undecided
	}
	if v.model != "" {
		p.UsedModel(v.model)
	}
	if v.err != nil && v.cannotTell {
		p.Undecided(location(i),
			fmt.Sprintf("Criterion '%s' could not be judged by the model: %v", c.Name(), v.err),
			"Retry the validation, or give the criterion a CEL rule so no model is needed")
		return undecided
	}
	if v.err != nil {
		// A model that was configured and did not answer (unreachable,
		// refusing, too slow) is a warning, not a note: the criterion the
		// caller expected to be judged was not.
		p.Report(result.Issue{Severity: result.Warning, Type: result.NotChecked, Location: location(i), Rule: RuleModelFailed,
			Message:    fmt.Sprintf("Criterion '%s' could not be judged by the configured model: %v", c.Name(), v.err),
			Suggestion: "Check that the model's server is running and reachable (JUDGE_LLM_BASE_URL), then retry; or give the criterion a CEL rule so no model is needed"})
		p.Decided(0)
		return undecided
	}
	p.Decided(v.certainty)
	if v.met {
		return passed
	}
	msg := cfg.failureMessage(ctx, c, pr, vars)
	if v.reason != "" {
		msg += " (" + v.reason + ")"
	}
	p.Report(result.Issue{Severity: result.Error, Type: result.CriteriaNotMet, Location: location(i),
		Message: msg, Suggestion: holdSuggestion(c), Rule: "criteria.judge"})
	return failed
}

func (cfg config) reportFailure(p *layer.Pass, i int, c layer.Criterion, msg, suggestion string) {
	p.Report(result.Issue{Severity: result.Error, Type: result.CriteriaNotMet, Location: location(i),
		Message: msg, Suggestion: suggestion, Rule: "criteria.rule"})
}

// failureMessage is the message of a criterion that is not met: its
// Message, else its MessageExpression evaluated to a non-blank string,
// else "Acceptance criterion not met: <name>".
func (cfg config) failureMessage(ctx context.Context, c layer.Criterion, pr compiled, vars map[string]any) string {
	if strings.TrimSpace(c.Message) != "" {
		return c.Message
	}
	if pr.message != nil {
		val, _, err := pr.message.prg.ContextEval(ctx, vars)
		if s, ok := val.(types.String); err == nil && ok && strings.TrimSpace(string(s)) != "" {
			return string(s)
		}
	}
	return "Acceptance criterion not met: " + c.Name()
}

// stopped reports whether err means the evaluation was stopped before it
// finished, by the cost limit, a guard or the deadline, and says which.
func (cfg config) stopped(ctx context.Context, err error) (string, bool) {
	var ec interpreter.EvalCancelledError
	switch {
	case errors.As(err, &ec) && ec.Cause == callRefused:
		return ec.Message, true
	case errors.As(err, &ec) && ec.Cause == interpreter.CostLimitExceeded:
		return fmt.Sprintf("cost limit of %d exceeded", cfg.costLimit), true
	case errors.As(err, &ec) && ec.Cause == interpreter.MemoryLimitExceeded:
		return "memory limit exceeded", true
	case errors.Is(err, context.Canceled):
		return "the validation was cancelled before it finished", true
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ec), ctx.Err() != nil:
		return "the deadline passed before it finished", true
	case strings.HasPrefix(err.Error(), "internal error"):
		return err.Error(), true
	}
	return "", false
}

func stoppedSuggestion(why string) string {
	switch {
	case strings.HasPrefix(why, "the "):
		return "Allow the validation more time, or simplify the rule"
	case strings.HasPrefix(why, "it would "):
		return "Simplify the rule so that it builds and compares smaller values, e.g. test parts of the output rather than transforming all of it"
	}
	return "Simplify the rule so that it does less work, e.g. avoid nesting comprehensions over the output's lists"
}

func holdSuggestion(c layer.Criterion) string {
	if c.Rule == "" {
		return fmt.Sprintf("Change the output so that it meets the criterion '%s'", c.Name())
	}
	if c.Name() == c.Rule {
		return fmt.Sprintf("Change the output so that the rule %s holds", c.Rule)
	}
	return fmt.Sprintf("Change the output so that '%s' holds (rule: %s)", c.Name(), c.Rule)
}

// evalSuggestion is the suggestion for a rule that failed with err: add a
// missing field, else make the rule hold.
func evalSuggestion(c layer.Criterion, pr *program, err error) string {
	if mk, ok := missingKey(err); ok {
		where := "the output"
		if pr.usesContext {
			where = "the output (or the context)"
		}
		return fmt.Sprintf("Add the field '%s' that the rule of '%s' reads to %s (rule: %s)", mk.Key, c.Name(), where, c.Rule)
	}
	return holdSuggestion(c)
}

// displayLen is how much of a value a message shows.
const displayLen = 80

// display renders a CEL value for a message, cut to a readable length.
// A long string is cut before it is formatted, and a list or map too long
// to show (a rule may yield the whole output) is described by its size,
// so that a huge value is never formatted whole.
func display(v ref.Val) string {
	if textLen(v, 2*displayLen) > 2*displayLen {
		switch x := v.(type) {
		case types.String:
			return result.Clip(types.Format(types.String(strings.ToValidUTF8(string(x[:2*displayLen]), ""))), displayLen)
		case types.Bytes:
			return result.Clip(types.Format(x[:2*displayLen]), displayLen)
		case traits.Lister:
			return fmt.Sprintf("a list of %d elements", size(x))
		case traits.Mapper:
			return fmt.Sprintf("a map of %d entries", size(x))
		}
	}
	return result.Clip(types.Format(v), displayLen)
}

// outcome is what became of one criterion.
type outcome int

const (
	undecided outcome = iota
	passed
	failed
)

// tally merges the outcomes of criteria by name, in the order names first
// appear: a name fails if any of its criteria failed and passes only if all
// of them passed.
type tally struct {
	names []string
	by    map[string]outcome
	seen  map[string]bool
}

func (t *tally) add(name string, o outcome) {
	if t.by == nil {
		t.by, t.seen = map[string]outcome{}, map[string]bool{}
	}
	if !t.seen[name] {
		t.seen[name] = true
		t.names = append(t.names, name)
		t.by[name] = o
		return
	}
	switch prev := t.by[name]; {
	case prev == failed || o == failed:
		t.by[name] = failed
	case prev == undecided || o == undecided:
		t.by[name] = undecided
	}
}

func (t *tally) report(p *layer.Pass) {
	for _, n := range t.names {
		switch t.by[n] {
		case passed:
			p.Passed(n)
		case failed:
			p.Failed(n)
		}
	}
}
