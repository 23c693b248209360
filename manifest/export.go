package manifest

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/agentjudge/judge/internal/strictschema"
)

// The provider formats of [Export].
const (
	ExportOpenAI    = "openai"    // Chat Completions tools: {type: function, function: {name, description, parameters}}
	ExportAnthropic = "anthropic" // Messages tools: {name, description, input_schema}
	ExportMCP       = "mcp"       // an MCP tools/list result: {tools: [{name, description, inputSchema}]}
)

// ExportFormats lists the formats [Export] writes.
func ExportFormats() []string { return []string{ExportOpenAI, ExportAnthropic, ExportMCP} }

// ExportNote is something an export changed or left out: a tool renamed
// to a provider's name rules, a tool skipped, a keyword the strict
// transform dropped.
type ExportNote struct {
	Tool    string `json:"tool"`
	Message string `json:"message"`
}

// providerName is what OpenAI, Anthropic and Gemini accept as a function
// name.
var providerName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// callable reports whether a model calls t: scripts, api and MCP tools,
// and tools of an absent or undeclared type that declare parameters.
func callable(t *Tool) bool {
	switch t.kind {
	case Script, API, MCPTool:
		return true
	case "":
		return t.schema != nil
	}
	return false
}

// Export returns the registry's callable tools (script, api, mcp_tool, and
// tools of no known type that declare parameters) as the tool definitions
// of a model provider, sorted by name. A tool id that is not a valid
// function name (a path id such as rye/web/fetch) is rewritten with '_'
// for each other character; strict runs each schema through the OpenAI
// strict-mode transform. Usage guidance is folded into the descriptions:
// the tool's when_to_use and when_not_to_use are appended to its
// description ("Use when: …", "Do not use when: …"), a parameter's intent
// and anti_patterns to the parameter's ("Intent: …", "Avoid: …"), and the
// guidance keywords are removed from the schema. A broken tool is skipped
// with a note; two tools that end with one name are an error.
func Export(reg *Registry, format string, strict bool) (any, []ExportNote, error) {
	type def struct {
		name, desc string
		schema     any
	}
	if !slices.Contains(ExportFormats(), format) {
		return nil, nil, fmt.Errorf("manifest: export: format %q is not one of %s", format, strings.Join(ExportFormats(), ", "))
	}
	var defs []def
	var notes []ExportNote
	owner := map[string]string{}
	for _, t := range reg.Tools() {
		if t.broken || t.ID == "" || !callable(t) {
			if t.broken && t.ID != "" {
				notes = append(notes, ExportNote{Tool: t.ID, Message: "skipped: the manifest cannot be read; lint it"})
			}
			continue
		}
		name := t.ID
		if !providerName.MatchString(name) {
			name = strings.Map(func(r rune) rune {
				if r < 128 && (r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
					return r
				}
				return '_'
			}, name)
			if len(name) > 64 {
				name = name[len(name)-64:]
			}
			notes = append(notes, ExportNote{Tool: t.ID, Message: "renamed " + name + " to fit the providers' name rules"})
		}
		if prev, dup := owner[name]; dup {
			return nil, notes, fmt.Errorf("manifest: export: tools %s and %s both export as %s", prev, t.ID, name)
		}
		owner[name] = t.ID
		var schema any = map[string]any{"type": "object", "properties": map[string]any{}}
		guide := t.Guidance
		if t.schema != nil {
			// Usage guidance becomes the descriptions a model reads:
			// providers know no guidance keywords, and strict mode
			// refuses unknown ones.
			schema, _ = FoldGuidance(t.schema)
		}
		if strict {
			s, losses, err := strictschema.Strict(schema)
			if err != nil {
				return nil, notes, fmt.Errorf("manifest: export: %s: %w", t.ID, err)
			}
			for _, l := range losses {
				notes = append(notes, ExportNote{Tool: t.ID, Message: "strict: " + l.String()})
			}
			schema = s
		}
		defs = append(defs, def{name: name, desc: GuidedDescription(t.Description, guide), schema: schema})
	}
	sort.Slice(defs, func(a, b int) bool { return defs[a].name < defs[b].name })
	out := make([]any, 0, len(defs))
	for _, d := range defs {
		switch format {
		case ExportOpenAI:
			fn := map[string]any{"name": d.name, "description": d.desc, "parameters": d.schema}
			if strict {
				fn["strict"] = true
			}
			out = append(out, map[string]any{"type": "function", "function": fn})
		case ExportAnthropic:
			out = append(out, map[string]any{"name": d.name, "description": d.desc, "input_schema": d.schema})
		case ExportMCP:
			out = append(out, map[string]any{"name": d.name, "description": d.desc, "inputSchema": d.schema})
		}
	}
	if format == ExportMCP {
		return map[string]any{"tools": out}, notes, nil
	}
	return out, notes, nil
}
