package result

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteJSON writes r as indented JSON followed by a newline.
func WriteJSON(w io.Writer, r *ValidationResult) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// UndecidedBelow is the confidence under which the text report calls a
// result without errors undecided rather than passed, after the
// specification's bands (below 0.5 is low confidence).
const UndecidedBelow = 0.5

// WriteText writes the human-readable report of the specification's
// "Pattern 4": verdict (PASS, FAIL, or UNDECIDED for a result without
// errors whose confidence is below UndecidedBelow), confidence and quality, then errors, warnings and
// notes each with its suggestion underneath, then passed and failed
// criteria.
func WriteText(w io.Writer, r *ValidationResult) error {
	var sb strings.Builder
	verdict := "✅ PASS"
	switch {
	case !r.Valid:
		verdict = "❌ FAIL"
	case r.Confidence < UndecidedBelow:
		verdict = "❔ UNDECIDED (no error found, but too little could be checked to pass)"
	}
	fmt.Fprintf(&sb, "Validation Result: %s\n", verdict)
	fmt.Fprintf(&sb, "Confidence: %.2f\n", r.Confidence)
	fmt.Fprintf(&sb, "Quality Score: %.2f (%s)\n", r.QualityScore, Grade(r.QualityScore))
	if len(r.Metadata.ValidationTypesRun) > 0 {
		fmt.Fprintf(&sb, "Checks: %s\n", strings.Join(r.Metadata.ValidationTypesRun, ", "))
	}
	sb.WriteString("\n")

	sections := []struct {
		sev   Severity
		title string
	}{{Error, "🔴 ERRORS"}, {Warning, "🟡 WARNINGS"}, {Info, "🔵 NOTES"}}
	for _, sec := range sections {
		issues := r.bySeverity(sec.sev)
		if len(issues) == 0 {
			continue
		}
		fmt.Fprintf(&sb, "%s (%d)\n", sec.title, len(issues))
		for _, is := range issues {
			fmt.Fprintf(&sb, "  • [%s] %s", is.Type, is.Message)
			if is.Location != "" && !namesLocation(is.Message, is.Location) {
				fmt.Fprintf(&sb, " (at %s)", is.Location)
			}
			sb.WriteString("\n")
			if is.Suggestion != "" {
				fmt.Fprintf(&sb, "    → %s\n", is.Suggestion)
			}
		}
		sb.WriteString("\n")
	}
	writeList(&sb, "✅ PASSED CRITERIA", r.PassedCriteria)
	writeList(&sb, "❌ FAILED CRITERIA", r.FailedCriteria)
	_, err := io.WriteString(w, strings.TrimRight(sb.String(), "\n")+"\n")
	return err
}

// namesLocation reports whether msg already says where it is, as
// "... at root" or "... in user.profile" for the location loc, so that the
// text report does not repeat it as "(at root)".
func namesLocation(msg, loc string) bool {
	for _, prep := range []string{" at ", " in "} {
		for rest := msg; ; {
			i := strings.Index(rest, prep+loc)
			if i < 0 {
				break
			}
			rest = rest[i+len(prep)+len(loc):]
			if rest == "" || strings.ContainsRune(" ,;:.)", rune(rest[0])) {
				return true
			}
		}
	}
	return false
}

// RepairLine is how a repair text, the words a model reads of a refused
// answer or call, shows one issue: "- message (at location): suggestion",
// the location and suggestion left out when empty, without a newline.
// Every front end that answers a model writes issues this way.
func (is Issue) RepairLine() string {
	line := "- " + is.Message
	if is.Location != "" {
		line += " (at " + is.Location + ")"
	}
	if is.Suggestion != "" {
		line += ": " + is.Suggestion
	}
	return line
}

func writeList(sb *strings.Builder, title string, items []string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(sb, "%s (%d)\n", title, len(items))
	for _, it := range items {
		fmt.Fprintf(sb, "  • %s\n", it)
	}
	sb.WriteString("\n")
}
