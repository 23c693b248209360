package toolcall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/location"
	"github.com/agentjudge/judge/internal/spell"
	"github.com/agentjudge/judge/layer/criteria"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/result"
)

// MaxArgumentsBytes is the largest arguments document a call may carry.
const MaxArgumentsBytes = 1 << 20

// ValidationType is the validation type the results of this package name
// in metadata.validation_types_run.
const ValidationType = "toolcall"

// Call is one tool call: the tool's name, its arguments as JSON, and the
// session it belongs to, if any.
type Call struct {
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	// SessionID, when not empty, names the session that counts repair
	// attempts and watches for progress.
	SessionID string `json:"session_id,omitempty"`
	// Goal is what the user asked for. When it asks for everything (all,
	// every, entire, everyone), Check lifts the call's limit-like
	// parameters.
	Goal string `json:"goal,omitempty"`
	// ShownTools are the tools the model was shown, when the caller
	// restricts them; with a session they are kept, so that an escalate
	// verdict can name the wider set to show (see [Progress.Show]).
	ShownTools []string `json:"shown_tools,omitempty"`
}

// CheckRequest is a call with the tool definitions to check it against:
// the body of the HTTP API's POST /v1/calls/check and the arguments of the
// gateway's check_call tool, here so that both front ends decode one type
// without knowing each other.
type CheckRequest struct {
	Call
	// Tools are the tool definitions (MCP tools, OpenAI functions, or a
	// tools/list answer; see [ParseDefinitions]); absent means the front
	// end's own tools.
	Tools json.RawMessage `json:"tools,omitempty"`
}

// CallError is a call that cannot be checked at all: its arguments are not
// JSON or too large. Field is "arguments" or "tool"; Line and Col locate a
// JSON error in the arguments (0 when unknown).
type CallError struct {
	Field     string
	Line, Col int
	Msg       string
	Err       error
}

func (e *CallError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Field, e.Line, e.Col, e.Msg)
	}
	return e.Field + ": " + e.Msg
}

// Unwrap returns the cause.
func (e *CallError) Unwrap() error { return e.Err }

// CheckResult is the verdict on a call before it runs: the ValidationResult,
// the arguments as they should be executed, and the repair feedback beside
// the result when it is invalid.
type CheckResult struct {
	Result *result.ValidationResult `json:"result"`
	// NormalizedArguments are the arguments after normalization: defaults
	// filled, parameters of other actions dropped, safe coercions made.
	// Each change is an info issue of the result. For an unknown tool
	// they are the arguments as given. Check leaves the field nil when the
	// arguments are valid and normalization at most fills in defaults: it
	// then keeps their bytes undecoded, and [CheckResult.Arguments] decodes
	// them (with the defaults). Read
	// the arguments through Arguments; the JSON encoding of a CheckResult
	// holds them either way.
	NormalizedArguments any `json:"normalized_arguments"`
	// Repair is the feedback for the model; nil when the call is valid.
	Repair *Repair `json:"repair,omitempty"`
	// Refused, when not empty, is why the call's session refuses this call
	// (the same tool with the same normalized arguments): it was made
	// again and again without progress, and a stop verdict refused it
	// (see [Progress.Refused]). The arguments may well be valid; a front
	// end that runs calls (the gateway) answers a refused call without
	// running it. Other calls of the session are not refused.
	Refused string `json:"refused,omitempty"`

	// raw are the call's arguments when Check found them valid as they
	// are and did not decode them (NormalizedArguments is nil then).
	raw json.RawMessage
	// fill, when not nil, is the contract whose defaults fill in the
	// parameters missing names in raw (bits by index in defaultNames).
	fill    *Contract
	missing uint64
}

// Arguments returns the normalized arguments: NormalizedArguments, or,
// when Check kept the arguments undecoded (valid, at most defaults to fill
// in), their decoded value with the defaults, the map[string]any Check
// would have put in NormalizedArguments. It decodes them anew on each
// call.
func (r *CheckResult) Arguments() any {
	if r.NormalizedArguments != nil || r.raw == nil {
		return r.NormalizedArguments
	}
	v, _, err := decodeArguments(r.raw)
	if err != nil {
		return nil // cannot happen: Check read the arguments whole
	}
	if r.fill != nil {
		return r.fill.filled(v, r.missing)
	}
	return v
}

// MarshalJSON encodes r as its fields' tags say, with normalized_arguments
// from [CheckResult.Arguments]: the same bytes whether Check decoded the
// arguments or kept them.
func (r CheckResult) MarshalJSON() ([]byte, error) {
	type plain CheckResult
	p := plain(r)
	p.NormalizedArguments, p.raw, p.fill = r.Arguments(), nil, nil
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// encoding/json escapes HTML in what a Marshaler returns itself when
	// its caller asks for it: escaping here would do it regardless.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// decodeArguments decodes the arguments of a call: absent or null means
// an empty object. It returns the keys that repeat in an object too.
func decodeArguments(raw json.RawMessage) (any, []jsonvalue.Duplicate, error) {
	if len(raw) > MaxArgumentsBytes {
		return nil, nil, &CallError{Field: "arguments", Msg: fmt.Sprintf("the arguments are larger than %d bytes", MaxArgumentsBytes)}
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return map[string]any{}, nil, nil
	}
	v, dups, err := jsonvalue.DecodeDuplicates(raw, 0)
	if err != nil {
		return nil, nil, jsonCallError("arguments", err)
	}
	if v == nil {
		return map[string]any{}, nil, nil
	}
	return v, dups, nil
}

// jsonCallError is the *CallError for field, a JSON document that cannot
// be decoded, located at the line and column of err when it has them.
func jsonCallError(field string, err error) *CallError {
	ce := &CallError{Field: field, Msg: err.Error(), Err: err}
	var se *jsonvalue.SyntaxError
	if errors.As(err, &se) {
		ce.Line, ce.Col, ce.Msg = se.Line, se.Col, se.Msg
	}
	return ce
}

// duplicateKeys returns the warnings about the repeated keys of a
// document; prefix, when not empty, is the location of the document
// ("arguments").
func duplicateKeys(dups []jsonvalue.Duplicate, prefix, where string) []result.Issue {
	var issues []result.Issue
	for _, d := range dups {
		is := d.Issue("toolcall.duplicate_key", where)
		if prefix != "" {
			if strings.HasPrefix(is.Location, "[") {
				is.Location = prefix + is.Location
			} else {
				is.Location = prefix + "." + is.Location
			}
		}
		issues = append(issues, is)
	}
	return issues
}

// Check validates a call before it runs: the tool must exist, the
// arguments must match its schema (each violation its own error issue at
// the parameter's path; unknown parameters are errors unless the contract
// allows them) and its rules; the arguments are normalized first (defaults,
// action scopes, safe coercions, and, for a goal that asks for everything,
// limit-like parameters raised to their maximum or dropped), each change
// reported as an info issue. A key repeated in an object of the arguments
// is a duplicate_key warning (the last value is the one checked). An
// invalid result comes with repair feedback; with a session, the repair
// counts an attempt. Check returns a *CallError when the arguments cannot
// be read (not JSON, a number beyond the float64 range, invalid UTF-8), and
// ctx's error when it is done.
func (ts *Toolset) Check(ctx context.Context, call Call) (*CheckResult, error) {
	start := time.Now()
	if ct, ok := ts.contracts[call.Tool]; ok {
		if missing, ok := ct.plainValid(call); ok {
			// The common answer: valid as given or with defaults
			// filled in, the arguments read by the schema's scan and
			// not decoded.
			out := &CheckResult{Result: ct.plainResult(missing, start), raw: call.Arguments}
			if missing != 0 {
				out.fill, out.missing = ct, missing
			}
			if err := ts.countAttempt(ctx, call, out); err != nil {
				return nil, err
			}
			return out, nil
		}
	}
	return ts.checkDecoded(ctx, call, start)
}

// checkDecoded is Check's usual path: the arguments decoded, normalized,
// checked and their result built; start is when Check began.
func (ts *Toolset) checkDecoded(ctx context.Context, call Call, start time.Time) (*CheckResult, error) {
	args, dups, err := decodeArguments(call.Arguments)
	if err != nil {
		return nil, err
	}
	ct, ok := ts.contracts[call.Tool]
	if !ok {
		is, rep := ts.unknownTool(call.Tool)
		b := result.NewBuilder().Ran(ValidationType).Add(duplicateKeys(dups, "", "of the arguments")...)
		b.Add(is)
		res := b.Duration(time.Since(start)).Build()
		out := &CheckResult{Result: res, NormalizedArguments: args, Repair: rep}
		if err := ts.countAttempt(ctx, call, out); err != nil {
			return nil, err
		}
		return out, nil
	}
	// The fast path may read the arguments' own bytes when they are
	// what was decoded: an object without repeated keys.
	raw := call.Arguments
	if len(dups) > 0 {
		raw = nil
	}
	issues, norm, decided, undecided, err := ct.check(ctx, args, raw, call.Goal)
	if err != nil {
		return nil, err
	}
	confidence := 1.0
	if decided+undecided > 0 {
		confidence = float64(decided) / float64(decided+undecided)
	}
	var res *result.ValidationResult
	if len(issues) == 0 && len(dups) == 0 {
		// The common answer, in one allocation.
		res = result.Passed(ValidationType, confidence, time.Since(start), result.ProcessSelfCheck())
	} else {
		res = result.NewBuilder().Ran(ValidationType).Add(duplicateKeys(dups, "", "of the arguments")...).Add(issues...).
			Confidence(confidence).Duration(time.Since(start)).Build()
	}
	out := &CheckResult{Result: res, NormalizedArguments: norm}
	if !res.Valid {
		out.Repair = ct.repair(res.Issues)
	}
	if err := ts.countAttempt(ctx, call, out); err != nil {
		return nil, err
	}
	return out, nil
}

// countAttempt records an invalid call's mistakes in the session and
// fills the repair's attempt counts: each mistake (an error issue's
// location and rule) is counted while the invalid calls in a row make it,
// a mistake no longer made is forgotten, and a valid call of the tool
// forgets all of the tool's. The attempt reported is the count of the
// call's most repeated mistake, never past the limit. A valid call the
// session refuses (see Session.Refused) gets the reason in out.Refused.
func (ts *Toolset) countAttempt(ctx context.Context, call Call, out *CheckResult) error {
	if call.SessionID == "" {
		return nil
	}
	valid := out.Result.Valid
	limit := ts.checker.limits.RepairAttempts
	var mistakes []string
	if !valid {
		for _, is := range out.Result.Issues {
			if is.Severity == result.Error && len(mistakes) < maxFixes {
				mistakes = append(mistakes, MistakeKey(call.Tool, is.Location, is.Rule))
			}
		}
	}
	var used int
	var sig string // the call's signature, taken once and only when the session refuses a call
	err := ts.checker.store.Update(ctx, call.SessionID, func(s *Session) error {
		if len(call.ShownTools) > 0 {
			s.Shown = slices.Clone(call.ShownTools)
		}
		forget(s, call.Tool, mistakes)
		if valid {
			out.Refused = ""
			if len(s.Refused) > 0 {
				if sig == "" {
					sig = signature(call.Tool, out.Arguments())
				}
				out.Refused = s.refusal(sig)
			}
			return nil
		}
		if s.RepairAttempts == nil {
			s.RepairAttempts = map[string]int{}
		}
		used = 0
		for _, k := range mistakes {
			n := min(s.RepairAttempts[k]+1, limit+1)
			s.RepairAttempts[k] = n
			used = max(used, n)
		}
		return nil
	})
	if err != nil {
		return sessionError(call.SessionID, err)
	}
	if rep := out.Repair; rep != nil && !valid {
		rep.Attempt, rep.MaxAttempts = min(used, limit), limit
		rem := limit - rep.Attempt
		rep.RemainingAttempts = &rem
	}
	return nil
}

// forget drops the tool's counted mistakes that are not among keep (all
// of them for a valid call), and the count of an older judge kept by tool
// alone. No map is made or walked when there is nothing to drop.
func forget(s *Session, tool string, keep []string) {
	if len(s.RepairAttempts) == 0 {
		return
	}
	delete(s.RepairAttempts, tool)
	prefix := mistakePrefix(tool)
	for k := range s.RepairAttempts {
		if strings.HasPrefix(k, prefix) && !slices.Contains(keep, k) {
			delete(s.RepairAttempts, k)
		}
	}
	if len(s.RepairAttempts) == 0 {
		s.RepairAttempts = nil
	}
}

// ClosestTools returns up to n of the set's tool names nearest to name, as
// the "did you mean" of an unknown tool: by edit distance ignoring case,
// those close enough to be a likely typo, then those holding the name
// whole, then those sharing all the words of the shorter name
// (cancel_pending_order → cancel_order); none when no name is close.
func (ts *Toolset) ClosestTools(name string, n int) []string {
	return closestNames(name, ts.names, n)
}

// unknownTool reports a call to a tool the set does not have.
func (ts *Toolset) unknownTool(name string) (result.Issue, *Repair) {
	closest := closestNames(name, ts.names, 3)
	avail := ts.names
	msg := fmt.Sprintf("Unknown tool '%s'", result.Clip(name, 80))
	if len(closest) > 0 {
		msg += "; did you mean " + quoteList(closest, " or ") + "?"
	}
	shown := avail
	if len(shown) > 30 {
		shown = shown[:30]
	}
	sug := "Call one of the available tools by its exact name"
	if len(avail) == 0 {
		// Nothing to choose from: the definitions, not the call, are what
		// to look at (a registry whose tools are of types it never
		// declared, a definitions file of knowledge entries).
		msg += ". The definitions hold no tool that can be called."
		sug = "Check the tool definitions given to judge: judge tools lint says why a manifest is not a callable tool"
	} else {
		msg += fmt.Sprintf(" Available tools (%d): %s", len(avail), strings.Join(shown, ", "))
		if len(avail) > len(shown) {
			msg += ", …"
		}
	}
	if len(closest) > 0 {
		sug = fmt.Sprintf("Call '%s' instead, or another of the available tools by its exact name", closest[0])
	}
	is := result.Issue{Severity: result.Error, Type: result.SchemaViolation, Location: "tool",
		Message: msg, Suggestion: sug, Rule: "toolcall.unknown_tool"}
	return is, &Repair{Tool: name, Fixes: []Fix{{Location: "tool", Problem: is.Message, Suggestion: sug}},
		ClosestTools: closest, AvailableTools: slices.Clone(avail)}
}

// check runs the contract on decoded arguments; raw, when not nil, is the
// JSON they were decoded from, without repeated keys. It returns the
// issues, the normalized arguments, and how many checks were decided and
// not decided.
func (ct *Contract) check(ctx context.Context, args any, raw json.RawMessage, goal string) (issues []result.Issue, norm any, decided, undecided int, err error) {
	obj, isObj := args.(map[string]any)
	if !isObj {
		is := result.Issue{Severity: result.Error, Type: result.InvalidType, Location: "root",
			Message:    fmt.Sprintf("The arguments of '%s' are %s; they must be an object of named parameters", ct.Name, kindOf(args)),
			Suggestion: fmt.Sprintf("Pass the arguments as a JSON object, e.g. {%s}", exampleParams(ct.Params)),
			Rule:       "toolcall.arguments_object"}
		return []result.Issue{is}, args, 1, 0, nil
	}
	obj, changes := ct.normalize(obj)
	issues = append(issues, changes...)
	obj, changes = ct.liftLimits(obj, goal)
	issues = append(issues, changes...)
	if len(issues) > 0 {
		// Normalized: the bytes are no longer what is checked.
		raw = nil
	}

	var found []schema.Finding
	if !ct.input.valid(obj, raw) {
		if found, err = ct.input.validate(ctx, obj); err != nil {
			return nil, nil, 0, 0, fmt.Errorf("toolcall: %s: %w", ct.Name, err)
		}
	}
	for _, f := range found {
		issues = append(issues, argumentsIssue(obj, f))
	}
	decided++
	if ct.checkUnknown && !ct.patterns {
		// Unknown parameters are rare: the keys are sorted only when
		// there are some, for their issues' order.
		var unknown []string
		for k := range obj {
			if _, ok := ct.props[k]; !ok {
				unknown = append(unknown, k)
			}
		}
		slices.Sort(unknown)
		for _, k := range unknown {
			issues = append(issues, ct.unknownParam(k))
		}
	}
	for _, r := range ct.rules {
		if err := ctx.Err(); err != nil {
			return nil, nil, 0, 0, err
		}
		is, ok := r.check(ctx, ct.Name, obj)
		if ok {
			decided++
		} else {
			undecided++
		}
		if is != nil {
			issues = append(issues, *is)
		}
	}
	return issues, obj, decided, undecided, nil
}

// argumentsIssue is a schema layer finding about the arguments args (its
// messages already name them "the arguments"). A missing parameter is
// located at its own path, not its parent's.
func argumentsIssue(args map[string]any, f schema.Finding) result.Issue {
	is := f.Issue
	if f.Keyword == "required" && f.Field != "" {
		is.Location = schema.InstanceLocation(args, append(slices.Clip(f.Path), f.Field))
	}
	return is
}

func (ct *Contract) unknownParam(k string) result.Issue {
	names := ct.propNames
	msg := fmt.Sprintf("Unknown parameter '%s' for tool '%s'", result.Clip(k, 80), ct.Name)
	sug := fmt.Sprintf("Remove '%s'", result.Clip(k, 80))
	if c := closestNames(k, names, 1); len(c) > 0 {
		msg += fmt.Sprintf("; did you mean '%s'?", c[0])
		sug = fmt.Sprintf("Rename '%s' to '%s'", result.Clip(k, 80), c[0])
	}
	if len(names) > 0 {
		sug += "; the parameters are " + strings.Join(names, ", ")
	} else {
		sug += "; the tool takes no parameters"
	}
	return result.Issue{Severity: result.Error, Type: result.SchemaViolation, Location: locationOf(k),
		Message: msg, Suggestion: sug, Rule: "toolcall.unknown_parameter"}
}

// check evaluates one rule. It returns the issue to report, if any, and
// whether the rule was decided.
func (r compiledRule) check(ctx context.Context, tool string, args map[string]any) (*result.Issue, bool) {
	vars := map[string]any{"args": args}
	loc := "root"
	if r.FieldPath != "" {
		loc = r.FieldPath
	}
	undecided := func(err error) (*result.Issue, bool) {
		return &result.Issue{Severity: result.Info, Type: result.NotChecked, Location: loc,
			Message:    fmt.Sprintf("Rule '%s' of tool '%s' could not be decided on these arguments: %s", r.ID, tool, err),
			Suggestion: "Write the rule so that it decides every call, e.g. guard optional fields with has()",
			Rule:       "toolcall.rule"}, false
	}
	if r.when != nil {
		ok, err := r.when.Eval(ctx, vars)
		if err != nil {
			var mk *criteria.MissingKeyError
			if errors.As(err, &mk) {
				// The condition reads a parameter the call does
				// not have: it does not hold, and the rule does
				// not apply.
				return nil, true
			}
			return undecided(err)
		}
		if !ok {
			return nil, true
		}
	}
	ok, err := r.expr.Eval(ctx, vars)
	if err != nil {
		return undecided(err)
	}
	if ok {
		return nil, true
	}
	sug := strings.TrimSpace(r.Suggestion)
	if sug == "" {
		sug = fmt.Sprintf("Change the arguments so that rule '%s' holds: %s", r.ID, result.Clip(r.Expression, 300))
	}
	return &result.Issue{Severity: result.Error, Type: result.ConstraintViolation, Location: loc,
		Message: r.Message, Suggestion: sug, Rule: "toolcall.rule." + r.ID}, true
}

// normalize returns a copy of args with the safe changes made, and an info
// issue for each change: parameters of other actions dropped, coercions,
// defaults filled.
func (ct *Contract) normalize(args map[string]any) (map[string]any, []result.Issue) {
	var out map[string]any
	var issues []result.Issue
	cp := func() {
		if out == nil {
			out = maps.Clone(args)
		}
	}
	cur := args
	for _, k := range ct.scoped {
		if _, present := cur[k]; !present {
			continue
		}
		for field, vals := range ct.def.AppliesWhen[k] {
			sel, ok := cur[field].(string)
			if !ok || slices.Contains(vals, sel) {
				continue
			}
			cp()
			delete(out, k)
			issues = append(issues, result.Issue{Severity: result.Info, Type: result.ArgumentNormalized, Location: locationOf(k),
				Message:    fmt.Sprintf("Parameter '%s' was dropped: it applies only when %s is %s, not '%s'", k, field, quoteList(vals, " or "), sel),
				Suggestion: fmt.Sprintf("Leave out '%s' when %s is '%s'", k, field, sel),
				Rule:       "toolcall.dropped"})
		}
	}
	if out != nil {
		cur = out
	}
	// Only the parameters a coercion can apply to are looked at, in
	// their sorted order.
	for _, p := range ct.coercible {
		v, present := cur[p.name]
		if !present {
			continue
		}
		if nv, how, ok := coerce(v, p.paramTypes); ok {
			cp()
			out[p.name] = nv
			issues = append(issues, result.Issue{Severity: result.Info, Type: result.ArgumentNormalized, Location: locationOf(p.name),
				Message:    fmt.Sprintf("Parameter '%s' was %s", p.name, how),
				Suggestion: fmt.Sprintf("Pass '%s' as %s next time", p.name, typeName(asMap(ct.props[p.name]))),
				Rule:       "toolcall.coerced"})
		}
	}
	if out != nil {
		cur = out
	}
	for _, k := range ct.defaultNames {
		if _, present := cur[k]; present {
			continue
		}
		d := ct.defaults[k]
		if scope, scoped := ct.def.AppliesWhen[k]; scoped && !inScope(cur, scope) {
			continue
		}
		cp()
		out[k] = d
		issues = append(issues, defaultIssue(k, d))
	}
	if out == nil {
		return args, issues
	}
	return out, issues
}

// defaultIssue is the info issue of parameter k filled with its default d.
func defaultIssue(k string, d any) result.Issue {
	return result.Issue{Severity: result.Info, Type: result.ArgumentNormalized, Location: locationOf(k),
		Message:    fmt.Sprintf("Parameter '%s' was filled with its default %s", k, shortJSON(d)),
		Suggestion: fmt.Sprintf("Pass '%s' explicitly to use another value", k),
		Rule:       "toolcall.default"}
}

// inScope reports whether the arguments select an action for which a
// scoped parameter applies.
func inScope(args map[string]any, scope map[string][]string) bool {
	for field, vals := range scope {
		sel, ok := args[field].(string)
		if !ok || !slices.Contains(vals, sel) {
			return false
		}
	}
	return true
}

// paramTypes are the types a parameter's schema names, and those its
// items name, read once per contract for coerce.
type paramTypes struct{ types, items []string }

// coercibleParam is a parameter a coercion can apply to, with its types.
type coercibleParam struct {
	name string
	paramTypes
	array bool // the parameter takes arrays
}

// coercibleParams returns the properties coerce can change a value of,
// sorted by name: those that take integers or numbers but not strings,
// and those that take arrays.
func coercibleParams(props map[string]any) []coercibleParam {
	var out []coercibleParam
	for k, p := range props {
		ps := asMap(p)
		types := schemaTypes(ps)
		numeric := slices.Contains(types, "integer") || slices.Contains(types, "number")
		if numeric && !slices.Contains(types, "string") || slices.Contains(types, "array") {
			out = append(out, coercibleParam{k, paramTypes{types: types, items: schemaTypes(asMap(ps["items"]))}, slices.Contains(types, "array")})
		}
	}
	slices.SortFunc(out, func(a, b coercibleParam) int { return strings.Compare(a.name, b.name) })
	return out
}

// coerce makes the safe coercions: a string holding an integer for a
// parameter that takes integers (or numbers) but not strings, and a single
// value for a parameter that takes arrays but not that value's type. It
// returns the new value and how it was changed.
func coerce(v any, pt paramTypes) (any, string, bool) {
	types := pt.types
	if len(types) == 0 {
		return nil, "", false
	}
	switch x := v.(type) {
	case string:
		if slices.Contains(types, "string") {
			return nil, "", false
		}
		if slices.Contains(types, "integer") || slices.Contains(types, "number") {
			s := strings.TrimSpace(x)
			if n, ok := new(big.Int).SetString(s, 10); ok && len(s) <= 30 {
				return json.Number(n.String()), fmt.Sprintf("the string %s, read as the integer %s", shortJSON(x), n.String()), true
			}
		}
	}
	if _, isArr := v.([]any); !isArr && slices.Contains(types, "array") {
		it := pt.items
		if len(it) == 0 || slices.Contains(it, jsonType(v)) || (jsonType(v) == "integer" && slices.Contains(it, "number")) {
			if slices.Contains(types, jsonType(v)) || (jsonType(v) == "integer" && slices.Contains(types, "number")) {
				return nil, "", false
			}
			if v == nil {
				return nil, "", false
			}
			return []any{v}, fmt.Sprintf("a single %s, wrapped in a list", jsonType(v)), true
		}
	}
	return nil, "", false
}

// schemaTypes returns the types a schema's "type" keyword names.
func schemaTypes(s map[string]any) []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []any:
		return asStrings(t)
	}
	return nil
}

// jsonType is the JSON Schema type of a decoded value.
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		if _, ok := new(big.Int).SetString(string(x), 10); ok {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

// locationOf writes a parameter name as a location, in the one notation of
// internal/location: the name itself when it is an identifier, else
// ["name"].
func locationOf(k string) string { return location.Path([]string{k}, nil) }

func quoteList(ss []string, sep string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = "'" + s + "'"
	}
	return strings.Join(q, sep)
}

// exampleParams renders the required parameters as a hint: "owner": …
func exampleParams(ps []Param) string {
	var parts []string
	for _, p := range ps {
		if p.Required {
			parts = append(parts, fmt.Sprintf("%q: <%s>", p.Name, p.Type))
		}
	}
	return strings.Join(parts, ", ")
}

// closestNames returns up to n names nearest to name by edit distance,
// ignoring case, among those close enough to be a likely typo or a near
// synonym (a shared word).
func closestNames(name string, names []string, n int) []string {
	type cand struct {
		s string
		d int
	}
	var cs []cand
	ln := strings.ToLower(name)
	words := newWordSet(ln) // split once: name may be as long as a request
	for _, s := range names {
		ls := strings.ToLower(s)
		d := spell.Distance(ln, ls, spell.MaxLen)
		limit := max(2, min(len(ln), len(ls))/3)
		switch {
		case d <= limit:
		case ln != "" && (strings.Contains(ls, ln) || strings.Contains(ln, ls)):
			d = limit + 1
		case words.shares(nameWords(ls)):
			d = limit + 2
		default:
			continue
		}
		cs = append(cs, cand{s, d})
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.d - b.d })
	var out []string
	for _, c := range cs {
		if len(out) == n {
			break
		}
		out = append(out, c.s)
	}
	return out
}

// wordSet is the words of a name (nameWords), split once and held as a
// set, for sharesWords with each of many names.
type wordSet struct {
	n   int
	set map[string]struct{}
}

func newWordSet(name string) wordSet {
	ws := wordSet{set: map[string]struct{}{}}
	for w := range strings.FieldsFuncSeq(name, notWordRune) {
		ws.n++
		ws.set[w] = struct{}{}
	}
	return ws
}

// shares reports whether the words of one name (split at '_', '-', '.',
// spaces and digits) are all words of the other, the shorter having at
// least two: cancel_order is what cancel_pending_order likely meant, and
// order_cancel too, but one shared word alone ("order") says nothing.
// other is the other name's words.
func (ws wordSet) shares(other []string) bool {
	if ws.n <= len(other) {
		if ws.n < 2 {
			return false
		}
		for w := range ws.set {
			if !slices.Contains(other, w) {
				return false
			}
		}
		return true
	}
	if len(other) < 2 {
		return false
	}
	for _, w := range other {
		if _, ok := ws.set[w]; !ok {
			return false
		}
	}
	return true
}

// nameWords splits a lower-cased name into its words.
func nameWords(s string) []string { return strings.FieldsFunc(s, notWordRune) }

// notWordRune reports whether r separates the words of a lower-cased
// name.
func notWordRune(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 0x80) }

// sessionError is the error of a session store: a *CallError for a session
// id the store refuses, else the store's failure.
func sessionError(id string, err error) error {
	if errors.Is(err, ErrSessionID) {
		return &CallError{Field: "session_id", Msg: fmt.Sprintf("a session id is 1 to %d bytes, not %d", MaxSessionIDLen, len(id)), Err: err}
	}
	return fmt.Errorf("toolcall: session %q: %w", result.Clip(id, 80), err)
}
