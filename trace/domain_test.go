package trace_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest/tooltest"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
	"github.com/agentjudge/judge/trace"
)

// Tests on a domain the rules of examples/traces were not written for:
// conversations of tau-bench's record shape written for these tests
// (testdata/retail-shaped.json: a run that crashed, think calls, a
// partial reward), with the real retail tool definitions.

// retailChecker is the checker of the real retail tools and the rules of
// testdata, read for the conversations of the retail-shaped file.
func retailChecker(t testing.TB, rules string) (*trace.Checker, []trace.Conversation) {
	t.Helper()
	ts := tooltest.SharedToolset(t, "agent-traces", "tau-bench-retail-tools.json")
	var rs *trace.Rules
	if rules != "" {
		var err error
		if rs, err = trace.ParseRules([]byte(rules)); err != nil {
			t.Fatal(err)
		}
	}
	ch, err := trace.New(ts, rs)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "retail-shaped.json"))
	if err != nil {
		t.Fatal(err)
	}
	convs, err := trace.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if ch, err = ch.ForInput(context.Background(), convs); err != nil {
		t.Fatal(err)
	}
	return ch, convs
}

func checkAll(t *testing.T, ch *trace.Checker, convs []trace.Conversation) []*trace.Report {
	t.Helper()
	reports := make([]*trace.Report, len(convs))
	for i, c := range convs {
		rep, err := ch.Check(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if err := result.Check(rep.Result); err != nil {
			t.Errorf("%s: result breaks the specification: %v", rep.ID, err)
		}
		reports[i] = rep
	}
	return reports
}

// The retail-shaped file through the retail rules of testdata: the
// crashed run is reported not_checked with its error, counted apart and
// kept out of the AUROC; the partial reward counts as failed; think's
// empty answers are SATISFIED; every rule has its counts in the summary,
// and each violation its rule's name.
func TestRetailShaped(t *testing.T) {
	t.Parallel()
	rules, err := os.ReadFile(filepath.Join("testdata", "retail-shaped.rules.json"))
	if err != nil {
		t.Fatal(err)
	}
	ch, convs := retailChecker(t, string(rules))
	reports := checkAll(t, ch, convs)
	crashed := reports[0]
	if crashed.RunError == nil || !strings.HasPrefix(crashed.RunError.Error, "litellm.APIConnectionError") ||
		!strings.Contains(crashed.RunError.Traceback, "Traceback (most recent call last)") {
		t.Errorf("run error %+v", crashed.RunError)
	}
	if crashed.Result.Confidence != 0 || crashed.Counts.Crashed != 1 || crashed.Counts.Flagged != 0 || len(crashed.Result.Issues) != 1 {
		t.Errorf("crashed run: confidence %v counts %+v issues %+v", crashed.Result.Confidence, crashed.Counts, crashed.Result.Issues)
	} else if is := crashed.Result.Issues[0]; is.Type != result.NotChecked || is.Severity != result.Warning || is.Location != "info.error" ||
		is.Rule != "trace.run_error" || !strings.Contains(is.Message, "Connection reset by peer") {
		t.Errorf("crashed run issue %+v", is)
	}
	for _, rep := range reports[1:] {
		if rep.Result.Confidence != 1 || rep.RunError != nil {
			t.Errorf("%s: confidence %v, run error %+v", rep.ID, rep.Result.Confidence, rep.RunError)
		}
		for _, cr := range rep.Calls {
			if cr.Tool == "think" && (cr.Status != toolcall.Satisfied || !strings.Contains(cr.Reason, "by design")) {
				t.Errorf("%s: think at %s → %s (%s)", rep.ID, cr.Location, cr.Status, cr.Reason)
			}
		}
		for _, is := range rep.Result.Issues {
			if is.Type == result.EmptyResult {
				t.Errorf("%s: %+v", rep.ID, is)
			}
			if is.Type == result.CriteriaNotMet && !strings.Contains(is.Message, "'"+strings.TrimPrefix(is.Rule, trace.RuleID)+"'") {
				t.Errorf("%s: the issue's rule %q is not the rule its message names: %s", rep.ID, is.Rule, is.Message)
			}
		}
	}
	s := ch.Summarize(reports)
	if s.Conversations != 4 || s.Crashed != 1 || s.Flagged != 2 || s.RuleViolations != 3 || s.RulesUndecided != 0 {
		t.Errorf("summary %+v", s.Counts)
	}
	// Failed: rewards 0 (risk 2) and 0.5 (risk 1); solved: reward 1
	// (risk 0); the crashed run (reward 0, risk 0) left out: 1.
	if s.AUROC == nil || *s.AUROC != 1 {
		t.Errorf("auroc %v, want 1", s.AUROC)
	}
	if _, ok := s.ByReward["0"]; !ok || s.ByReward["0"].Conversations != 1 || s.ByReward["0.5"].Conversations != 1 {
		t.Errorf("by reward %+v: the crashed run is counted, or the rewards are not split", s.ByReward)
	}
	want := []trace.RuleCount{{Rule: "confirm_before_change", Violations: 1, Conversations: 1}, {Rule: "order_read_first", Violations: 1, Conversations: 1},
		{Rule: "cancel_reason_valid"}, {Rule: "refund_named"}, {Rule: "item_ids_read", Violations: 1, Conversations: 1}}
	if !slices.Equal(s.Rules, want) {
		t.Errorf("rules %+v, want %+v", s.Rules, want)
	}
	// The free Summarize has the rules found, by name.
	if got := trace.Summarize(reports).Rules; len(got) != 3 || got[0].Rule != "confirm_before_change" || got[2].Rule != "order_read_first" {
		t.Errorf("Summarize rules %+v", got)
	}
	var text strings.Builder
	if err := trace.WriteSummaryText(&text, s); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"1 crashed (not checked)", "reward below 1", "rule refund_named: 0 violations in 0 conversations, 0 undecided"} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("summary text lacks %q:\n%s", w, text.String())
		}
	}
}

// A run that crashed: tau-bench's record (no messages, info.error and
// info.traceback), the same without traj, with messages cut short, and
// info of other shapes that say no error.
func TestRunError(t *testing.T) {
	t.Parallel()
	ch := checker(t, rules)
	long := strings.Repeat("frame\n", 2000) + "ValueError: the end"
	tests := []struct {
		name, in   string
		err        string  // RunError.Error; "" none
		confidence float64 // of the result
		messages   int
	}{
		{name: "tau-bench crash", in: `{"task_id": 7, "reward": 0.0, "info": {"error": "RateLimitError: 429", "traceback": "Traceback (most recent call last):\n  ...\nRateLimitError: 429"}, "traj": [], "trial": 2}`,
			err: "RateLimitError: 429", confidence: 0},
		{name: "no traj", in: `{"task_id": 7, "info": {"error": "boom"}}`, err: "boom", confidence: 0},
		{name: "null traj, error not a text", in: `{"task_id": 7, "info": {"error": {"type": "Timeout", "after": 30}}, "traj": null}`, err: `{"type":"Timeout","after":30}`, confidence: 0},
		{name: "long traceback", in: `{"task_id": 7, "info": {"error": "ValueError: the end", "traceback": "` + strings.ReplaceAll(long, "\n", `\n`) + `"}, "traj": []}`,
			err: "ValueError: the end", confidence: 0},
		{name: "cut short", in: `{"task_id": 7, "reward": 0, "info": {"error": "context length exceeded"}, "traj": ` +
			conv(user("order A1?"), call("c1", "get_order", `{"order_id": "A1"}`), toolMsg("c1", `{"order_id": "A1"}`)) + `}`,
			// 4 verdicts decided (the check's own and the 3 rules at the
			// call), 1 not: whether the conversation ended there.
			err: "context length exceeded", confidence: 0.8, messages: 3},
		{name: "info without error", in: `{"task_id": 7, "reward": 1, "info": {"source": "user", "error": null}, "traj": ` + conv(user("hi")) + `}`, confidence: 1, messages: 1},
		{name: "empty error", in: `{"task_id": 7, "info": {"error": " "}, "traj": ` + conv(user("hi")) + `}`, confidence: 1, messages: 1},
		{name: "info not an object", in: `{"task_id": 7, "info": "all fine", "traj": ` + conv(user("hi")) + `}`, confidence: 1, messages: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			convs, err := trace.Decode([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			c := convs[0]
			if len(c.Messages) != tt.messages || (c.RunError == nil) != (tt.err == "") || (c.RunError != nil && c.RunError.Error != tt.err) {
				t.Fatalf("decoded %d messages, run error %+v; want %d, %q", len(c.Messages), c.RunError, tt.messages, tt.err)
			}
			if c.RunError != nil && len(c.RunError.Traceback) > trace.MaxTracebackBytes+len("…") {
				t.Errorf("traceback of %d bytes kept", len(c.RunError.Traceback))
			}
			if c.RunError != nil && strings.Contains(tt.in, "ValueError: the end") && !strings.HasSuffix(c.RunError.Traceback, "ValueError: the end") {
				t.Errorf("the traceback's end is lost: %q", result.Clip(c.RunError.Traceback, 100))
			}
			rep, err := ch.Check(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			if err := result.Check(rep.Result); err != nil {
				t.Errorf("result breaks the specification: %v", err)
			}
			if rep.Result.Confidence != tt.confidence || rep.Counts.Crashed != map[bool]int{true: 1}[tt.err != ""] {
				t.Errorf("confidence %v crashed %d; want %v", rep.Result.Confidence, rep.Counts.Crashed, tt.confidence)
			}
			quoted := slices.ContainsFunc(rep.Result.Issues, func(is result.Issue) bool {
				return is.Rule == "trace.run_error" && is.Type == result.NotChecked && strings.Contains(is.Message, result.Clip(tt.err, 300))
			})
			if quoted != (tt.err != "") {
				t.Errorf("run error reported %v; issues %+v", quoted, rep.Result.Issues)
			}
		})
	}
	// The airline end rules (a lookup that was needed, an amount said)
	// judge no conversation of a run that crashed before any message.
	convs, err := trace.Decode([]byte(tests[0].in))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := tauChecker(t).Check(context.Background(), convs[0])
	if err != nil {
		t.Fatal(err)
	}
	if rep.Counts.RuleViolations != 0 || len(rep.Result.Issues) != 1 || rep.Result.Confidence != 0 {
		t.Errorf("crashed run with the airline rules: counts %+v issues %+v", rep.Counts, rep.Result.Issues)
	}
	// An object with neither messages nor an error is still refused.
	if _, err := trace.Decode([]byte(`{"task_id": 7, "info": {"source": "user"}}`)); err == nil || !strings.Contains(err.Error(), "no messages") {
		t.Errorf("err = %v, want no messages", err)
	}
}

// AUROC counts a task failed below reward 1, as tau-bench does: a partial
// reward is not a solved task; runs that crashed are left out.
func TestAUROCRewardBelowOne(t *testing.T) {
	t.Parallel()
	r := func(reward, risk float64, crashed bool) *trace.Report {
		rep := &trace.Report{Reward: &reward, Risk: risk}
		if crashed {
			rep.RunError = &trace.RunError{Error: "boom"}
		}
		return rep
	}
	tests := []struct {
		name    string
		reports []*trace.Report
		auroc   float64 // -1: none
	}{
		{"partial reward is failed", []*trace.Report{r(0.5, 2, false), r(1, 0, false)}, 1},
		{"partial reward ranked below a solved one", []*trace.Report{r(0.5, 0, false), r(0, 3, false), r(1, 1, false)}, 0.5},
		{"crashed runs left out", []*trace.Report{r(0, 0, true), r(0, 0, true), r(0, 2, false), r(1, 1, false)}, 1},
		{"only solved", []*trace.Report{r(1, 0, false), r(1, 1, false), r(0, 5, true)}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := trace.Summarize(tt.reports)
			switch {
			case tt.auroc < 0 && s.AUROC != nil:
				t.Errorf("auroc %v, want none", *s.AUROC)
			case tt.auroc >= 0 && (s.AUROC == nil || *s.AUROC != tt.auroc):
				t.Errorf("auroc %v, want %v", s.AUROC, tt.auroc)
			}
		})
	}
}

// A rule naming a tool the toolset does not have is refused, naming the
// rule and the tool, with the nearest names of the toolset.
func TestRuleUnknownTool(t *testing.T) {
	t.Parallel()
	ts := tooltest.Toolset(t, []byte(tools), "tools.json")
	tests := []struct{ name, rules, want string }{
		{"typo in tools", `{"rules": [{"name": "ok", "description": "d", "expr": "true"}, {"name": "confirm", "description": "d", "tools": ["get_order", "cancel_ordr"], "expr": "true"}]}`,
			"rule confirm: tools: 'cancel_ordr' is not a tool of the toolset, so the rule would never apply; did you mean 'cancel_order'?"},
		{"another domain's name with a word more", `{"rules": [{"name": "confirm", "description": "d", "tools": ["cancel_pending_order"], "expr": "true"}]}`,
			"rule confirm: tools: 'cancel_pending_order' is not a tool of the toolset, so the rule would never apply; did you mean 'cancel_order'?"},
		{"another domain's name, one word shared", `{"rules": [{"name": "confirm", "description": "d", "tools": ["cancel_reservation"], "expr": "true"}]}`,
			"rule confirm: tools: 'cancel_reservation' is not a tool of the toolset, so the rule would never apply; its tools are cancel_order, get_order"},
		{"plural", `{"rules": [{"name": "confirm", "description": "d", "tools": ["get_orders"], "expr": "true"}]}`,
			"'get_orders' is not a tool of the toolset, so the rule would never apply; did you mean 'get_order'?"},
		{"nothing close", `{"rules": [{"name": "r", "description": "d", "tools": ["book_flight"], "expr": "true"}]}`,
			"rule r: tools: 'book_flight' is not a tool of the toolset, so the rule would never apply; its tools are cancel_order, get_order, transfer_to_human"},
		{"calls_of in expr", `{"rules": [{"name": "read_first", "description": "d", "expr": "size(calls_of.get_ordr) > 0"}]}`,
			"rule read_first: expr: 'get_ordr' is not a tool of the toolset, so calls_of.get_ordr holds nothing"},
		{"calls_of index in when", `{"rules": [{"name": "w", "description": "d", "when": "size(calls_of['transfer_to_humans']) > 0", "expr": "true"}]}`,
			"rule w: when: 'transfer_to_humans' is not a tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rs, err := trace.ParseRules([]byte(tt.rules))
			if err != nil {
				t.Fatal(err)
			}
			_, err = trace.New(ts, rs)
			var re *trace.RuleError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want a *RuleError containing %q", err, tt.want)
			}
		})
	}
	// Every tool named, in tools and in calls_of: accepted.
	rs, err := trace.ParseRules([]byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trace.New(ts, rs); err != nil {
		t.Errorf("rules of known tools refused: %v", err)
	}
}

// Each rule's violations, conversations and undecided evaluations are
// counted per conversation and in the summary; the issue's rule is the
// rule's name.
func TestRuleCounts(t *testing.T) {
	t.Parallel()
	ch := checker(t, `{"rules": [
  {"name": "confirm_first", "description": "A cancellation comes after a yes", "tools": ["cancel_order"], "expr": "last_user == 'yes'"},
  {"name": "reads_missing", "description": "d", "tools": ["get_order"], "expr": "call.arguments.nope == 1"},
  {"name": "never_broken", "description": "d", "expr": "true"}
]}`)
	cancel := func(id string) string {
		return call(id, "cancel_order", `{"order_id": "B7", "reason": "no longer needed"}`)
	}
	a := checkOne(t, ch, conv(user("cancel B7"), call("c0", "get_order", `{"order_id": "B7"}`), toolMsg("c0", `{"order_id": "B7"}`),
		cancel("c1"), toolMsg("c1", `{"status": "pending"}`), cancel("c2"), toolMsg("c2", `{"status": "cancelled"}`)))
	b := checkOne(t, ch, conv(user("yes"), cancel("c1"), toolMsg("c1", `{"status": "cancelled"}`)))
	wantA := []trace.RuleCount{{Rule: "confirm_first", Violations: 2, Conversations: 1}, {Rule: "reads_missing", Undecided: 1}}
	if !slices.Equal(a.Rules, wantA) || a.Counts.RulesUndecided != 1 || len(b.Rules) != 0 {
		t.Errorf("rules %+v (undecided %d) and %+v; want %+v and none", a.Rules, a.Counts.RulesUndecided, b.Rules, wantA)
	}
	for _, is := range a.Result.Issues {
		switch is.Type {
		case result.CriteriaNotMet:
			if is.Rule != "trace.rule.confirm_first" {
				t.Errorf("violation with rule %q", is.Rule)
			}
		case result.NotChecked:
			if is.Rule != "trace.rule_undecided.reads_missing" {
				t.Errorf("undecided with rule %q", is.Rule)
			}
		}
	}
	s := ch.Summarize([]*trace.Report{a, b, a})
	want := []trace.RuleCount{{Rule: "confirm_first", Violations: 4, Conversations: 2}, {Rule: "reads_missing", Undecided: 2}, {Rule: "never_broken"}}
	if !slices.Equal(s.Rules, want) || s.RulesUndecided != 2 {
		t.Errorf("summary rules %+v undecided %d, want %+v 2", s.Rules, s.RulesUndecided, want)
	}
}

// A tool whose description says nothing of its answers but that returned
// the same empty result at every call of the input, in two conversations
// or more, is taken for returning nothing by design; one non-empty
// answer, or a single conversation, is not enough.
func TestForInputSilent(t *testing.T) {
	t.Parallel()
	ch := checker(t, "")
	noted := func(id string) string { return call(id, "transfer_to_human", `{"summary": "noted"}`) }
	silentConv := conv(user("hi"), noted("c1"), toolMsg("c1", ""), noted("c2"), toolMsg("c2", ""))
	other := conv(user("again"), noted("c1"), toolMsg("c1", ""))
	tests := []struct {
		name   string
		convs  []string
		silent bool
	}{
		{"every call empty in two conversations", []string{silentConv, other}, true},
		{"one answer not empty", []string{silentConv, conv(user("x"), noted("c1"), toolMsg("c1", "Transfer successful"))}, false},
		{"one conversation", []string{silentConv}, false},
		{"two calls", []string{conv(user("hi"), noted("c1"), toolMsg("c1", "")), other}, false},
		{"empty answers that differ", []string{silentConv, conv(user("x"), noted("c1"), toolMsg("c1", "[]"))}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			convs, err := trace.Decode([]byte("[" + strings.Join(tt.convs, ",") + "]"))
			if err != nil {
				t.Fatal(err)
			}
			in, err := ch.ForInput(context.Background(), convs)
			if err != nil {
				t.Fatal(err)
			}
			if got := in.SilentTools(); (len(got) == 1 && got[0] == "transfer_to_human") != tt.silent || len(got) > 1 {
				t.Fatalf("silent tools %v, want transfer_to_human %v", got, tt.silent)
			}
			rep, err := in.Check(context.Background(), convs[0])
			if err != nil {
				t.Fatal(err)
			}
			want := toolcall.NeedsMoreTools
			if tt.silent {
				want = toolcall.Satisfied
			}
			if st := rep.Calls[0].Status; st != want {
				t.Errorf("status %s (%s), want %s", st, rep.Calls[0].Reason, want)
			}
			if s := in.Summarize([]*trace.Report{rep}); tt.silent != (len(s.SilentTools) == 1) {
				t.Errorf("summary silent tools %v", s.SilentTools)
			}
		})
	}
}
