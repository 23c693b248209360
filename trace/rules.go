package trace

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/agentjudge/judge/layer/criteria"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// MaxRulesBytes is the largest rules file ParseRules reads.
const MaxRulesBytes = 1 << 20

// Rule is one policy rule: a CEL expression that must hold at every call
// it applies to.
type Rule struct {
	// Name identifies the rule ("confirm_before_booking"): a letter,
	// then letters, digits and underscores.
	Name string `json:"name"`
	// Description says the policy in words; it is the violation's
	// message when Message is empty.
	Description string `json:"description,omitempty"`
	// At is when the rule is evaluated: "call" (the default) at every
	// call, "end" once after the last message, for what the conversation
	// as a whole must show (a lookup that was needed, an offer not made).
	// At the end, call is null, index is the number of messages and calls
	// holds every call.
	At string `json:"at,omitempty"`
	// Tools limits the rule to calls of these tools; empty: every call.
	// An end rule has none.
	Tools []string `json:"tools,omitempty"`
	// When, if set, is a CEL condition: the rule applies only where it
	// holds.
	When string `json:"when,omitempty"`
	// Expr is the CEL condition that must hold.
	Expr string `json:"expr"`
	// Message is the violation's message.
	Message string `json:"message,omitempty"`
	// Suggestion says what the agent should have done.
	Suggestion string `json:"suggestion,omitempty"`
	// Severity is the violation's severity: "error" (the default) for a
	// rule whose breach can harm the user or the business, "warning" for
	// a rule of form (one call a message). A warning rule's violations
	// are counted but neither flag the conversation nor add to its risk.
	Severity string `json:"severity,omitempty"`
	// Weight is what the rule adds to a conversation's risk when it is
	// broken (once, however often): 1 when absent (0). A rule that
	// forbids the call itself (a cancellation the policy does not allow)
	// may weigh more than one about the steps around it (a detail not
	// listed). At most MaxRuleWeight; a warning rule has none, since
	// its violations add nothing to the risk.
	Weight float64 `json:"weight,omitempty"`
}

// MaxRuleWeight is the largest weight of a rule.
const MaxRuleWeight = 100

// Rules are the policy rules of a file.
type Rules struct {
	Rules []Rule `json:"rules"`
}

// RuleVars returns the variables a rule's expressions read:
//
//   - messages: every message of the conversation, each {role, content,
//     tool_calls: [{id, name, arguments}], tool_call_id, name}
//   - index: the index in messages of the message making the call
//   - call: the current call {id, name, arguments, message, position}
//   - previous: the messages before the current one
//   - last_user: the text of the last user message before the call ("")
//   - last_user_index: its index in messages (-1 when none)
//   - calls: the calls made before this one, each {id, name, arguments,
//     message, result, status}: result is the tool's answer (decoded
//     JSON, or its text), status its outcome (SATISFIED, FAILED, …, or ""
//     when it had no answer)
//   - calls_of: calls by tool name; every tool of the toolset and every
//     tool called is a key, with an empty list when not called yet
//   - last_agent: the text of the last assistant message before the last
//     user message: what the user answered ("")
//   - user_text, agent_text, tool_text: the texts of the user's messages,
//     of the assistant's messages and of the tool results before the
//     call, each joined with newlines: for rules asking whether a value
//     was said by the user, shown to the user, or given by a tool
//
// The values are converted for CEL once per call (numbers as int where
// integral), not once per rule.
//
// It returns a new slice at each call, so that no caller can change the
// table the rules are compiled with.
func RuleVars() []string {
	return []string{"messages", "index", "call", "previous", "last_user", "last_user_index", "calls", "calls_of",
		"last_agent", "user_text", "agent_text", "tool_text"}
}

// RuleError is a rules file that cannot be used: which rule and
// expression, and why.
type RuleError struct {
	Rule  string // the rule's name or "rules[i]"
	Field string // "expr", "when", "name"
	Line  int    // 1-based position in the expression, when known
	Col   int
	Msg   string
	Err   error
}

func (e *RuleError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("rule %s: %s:%d:%d: %s", e.Rule, e.Field, e.Line, e.Col, e.Msg)
	}
	if e.Field != "" {
		return fmt.Sprintf("rule %s: %s: %s", e.Rule, e.Field, e.Msg)
	}
	return fmt.Sprintf("rule %s: %s", e.Rule, e.Msg)
}

func (e *RuleError) Unwrap() error { return e.Err }

var ruleName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,63}$`)

// ParseRules reads a rules file: {"rules": [{name, description, at,
// tools, when, expr, message, suggestion, severity, weight}]}. Unknown fields are refused, so that
// a misspelt "exp" is not a rule that never runs.
func ParseRules(data []byte) (*Rules, error) {
	if len(data) > MaxRulesBytes {
		return nil, &RuleError{Rule: "file", Msg: fmt.Sprintf("the rules file is larger than %d bytes", MaxRulesBytes)}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var rs Rules
	if err := dec.Decode(&rs); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(data, se.Offset)
			return nil, &RuleError{Rule: "file", Line: line, Col: col, Field: "json", Msg: se.Error(), Err: err}
		}
		return nil, &RuleError{Rule: "file", Msg: err.Error(), Err: err}
	}
	if len(rs.Rules) == 0 {
		return nil, &RuleError{Rule: "file", Msg: `the file has no rules: expected {"rules": [{"name": …, "expr": …}]}`}
	}
	return &rs, nil
}

// compiledRule is a rule with its programs.
type compiledRule struct {
	Rule
	when, expr *criteria.Expr
	end        bool    // evaluated after the last message, not at calls
	warning    bool    // a rule of form: counted, not flagged
	weight     float64 // what the rule adds to the risk when broken
}

// compileRules compiles rules in one environment declaring RuleVars.
func compileRules(rs *Rules) ([]compiledRule, error) {
	if rs == nil || len(rs.Rules) == 0 {
		return nil, nil
	}
	env, err := criteria.NewEnv(RuleVars()...)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	out := make([]compiledRule, 0, len(rs.Rules))
	for i, r := range rs.Rules {
		id := fmt.Sprintf("rules[%d]", i)
		if !ruleName.MatchString(r.Name) {
			return nil, &RuleError{Rule: id, Field: "name", Msg: fmt.Sprintf("%q is not a rule name: a letter, then letters, digits and underscores", r.Name)}
		}
		if seen[r.Name] {
			return nil, &RuleError{Rule: r.Name, Field: "name", Msg: "two rules have this name"}
		}
		seen[r.Name] = true
		if r.Description == "" && r.Message == "" {
			return nil, &RuleError{Rule: r.Name, Msg: "the rule has neither a description nor a message to report a violation with"}
		}
		switch r.At {
		case "", "call":
		case "end":
			if len(r.Tools) > 0 {
				return nil, &RuleError{Rule: r.Name, Field: "tools", Msg: `an end rule (at "end") applies to no call: remove "tools"`}
			}
		default:
			return nil, &RuleError{Rule: r.Name, Field: "at", Msg: fmt.Sprintf(`%q is not when a rule is evaluated: "call" or "end"`, result.Clip(r.At, 40))}
		}
		switch r.Severity {
		case "", "error", "warning":
		default:
			return nil, &RuleError{Rule: r.Name, Field: "severity", Msg: fmt.Sprintf(`%q is not a rule severity: "error" or "warning"`, result.Clip(r.Severity, 40))}
		}
		switch {
		case math.IsNaN(r.Weight) || r.Weight < 0 || r.Weight > MaxRuleWeight:
			return nil, &RuleError{Rule: r.Name, Field: "weight", Msg: fmt.Sprintf("%g is not a rule weight: above 0 and at most %d (absent: 1)", r.Weight, MaxRuleWeight)}
		case r.Weight != 0 && r.Severity == "warning":
			return nil, &RuleError{Rule: r.Name, Field: "weight", Msg: `a warning rule adds nothing to the risk: remove "weight" or make the rule an error`}
		}
		cr := compiledRule{Rule: r, end: r.At == "end", warning: r.Severity == "warning", weight: r.Weight}
		if cr.weight == 0 {
			cr.weight = 1
		}
		compile := func(field, text string) (*criteria.Expr, error) {
			x, err := env.Compile(text)
			if err != nil {
				var xe *criteria.ExprError
				if errors.As(err, &xe) {
					return nil, &RuleError{Rule: r.Name, Field: field, Line: xe.Line, Col: xe.Col, Msg: xe.Msg, Err: err}
				}
				return nil, &RuleError{Rule: r.Name, Field: field, Msg: err.Error(), Err: err}
			}
			return x, nil
		}
		if cr.expr, err = compile("expr", r.Expr); err != nil {
			return nil, err
		}
		if r.When != "" {
			if cr.when, err = compile("when", r.When); err != nil {
				return nil, err
			}
		}
		out = append(out, cr)
	}
	return out, nil
}

// callsOfName finds the tools a rule's expression reads by name in
// calls_of: calls_of.NAME, calls_of['NAME'].
var callsOfName = regexp.MustCompile(`\bcalls_of\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*(?:'([^']*)'|"([^"]*)")\s*\])`)

// checkToolNames refuses a rule that names a tool the toolset does not
// have, in its tools or as calls_of.NAME in its expressions: the rule
// would never apply, or never be decided, and so would say nothing. The
// error names the rule and the tool, with the toolset's nearest names.
func checkToolNames(ts *toolcall.Toolset, rules []compiledRule) error {
	names := ts.Names()
	unknown := func(r *compiledRule, field, tool, what string) error {
		msg := fmt.Sprintf("'%s' is not a tool of the toolset, so %s", result.Clip(tool, 80), what)
		if c := ts.ClosestTools(tool, 3); len(c) > 0 {
			msg += "; did you mean '" + strings.Join(c, "' or '") + "'?"
		} else if len(names) == 0 {
			msg += "; the toolset has no tools"
		} else {
			shown := names
			if len(shown) > 20 {
				shown = shown[:20]
			}
			msg += "; its tools are " + strings.Join(shown, ", ")
			if len(names) > len(shown) {
				msg += fmt.Sprintf(" and %d more", len(names)-len(shown))
			}
		}
		return &RuleError{Rule: r.Name, Field: field, Msg: msg}
	}
	for k := range rules {
		r := &rules[k]
		for _, t := range r.Tools {
			if !slices.Contains(names, t) {
				return unknown(r, "tools", t, "the rule would never apply")
			}
		}
		for _, f := range []struct{ field, text string }{{"when", r.When}, {"expr", r.Expr}} {
			for _, m := range callsOfName.FindAllStringSubmatch(f.text, -1) {
				t := m[1] + m[2] + m[3]
				if !slices.Contains(names, t) {
					return unknown(r, f.field, t, "calls_of."+result.Clip(t, 80)+" holds nothing until an unknown tool of that name is called, and the rule is undecided")
				}
			}
		}
	}
	return nil
}

// verdict is a rule's verdict at one call.
type verdict int

const (
	holds verdict = iota
	violated
	undecided
)

// eval evaluates the rule at a call: holds when it does not apply or its
// condition is true, violated when false, undecided (with why) when the
// evaluation failed or was stopped.
func (r *compiledRule) eval(ctx context.Context, tool string, vars map[string]any) (verdict, string) {
	if len(r.Tools) > 0 && !slices.Contains(r.Tools, tool) {
		return holds, ""
	}
	if r.when != nil {
		ok, err := r.when.EvalValues(ctx, vars)
		if err != nil {
			return undecided, "when: " + err.Error()
		}
		if !ok {
			return holds, ""
		}
	}
	ok, err := r.expr.EvalValues(ctx, vars)
	switch {
	case err != nil:
		return undecided, err.Error()
	case ok:
		return holds, ""
	}
	return violated, ""
}
