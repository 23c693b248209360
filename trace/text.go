package trace

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/agentjudge/judge/result"
)

// WriteText writes a report as a code review of the conversation: a
// headline with its counts, then each call as the line under review (the
// tool, its arguments, the outcome) with the user's message it answered
// when a rule was broken, and the findings on the call and its result;
// then the findings on the conversation as a whole.
func WriteText(w io.Writer, r *Report) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s", r.ID)
	if r.Reward != nil {
		fmt.Fprintf(&sb, " (reward %v)", *r.Reward)
	}
	c := r.Counts
	fmt.Fprintf(&sb, ": %s, %d invalid, %s, %s; %s", count(c.Calls, "call", "calls"), c.InvalidCalls,
		count(c.FailedResults, "failed result", "failed results"), count(c.Loops, "loop", "loops"),
		count(c.RuleViolations, "rule violation", "rule violations"))
	if c.RuleViolations > 0 {
		fmt.Fprintf(&sb, " (%s broken", count(c.RulesBroken, "rule", "rules"))
		if c.RuleWarnings > 0 {
			fmt.Fprintf(&sb, ", %s of form", count(c.RuleWarnings, "warning", "warnings"))
		}
		sb.WriteString(")")
	}
	fmt.Fprintf(&sb, "; risk %g", r.Risk)
	if r.RunError != nil {
		sb.WriteString("; the run crashed (not checked)")
	}
	sb.WriteString("\n")
	used := make([]bool, len(r.Result.Issues))
	for _, cr := range r.Calls {
		var mine []result.Issue
		worst := result.Info
		for i, is := range r.Result.Issues {
			if used[i] || is.Severity == result.Info {
				continue
			}
			if under(is.Location, cr.Location) || (cr.ResultAt != "" && under(is.Location, cr.ResultAt)) {
				used[i] = true
				mine = append(mine, is)
				if is.Severity == result.Error || worst == result.Info {
					worst = is.Severity
				}
			}
		}
		mark := "ok"
		switch worst {
		case result.Error:
			mark = "!!"
		case result.Warning:
			mark = "~~"
		}
		fmt.Fprintf(&sb, "  %s %s %s", mark, cr.Location, cr.Tool)
		if cr.args != "" {
			fmt.Fprintf(&sb, " %s", result.Clip(cr.args, 120))
		}
		if cr.Status != "" {
			fmt.Fprintf(&sb, " → %s", cr.Status)
		}
		if cr.Progress != nil && cr.Progress.Verdict != "continue" {
			fmt.Fprintf(&sb, ", %s", cr.Progress.Verdict)
		}
		sb.WriteString("\n")
		if len(cr.Violations) > 0 && cr.userBefore != "" {
			fmt.Fprintf(&sb, "      after the user's %q\n", result.Clip(strings.Join(strings.Fields(cr.userBefore), " "), 100))
		}
		for _, is := range mine {
			writeIssue(&sb, is, "      ")
		}
	}
	var rest []result.Issue
	for i, is := range r.Result.Issues {
		if !used[i] && is.Severity != result.Info {
			rest = append(rest, is)
		}
	}
	if len(rest) > 0 {
		sb.WriteString("  the conversation:\n")
		for _, is := range rest {
			writeIssue(&sb, is, "      ")
		}
	}
	notes := slices.DeleteFunc(slices.Clone(r.Result.Issues), func(is result.Issue) bool { return is.Severity != result.Info })
	if len(notes) > 0 {
		fmt.Fprintf(&sb, "  %d notes (not checked); see the JSON output\n", len(notes))
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// WriteSummaryText writes the summary of many reports.
func WriteSummaryText(w io.Writer, s Summary) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %s, %s, %s, %s, %s, %s; %d flagged",
		count(s.Conversations, "conversation", "conversations"), count(s.Calls, "call", "calls"),
		count(s.InvalidCalls, "invalid call", "invalid calls"), count(s.FailedResults, "failed result", "failed results"),
		count(s.Loops, "loop", "loops"), count(s.RuleViolations, "rule violation", "rule violations"),
		count(s.RulesUndecided, "rule undecided", "rules undecided"), s.Flagged)
	if s.Crashed > 0 {
		fmt.Fprintf(&sb, "; %d crashed (not checked)", s.Crashed)
	}
	sb.WriteString("\n")
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range s.ByReward {
			if !yield(k) {
				return
			}
		}
	}) {
		c := s.ByReward[k]
		fmt.Fprintf(&sb, "  reward %s: %d conversations, %d flagged (%.0f%%), %d rule violations (%d rules broken), %d failed results\n",
			k, c.Conversations, c.Flagged, 100*float64(c.Flagged)/float64(max(c.Conversations, 1)), c.RuleViolations, c.RulesBroken, c.FailedResults)
	}
	if s.AUROC != nil {
		fmt.Fprintf(&sb, "  risk score AUROC for failed tasks (reward below 1): %.3f\n", *s.AUROC)
	}
	for _, rc := range s.Rules {
		fmt.Fprintf(&sb, "  rule %s: %s in %s, %d undecided\n", rc.Rule, count(rc.Violations, "violation", "violations"),
			count(rc.Conversations, "conversation", "conversations"), rc.Undecided)
	}
	if len(s.SilentTools) > 0 {
		fmt.Fprintf(&sb, "  returning nothing by design (the same empty result at every call): %s\n", strings.Join(s.SilentTools, ", "))
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

func under(loc, base string) bool {
	return loc == base || strings.HasPrefix(loc, base+".") || strings.HasPrefix(loc, base+"[")
}

// ruleMessage is the message of a rule violation: the rule, then its
// policy (the call it was broken by is on the line above).
var ruleMessage = regexp.MustCompile(`^Policy rule '([^']+)' broken by (?:the call of '[^']*'|the conversation): `)

func writeIssue(sb *strings.Builder, is result.Issue, indent string) {
	if m := ruleMessage.FindStringSubmatch(is.Message); strings.HasPrefix(is.Rule, RuleID) && m != nil {
		fmt.Fprintf(sb, "%s%s policy %s: %s\n", indent, is.Severity, m[1], is.Message[len(m[0]):])
	} else {
		fmt.Fprintf(sb, "%s%s %s: %s\n", indent, is.Severity, is.Type, is.Message)
	}
	if is.Suggestion != "" {
		fmt.Fprintf(sb, "%s  → %s\n", indent, is.Suggestion)
	}
}

// count writes n with the noun's singular or plural form: "1 loop", "2 loops".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
