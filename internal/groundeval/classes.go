package groundeval

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/agentjudge/judge/layer/facts"
	"github.com/agentjudge/judge/result"
)

// findingTypes are the issue types that flag a claim or a summary.
var findingTypes = []result.Type{result.Hallucination, result.FactMismatch, result.UnsupportedClaim, result.DetailInconsistency, result.ConfidenceMismatch}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Example is one false flag: the id of the claim or summary, its text, and
// the finding's message.
type Example struct{ ID, Text, Message string }

// Classes counts false flags per class ("facts.unsupported date": the
// rule, and the kind of claim when the finding is about one), each with
// its first example. The zero value is ready to use.
type Classes struct {
	Count    map[string]int
	Examples map[string]Example
}

// add counts the classes of one flagged item once each.
func (c *Classes) add(id, text string, findings []result.Issue, classes []string) {
	if c.Count == nil {
		c.Count, c.Examples = map[string]int{}, map[string]Example{}
	}
	for i, k := range classes {
		if slices.Contains(classes[:i], k) {
			continue
		}
		c.Count[k]++
		if _, ok := c.Examples[k]; !ok {
			c.Examples[k] = Example{ID: id, Text: text, Message: findings[i].Message}
		}
	}
}

// Top returns at most n classes, the most frequent first (ties by name).
func (c *Classes) Top(n int) []string {
	keys := make([]string, 0, len(c.Count))
	for k := range c.Count {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if c.Count[keys[i]] != c.Count[keys[j]] {
			return c.Count[keys[i]] > c.Count[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys[:min(n, len(keys))]
}

// write prints the top classes as a Markdown table under title.
func (c *Classes) write(w io.Writer, title string, top int) {
	fmt.Fprintf(w, "\n| %s | count | example |\n|---|---|---|\n", title)
	for _, k := range c.Top(top) {
		ex := c.Examples[k]
		fmt.Fprintf(w, "| %s | %d | %s %q: %s |\n", k, c.Count[k], ex.ID, result.Clip(ex.Text, 120), result.Clip(ex.Message, 160))
	}
}

// class names what kind of finding an issue is: its rule and, for a
// finding on one claim, the kind of claim ("facts.unsupported name"),
// with the claim as written; for a finding on the sentence, the rule and
// "".
func class(is result.Issue, cvs []facts.ClaimVerdict) (string, string) {
	for _, cv := range cvs {
		if cv.Location == is.Location && (cv.Verdict == "unsupported" || cv.Verdict == "contradicted") && strings.Contains(is.Message, cv.Text) {
			return is.Rule + " " + cv.Kind, cv.Text
		}
	}
	return is.Rule, ""
}
