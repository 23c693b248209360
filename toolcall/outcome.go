package toolcall

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/location"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/result"
)

// MaxResultBytes is the largest tool result Outcome reads.
const MaxResultBytes = 16 << 20

// Status is the coverage status of a call's outcome.
type Status string

// The coverage statuses of the specification.
const (
	// Satisfied: the call answered; nothing says more is needed.
	Satisfied Status = "SATISFIED"
	// NeedsMoreTools: the call gave nothing useful yet (an empty
	// result, candidates to look up): call another tool.
	NeedsMoreTools Status = "NEEDS_MORE_TOOLS"
	// NeedUserInput: the tool asks the user to clarify (a
	// need_user_input envelope, an ambiguity list).
	NeedUserInput Status = "NEED_USER_INPUT"
	// Failed: the call failed, or its result breaks the output schema.
	Failed Status = "FAILED"
)

// OutcomeRequest is a finished call: the call, the tool's result as JSON,
// and optionally the user's goal.
type OutcomeRequest struct {
	Call
	// Result is the tool's result: an MCP CallToolResult ({content,
	// isError, structuredContent}) or any JSON value the tool returned.
	Result json.RawMessage `json:"result"`
	// NothingExpected says the caller knows the tool returns nothing by
	// design (judge trace: every call of it in the input returned the
	// same empty result), so that an empty result is SATISFIED, as for a
	// tool whose description says it returns nothing (see
	// [Toolset.Outcome]). Not part of the HTTP request.
	NothingExpected bool `json:"-"`
	// Goal is what the user asked for (Call.Goal when empty). A result that would be SATISFIED
	// is checked against it (see [GoalCheck]): deterministically, then by
	// the model when one is configured; undecided, it is reported as not
	// checked.
	Goal string `json:"goal,omitempty"`
	// Checked, when set, is what [Toolset.Check] returned for this call,
	// valid: Outcome then reads the call's arguments from its
	// normalized arguments ([CheckResult.Arguments], which must be what ran) instead of decoding
	// Arguments again, and leaves the arguments' repeated keys to the
	// check, which reported them.
	Checked *CheckResult `json:"-"`
}

// Outcome is the verdict on a finished call.
type Outcome struct {
	Status Status `json:"status"`
	Reason string `json:"reason"`
	// Result holds the issues found: the failure, the empty result, the
	// output-schema violations, the clarification asked.
	Result *result.ValidationResult `json:"result"`
	// ExtractedFacts are the identifiers and key fields of the result.
	ExtractedFacts []Fact `json:"extracted_facts"`
	// SuggestedNextTools are the tools to call next, with the arguments
	// known for them.
	SuggestedNextTools []NextTool `json:"suggested_next_tools"`
	// Goal is the verdict on the request's goal; nil without a goal or
	// when the status was decided before (a failure, an empty result).
	Goal *GoalCheck `json:"goal,omitempty"`
	// Progress is the session's verdict; nil without a session.
	Progress *Progress `json:"progress,omitempty"`
	// Compacted is the result's payload (the JSON inside an MCP text
	// content, the structuredContent, or the result itself) compacted to
	// the checker's budget; nil when it fits, for a failure, whose error
	// payload is never compacted, and with [WithoutCompaction].
	Compacted *Compacted `json:"compacted,omitempty"`
}

// Fact is one identifier or key field of a result, at its path.
type Fact struct {
	Path  string `json:"path"`
	Value any    `json:"value"`
}

// NextTool is a tool to call next: why, and the arguments already known
// (identifiers from the result, parameters of the call).
type NextTool struct {
	Tool      string         `json:"tool"`
	Reason    string         `json:"reason"`
	Arguments map[string]any `json:"arguments,omitempty"`
	// Needs names the identifying parameters that no fact of the same
	// entity could fill, with the value each wants: "repo_id (the
	// repo's id)". They are left out of Arguments, never guessed.
	Needs []string `json:"needs,omitempty"`
}

// Limits of fact extraction.
const (
	maxFacts     = 50
	maxFactDepth = 4
)

// Outcome classifies a finished call: an explicit failure (MCP isError, an
// error field, success false, a non-zero exit code, an HTTP status of 400
// or more) is FAILED; a clarification envelope is NEED_USER_INPUT; an
// empty or no-signal result is NEEDS_MORE_TOOLS; a result that breaks the
// tool's output schema is FAILED (a failure is never checked against the
// output schema); an empty result of a tool that returns nothing by design
// (its description says so, or the request's NothingExpected) is
// SATISFIED, with no empty_result warning; otherwise SATISFIED, or NEEDS_MORE_TOOLS when a discovery
// tool returned candidates and a follow-up tool is known. With a session,
// the outcome is recorded and Progress says whether to go on. Outcome
// returns a *CallError when the result or arguments are not JSON (or hold
// a number beyond the float64 range or invalid UTF-8); keys repeated in
// them are duplicate_key warnings.
func (ts *Toolset) Outcome(ctx context.Context, req OutcomeRequest) (*Outcome, error) {
	start := time.Now()
	args, argDups, res, resDups, err := readOutcome(req)
	if err != nil {
		return nil, err
	}
	ct := ts.contracts[req.Tool]
	b := result.NewBuilder().Ran(ValidationType).
		Add(duplicateKeys(argDups, "arguments", "of the arguments")...).
		Add(duplicateKeys(resDups, "", "of the result")...)
	o := &Outcome{ExtractedFacts: []Fact{}, SuggestedNextTools: []NextTool{}}
	decided, undecided := 1, 0
	if ct == nil {
		b.Add(result.Issue{Severity: result.Info, Type: result.NotChecked, Location: "tool",
			Message:    fmt.Sprintf("Tool '%s' has no contract here, so its result was not checked against an output schema", result.Clip(req.Tool, 80)),
			Suggestion: "Give the tool's definition (tools in the request, or the definitions judge reads) to check its output schema",
			Rule:       "toolcall.no_contract"})
		undecided++
	}

	payload, env := inspect(res)
	errSig, empty, checked, err := ts.judgeResult(ctx, b, o, ct, req, res, payload, env)
	if err != nil {
		return nil, err
	}
	if checked {
		decided++
	}
	if o.Status != Failed {
		o.ExtractedFacts = extractFacts(payload)
	}
	candidates := false
	if o.Status == "" {
		o.Status, o.Reason = Satisfied, "the tool returned a result with content"
		if next := ts.nextTools(ct, args, o.ExtractedFacts); len(next) > 0 {
			o.SuggestedNextTools = next
			if isDiscovery(req.Tool) {
				o.Status, candidates = NeedsMoreTools, true
				o.Reason = fmt.Sprintf("'%s' found candidates; call %s with one of them", req.Tool, quoteList(toolNames(next), " or "))
			}
		}
	} else if o.Status == NeedsMoreTools {
		o.SuggestedNextTools = ts.alternatives(req.Tool)
	}
	goal := req.Goal
	if goal == "" {
		goal = req.Call.Goal
	}
	if strings.TrimSpace(goal) != "" && (o.Status == Satisfied || candidates) {
		gc, ok := ts.checkGoal(ctx, b, goal, req.Tool, args, payload)
		o.Goal = gc
		if ok {
			decided++
		} else {
			undecided++
		}
		switch gc.Verdict {
		case GoalAnswered:
			o.Status, o.Reason = Satisfied, "the result answers the goal: "+gc.Reason
		case GoalNotAnswered:
			o.Status, o.Reason = NeedsMoreTools, "the result does not answer the goal: "+gc.Reason
		}
	}
	if WantsAll(goal) && (o.Status == Satisfied || candidates) {
		if t, ok := truncated(payload); ok {
			o.Status = NeedsMoreTools
			o.Reason = fmt.Sprintf("the goal asks for %s, and the result is one page of more: %s", strings.ToLower(fullCoverage.FindString(goal)), t.why)
			o.SuggestedNextTools = append([]NextTool{nextPageTool(req.Tool, ct, args, t)}, o.SuggestedNextTools...)
		}
	}
	b.Confidence(float64(decided) / float64(decided+undecided))
	o.Result = b.Duration(time.Since(start)).Build()
	// A failure is an error payload: kept verbatim, never compacted. Any
	// other result is compacted by its payload's fields (the JSON inside
	// an MCP text content, or the structuredContent).
	if o.Status != Failed && !ts.checker.noCompact && !surelyFits(len(req.Result), ts.checker.budget) {
		if c := CompactFor(payload, ts.checker.budget, args); c.Chars < c.OriginalChars || c.OverBudget {
			o.Compacted = &c
		}
	}
	if req.SessionID != "" {
		// The digests are taken once, outside the store's update, which a
		// store may run more than once.
		obs := observation{call: signature(req.Tool, args), err: errSig, res: signature(res), empty: empty}
		if o.Progress, err = ts.record(ctx, req, obs); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// readOutcome decodes the call's arguments (the normalized ones of a valid
// check given with the request) and its result, with the keys repeated in
// each; an error is a *CallError.
func readOutcome(req OutcomeRequest) (args any, argDups []jsonvalue.Duplicate, res any, resDups []jsonvalue.Duplicate, err error) {
	if req.Checked != nil && req.Checked.Result != nil && req.Checked.Result.Valid {
		args = req.Checked.Arguments()
	} else if args, argDups, err = decodeArguments(req.Arguments); err != nil {
		return nil, nil, nil, nil, err
	}
	if len(req.Result) > MaxResultBytes {
		return nil, nil, nil, nil, &CallError{Field: "result", Msg: fmt.Sprintf("the result is larger than %d bytes", MaxResultBytes)}
	}
	if res, resDups, err = jsonvalue.DecodeDuplicates(req.Result, 0); err != nil {
		return nil, nil, nil, nil, jsonCallError("result", err)
	}
	return args, argDups, res, resDups, nil
}

// record adds an outcome, obs, to the session of req and returns the
// session's progress: whether to go on, and what to show on escalation.
func (ts *Toolset) record(ctx context.Context, req OutcomeRequest, obs observation) (*Progress, error) {
	var p Progress
	err := ts.checker.store.Update(ctx, req.SessionID, func(s *Session) error {
		if len(req.ShownTools) > 0 {
			s.Shown = slices.Clone(req.ShownTools)
		}
		p = ts.checker.limits.observe(s, obs, req.Tool)
		if p.Verdict == Escalate {
			p.Show, p.Reason = ts.widen(s.Shown, p.Reason)
			if len(p.Show) > 0 {
				s.Shown = slices.Clone(p.Show)
			}
		}
		return nil
	})
	if err != nil {
		return nil, sessionError(req.SessionID, err)
	}
	return &p, nil
}

// judgeResult sets o's status and reason from what the result res (its
// payload and envelope) says: a failure the tool reported, a question for
// the user, a break of the tool's output schema, an empty result. It
// reports each on b, and returns the failure's signature (for the
// session), whether the result was empty, and whether the output schema
// was checked. A status left empty is for the caller to decide.
func (ts *Toolset) judgeResult(ctx context.Context, b *result.Builder, o *Outcome, ct *Contract, req OutcomeRequest, res, payload any, env envelope) (errSig string, empty, checked bool, err error) {
	switch {
	case env.failure != "":
		o.Status, o.Reason = Failed, fmt.Sprintf("the tool reported a failure: %s", env.failure)
		errSig = signature(env.failure, env.errorText)
		msg := fmt.Sprintf("Tool '%s' failed: %s", req.Tool, env.failure)
		if env.errorText != "" {
			msg += ": " + result.Clip(env.errorText, 300)
		}
		b.Add(result.Issue{Severity: result.Error, Type: result.ToolError, Location: env.failureAt, Message: msg,
			Suggestion: "Read the error, repair the arguments or choose another tool, and do not repeat the same call",
			Rule:       "toolcall." + env.failureRule})
	case env.clarify != "":
		o.Status, o.Reason = NeedUserInput, "the tool asks the user: "+env.clarify
		b.Add(result.Issue{Severity: result.Info, Type: result.NotChecked, Location: env.clarifyAt,
			Message:    fmt.Sprintf("Tool '%s' needs input from the user: %s", req.Tool, result.Clip(env.clarify, 300)),
			Suggestion: "Ask the user the question, with the candidates if any, instead of retrying the call",
			Rule:       "toolcall.need_user_input"})
	default:
		if ct != nil && ct.output != nil {
			if issues, err := ts.checkOutput(ctx, ct, res); err != nil {
				return "", false, false, err
			} else if len(issues) > 0 {
				b.Add(issues...)
				o.Status, o.Reason = Failed, fmt.Sprintf("the result breaks the output schema of '%s' (%d issues)", ct.Name, len(issues))
				errSig = signature("output_schema", issues)
			}
			checked = true
		}
		if o.Status == "" {
			why, at := emptiness(payload)
			if why != "" {
				if silent := silentByDesign(ct, req.NothingExpected); silent != "" {
					why = "" // what the tool returns: no empty_result
					o.Status, o.Reason = Satisfied, "the result is empty, as the tool returns nothing by design: "+silent
				}
			}
			if why != "" {
				o.Status, o.Reason, empty = NeedsMoreTools, "the result is empty: "+why, true
				b.Add(result.Issue{Severity: result.Warning, Type: result.EmptyResult, Location: at,
					Message:    fmt.Sprintf("Tool '%s' returned no results: %s", req.Tool, why),
					Suggestion: "Broaden the query or try another tool; do not repeat the same call",
					Rule:       "toolcall.empty"})
			}
		}
	}
	return errSig, empty, checked, nil
}

// nextPageTool is the call of tool, of contract ct (nil when unknown),
// that asks for the page after the one a call with args returned, t.
func nextPageTool(tool string, ct *Contract, args any, t truncation) NextTool {
	nt := NextTool{Tool: tool, Reason: "the next page of this call: " + t.why}
	if ct != nil {
		nt.Arguments, nt.Needs = ct.nextPage(asMap(args), t)
	} else {
		nt.Arguments, nt.Needs = maps.Clone(asMap(args)), []string{"the tool's contract, to know its page or cursor parameter"}
	}
	if len(nt.Needs) > 0 {
		nt.Reason += "; still needed: " + strings.Join(nt.Needs, ", ")
	}
	return nt
}

// envelope is what inspect found in a result.
type envelope struct {
	failure, failureAt, failureRule string // why it failed, where, which rule
	errorText                       string
	clarify, clarifyAt              string // the question asked, where
}

// inspect finds the payload of a result (structuredContent, JSON inside a
// text content, or the value itself) and the failure or clarification
// signals in the result and its payload.
func inspect(res any) (any, envelope) {
	var env envelope
	payload := res
	if m, ok := res.(map[string]any); ok {
		if content, ok := m["content"].([]any); ok {
			if sc, ok := m["structuredContent"]; ok && sc != nil {
				payload = sc // the JSON in its text content is not decoded
			} else {
				payload = contentPayload(content)
			}
			if b, _ := m["isError"].(bool); b {
				env.failure, env.failureAt, env.failureRule = "the result has isError true", "isError", "is_error"
				env.errorText = textOf(content)
				return payload, env
			}
		}
	}
	for _, v := range []any{res, payload} {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		if why, at, rule, text := failureOf(m); why != "" {
			env.failure, env.failureAt, env.failureRule, env.errorText = why, at, rule, text
			return payload, env
		}
		if text, at := errorEnvelope(m); text != "" {
			env.failure, env.failureAt, env.failureRule, env.errorText = "the result is an error envelope", at, "error_envelope", text
			return payload, env
		}
		if q, at := clarificationOf(m); q != "" {
			env.clarify, env.clarifyAt = q, at
			return payload, env
		}
	}
	at := "root" // where the payload sits in the result
	if m, ok := res.(map[string]any); ok {
		if _, ok := m["content"].([]any); ok {
			at = "content"
			if sc, ok := m["structuredContent"]; ok && sc != nil {
				at = "structuredContent"
			}
		}
	}
	if s, ok := payload.(string); ok {
		if matched, rule := textFailure(s); matched != "" {
			env.failure, env.failureAt, env.failureRule = fmt.Sprintf("the text says %q", result.Clip(matched, 200)), at, rule
			if strings.TrimSpace(s) != matched {
				env.errorText = strings.TrimSpace(s)
			}
			return payload, env
		}
	}
	// A result of several things (files, records) whose every item is an
	// error answered nothing: FAILED, so that the model reads the errors
	// and repairs the call, rather than SATISFIED.
	if n, first := everyItemError(payload); n > 0 {
		env.failure, env.failureAt, env.failureRule = describeItems(n), at, "every_item_error"
		env.errorText = result.Clip(first, 300)
	}
	return payload, env
}

// contentPayload is the payload of MCP content: the JSON inside a single
// text item when it holds JSON, the texts otherwise.
func contentPayload(content []any) any {
	var texts []any
	for _, c := range content {
		cm, _ := c.(map[string]any)
		if cm["type"] != "text" {
			if cm != nil {
				texts = append(texts, cm)
			}
			continue
		}
		t, _ := cm["text"].(string)
		if s := strings.TrimSpace(t); strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[") {
			if v, err := jsonvalue.Decode([]byte(s), 0); err == nil {
				texts = append(texts, v)
				continue
			}
		}
		texts = append(texts, t)
	}
	if len(texts) == 1 {
		return texts[0]
	}
	return texts
}

// textOf joins the texts of MCP content.
func textOf(content []any) string {
	var parts []string
	for _, c := range content {
		if t, ok := asMap(c)["text"].(string); ok && strings.TrimSpace(t) != "" {
			parts = append(parts, strings.TrimSpace(t))
		}
	}
	return strings.Join(parts, " ")
}

// failureOf finds an explicit failure in an object: an error field that
// is not empty, success false, a non-zero exit code, an HTTP status of 400
// or more.
func failureOf(m map[string]any) (why, at, rule, text string) {
	if e, ok := m["error"]; ok && !isEmpty(e) && e != false {
		return "the result has an error field", "error", "error_field", errorText(e)
	}
	if v, ok := m["valid"].(bool); ok && !v {
		return "the result has valid false", "valid", "valid_false", errorText(firstOf(m, "message", "issues", "suggestions"))
	}
	if s, ok := m["success"].(bool); ok && !s {
		return "the result has success false", "success", "success_false", errorText(m["message"])
	}
	if s, ok := m["ok"].(bool); ok && !s {
		return "the result has ok false", "ok", "success_false", errorText(m["message"])
	}
	for _, k := range []string{"exit_code", "exitCode", "returncode", "return_code"} {
		if n, ok := intOf(m[k]); ok && n != 0 {
			return fmt.Sprintf("the exit code is %d", n), k, "exit_code", errorText(firstOf(m, "stderr", "message"))
		}
	}
	for _, k := range []string{"status_code", "statusCode", "http_status", "status"} {
		if n, ok := intOf(m[k]); ok && n >= 400 && n < 600 {
			return fmt.Sprintf("the HTTP status is %d", n), k, "http_status", errorText(firstOf(m, "message", "body"))
		}
	}
	return "", "", "", ""
}

func firstOf(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return v
		}
	}
	return nil
}

// errorText renders an error value for a message.
func errorText(e any) string {
	switch x := e.(type) {
	case nil:
		return ""
	case string:
		return strings.TrimSpace(x)
	case map[string]any:
		for _, k := range []string{"message", "detail", "error", "reason"} {
			if s, ok := x[k].(string); ok && s != "" {
				return s
			}
		}
	}
	return shortJSON(e)
}

// intOf reads an integral JSON number.
func intOf(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

// clarificationOf finds a request for the user's input: a need_user_input
// flag, or a list of ambiguous candidates.
func clarificationOf(m map[string]any) (question, at string) {
	for _, k := range []string{"need_user_input", "needs_user_input", "requires_user_input", "needs_clarification", "need_clarification"} {
		v, ok := m[k]
		if !ok || isEmpty(v) || v == false {
			continue
		}
		q := errorText(firstOf(m, "question", "prompt", "message", "reason"))
		if s, ok := v.(string); ok && q == "" {
			q = s
		}
		if vm, ok := v.(map[string]any); ok && q == "" {
			q = errorText(firstOf(vm, "question", "prompt", "message", "reason"))
		}
		if q == "" || q == "true" {
			q = "the tool needs more information"
		}
		return q, k
	}
	for _, k := range []string{"ambiguous", "ambiguities", "ambiguous_matches", "ambiguous_contacts", "disambiguation"} {
		v, ok := m[k]
		if !ok || isEmpty(v) || v == false {
			continue
		}
		if l, ok := v.([]any); ok && len(l) < 2 && k != "ambiguities" {
			continue
		}
		cands := asList(v)
		if len(cands) == 0 {
			cands = asList(firstOf(m, "candidates", "matches", "options"))
		}
		q := errorText(firstOf(m, "question", "prompt", "message"))
		if q == "" {
			q = "the request is ambiguous"
		}
		if len(cands) > 0 {
			q += fmt.Sprintf(" (%d candidates)", len(cands))
		}
		return q, k
	}
	return "", ""
}

// noResults matches short texts that say nothing was found.
var noResults = regexp.MustCompile(`(?i)^\W*(no (results?|matches|matching|items|records|entries|data|\w+ found)|nothing found|not found|0 (results|matches|items)|none found|empty)\b`)

// emptiness says why a payload carries no signal, and where, or "".
func emptiness(v any) (why, at string) {
	switch x := v.(type) {
	case nil:
		return "the result is null", "root"
	case string:
		s := strings.TrimSpace(x)
		if s == "" {
			return "the result is an empty text", "root"
		}
		if len(s) < 200 && noResults.MatchString(s) {
			return fmt.Sprintf("the tool said %q", result.Clip(s, 80)), "root"
		}
	case []any:
		if len(x) == 0 {
			return "the result is an empty list", "root"
		}
		for _, e := range x {
			if w, _ := emptiness(e); w == "" {
				return "", ""
			}
		}
		return "every item of the result is empty", "root"
	case map[string]any:
		if len(x) == 0 {
			return "the result is an empty object", "root"
		}
		// An object whose lists are all empty, with nothing else but
		// counts of zero and paging fields, found nothing.
		var lists []string
		var small [8]string
		for _, k := range jsonvalue.SortedKeys(small[:0], x) {
			switch e := x[k].(type) {
			case []any:
				if len(e) > 0 {
					return "", ""
				}
				lists = append(lists, k)
			case json.Number:
				if n, ok := intOf(e); !ok || n != 0 {
					if !isPaging(k) {
						return "", ""
					}
				}
			case nil:
			case bool, string:
				if !isPaging(k) {
					return "", ""
				}
			default:
				return "", ""
			}
		}
		if len(lists) > 0 {
			return fmt.Sprintf("%s is an empty list", lists[0]), locationOf(lists[0])
		}
	}
	return "", ""
}

// isPaging reports whether k names a paging or status field that carries
// no answer by itself.
func isPaging(k string) bool {
	switch strings.ToLower(k) {
	case "page", "per_page", "perpage", "page_size", "pagesize", "cursor", "next_cursor", "nextcursor", "next",
		"next_page", "offset", "limit", "has_more", "hasmore", "incomplete_results", "total_pages", "query", "q", "type", "kind":
		return true
	}
	return false
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(x) == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// isIdentifierKey reports whether k names an identifier or a key field
// worth keeping as a fact.
func isIdentifierKey(k string) bool {
	l := strings.ToLower(k)
	switch l {
	case "id", "uuid", "number", "name", "title", "url", "html_url", "uri", "path", "sha", "key", "slug",
		"status", "state", "email", "login", "full_name", "owner", "repo", "ref", "branch", "version":
		return true
	}
	return strings.HasSuffix(l, "_id") || strings.HasSuffix(k, "Id") || strings.HasSuffix(k, "ID")
}

// extractFacts collects the identifiers and key fields of a payload, in
// document order of sorted keys, at most maxFacts.
func extractFacts(v any) []Fact {
	facts := []Fact{}
	var walk func(v any, path []string, arrays []bool, depth int)
	walk = func(v any, path []string, arrays []bool, depth int) {
		if len(facts) >= maxFacts || depth > maxFactDepth {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			var small [8]string
			keys := jsonvalue.SortedKeys(small[:0], x)
			for _, k := range keys {
				if len(facts) >= maxFacts {
					return
				}
				switch e := x[k].(type) {
				case string, json.Number, bool:
					if isIdentifierKey(k) {
						if s, ok := e.(string); ok && (s == "" || len(s) > 300) {
							continue
						}
						facts = append(facts, Fact{Path: renderPath(append(path, k), append(arrays, false)), Value: e})
					}
				}
			}
			for _, k := range keys {
				switch x[k].(type) {
				case map[string]any, []any:
					walk(x[k], append(slices.Clip(path), k), append(slices.Clip(arrays), false), depth+1)
				}
			}
		case []any:
			for i, e := range x {
				if i >= 10 {
					break
				}
				walk(e, append(slices.Clip(path), fmt.Sprint(i)), append(slices.Clip(arrays), true), depth+1)
			}
		}
	}
	walk(v, nil, nil, 0)
	return facts
}

// renderPath writes a path in the specification's notation; arrays[i]
// says whether tokens[i] indexes an array.
func renderPath(tokens []string, arrays []bool) string {
	return location.Path(tokens, func(i int) bool { return arrays[i] })
}

// checkOutput validates an MCP result's structuredContent against the
// output schema; a result without structuredContent breaks the MCP rule
// that a tool with an output schema returns it.
func (ts *Toolset) checkOutput(ctx context.Context, ct *Contract, res any) ([]result.Issue, error) {
	m, _ := res.(map[string]any)
	sc, ok := m["structuredContent"]
	if !ok {
		return []result.Issue{{Severity: result.Error, Type: result.MissingField, Location: "structuredContent",
			Message:    fmt.Sprintf("Tool '%s' declares an output schema but its result has no structuredContent", ct.Name),
			Suggestion: "Return the result as structuredContent matching the output schema (MCP requires it of tools with an outputSchema)",
			Rule:       "toolcall.output_schema"}}, nil
	}
	if ct.output.valid(sc, nil) {
		return nil, nil
	}
	found, err := ct.output.validate(ctx, sc)
	if err != nil {
		return nil, fmt.Errorf("toolcall: %s: output schema: %w", ct.Name, err)
	}
	issues := make([]result.Issue, 0, len(found))
	for _, f := range found {
		is := f.Issue
		is.Location = schema.InstanceLocation(m, append([]string{"structuredContent"}, f.Path...))
		issues = append(issues, is)
	}
	return issues, nil
}

// isDiscovery reports whether a tool's name says it finds candidates
// rather than acting on one.
func isDiscovery(name string) bool {
	verb, _, _ := strings.Cut(strings.ToLower(name), "_")
	switch verb {
	case "search", "list", "find", "lookup", "query", "discover":
		return true
	}
	return false
}

// stem is a tool name's object: "list_issues" → "issue".
func stem(name string) string {
	_, obj, ok := strings.Cut(strings.ToLower(name), "_")
	if !ok {
		return ""
	}
	obj = strings.TrimSuffix(obj, "s")
	return obj
}

// nextTools suggests the tools to call after a successful call: the
// contract's declared follow-ups, else, after a discovery tool, the
// execution tools on the same object (list_issues → get_issue,
// update_issue), with the arguments known from the call and the result.
// A tool whose description marks it deprecated is never suggested, and of
// the guessed ones, none that writes (Contract.Writes) on the very path or
// entity the call, which did not write, just read or listed
// (actsOnCallTarget).
func (ts *Toolset) nextTools(ct *Contract, args any, facts []Fact) []NextTool {
	var names []string
	reason := "a declared follow-up of this tool"
	declared := ct != nil && len(ct.NextTools) > 0
	if declared {
		names = ct.NextTools
	} else if ct != nil && isDiscovery(ct.Name) {
		reason = "acts on what this discovery tool found"
		s := stem(ct.Name)
		for _, n := range ts.names {
			if n != ct.Name && !isDiscovery(n) && s != "" && stem(n) == s {
				names = append(names, n)
			}
		}
		if len(names) > 5 {
			names = names[:5]
		}
	}
	var out []NextTool
	for _, n := range names {
		nt := NextTool{Tool: n, Reason: reason}
		next, ok := ts.contracts[n]
		if ok && next.Deprecated {
			continue // its own description says not to use it
		}
		if ok {
			nt.Arguments, nt.Needs = knownArguments(next, asMap(args), facts, ct.Name)
			if !declared && next.Writes && !ct.Writes && actsOnCallTarget(next, nt.Arguments, nt.Needs, asMap(args)) {
				// A tool that writes, guessed from a name, on the very
				// path or entity the call just read or listed
				// (list_directory → create_directory of the same
				// directory): never what the read was for.
				continue
			}
			if len(nt.Needs) > 0 {
				nt.Reason += "; still needed: " + strings.Join(nt.Needs, ", ")
			}
		}
		out = append(out, nt)
	}
	return out
}

// knownArguments fills the required parameters of a next tool that the
// call's arguments name exactly, and those that identify an entity
// (isIDParam) from a fact of the same entity: repo_id from the
// repository's id, issue_number from the issue's number, never from
// another entity's id. A fact's entity is the object that holds it
// (repository.id, issues[0].number), or, for a fact at the root or in a
// generic list (items, results), the object of the tool that returned it
// (from). needed names the identifying parameters no fact could fill.
func knownArguments(next *Contract, args map[string]any, facts []Fact, from string) (known map[string]any, needed []string) {
	known = map[string]any{}
	for _, p := range next.Params {
		if !p.Required {
			continue
		}
		if v, ok := args[p.Name]; ok {
			known[p.Name] = v
			continue
		}
		if !isIDParam(p.Name) {
			continue
		}
		entity, field := paramEntity(p.Name, next.Name)
		filled := false
		for _, f := range facts {
			fe, ff := factEntity(f.Path, from)
			if ff == p.Name || (ff == field && sameEntity(fe, entity)) {
				known[p.Name], filled = f.Value, true
				break
			}
		}
		switch {
		case filled:
		case strings.EqualFold(field, p.Name):
			needed = append(needed, p.Name)
		default:
			needed = append(needed, fmt.Sprintf("%s (the %s's %s)", p.Name, entity, field))
		}
	}
	if len(known) == 0 {
		known = nil
	}
	return known, needed
}

// paramEntity splits an identifying parameter into the entity it names
// and the field it wants: repo_id → repo, id; issue_number → issue,
// number; a bare id → the next tool's object, id.
func paramEntity(param, tool string) (entity, field string) {
	l := strings.ToLower(param)
	for _, suf := range []string{"_id", "_number", "_key", "_sha", "_slug", "_uuid"} {
		if e, ok := strings.CutSuffix(l, suf); ok && e != "" {
			return e, suf[1:]
		}
	}
	if e, ok := strings.CutSuffix(param, "Id"); ok && e != "" {
		return strings.ToLower(e), "id"
	}
	if e, ok := strings.CutSuffix(param, "ID"); ok && e != "" {
		return strings.ToLower(e), "id"
	}
	return stem(tool), l
}

// factEntity is the entity a fact belongs to and its field name:
// repository.id → repository, id; items[0].number from search_issues →
// issue, number.
func factEntity(path, from string) (entity, field string) {
	field = path
	parent := ""
	if i := strings.LastIndexAny(path, ".]"); i >= 0 {
		field = path[i+1:]
		parent = path[:i+1]
		parent = strings.TrimSuffix(parent, ".")
		for strings.HasSuffix(parent, "]") {
			if j := strings.LastIndex(parent, "["); j >= 0 {
				parent = parent[:j]
			} else {
				break
			}
		}
		if j := strings.LastIndexAny(parent, ".]"); j >= 0 {
			parent = parent[j+1:]
		}
	}
	switch strings.ToLower(parent) {
	case "", "root", "items", "results", "result", "data", "nodes", "entries", "records", "hits", "list", "values", "content", "edges", "node":
		return stem(from), field
	}
	return strings.ToLower(parent), field
}

// sameEntity reports whether two entity names name the same thing:
// equal once singular, or one a short form of the other (repo,
// repository).
func sameEntity(a, b string) bool {
	a, b = singular(a), singular(b)
	if a == "" || b == "" {
		return false
	}
	if a == b {
		return true
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a) >= 3 && strings.HasPrefix(b, a)
}

// singular strips a plural ending: repositories → repository, issues →
// issue.
func singular(s string) string {
	s = strings.ToLower(s)
	switch {
	case strings.HasSuffix(s, "ies") && len(s) > 3:
		return s[:len(s)-3] + "y"
	case strings.HasSuffix(s, "ses") || strings.HasSuffix(s, "xes"):
		return s[:len(s)-2]
	case strings.HasSuffix(s, "s") && !strings.HasSuffix(s, "ss"):
		return s[:len(s)-1]
	}
	return s
}

// isIDParam reports whether a parameter names an entity, so that a fact
// may fill it: an id, a number, a key, a path. Descriptive fields (title,
// body) are the model's to choose.
func isIDParam(name string) bool {
	l := strings.ToLower(name)
	switch l {
	case "id", "uuid", "number", "sha", "key", "slug", "path", "owner", "repo", "login", "email", "url", "uri":
		return true
	}
	return strings.HasSuffix(l, "_id") || strings.HasSuffix(l, "_number") || strings.HasSuffix(name, "Id") || strings.HasSuffix(l, "_key")
}

// alternatives suggests, after an empty result, the other discovery tools
// on the same object.
func (ts *Toolset) alternatives(tool string) []NextTool {
	out := []NextTool{}
	s := stem(tool)
	if s == "" {
		return out
	}
	for _, n := range ts.names {
		if n != tool && isDiscovery(n) && stem(n) == s && !ts.contracts[n].Deprecated {
			out = append(out, NextTool{Tool: n, Reason: "another way to find " + s + "s, as this call found none"})
		}
	}
	return out
}

func toolNames(next []NextTool) []string {
	var ns []string
	for _, n := range next {
		ns = append(ns, n.Tool)
	}
	return ns
}

// returnsNothing matches a description's words saying the tool returns
// nothing: "returns nothing", "no return value", "does not return
// anything", "will not obtain new information", "only appends the thought
// to the log". silentByDesign refuses a match followed by a condition
// ("returns nothing if the user is unknown"): there an empty result is an
// answer that nothing was found.
var returnsNothing = regexp.MustCompile(`(?i)\b(?:` +
	`(?:returns?|gives?|yields?|outputs?|produces?)\s+(?:nothing|no\s+(?:value|output|results?|information|data)|(?:an\s+)?empty\s+(?:result|response|output))` +
	`|no\s+return(?:ed)?\s+value|without\s+(?:a\s+)?return\s+value` +
	`|(?:does\s+not|doesn't|do\s+not|don't|will\s+not|won't|never)\s+(?:return|obtain|retrieve|fetch|give|produce)\s+(?:anything|(?:any|new)\s+(?:information|data|values?|output|results?)|(?:a\s+)?value|information|data|output)` +
	`|(?:just|only|simply|merely)\s+(?:appends?|adds?|writes?|logs?|records?|stores?)\b[^.]{0,60}?\b(?:to|in|into)\s+(?:the\s+|a\s+|its\s+|their\s+)?(?:\w+'s?\s+)?(?:log|journal|scratch\s?pad|notes?|memory)` +
	`)`)

// conditional is what, after the words of returnsNothing, makes them a
// condition or an exception rather than the tool's nature ("returns
// nothing if…", "returns nothing but the id").
var conditional = regexp.MustCompile(`(?i)^\s*(?:if|when|whenever|unless|until|for\s+(?:an?\s+)?(?:unknown|missing|invalid|non-?existent)|in\s+case|where|once|but|else|more|other|except|beyond|besides)\b`)

// silentByDesign says why an empty result of the tool of ct is what the
// tool returns rather than a failure to find something: its description
// says it returns nothing (the words quoted), or the caller knows it
// (known); "" otherwise.
func silentByDesign(ct *Contract, known bool) string {
	if known {
		return "every call of it returned the same empty result"
	}
	if ct == nil {
		return ""
	}
	for _, loc := range returnsNothing.FindAllStringIndex(ct.Description, -1) {
		if !conditional.MatchString(ct.Description[loc[1]:]) {
			return fmt.Sprintf("its description says %q", result.Clip(ct.Description[loc[0]:loc[1]], 80))
		}
	}
	return ""
}
