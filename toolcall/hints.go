package toolcall

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// deprecatedText matches a description that marks its tool deprecated:
// "DEPRECATED: Use read_text_file instead", "(deprecated)", "This tool is
// deprecated", "Deprecated." — and not one that only names a deprecated
// thing ("replaces the deprecated foo").
var deprecatedText = regexp.MustCompile(`(?i)(?:^|[.!]\s+|[(\[]\s*)deprecated\b\s*[:.)\]!,;-]?|\b(?:this|the) (?:tool|function|endpoint|method|command|operation) is (?:now )?deprecated\b|\bdeprecated:\s`)

// writeVerbs are the first words of tool names that change what they act
// on.
var writeVerbs = map[string]bool{
	"create": true, "write": true, "delete": true, "remove": true, "move": true, "rename": true, "update": true,
	"edit": true, "set": true, "put": true, "insert": true, "drop": true, "patch": true, "modify": true,
	"append": true, "replace": true, "overwrite": true, "upload": true, "post": true, "send": true, "add": true,
	"cancel": true, "book": true, "mkdir": true, "rm": true, "mv": true, "destroy": true, "truncate": true,
	"clear": true, "reset": true, "merge": true, "push": true, "commit": true, "transfer": true, "archive": true,
	"close": true, "assign": true, "upsert": true, "save": true, "store": true, "erase": true, "purge": true,
}

// writes reports whether a tool changes what it acts on: its MCP
// annotations when it has them (destructive, or not read-only), else its
// name's first word (create_directory, writeFile, delete-item).
func writes(d Definition) bool {
	if d.DestructiveHint != nil && *d.DestructiveHint {
		return true
	}
	if d.ReadOnlyHint != nil {
		return !*d.ReadOnlyHint
	}
	return writeVerbs[firstWord(d.Name)]
}

// firstWord is the first word of a tool name, lower case: up to an
// underscore, a hyphen, a dot or a capital letter.
func firstWord(name string) string {
	for i, r := range name {
		if i > 0 && (r == '_' || r == '-' || r == '.' || unicode.IsUpper(r)) {
			return strings.ToLower(name[:i])
		}
	}
	return strings.ToLower(name)
}

// actsOnCallTarget reports whether a suggested tool would act on the very
// thing the call named rather than on something the call found: its
// identifying arguments (isIDParam) are all the call's own, under the same
// names and with the same values (list_directory of /tmp → create_directory
// of /tmp; list_issues of a repo → create_issue in it), and none is still
// needed or filled from the result (list_issues → update_issue of an issue
// found is kept).
func actsOnCallTarget(next *Contract, known map[string]any, needs []string, args map[string]any) bool {
	if len(needs) > 0 {
		return false
	}
	reused := false
	for _, p := range next.Params {
		v, ok := known[p.Name]
		if !ok || !isIDParam(p.Name) {
			continue
		}
		a, given := args[p.Name]
		if !given || signature(a) != signature(v) {
			return false
		}
		reused = true
	}
	return reused
}

// itemError matches an item of a text result that is an error about one
// thing: "/tmp/a.txt: Error - ENOENT: no such file or directory",
// "b.json: error: permission denied", "x: Failed - timeout".
var itemError = regexp.MustCompile(`^\S[^\n]{0,300}?:\s+(?:Error|ERROR|error|Failed|FAILED|failed)\b\s*[-:]`)

// itemSeparator matches a line that separates the items of a text
// result: dashes, equals signs or asterisks alone.
var itemSeparator = regexp.MustCompile(`(?m)^[ \t]*(?:-{3,}|={3,}|\*{3,})[ \t]*$`)

// everyItemError reports whether a payload is a list of items that are
// all errors: the items of a text (separated by lines of dashes, else one
// a line), each an error about one thing ("path: Error - ENOENT …"), or
// a list of objects that each report a failure (an error field, success
// false, …). It returns how many items there are and the first error's
// text. A payload that wraps its text in an object of one member
// (server-filesystem's structuredContent {content}) is read as the text.
func everyItemError(payload any) (n int, first string) {
	switch x := payload.(type) {
	case string:
		return textItemsError(x)
	case map[string]any:
		if len(x) == 1 {
			for _, v := range x {
				if s, ok := v.(string); ok {
					return textItemsError(s)
				}
			}
		}
	case []any:
		if len(x) == 0 {
			return 0, ""
		}
		for _, e := range x {
			m, ok := e.(map[string]any)
			if !ok {
				if s, ok := e.(string); ok {
					if k, f := textItemsError(s); k > 0 {
						n += k
						if first == "" {
							first = f
						}
						continue
					}
				}
				return 0, ""
			}
			why, _, _, text := failureOf(m)
			if why == "" {
				return 0, ""
			}
			n++
			if first == "" {
				first = text
				if first == "" {
					first = why
				}
			}
		}
		return n, first
	}
	return 0, ""
}

// textItemsError is everyItemError of a text.
func textItemsError(s string) (int, string) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 1<<20 {
		return 0, ""
	}
	var items []string
	if itemSeparator.MatchString(s) {
		items = itemSeparator.Split(s, -1)
	} else {
		items = strings.Split(s, "\n")
	}
	n, first := 0, ""
	for _, it := range items {
		it = strings.TrimSpace(it)
		if it == "" {
			continue
		}
		line, _, _ := strings.Cut(it, "\n")
		if !itemError.MatchString(line) {
			if m, _ := textFailure(line); m == "" {
				return 0, ""
			}
		}
		n++
		if first == "" {
			first = line
		}
	}
	if n == 0 {
		return 0, ""
	}
	return n, first
}

// describeItems says how many items failed.
func describeItems(n int) string {
	if n == 1 {
		return "the result's one item is an error"
	}
	return fmt.Sprintf("every item of the result is an error (%d items)", n)
}
