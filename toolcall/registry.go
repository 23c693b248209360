package toolcall

import (
	"github.com/agentjudge/judge/manifest"
)

// callable reports whether tools of type t are called by agents with
// arguments: scripts, APIs, MCP tools and directives. Primitives and
// runtimes execute other tools, MCP servers hold tools, knowledge is read.
func callable(t manifest.ToolType) bool {
	switch t {
	case manifest.Script, manifest.API, manifest.MCPTool, manifest.Directive:
		return true
	}
	return false
}

// RegistryDefinitions returns the definitions of a registry's callable
// tools (scripts, APIs, MCP tools, directives), sorted by tool_id: the
// name is the tool_id, the input schema the manifest's parameters (or
// input_schema), and the judge extensions (rules, applies_when,
// next_tools, allow_unknown_parameters) are read from the manifest's
// config. Tools without a tool_id are left out (judge tools lint reports
// them). An extension that cannot be read is a *DefinitionError naming the
// manifest's file.
func RegistryDefinitions(reg *manifest.Registry) ([]Definition, error) {
	var defs []Definition
	for _, id := range reg.IDs() {
		t, ok := reg.Lookup(id)
		if !ok || !callable(t.Type) {
			continue
		}
		d := Definition{Name: t.ID, Description: t.Description, Kind: KindManifest, File: t.Path, Where: "config"}
		if s := t.Schema(); s != nil {
			d.InputSchema = s
		}
		if err := readExtensions(t.Config, &d); err != nil {
			err.File = t.Path
			err.Path = joinPath("config", err.Path)
			return nil, err
		}
		defs = append(defs, d)
	}
	return defs, nil
}
