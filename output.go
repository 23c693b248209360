package judge

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/result"
)

// fenceRE finds fenced code blocks: ```lang\n...\n```.
var fenceRE = regexp.MustCompile("(?s)```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\r?\n(.*?)\r?\n[ \t]*```")

// parseOutputString reads a string output in auto mode: a string that is a
// JSON object or array, or holds one in a ```json (or unlabelled) fence, is
// parsed. The note says what was done, or why a JSON-looking string was
// left as text.
func parseOutputString(s string, maxDepth int) (any, *result.Issue) {
	trimmed := strings.TrimSpace(s)
	if strings.HasPrefix(trimmed, "{") || strings.HasPrefix(trimmed, "[") {
		v, err := jsonvalue.Decode([]byte(trimmed), maxDepth)
		if err != nil {
			return s, unparsed("The output looks like JSON but does not parse", err, 0)
		}
		return v, &result.Issue{
			Severity: result.Info, Type: result.OutputParsed, Location: "root", Rule: "output.json_string",
			Message:    fmt.Sprintf("The output is a string holding a JSON %s; it was parsed and validated as JSON", kindOf(v)),
			Suggestion: `Send JSON as a JSON value, or set options.output_mode to "value" to validate the string as it is`,
		}
	}
	for _, m := range fenceRE.FindAllStringSubmatchIndex(s, -1) {
		lang := strings.ToLower(s[m[2]:m[3]])
		if lang != "json" && lang != "" {
			continue
		}
		body := s[m[4]:m[5]]
		line := strings.Count(s[:m[4]], "\n") + 1
		v, err := jsonvalue.Decode([]byte(body), maxDepth)
		if err != nil {
			if lang == "json" {
				return s, unparsed(fmt.Sprintf("The ```json fence at line %d does not parse", line-1), err, line-1)
			}
			continue
		}
		if _, ok := v.(string); ok {
			continue
		}
		return v, &result.Issue{
			Severity: result.Info, Type: result.OutputParsed, Location: fmt.Sprintf("line:%d", line-1), Rule: "output.json_fence",
			Message:    fmt.Sprintf("The output holds a JSON %s in a fenced block at line %d; that block was parsed and validated, the text around it was not", kindOf(v), line-1),
			Suggestion: "Return the JSON alone, without prose or fences, when a JSON answer is expected",
		}
	}
	return s, nil
}

func unparsed(what string, err error, lineOffset int) *result.Issue {
	loc := "root"
	var se *jsonvalue.SyntaxError
	if errors.As(err, &se) {
		loc = fmt.Sprintf("line:%d:col:%d", se.Line+lineOffset, se.Col)
	}
	return &result.Issue{
		Severity: result.Info, Type: result.OutputParsed, Location: loc, Rule: "output.json_invalid",
		Message:    fmt.Sprintf("%s (%v), so it was validated as a plain string", what, err),
		Suggestion: "Fix the JSON syntax at the given line and column, for example a trailing comma or an unquoted key",
	}
}

func kindOf(v any) string {
	if _, ok := v.([]any); ok {
		return "array"
	}
	return "object"
}
