package console

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolcall"
	"github.com/agentjudge/judge/trace"
)

// FuzzWriteTrace writes a report whose every text from a conversation
// (id, role, name, content, tool name, arguments, reason, finding) is
// fuzzed, and checks that none of it became markup: every tag is one of
// the templates', with their attributes only, and the only script is the
// page's own.
func FuzzWriteTrace(f *testing.F) {
	for _, s := range []string{
		"plain", `</pre><script>alert(1)</script>`, `" onmouseover="x`, `javascript:alert(1)`,
		`<!-- -->`, `]]>`, "{{.CSP}}", "\x00\u2028</style>", `<svg onload=x>`, "",
	} {
		f.Add(s, s, s)
	}
	f.Fuzz(func(t *testing.T, a, b, c string) {
		args, _ := json.Marshal(map[string]string{b: c})
		conv := trace.Conversation{ID: a, Messages: []trace.Message{
			{Role: a, Content: b},
			{Role: "assistant", ToolCalls: []trace.ToolCall{{ID: "1", Name: c, Arguments: args}}},
			{Role: "tool", ToolCallID: "1", Name: b, Content: c},
		}}
		rep := &trace.Report{ID: a, Calls: []trace.CallReport{{Location: "messages[1].tool_calls[0]", Tool: c, Valid: false,
			Status: toolcall.Failed, Reason: b, ResultAt: "messages[2]", Violations: []string{a}}},
			Result: &result.ValidationResult{Issues: []result.Issue{
				{Severity: result.Severity(a), Type: result.Type(b), Message: c, Location: "messages[1].tool_calls[0]", Suggestion: a, Rule: b},
				{Severity: "error", Type: "tool_error", Message: a, Location: c},
			}},
			Rules: []trace.RuleCount{{Rule: a, Violations: 1, Conversations: 1}}}
		rep.Counts.Flagged = 1
		var sb strings.Builder
		if err := WriteTrace(&sb, Trace{Title: c, Conversations: []trace.Conversation{conv}, Reports: []*trace.Report{rep},
			Summary: trace.Summary{Rules: rep.Rules, ByReward: map[string]trace.Counts{a: rep.Counts}}}); err != nil {
			t.Fatal(err)
		}
		checkMarkup(t, sb.String())
	})
}
