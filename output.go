package judge

import (
	"errors"
	"fmt"
	"slices"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/result"
)

// parseOutputString reads a string output in auto mode: a string that is a
// JSON object or array, or holds one in a ```json (or unlabelled) fence, is
// parsed ([jsonvalue.FindInString] finds it). The note says what was done,
// or why a JSON-looking string was left as text.
//
// JSON nested deeper than maxDepth is an error: the output is rejected as
// it would be when sent as a JSON value, not silently read as text.
//
// A number beyond what judge accepts is an error too: read as text, the
// output would pass checks its JSON fails. Duplicate keys of the parsed
// JSON are warnings, returned in dups.
func parseOutputString(s string, maxDepth int) (v any, note *result.Issue, dups []result.Issue, err error) {
	found, err := jsonvalue.FindInString(s, maxDepth)
	if err != nil {
		return nil, nil, nil, err
	}
	switch found.How {
	case jsonvalue.Whole:
		return found.Value, &result.Issue{
			Severity: result.Info, Type: result.OutputParsed, Location: "root", Rule: "output.json_string",
			Message:    fmt.Sprintf("The output is a string holding a JSON %s; it was parsed and validated as JSON", kindOf(found.Value)),
			Suggestion: `Send JSON as a JSON value, or set options.output_mode to "value" to validate the string as it is`,
		}, duplicateKeys(found.Dups, "output.duplicate_key", "of the JSON string", 0), nil
	case jsonvalue.Fenced:
		return found.Value, &result.Issue{
			Severity: result.Info, Type: result.OutputParsed, Location: fmt.Sprintf("line:%d", found.Line), Rule: "output.json_fence",
			Message:    fmt.Sprintf("The output holds a JSON %s in a fenced block at line %d; that block was parsed and validated, the text around it was not", kindOf(found.Value), found.Line),
			Suggestion: "Return the JSON alone, without prose or fences, when a JSON answer is expected",
		}, duplicateKeys(found.Dups, "output.duplicate_key", "of the output string", 0), nil
	case jsonvalue.Broken:
		if found.Line == 0 {
			return s, unparsed("The output looks like JSON but does not parse", found.Err, 0), nil, nil
		}
		return s, unparsed(fmt.Sprintf("The ```json fence at line %d does not parse", found.Line), found.Err, found.Line), nil, nil
	case jsonvalue.Unclosed:
		return s, &result.Issue{
			Severity: result.Info, Type: result.OutputParsed, Location: fmt.Sprintf("line:%d", found.Line), Rule: "output.json_unclosed",
			Message:    fmt.Sprintf("The ```json fence opened at line %d is never closed, so the output looks cut off; it was validated as a plain string", found.Line),
			Suggestion: "Ask for the complete answer, or raise the model's output token limit, so that the JSON block is closed",
		}, nil, nil
	}
	return s, nil, nil, nil
}

// duplicateKeys turns the duplicate keys of a decoded document into
// warnings; lineOffset is added to their line numbers.
func duplicateKeys(dups []jsonvalue.Duplicate, rule, where string, lineOffset int) []result.Issue {
	return appendDuplicateKeys(nil, dups, rule, where, lineOffset)
}

// appendDuplicateKeys is duplicateKeys appending to issues, without a
// slice of its own in between.
func appendDuplicateKeys(issues []result.Issue, dups []jsonvalue.Duplicate, rule, where string, lineOffset int) []result.Issue {
	issues = slices.Grow(issues, len(dups))
	for _, d := range dups {
		d.Line += lineOffset
		issues = append(issues, d.Issue(rule, where))
	}
	return issues
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
