package console

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
	"github.com/agentjudge/judge/trace"
)

// Trace is what a trace report shows: the conversations judge trace read
// and the report of each (Reports[i] is the check of Conversations[i]),
// their summary, and the rules they were checked against (nil: none).
type Trace struct {
	// Title names the report, as the file the conversations came from.
	Title         string
	Conversations []trace.Conversation
	Reports       []*trace.Report
	Summary       trace.Summary
	Rules         *trace.Rules
}

// longMessage is the length from which a message's text is folded (a
// system prompt with a whole policy), opened on demand.
const longMessage = 1200

// WriteTrace writes t as one self-contained HTML page: the summary with
// its charts first, then every conversation as a timeline of its
// messages, each call with its check, its outcome and its findings in
// place, filterable by flag, rule and tool.
func WriteTrace(w io.Writer, t Trace) error {
	if len(t.Conversations) != len(t.Reports) {
		return fmt.Errorf("console: %d conversations but %d reports", len(t.Conversations), len(t.Reports))
	}
	for i, r := range t.Reports {
		if r == nil {
			return fmt.Errorf("console: report %d is missing", i)
		}
	}
	tmpl, err := parse(traceHTML)
	if err != nil {
		return err
	}
	return execute(w, tmpl, "trace", buildTrace(t))
}

// traceView is the trace template's data.
type traceView struct {
	page
	Summary trace.Summary
	// Stats are the summary's figures in the order shown.
	Stats  []stat
	Charts []chart
	// ByOutcome is the split of the findings by the recorded reward.
	ByOutcome     []outcomeRow
	Rules, Tools  []string
	Conversations []convView
	Total         int
}

// stat is one figure of the summary.
type stat struct {
	Label string
	N     string
	Note  string
}

// outcomeRow is the counts of the conversations of one recorded reward.
type outcomeRow struct {
	Reward string
	trace.Counts
}

// convView is one conversation as the timeline shows it.
type convView struct {
	Index    int
	ID       string
	Reward   string
	Flagged  bool
	Risk     string
	Counts   trace.Counts
	RunError *trace.RunError
	// Rules and Tools are the rules the conversation broke and the tools
	// it called, one a line (for the filters).
	Rules, Tools string
	Messages     []msgView
	// Findings are those of the conversation as a whole (end rules).
	Findings   []finding
	Violations []string
}

// msgView is one message of a timeline.
type msgView struct {
	Index   int
	Role    string
	Name    string
	Content string
	Long    bool
	Calls   []callView
	// Findings are those located at the message and at no call.
	Findings []finding
}

// callView is one tool call with what judge found of it.
type callView struct {
	Location string
	Tool     string
	Args     string
	Checked  bool
	Valid    bool
	Status   toolcall.Status
	Reason   string
	ResultAt string
	Progress *toolcall.Progress
	Findings []finding
}

// finding is one issue of a report, as shown beside what it concerns.
type finding struct {
	Severity   result.Severity
	Type       result.Type
	Rule       string
	Message    string
	Suggestion string
	Location   string
}

func newFinding(is result.Issue) finding {
	return finding{Severity: is.Severity, Type: is.Type, Rule: is.Rule, Message: is.Message, Suggestion: is.Suggestion, Location: is.Location}
}

// buildTrace makes the template's data of t.
func buildTrace(t Trace) traceView {
	title := "judge trace report"
	if t.Title != "" {
		title = "judge trace: " + t.Title
	}
	s := t.Summary
	v := traceView{page: newPage(title), Summary: s, Total: len(t.Reports)}
	v.Stats = []stat{
		{"Conversations", strconv.Itoa(s.Conversations), ""},
		{"Flagged conversations", strconv.Itoa(s.Flagged), "an invalid call, a loop or an error rule broken"},
		{"Calls", strconv.Itoa(s.Calls), ""},
		{"Invalid calls", strconv.Itoa(s.InvalidCalls), "refused by the pre-execution check"},
		{"Failed results", strconv.Itoa(s.FailedResults), "outcome FAILED"},
		{"Loops", strconv.Itoa(s.Loops), "the session's progress verdicts"},
		{"Rule violations", strconv.Itoa(s.RuleViolations), fmt.Sprintf("%d of warning rules", s.RuleWarnings)},
		{"Undecided rule evaluations", strconv.Itoa(s.RulesUndecided), "not checked, never counted as held"},
		{"Crashed runs", strconv.Itoa(s.Crashed), "not checked"},
	}
	if s.AUROC != nil {
		v.Stats = append(v.Stats, stat{"AUROC of the risk score", strconv.FormatFloat(*s.AUROC, 'f', 3, 64), "failed tasks ranked above solved ones"})
	}
	v.Charts = append(v.Charts, findingsByType(t.Reports), rulesBroken(s.Rules))
	for _, k := range slices.SortedFunc(maps.Keys(s.ByReward), byNumber) {
		v.ByOutcome = append(v.ByOutcome, outcomeRow{Reward: k, Counts: s.ByReward[k]})
	}
	if len(v.ByOutcome) > 0 {
		v.Charts = append(v.Charts, flaggedByOutcome(v.ByOutcome))
	}
	rules, tools := map[string]bool{}, map[string]bool{}
	for i, r := range t.Reports {
		cv := buildConv(i, t.Conversations[i], r)
		for _, n := range strings.Split(cv.Rules, "\n") {
			rules[n] = n != ""
		}
		for _, n := range strings.Split(cv.Tools, "\n") {
			tools[n] = n != ""
		}
		v.Conversations = append(v.Conversations, cv)
	}
	if t.Rules != nil {
		for _, r := range t.Rules.Rules {
			rules[r.Name] = true
		}
	}
	for _, rc := range s.Rules {
		rules[rc.Rule] = true
	}
	v.Rules = setNames(rules)
	v.Tools = setNames(tools)
	return v
}

// setNames are the names set true in m, sorted.
func setNames(m map[string]bool) []string {
	var out []string
	for k, ok := range m {
		if ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// byNumber orders reward keys as numbers, then as text.
func byNumber(a, b string) int {
	fa, errA := strconv.ParseFloat(a, 64)
	fb, errB := strconv.ParseFloat(b, 64)
	if errA == nil && errB == nil {
		return cmp.Compare(fa, fb)
	}
	return strings.Compare(a, b)
}

// findingsByType counts the issues of the reports by type.
func findingsByType(reports []*trace.Report) chart {
	n := map[string]int{}
	for _, r := range reports {
		if r.Result == nil {
			continue
		}
		for _, is := range r.Result.Issues {
			n[string(is.Type)]++
		}
	}
	var bars []bar
	for k, c := range n {
		bars = append(bars, bar{Label: k, N: float64(c)})
	}
	slices.SortFunc(bars, func(a, b bar) int { return cmp.Or(cmp.Compare(b.N, a.N), strings.Compare(a.Label, b.Label)) })
	return newChart("chart-types", "Findings by type", "findings", bars)
}

// maxRulesShown is how many rules the chart of the rules broken most
// shows; the table under it lists them too.
const maxRulesShown = 12

// rulesBroken charts the rules broken most, by violations.
func rulesBroken(rcs []trace.RuleCount) chart {
	var bars []bar
	for _, rc := range rcs {
		if rc.Violations > 0 {
			bars = append(bars, bar{Label: rc.Rule, N: float64(rc.Violations),
				Text: fmt.Sprintf("%d in %d %s", rc.Violations, rc.Conversations, pluralWord(rc.Conversations, "conversation", "conversations"))})
		}
	}
	slices.SortStableFunc(bars, func(a, b bar) int { return cmp.Compare(b.N, a.N) })
	if len(bars) > maxRulesShown {
		bars = bars[:maxRulesShown]
	}
	return newChart("chart-rules", "Rules broken most", "violations", bars)
}

// flaggedByOutcome charts the findings of the conversations of each
// recorded reward.
func flaggedByOutcome(rows []outcomeRow) chart {
	var bars []bar
	for _, r := range rows {
		bars = append(bars,
			bar{Label: "reward " + r.Reward + ": flagged conversations", N: float64(r.Flagged), Text: fmt.Sprintf("%d of %d", r.Flagged, r.Conversations)},
			bar{Label: "reward " + r.Reward + ": rule violations", N: float64(r.RuleViolations)},
			bar{Label: "reward " + r.Reward + ": failed results", N: float64(r.FailedResults)})
	}
	return newChart("chart-outcome", "Findings by recorded outcome", "count", bars)
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// buildConv makes the timeline of conversation c checked as r.
func buildConv(i int, c trace.Conversation, r *trace.Report) convView {
	cv := convView{Index: i, ID: cmp.Or(r.ID, c.ID, strconv.Itoa(i)), Counts: r.Counts, RunError: r.RunError,
		Flagged: r.Counts.Flagged > 0, Risk: strconv.FormatFloat(r.Risk, 'f', -1, 64), Violations: r.Violations}
	if r.Reward != nil {
		cv.Reward = strconv.FormatFloat(*r.Reward, 'f', -1, 64)
	}
	cv.Messages = make([]msgView, len(c.Messages))
	callAt := map[string]*callView{}   // call location → call
	resultAt := map[string]*callView{} // result location → call
	for k, m := range c.Messages {
		cv.Messages[k] = msgView{Index: k, Role: m.Role, Name: m.Name, Content: m.Content, Long: len(m.Content) > longMessage}
		for j, tc := range m.ToolCalls {
			cv.Messages[k].Calls = append(cv.Messages[k].Calls, callView{Location: fmt.Sprintf("messages[%d].tool_calls[%d]", k, j), Tool: tc.Name, Args: prettyJSON(tc.Arguments)})
		}
	}
	for k := range cv.Messages {
		for j := range cv.Messages[k].Calls {
			cl := &cv.Messages[k].Calls[j]
			callAt[cl.Location] = cl
		}
	}
	tools, rules := map[string]bool{}, map[string]bool{}
	for _, cr := range r.Calls {
		cl := callAt[cr.Location]
		if cl == nil {
			continue
		}
		cl.Checked, cl.Valid, cl.Status, cl.Reason, cl.ResultAt, cl.Progress = true, cr.Valid, cr.Status, cr.Reason, cr.ResultAt, cr.Progress
		if cr.ResultAt != "" {
			resultAt[cr.ResultAt] = cl
		}
		tools[cr.Tool] = true
		for _, v := range cr.Violations {
			rules[v] = true
		}
	}
	for _, v := range r.Violations {
		rules[v] = true
	}
	for _, rc := range r.Rules {
		rules[rc.Rule] = rc.Violations > 0
	}
	if r.Result != nil {
		for _, is := range r.Result.Issues {
			f := newFinding(is)
			if cl := callOf(callAt, is.Location); cl != nil {
				cl.Findings = append(cl.Findings, f)
			} else if cl := resultAt[is.Location]; cl != nil {
				cl.Findings = append(cl.Findings, f)
			} else if k, ok := messageIndex(is.Location); ok && k < len(cv.Messages) {
				cv.Messages[k].Findings = append(cv.Messages[k].Findings, f)
			} else {
				cv.Findings = append(cv.Findings, f)
			}
		}
	}
	cv.Tools = strings.Join(setNames(tools), "\n")
	cv.Rules = strings.Join(setNames(rules), "\n")
	return cv
}

// callOf returns the call whose location is loc or contains it
// (messages[2].tool_calls[0].arguments.x).
func callOf(calls map[string]*callView, loc string) *callView {
	for i := 0; i < len(loc); i++ {
		if loc[i] != '.' && loc[i] != '[' {
			continue
		}
		if cl := calls[loc[:i]]; cl != nil && strings.HasPrefix(loc[i:], ".arguments") {
			return cl
		}
	}
	return calls[loc]
}

// messageIndex reads k of the location messages[k].
func messageIndex(loc string) (int, bool) {
	rest, ok := strings.CutPrefix(loc, "messages[")
	if !ok {
		return 0, false
	}
	num, tail, ok := strings.Cut(rest, "]")
	if !ok || tail != "" {
		return 0, false
	}
	k, err := strconv.Atoi(num)
	return k, err == nil && k >= 0
}

// prettyJSON indents JSON text, or returns it as it is when it is none.
func prettyJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		return string(raw)
	}
	return buf.String()
}
