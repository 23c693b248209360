package manifest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/agentjudge/judge/result"
)

// Usage guidance: what a model reads to choose a tool and fill its
// parameters, beside the description. A manifest writes the tool's
// guidance as the top-level fields when_to_use and when_not_to_use, and a
// parameter's as intent and anti_patterns in its parameters entry; a JSON
// Schema (input_schema, an MCP inputSchema, OpenAI parameters) carries
// them as the keywords below, which JSON Schema validators ignore.
const (
	// KeyWhenToUse and KeyWhenNotToUse are the tool's guidance at the
	// root of its input schema, for definitions that travel through MCP
	// and OpenAI clients (which keep only the fields they know at a
	// tool's top level, and the schema whole).
	KeyWhenToUse    = "x-when-to-use"
	KeyWhenNotToUse = "x-when-not-to-use"
	// KeyIntent is a parameter's intent: what the value is for, in the
	// property's schema.
	KeyIntent = "x-intent"
	// KeyAntiPatterns are the values or uses of a parameter to avoid, a
	// list of strings in the property's schema.
	KeyAntiPatterns = "x-anti-patterns"
)

// Guidance is a tool's usage guidance.
type Guidance struct {
	WhenToUse    string `json:"when_to_use,omitempty"`
	WhenNotToUse string `json:"when_not_to_use,omitempty"`
}

// Empty reports whether g says nothing.
func (g Guidance) Empty() bool {
	return strings.TrimSpace(g.WhenToUse) == "" && strings.TrimSpace(g.WhenNotToUse) == ""
}

// SchemaGuidance reads the tool's guidance at the root of an input schema
// (KeyWhenToUse, KeyWhenNotToUse); fields that are not strings are
// ignored.
func SchemaGuidance(schema map[string]any) Guidance {
	w, _ := schema[KeyWhenToUse].(string)
	n, _ := schema[KeyWhenNotToUse].(string)
	return Guidance{WhenToUse: w, WhenNotToUse: n}
}

// GuidedDescription is a tool's description with its guidance appended as
// the sentences a model reads: "Use when: …" and "Do not use when: …".
func GuidedDescription(desc string, g Guidance) string {
	out := strings.TrimSpace(desc)
	add := func(label, s string) {
		if s = strings.TrimSpace(s); s == "" {
			return
		}
		if out != "" {
			out += "\n"
		}
		out += label + s
	}
	add("Use when: ", g.WhenToUse)
	add("Do not use when: ", g.WhenNotToUse)
	return out
}

// FoldGuidance returns a copy of a JSON Schema with the guidance keywords
// removed: a property's KeyIntent and KeyAntiPatterns are appended to its
// description ("Intent: …" and "Avoid: …"), and the root's
// KeyWhenToUse and KeyWhenNotToUse are returned as the tool's guidance,
// for the tool's description. Providers see plain descriptions, and a
// strict-mode schema no unknown keyword. s is not modified.
func FoldGuidance(s any) (any, Guidance) {
	root, ok := s.(map[string]any)
	if !ok {
		return s, Guidance{}
	}
	g := SchemaGuidance(root)
	return foldSchema(root, 0), g
}

func foldSchema(v any, depth int) any {
	if depth > MaxDepth {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			switch k {
			case KeyIntent, KeyAntiPatterns, KeyWhenToUse, KeyWhenNotToUse:
				continue
			}
			out[k] = foldSchema(e, depth+1)
		}
		intent, _ := x[KeyIntent].(string)
		anti := stringList(x[KeyAntiPatterns])
		if d := ParamGuidanceText(intent, anti); d != "" {
			desc, _ := out["description"].(string)
			if desc = strings.TrimSpace(desc); desc != "" {
				desc += " "
			}
			out["description"] = desc + d
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = foldSchema(e, depth+1)
		}
		return out
	}
	return v
}

// ParamGuidanceText renders a parameter's guidance as one sentence or two:
// "Intent: … Avoid: …; …". It is "" when both are empty.
func ParamGuidanceText(intent string, anti []string) string {
	var parts []string
	if s := strings.TrimSpace(intent); s != "" {
		parts = append(parts, "Intent: "+sentence(s))
	}
	if len(anti) > 0 {
		parts = append(parts, "Avoid: "+sentence(strings.Join(anti, "; ")))
	}
	return strings.Join(parts, " ")
}

// sentence ends s with a full stop unless it ends with punctuation.
func sentence(s string) string {
	if s == "" || strings.ContainsRune(".!?", rune(s[len(s)-1])) {
		return s
	}
	return s + "."
}

// stringList reads a list of strings; anything else is nil.
func stringList(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, e := range l {
		if s, ok := e.(string); ok && strings.TrimSpace(s) != "" {
			out = append(out, strings.TrimSpace(s))
		}
	}
	return out
}

// Bounds of the weak-description rule.
const (
	// minDescriptionWords is how many words a description needs.
	minDescriptionWords = 4
	// minNewWords is how many content words a description must add to
	// the tool's name.
	minNewWords = 2
)

// stopWords carry no meaning a model could choose a tool by.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "to": true, "of": true, "for": true, "and": true, "or": true, "in": true,
	"on": true, "with": true, "by": true, "this": true, "that": true, "is": true, "are": true, "be": true, "it": true,
	"its": true, "from": true, "as": true, "at": true, "tool": true, "function": true, "will": true, "can": true,
	"you": true, "your": true, "use": true, "used": true, "using": true, "given": true, "specified": true,
	"provided": true, "some": true, "any": true, "all": true, "one": true, "which": true, "into": true,
}

// weakDescription says why a description gives a model nothing to choose
// the tool named name by, or "": it is too short, or it only restates the
// name. An empty description is reported by other rules.
func weakDescription(name, desc string) string {
	words := wordsOf(desc)
	if len(words) == 0 {
		return ""
	}
	if len(words) < minDescriptionWords {
		return fmt.Sprintf("it is %d word%s long", len(words), plural(len(words)))
	}
	named := map[string]bool{}
	for _, w := range wordsOf(splitName(name)) {
		named[stemOf(w)] = true
	}
	added := map[string]string{} // by stem, the word as written
	for _, w := range words {
		s := stemOf(w)
		if stopWords[w] || named[s] || len(w) < 2 {
			continue
		}
		if _, ok := added[s]; !ok {
			added[s] = w
		}
	}
	if len(added) < minNewWords {
		if len(added) == 0 {
			return "it only restates the tool's name"
		}
		return fmt.Sprintf("it adds only %q to the tool's name", added[slices.Sorted(maps.Keys(added))[0]])
	}
	return ""
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// wordsOf splits text into lower-case words of letters and digits.
func wordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// splitName splits a tool name into words: snake_case, kebab-case, dotted,
// slashed and camelCase.
func splitName(name string) string {
	var sb strings.Builder
	prev := rune(0)
	for _, r := range name {
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			sb.WriteByte(' ')
		}
		sb.WriteRune(r)
		prev = r
	}
	return sb.String()
}

// stemOf is a crude stem, enough to match a name's words in a
// description: "issues" and "issue", "listing" and "list", "gets" and
// "get".
func stemOf(w string) string {
	for _, suf := range []string{"ing", "ies", "es", "ed", "s"} {
		if s, ok := strings.CutSuffix(w, suf); ok && len(s) >= 3 {
			if suf == "ies" {
				return s + "y"
			}
			return s
		}
	}
	return w
}

// descriptionFinding is the weak-description finding of a tool named name
// with description desc, or none when the description is empty (another
// rule's) or the tool carries usage guidance.
func descriptionFinding(name, desc string, g Guidance) (finding, bool) {
	if !g.Empty() {
		return finding{}, false
	}
	why := weakDescription(name, desc)
	if why == "" {
		return finding{}, false
	}
	return finding{rule: RuleWeakDescription, onToolName: true,
		msg: fmt.Sprintf("The description of tool '%s' gives a model nothing to choose it by: %s (%q) and the tool has no when_to_use",
			result.Clip(name, 80), why, result.Clip(strings.TrimSpace(desc), 80)),
		sugg: "Say what the tool returns and when to use it rather than another tool, or add when_to_use and when_not_to_use"}, true
}

// RuleWeakDescription is the rule id of a description that gives a model
// nothing to choose the tool by.
const RuleWeakDescription = "guidance.description"
