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
//
// JSON nested deeper than maxDepth is an error: the output is rejected as
// it would be when sent as a JSON value, not silently read as text.
//
// A number beyond what judge accepts is an error too: read as text, the
// output would pass checks its JSON fails. Duplicate keys of the parsed
// JSON are warnings, returned in dups.
func parseOutputString(s string, maxDepth int) (v any, note *result.Issue, dups []result.Issue, err error) {
	trimmed := strings.TrimSpace(s)
	if strings.HasPrefix(trimmed, "{") || strings.HasPrefix(trimmed, "[") {
		v, dd, err := jsonvalue.DecodeDuplicates([]byte(trimmed), maxDepth)
		if rejected(err) {
			return nil, nil, nil, err
		}
		if err != nil {
			return s, unparsed("The output looks like JSON but does not parse", err, 0), nil, nil
		}
		return v, &result.Issue{
			Severity: result.Info, Type: result.OutputParsed, Location: "root", Rule: "output.json_string",
			Message:    fmt.Sprintf("The output is a string holding a JSON %s; it was parsed and validated as JSON", kindOf(v)),
			Suggestion: `Send JSON as a JSON value, or set options.output_mode to "value" to validate the string as it is`,
		}, duplicateKeys(dd, "output.duplicate_key", "of the JSON string", 0), nil
	}
	for _, m := range fenceRE.FindAllStringSubmatchIndex(s, -1) {
		lang := strings.ToLower(s[m[2]:m[3]])
		if lang != "json" && lang != "" {
			continue
		}
		body := s[m[4]:m[5]]
		line := strings.Count(s[:m[4]], "\n") + 1
		v, dd, err := jsonvalue.DecodeDuplicates([]byte(body), maxDepth)
		if rejected(err) {
			return nil, nil, nil, err
		}
		if err != nil {
			if lang == "json" {
				return s, unparsed(fmt.Sprintf("The ```json fence at line %d does not parse", line-1), err, line-1), nil, nil
			}
			continue
		}
		if !isContainer(v) {
			continue // a fenced scalar stays text, as decisions.md §9 says
		}
		return v, &result.Issue{
			Severity: result.Info, Type: result.OutputParsed, Location: fmt.Sprintf("line:%d", line-1), Rule: "output.json_fence",
			Message:    fmt.Sprintf("The output holds a JSON %s in a fenced block at line %d; that block was parsed and validated, the text around it was not", kindOf(v), line-1),
			Suggestion: "Return the JSON alone, without prose or fences, when a JSON answer is expected",
		}, duplicateKeys(dd, "output.duplicate_key", "of the output string", line-1), nil
	}
	if m := openFenceRE.FindStringIndex(s); m != nil && !fenceRE.MatchString(s[m[0]:]) {
		line := strings.Count(s[:m[0]], "\n") + 1
		return s, &result.Issue{
			Severity: result.Info, Type: result.OutputParsed, Location: fmt.Sprintf("line:%d", line), Rule: "output.json_unclosed",
			Message:    fmt.Sprintf("The ```json fence opened at line %d is never closed, so the output looks cut off; it was validated as a plain string", line),
			Suggestion: "Ask for the complete answer, or raise the model's output token limit, so that the JSON block is closed",
		}, nil, nil
	}
	return s, nil, nil, nil
}

// rejected reports whether err, an error of decoding JSON found in an
// output string, rejects the output rather than leaving it text: JSON
// nested too deeply, or a number beyond what judge reads.
func rejected(err error) bool {
	return errors.Is(err, jsonvalue.ErrTooDeep) || errors.Is(err, jsonvalue.ErrNumberTooLarge)
}

// duplicateKeys turns the duplicate keys of a decoded document into
// warnings; lineOffset is added to their line numbers.
func duplicateKeys(dups []jsonvalue.Duplicate, rule, where string, lineOffset int) []result.Issue {
	var issues []result.Issue
	for _, d := range dups {
		d.Line += lineOffset
		issues = append(issues, d.Issue(rule, where))
	}
	return issues
}

// openFenceRE finds the opening of a ```json fence.
var openFenceRE = regexp.MustCompile("(?m)^[ \t]*```[ \t]*(?i:json)[ \t]*\r?$")

func isContainer(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

func unparsed(what string, err error, lineOffset int) *result.Issue {
	loc := "root"
	var se *jsonvalue.SyntaxError
	if errors.As(err, &se) {
		loc = fmt.Sprintf("line:%d:column:%d", se.Line+lineOffset, se.Col)
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
