package toolcall

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
)

// RepairText is what a model reads of a check that refuses a call: for
// invalid arguments, each error with its location and suggestion (and the
// guidance of the parameter at fault), the tool's usage guidance, the
// repair block as JSON and the attempts counted at the mistake; for a
// call its session refuses ([CheckResult.Refused]), why, and what to do
// instead. Every front end that answers a model (the gateway) writes
// these words, so a model reads the same repair wherever judge sits. It
// is "" for a valid call the session does not refuse.
func RepairText(tool string, chk *CheckResult) string {
	if chk == nil || chk.Result == nil {
		return ""
	}
	var sb strings.Builder
	if chk.Result.Valid {
		if chk.Refused == "" {
			return ""
		}
		fmt.Fprintf(&sb, "judge did not run '%s': %s.\n", tool, chk.Refused)
		sb.WriteString("This call alone is refused for the rest of the session; other calls, of this tool too, run as usual. " +
			"Change the arguments, use another tool, or tell the user what failed and ask how to go on.")
		return sb.String()
	}
	fmt.Fprintf(&sb, "judge did not run '%s': the arguments are invalid.\n", tool)
	for _, is := range chk.Result.Issues {
		if is.Severity != result.Error {
			continue
		}
		sb.WriteString(is.RepairLine())
		sb.WriteByte('\n')
		if chk.Repair != nil {
			for _, f := range chk.Repair.Fixes {
				if f.Location == is.Location && f.Problem == is.Message {
					if g := manifest.ParamGuidanceText(f.Intent, f.AntiPatterns); g != "" {
						fmt.Fprintf(&sb, "  %s\n", g)
					}
					break
				}
			}
		}
	}
	r := chk.Repair
	if r != nil && (r.WhenToUse != "" || r.WhenNotToUse != "") {
		sb.WriteString(manifest.GuidedDescription("", manifest.Guidance{WhenToUse: r.WhenToUse, WhenNotToUse: r.WhenNotToUse}))
		sb.WriteByte('\n')
	}
	if r != nil {
		if b, err := json.Marshal(r); err == nil {
			sb.WriteString("Repair: ")
			sb.Write(b)
			sb.WriteByte('\n')
		}
	}
	if r != nil && r.MaxAttempts > 0 && r.RemainingAttempts != nil && *r.RemainingAttempts == 0 {
		fmt.Fprintf(&sb, "This was attempt %d of %d at the same mistake. If you cannot fix it, do not call '%s' with it again: use another tool, or ask the user for what is missing.", r.Attempt, r.MaxAttempts, tool)
		return sb.String()
	}
	if r != nil && r.MaxAttempts > 0 {
		fmt.Fprintf(&sb, "Attempt %d of %d at this mistake. ", r.Attempt, r.MaxAttempts)
	}
	sb.WriteString("Fix the arguments and call the tool again.")
	return sb.String()
}

// UnreadableCheck is the check of a call whose arguments [Toolset.Check]
// could not read at all (its *CallError: not JSON, too large, a session
// id refused): invalid, with one error issue at the field at fault and the
// repair that says so, so that a front end answers it as it answers any
// invalid call. No attempt is counted.
func UnreadableCheck(tool string, ce *CallError) *CheckResult {
	loc := ce.Field
	if ce.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", ce.Field, ce.Line, ce.Col)
	}
	msg := fmt.Sprintf("The %s could not be read: %s", strings.ReplaceAll(ce.Field, "_", " "), ce.Msg)
	sug := "Pass the arguments as one JSON object of named parameters"
	if ce.Field == "session_id" {
		sug = "Use a shorter session id"
	}
	is := result.Issue{Severity: result.Error, Type: result.SyntaxError, Location: loc, Message: msg, Suggestion: sug, Rule: "toolcall.unreadable"}
	res := result.NewBuilder().Ran(ValidationType).Add(is).Build()
	return &CheckResult{Result: res, Repair: &Repair{Tool: tool, Fixes: []Fix{{Location: loc, Problem: msg, Suggestion: sug}}}}
}
