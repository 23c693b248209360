package trace

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/agentjudge/judge/layer/criteria"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
)

// ValidationType is the validation type a trace's result reports.
const ValidationType = "trace"

// The rule ids of the issues of policy rules: a violation of rule NAME is
// "trace.rule.NAME", an evaluation of it not decided
// "trace.rule_undecided.NAME".
const (
	RuleID          = "trace.rule."
	UndecidedRuleID = "trace.rule_undecided."
)

// Checker checks conversations against a toolset and policy rules. It is
// safe for concurrent use.
type Checker struct {
	ts    *toolcall.Toolset
	rules []compiledRule
	tools []string
	// hasEnd is whether a rule is evaluated at the end of a conversation.
	hasEnd bool
	// silent are the tools that returned the same empty result at every
	// call of the input (ForInput): they return nothing by design.
	silent map[string]bool
}

// New returns a Checker of the calls of ts with the policy rules rs (nil:
// none). The toolset's checker keeps the sessions that give the progress
// verdicts: one fresh session per checked conversation. A rule that does
// not compile, or that names a tool the toolset does not have (in its
// tools, or as calls_of.NAME), gives a *RuleError: such a rule would
// never apply.
func New(ts *toolcall.Toolset, rs *Rules) (*Checker, error) {
	if ts == nil {
		return nil, errors.New("trace: no toolset")
	}
	rules, err := compileRules(rs)
	if err != nil {
		return nil, err
	}
	if err := checkToolNames(ts, rules); err != nil {
		return nil, err
	}
	ch := &Checker{ts: ts, rules: rules, tools: ts.Names()}
	for _, r := range rules {
		ch.hasEnd = ch.hasEnd || r.end
	}
	return ch, nil
}

// Limits of ForInput's observation of silent tools: a tool returns
// nothing by design when it returned the same empty result at every call
// of the input, in at least minSilentConversations conversations and
// minSilentCalls calls (one empty search is not a tool's nature).
const (
	minSilentConversations = 2
	minSilentCalls         = 3
)

// ForInput returns a Checker like c for the conversations of one input:
// it has read them for the tools that returned the same empty result at
// every call, in every conversation (at least 3 calls in 2
// conversations), and takes an empty result of such a tool for what the
// tool returns by design (SATISFIED), not for a failure to find something
// — as a tool whose description says it returns nothing. Check each
// conversation of the input with it.
func (c *Checker) ForInput(ctx context.Context, convs []Conversation) (*Checker, error) {
	type seen struct {
		result        string
		same          bool
		calls, convs  int
		lastConvIndex int
	}
	byTool := map[string]*seen{}
	for ci, conv := range convs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		names := map[string]string{} // call id → tool
		for _, m := range conv.Messages {
			for _, tc := range m.ToolCalls {
				names[tc.ID] = tc.Name
			}
			if m.Role != "tool" && m.Role != "function" {
				continue
			}
			tool := names[m.ToolCallID]
			if tool == "" || m.ToolCallID == "" {
				tool = m.Name
			}
			if tool == "" {
				continue
			}
			content := strings.TrimSpace(m.Content)
			sn := byTool[tool]
			if sn == nil {
				sn = &seen{result: content, same: true, lastConvIndex: -1}
				byTool[tool] = sn
			}
			sn.same = sn.same && content == sn.result
			sn.calls++
			if sn.lastConvIndex != ci {
				sn.convs, sn.lastConvIndex = sn.convs+1, ci
			}
		}
	}
	out := *c
	out.silent = nil
	for _, tool := range slices.Sorted(maps.Keys(byTool)) {
		sn := byTool[tool]
		if !sn.same || sn.calls < minSilentCalls || sn.convs < minSilentConversations {
			continue
		}
		// Empty as the outcome sees it: asked once, without a session.
		o, err := c.ts.Outcome(ctx, toolcall.OutcomeRequest{Call: toolcall.Call{Tool: tool, Arguments: json.RawMessage("{}")}, Result: resultJSON(sn.result)})
		if err != nil {
			var ce *toolcall.CallError
			if errors.As(err, &ce) {
				continue
			}
			return nil, err
		}
		if o.Status == toolcall.NeedsMoreTools && slices.ContainsFunc(o.Result.Issues, func(is result.Issue) bool { return is.Type == result.EmptyResult }) {
			if out.silent == nil {
				out.silent = map[string]bool{}
			}
			out.silent[tool] = true
		}
	}
	return &out, nil
}

// SilentTools are the tools the Checker takes for returning nothing by
// design from what it read of its input (ForInput), sorted.
func (c *Checker) SilentTools() []string {
	return slices.Sorted(maps.Keys(c.silent))
}

// Report is the check of one conversation.
type Report struct {
	ID     string                   `json:"id"`
	Reward *float64                 `json:"reward,omitempty"`
	Result *result.ValidationResult `json:"result"`
	Calls  []CallReport             `json:"calls"`
	Counts Counts                   `json:"counts"`
	// Violations are the end rules (at "end") the conversation broke;
	// the call rules broken are in Calls.
	Violations []string `json:"violations,omitempty"`
	// Risk is the conversation's risk score (see Risk); 0 for a run that
	// crashed.
	Risk float64 `json:"risk"`
	// Rules counts, for each rule broken or undecided in the
	// conversation, its violations and undecided evaluations, in the
	// order of the rules file.
	Rules []RuleCount `json:"rules,omitempty"`
	// RunError is the error the run recorded when it crashed: the
	// conversation was not checked (or only the part recorded was).
	RunError *RunError `json:"run_error,omitempty"`
}

// RuleCount is what one rule found: its violations, the conversations
// with at least one, and its evaluations that could not be decided.
type RuleCount struct {
	Rule          string `json:"rule"`
	Violations    int    `json:"violations"`
	Conversations int    `json:"conversations"`
	Undecided     int    `json:"undecided"`
}

// CallReport is what one call went through: its check, its outcome, the
// session's verdict, the rules it broke.
type CallReport struct {
	// Location is messages[i].tool_calls[j].
	Location string `json:"location"`
	Tool     string `json:"tool"`
	// Valid is the pre-execution check's verdict.
	Valid bool `json:"valid"`
	// Status is the outcome of its result; "" when no result followed.
	Status toolcall.Status `json:"status,omitempty"`
	Reason string          `json:"reason,omitempty"`
	// ResultAt is the location of the result message.
	ResultAt string `json:"result_at,omitempty"`
	// Progress is the session's verdict after the result.
	Progress   *toolcall.Progress `json:"progress,omitempty"`
	Violations []string           `json:"violations,omitempty"`

	// For the text review: the arguments as written, and the last user
	// message before the call.
	args, userBefore string
}

// Counts are the findings of one conversation or, summed, of many.
type Counts struct {
	Conversations  int `json:"conversations"`
	Calls          int `json:"calls"`
	InvalidCalls   int `json:"invalid_calls"`
	FailedResults  int `json:"failed_results"`
	Loops          int `json:"loops"`
	RuleViolations int `json:"rule_violations"`
	// RulesBroken counts the error rules a conversation broke, each once
	// however often (summed over conversations in a summary).
	RulesBroken int `json:"rules_broken"`
	// RuleWeight is the sum of the weights of the error rules broken,
	// each rule once a conversation (see Rule.Weight; 1 by default, when
	// it equals RulesBroken).
	RuleWeight float64 `json:"rule_weight"`
	// RuleWarnings counts the violations of warning rules (rules of
	// form), which are among RuleViolations.
	RuleWarnings int `json:"rule_warnings"`
	// RulesUndecided counts the rule evaluations that could not be
	// decided (a missing key, the cost limit): not_checked, never held.
	RulesUndecided int `json:"rules_undecided"`
	// Flagged counts conversations with an invalid call, a loop or a
	// violation of an error rule.
	Flagged int `json:"flagged"`
	// Crashed counts the conversations whose run recorded an error
	// (RunError): not checked, or only in part; never flagged nor
	// counted as passed.
	Crashed int `json:"crashed"`
}

func (c *Counts) add(o Counts) {
	c.Conversations += o.Conversations
	c.Calls += o.Calls
	c.InvalidCalls += o.InvalidCalls
	c.FailedResults += o.FailedResults
	c.Loops += o.Loops
	c.RuleViolations += o.RuleViolations
	c.RulesBroken += o.RulesBroken
	c.RuleWeight += o.RuleWeight
	c.RuleWarnings += o.RuleWarnings
	c.RulesUndecided += o.RulesUndecided
	c.Flagged += o.Flagged
	c.Crashed += o.Crashed
}

// Risk is a conversation's risk score: the weights of the distinct error
// rules the conversation broke (each rule once, however often; a rule
// weighs 1 unless its file says otherwise), plus its invalid calls and
// loop verdicts. Violations of warning rules (rules of form) and failed
// results do not count: a tool error is often the environment refusing a
// wrong request, which the agent then repairs, and counting them lowered
// the score's AUROC on the tuning half of the tau-bench file
// (docs/trace.md).
func Risk(c Counts) float64 {
	return c.RuleWeight + float64(c.InvalidCalls) + float64(c.Loops)
}

// Summary is the check of a set of conversations.
type Summary struct {
	Counts
	// ByReward splits the counts by the recorded reward, when the
	// conversations have one ("0", "0.5", "1"); runs that crashed are
	// left out (their reward is the harness's, not the agent's).
	ByReward map[string]Counts `json:"by_reward,omitempty"`
	// AUROC is how well Risk ranks the failed tasks (reward below 1, as
	// tau-bench counts a task solved only at reward 1) above the solved
	// ones (reward 1 or more): the chance that a random failed
	// conversation scores higher than a random solved one, ties counting
	// half. Runs that crashed are left out. Nil unless both groups are
	// present.
	AUROC *float64 `json:"auroc,omitempty"`
	// Rules counts each rule's violations, the conversations with one,
	// and its undecided evaluations: every rule of the file in its order
	// ([Checker.Summarize]), or the rules found in the reports by name
	// ([Summarize]).
	Rules []RuleCount `json:"rules,omitempty"`
	// SilentTools are the tools taken for returning nothing by design
	// from what they returned across the input ([Checker.ForInput]).
	SilentTools []string `json:"silent_tools,omitempty"`
}

// Solved is the reward from which a task counts as solved: tau-bench's
// own notion (a task is passed only at reward 1; a partial reward is a
// failure).
const Solved = 1.0

// Summarize counts reports. Its Rules are the rules broken or undecided
// in them, by name; [Checker.Summarize] lists every rule of the file.
func Summarize(reports []*Report) Summary {
	var s Summary
	byRule := map[string]*RuleCount{}
	for _, r := range reports {
		s.add(r.Counts)
		for _, rc := range r.Rules {
			t := byRule[rc.Rule]
			if t == nil {
				t = &RuleCount{Rule: rc.Rule}
				byRule[rc.Rule] = t
			}
			t.Violations += rc.Violations
			t.Conversations += rc.Conversations
			t.Undecided += rc.Undecided
		}
		if r.Reward != nil && r.RunError == nil {
			if s.ByReward == nil {
				s.ByReward = map[string]Counts{}
			}
			k := fmt.Sprint(*r.Reward)
			c := s.ByReward[k]
			c.add(r.Counts)
			s.ByReward[k] = c
		}
	}
	for _, k := range slices.Sorted(maps.Keys(byRule)) {
		s.Rules = append(s.Rules, *byRule[k])
	}
	var failed, solved []float64
	for _, r := range reports {
		switch {
		case r.Reward == nil || r.RunError != nil:
		case *r.Reward >= Solved:
			solved = append(solved, r.Risk)
		default:
			failed = append(failed, r.Risk)
		}
	}
	if a, ok := AUROC(failed, solved); ok {
		s.AUROC = &a
	}
	return s
}

// Summarize counts reports checked by c: as [Summarize], with every rule
// of c in Rules, in the order of the rules file, those never broken nor
// undecided with zero counts (a rule that never applies shows as such).
func (c *Checker) Summarize(reports []*Report) Summary {
	s := Summarize(reports)
	found := map[string]RuleCount{}
	for _, rc := range s.Rules {
		found[rc.Rule] = rc
	}
	s.Rules = make([]RuleCount, 0, len(c.rules))
	for _, r := range c.rules {
		rc, ok := found[r.Name]
		if !ok {
			rc = RuleCount{Rule: r.Name}
		}
		s.Rules = append(s.Rules, rc)
	}
	if len(s.Rules) == 0 {
		s.Rules = nil
	}
	if len(c.silent) > 0 {
		s.SilentTools = c.SilentTools()
	}
	return s
}

// AUROC is the area under the ROC curve of a score that should be higher
// for positives than for negatives: the share of (positive, negative)
// pairs ordered right, ties counting half. ok is false when a group is
// empty.
func AUROC(positives, negatives []float64) (auc float64, ok bool) {
	if len(positives) == 0 || len(negatives) == 0 {
		return 0, false
	}
	var sum float64
	for _, p := range positives {
		for _, n := range negatives {
			switch {
			case p > n:
				sum++
			case p == n:
				sum += 0.5
			}
		}
	}
	return sum / float64(len(positives)*len(negatives)), true
}

// pending is a call waiting for its result.
type pending struct {
	i, j int
	call map[string]any // the call as the rules see it
	tc   ToolCall
}

// Check checks one conversation: every call before execution, every
// result after it, the progress of the conversation's session, and the
// rules at every call. Findings are issues of the report's result, at
// messages[i].tool_calls[j] for a call and messages[k] for a result. It
// returns an error only when the context ends or the session store fails.
func (c *Checker) Check(ctx context.Context, conv Conversation) (*Report, error) {
	start := time.Now()
	sid, err := sessionID()
	if err != nil {
		return nil, err
	}
	w := c.newWalk(conv, sid)
	for i, m := range conv.Messages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		switch m.Role {
		case "user":
			w.lastUser, w.lastUserAt = m.Content, i
			w.lastAgentBeforeUser = w.lastAgent
			appendLine(&w.userText, m.Content)
		case "assistant":
			for j, tc := range m.ToolCalls {
				if err := w.call(ctx, i, j, tc); err != nil {
					return nil, err
				}
			}
			if strings.TrimSpace(m.Content) != "" {
				w.lastAgent = m.Content
				appendLine(&w.agentText, m.Content)
			}
		case "tool", "function":
			appendLine(&w.toolText, m.Content)
			if err := w.result(ctx, i, m); err != nil {
				return nil, err
			}
		}
	}
	rep, b := w.rep, w.b
	if c.hasEnd && (conv.RunError == nil || len(conv.Messages) > 0) {
		// A run that crashed before any message has no conversation for
		// the end rules to judge.
		vars := w.vars(int64(len(w.messages)), nil, w.messages, w.calls)
		rep.Violations = c.evalRules(ctx, b, &w.tally, true, "messages", "", vars)
		rep.Counts.RuleViolations += len(rep.Violations)
	}
	w.unanswered()
	c.countRules(rep, &w.tally)
	rep.Risk = Risk(rep.Counts)
	if conv.RunError != nil {
		reportRunError(b, &w.tally, rep, conv)
	}
	b.Confidence(float64(w.tally.decided) / float64(w.tally.decided+w.tally.unknown))
	rep.Result = b.Duration(time.Since(start)).Build()
	return rep, nil
}

// walk is the state of one conversation's check, message by message:
// what the rules read so far and the calls waiting for their result.
type walk struct {
	c     *Checker
	sid   string
	b     *result.Builder
	rep   *Report
	tally tally
	// messages are the conversation's messages converted for CEL once;
	// a call is converted when it is made, a result when it comes.
	messages                       []any
	userText, agentText, toolText  strings.Builder
	lastAgent, lastAgentBeforeUser string
	lastUser                       string
	lastUserAt                     int
	calls                          []any
	callsOf                        map[string][]any
	waiting                        map[string]*pending // by call id
	order                          []*pending          // every call, in order
}

func (c *Checker) newWalk(conv Conversation, sid string) *walk {
	w := &walk{c: c, sid: sid, b: result.NewBuilder().Ran(ValidationType),
		rep:        &Report{ID: conv.ID, Reward: conv.Reward, Calls: []CallReport{}},
		tally:      tally{decided: 1, rules: make([]RuleCount, len(c.rules))},
		lastUserAt: -1, callsOf: map[string][]any{}, waiting: map[string]*pending{}}
	w.rep.Counts.Conversations = 1
	w.messages = make([]any, len(conv.Messages))
	for i, m := range conv.Messages {
		w.messages[i] = criteria.Value(messageValue(m))
	}
	for _, n := range c.tools {
		w.callsOf[n] = []any{}
	}
	return w
}

// vars are the variables of the rules at a point of the conversation.
func (w *walk) vars(index int64, call any, previous, calls []any) map[string]any {
	return map[string]any{"messages": w.messages, "index": index, "call": call, "previous": previous,
		"last_user": w.lastUser, "last_user_index": int64(w.lastUserAt), "calls": calls, "calls_of": cloneCallsOf(w.callsOf),
		"last_agent": w.lastAgentBeforeUser, "user_text": w.userText.String(), "agent_text": w.agentText.String(), "tool_text": w.toolText.String()}
}

// call checks the call tc, the j-th of message i, before its execution
// and evaluates the rules at it.
func (w *walk) call(ctx context.Context, i, j int, tc ToolCall) error {
	at := fmt.Sprintf("messages[%d].tool_calls[%d]", i, j)
	cr := CallReport{Location: at, Tool: tc.Name, Valid: true, args: compactJSON(tc.Arguments), userBefore: w.lastUser}
	w.rep.Counts.Calls++
	chk, err := w.c.ts.Check(ctx, toolcall.Call{Tool: tc.Name, Arguments: tc.Arguments, SessionID: w.sid})
	var ce *toolcall.CallError
	switch {
	case errors.As(err, &ce):
		cr.Valid = false
		w.b.Add(result.Issue{Severity: result.Error, Type: result.SyntaxError, Location: at + ".arguments",
			Message:    fmt.Sprintf("The arguments of '%s' cannot be read: %s", result.Clip(tc.Name, 80), ce.Error()),
			Suggestion: "Send the arguments as one JSON object", Rule: "trace.arguments"})
	case err != nil:
		return err
	default:
		for _, is := range chk.Result.Issues {
			is.Location = relocate(at+".arguments", at, is.Location)
			w.b.Add(is)
		}
		cr.Valid = chk.Result.Valid
	}
	if !cr.Valid {
		w.rep.Counts.InvalidCalls++
	}
	cv := map[string]any{"id": tc.ID, "name": tc.Name, "arguments": criteria.Value(decodeValue(tc.Arguments)),
		"message": int64(i), "position": int64(j), "result": nil, "status": ""}
	vars := w.vars(int64(i), cv, w.messages[:i], slices.Clone(w.calls))
	cr.Violations = w.c.evalRules(ctx, w.b, &w.tally, false, at, tc.Name, vars)
	w.rep.Counts.RuleViolations += len(cr.Violations)
	p := &pending{i: i, j: j, call: cv, tc: tc}
	w.order = append(w.order, p)
	if tc.ID != "" {
		w.waiting[tc.ID] = p
	}
	w.calls = append(w.calls, cv)
	w.callsOf[tc.Name] = append(w.callsOf[tc.Name], cv)
	w.rep.Calls = append(w.rep.Calls, cr)
	return nil
}

// answered is the call the tool result m answers: by its tool_call_id, or,
// in older records that name the tool, the oldest unanswered call of it.
func (w *walk) answered(m Message) *pending {
	if p := w.waiting[m.ToolCallID]; p != nil {
		return p
	}
	for _, q := range w.order {
		if q.call["status"] == "" && (q.tc.Name == m.Name || m.Name == "") && m.ToolCallID == "" {
			return q
		}
	}
	return nil
}

// result checks the tool result m, message i, as the outcome of the call
// it answers.
func (w *walk) result(ctx context.Context, i int, m Message) error {
	at := fmt.Sprintf("messages[%d]", i)
	p := w.answered(m)
	if p == nil {
		w.b.Add(result.Issue{Severity: result.Warning, Type: result.NotChecked, Location: at,
			Message:    fmt.Sprintf("The tool result of %s answers no call of the conversation (tool_call_id %q)", at, result.Clip(m.ToolCallID, 80)),
			Suggestion: "Give each role \"tool\" message the tool_call_id of the call it answers", Rule: "trace.orphan_result"})
		w.tally.unknown++
		return nil
	}
	delete(w.waiting, p.tc.ID)
	res := resultJSON(m.Content)
	o, err := w.c.ts.Outcome(ctx, toolcall.OutcomeRequest{Call: toolcall.Call{Tool: p.tc.Name, Arguments: p.tc.Arguments, SessionID: w.sid},
		Result: res, NothingExpected: w.c.silent[p.tc.Name]})
	var ce *toolcall.CallError
	if errors.As(err, &ce) {
		// The arguments were unreadable, as the check said.
		p.call["status"] = "unchecked"
		return nil
	} else if err != nil {
		return err
	}
	cr := &w.rep.Calls[slices.Index(w.order, p)]
	cr.Status, cr.Reason, cr.ResultAt, cr.Progress = o.Status, o.Reason, at, o.Progress
	p.call["status"] = string(o.Status)
	p.call["result"] = criteria.Value(decodeValue(res))
	for _, is := range o.Result.Issues {
		if is.Rule == "toolcall.no_contract" {
			continue // said once by the call's check
		}
		is.Location = relocate(at, at, is.Location)
		w.b.Add(is)
	}
	if o.Status == toolcall.Failed {
		w.rep.Counts.FailedResults++
	}
	if o.Progress != nil && o.Progress.Verdict != toolcall.Continue {
		w.rep.Counts.Loops++
		w.b.Add(result.Issue{Severity: result.Warning, Type: result.PerformanceIssue, Location: at,
			Message:    fmt.Sprintf("The agent made no progress at the call of '%s' (%s): %s", result.Clip(p.tc.Name, 80), o.Progress.Verdict, o.Progress.Reason),
			Suggestion: "Change the call or the approach instead of repeating it; ask the user or hand over when stuck", Rule: "trace.loop"})
	}
	return nil
}

// unanswered notes every call that got no result: its outcome is unknown.
func (w *walk) unanswered() {
	for _, p := range w.order {
		if p.call["status"] == "" {
			w.tally.unknown++
			w.b.Add(result.Issue{Severity: result.Info, Type: result.NotChecked, Location: fmt.Sprintf("messages[%d].tool_calls[%d]", p.i, p.j),
				Message:    fmt.Sprintf("The call of '%s' has no result in the conversation, so its outcome was not checked", result.Clip(p.tc.Name, 80)),
				Suggestion: "Record the tool's result as a role \"tool\" message with the call's tool_call_id", Rule: "trace.no_result"})
		}
	}
}

// countRules adds to rep's counts the rules broken (and their weight),
// whether the conversation is flagged, and each rule's findings.
func (c *Checker) countRules(rep *Report, t *tally) {
	broken := map[string]bool{}
	for _, cr := range rep.Calls {
		for _, n := range cr.Violations {
			broken[n] = true
		}
	}
	for _, n := range rep.Violations {
		broken[n] = true
	}
	for k := range c.rules {
		if r := &c.rules[k]; broken[r.Name] && !r.warning {
			rep.Counts.RulesBroken++
			rep.Counts.RuleWeight += r.weight
		}
	}
	if rep.Counts.InvalidCalls+rep.Counts.Loops+rep.Counts.RulesBroken > 0 {
		rep.Counts.Flagged = 1
	}
	rep.Counts.RuleWarnings = t.warnings
	for k, rc := range t.rules {
		if rc.Violations+rc.Undecided == 0 {
			continue
		}
		rc.Rule = c.rules[k].Name
		if rc.Violations > 0 {
			rc.Conversations = 1
		}
		rep.Counts.RulesUndecided += rc.Undecided
		rep.Rules = append(rep.Rules, rc)
	}
}

// tally counts the verdicts that were decided and those that were not,
// for the result's confidence, and each rule's findings (by its index).
type tally struct {
	decided, unknown, warnings int
	rules                      []RuleCount
}

// reportRunError reports a run that recorded an error: a warning not_checked
// quoting it, and the conversation counted apart (Crashed). With no
// message recorded nothing was checked, and the confidence is 0; with
// messages, what they show was checked, but the conversation may be cut
// short, which counts as one verdict not decided.
func reportRunError(b *result.Builder, t *tally, rep *Report, conv Conversation) {
	rep.RunError = conv.RunError
	rep.Counts.Crashed = 1
	msg := fmt.Sprintf("The run ended with an error before any message was recorded, so nothing of the conversation was checked: %s", result.Clip(conv.RunError.Error, 300))
	if len(conv.Messages) == 0 {
		t.decided = 0
	} else {
		msg = fmt.Sprintf("The run ended with an error, so the conversation may be cut short and was checked only as recorded: %s", result.Clip(conv.RunError.Error, 300))
	}
	t.unknown++
	sug := "Fix the error of the harness or environment and run the task again; the recorded reward says nothing about the agent"
	if conv.RunError.Traceback != "" {
		sug = "Read the traceback (run_error.traceback), fix the error of the harness or environment and run the task again; the recorded reward says nothing about the agent"
	}
	b.Add(result.Issue{Severity: result.Warning, Type: result.NotChecked, Location: "info.error", Message: msg, Suggestion: sug, Rule: "trace.run_error"})
}

// evalRules evaluates the call rules (end false) at a call of tool, or the
// end rules (end true) after the last message, reporting at at; it
// returns the names of the rules broken.
func (c *Checker) evalRules(ctx context.Context, b *result.Builder, t *tally, end bool, at, tool string, vars map[string]any) []string {
	var broken []string
	where := fmt.Sprintf("the call of '%s'", result.Clip(tool, 80))
	if end {
		where = "the conversation"
	}
	for k := range c.rules {
		r := &c.rules[k]
		if r.end != end {
			continue
		}
		v, why := r.eval(ctx, tool, vars)
		switch v {
		case violated:
			t.decided++
			t.rules[k].Violations++
			broken = append(broken, r.Name)
			sev := result.Error
			if r.warning {
				sev = result.Warning
				t.warnings++
			}
			msg := r.Message
			if msg == "" {
				msg = r.Description
			}
			b.Add(result.Issue{Severity: sev, Type: result.CriteriaNotMet, Location: at,
				Message:    fmt.Sprintf("Policy rule '%s' broken by %s: %s", r.Name, where, msg),
				Suggestion: suggestion(r.Rule), Rule: RuleID + r.Name})
		case undecided:
			t.unknown++
			t.rules[k].Undecided++
			b.Add(result.Issue{Severity: result.Info, Type: result.NotChecked, Location: at,
				Message:    fmt.Sprintf("Policy rule '%s' could not be decided at %s: %s", r.Name, where, result.Clip(why, 200)),
				Suggestion: "Guard the rule against absent fields (has(), 'key' in map, size checks)", Rule: UndecidedRuleID + r.Name})
		default:
			t.decided++
		}
	}
	return broken
}

// compactJSON is raw JSON without its insignificant spaces (the raw
// text when it is not JSON).
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// appendLine adds a message's text to one of the joined texts.
func appendLine(b *strings.Builder, text string) {
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	b.WriteString(text)
}

// suggestion is a violated rule's suggestion.
func suggestion(r Rule) string {
	if r.Suggestion != "" {
		return r.Suggestion
	}
	return "Follow the policy: " + result.Clip(r.Description, 200)
}

// relocate places an issue of a call or result under base: root at
// itself, a field path below base.
func relocate(base, root, loc string) string {
	switch {
	case loc == "" || loc == "root" || loc == "tool" || loc == "content":
		return root
	case strings.HasPrefix(loc, "["):
		return base + loc
	}
	return base + "." + loc
}

// resultJSON is a tool message's content as the result to classify: the
// JSON it holds, or the text as a JSON string.
func resultJSON(content string) json.RawMessage {
	s := strings.TrimSpace(content)
	if s != "" && json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(content)
	return b
}

// decodeValue decodes JSON for the rules (numbers as json.Number); a
// text that is not JSON stays a string.
func decodeValue(raw json.RawMessage) any {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	return v
}

// messageValue is a message as the rules see it.
func messageValue(m Message) map[string]any {
	tcs := make([]any, len(m.ToolCalls))
	for j, tc := range m.ToolCalls {
		tcs[j] = map[string]any{"id": tc.ID, "name": tc.Name, "arguments": decodeValue(tc.Arguments)}
	}
	return map[string]any{"role": m.Role, "content": m.Content, "tool_calls": tcs, "tool_call_id": m.ToolCallID, "name": m.Name}
}

func cloneCallsOf(m map[string][]any) map[string]any {
	out := make(map[string]any, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out[k] = slices.Clone(m[k])
	}
	return out
}

// sessionID is a fresh session id for one conversation's check.
func sessionID() (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("trace: session id: %w", err)
	}
	return "trace-" + hex.EncodeToString(b[:]), nil
}
