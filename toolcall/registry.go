package toolcall

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

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
		if !ok || !callable(t.Kind()) {
			continue
		}
		d := Definition{Name: t.ID, Description: t.Description, Kind: KindManifest, File: t.Path, Where: "config",
			WhenToUse: t.Guidance.WhenToUse, WhenNotToUse: t.Guidance.WhenNotToUse}
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

// manifestItem is a manifest among the items of a definitions document:
// its file, and where it was.
type manifestItem struct {
	file  manifest.File
	where string
}

// asManifest reports whether a definitions item is a tool manifest: a
// manifest as a JSON object (it has tool_id), or a manifest file given by
// path and content (as POST /v1/tools/lint takes them).
func asManifest(v any, i int, where string) (manifestItem, bool, *DefinitionError) {
	obj, ok := v.(map[string]any)
	if !ok {
		return manifestItem{}, false, nil
	}
	if _, ok := obj["tool_id"]; ok {
		b, err := json.Marshal(obj)
		if err != nil {
			return manifestItem{}, false, &DefinitionError{Path: where, Msg: "the manifest is not plain JSON: " + err.Error(), Err: err}
		}
		// JSON is YAML: the manifest loader reads it as a NAME.yaml file.
		return manifestItem{file: manifest.File{Path: fmt.Sprintf("tools-%d.yaml", i), Content: string(b)}, where: where}, true, nil
	}
	p, okp := obj["path"].(string)
	c, okc := obj["content"].(string)
	if okp && okc && len(obj) == 2 {
		return manifestItem{file: manifest.File{Path: p, Content: c}, where: where}, true, nil
	}
	return manifestItem{}, false, nil
}

// manifestDefinitions loads manifests given in a definitions document and
// returns their definitions: each must define one callable tool with a
// tool_id.
func manifestDefinitions(ctx context.Context, items []manifestItem, file string) ([]Definition, *DefinitionError) {
	files := make([]manifest.File, len(items))
	for i, it := range items {
		files[i] = it.file
	}
	reg, err := manifest.LoadFiles(ctx, files)
	if err != nil {
		return nil, &DefinitionError{File: file, Path: "manifests", Msg: err.Error(), Err: err}
	}
	var defs []Definition
	for _, it := range items {
		var found *manifest.Tool
		for _, t := range reg.Tools() {
			if t.Path == it.file.Path || strings.HasPrefix(t.Path, strings.TrimSuffix(it.file.Path, "/")+"/") {
				found = t
				break
			}
		}
		switch {
		case found == nil || found.ID == "":
			return nil, &DefinitionError{File: file, Path: it.where,
				Msg: "not a tool manifest judge can read (no tool_id); judge tools lint says why"}
		case !callable(found.Kind()):
			return nil, &DefinitionError{File: file, Path: joinPath(it.where, "tool_type"),
				Msg: fmt.Sprintf("a %s tool is not called with arguments; give a script, api, mcp_tool or directive", orType(found.Type))}
		}
		d := Definition{Name: found.ID, Description: found.Description, Kind: KindManifest, File: file, Where: joinPath(it.where, "config"),
			WhenToUse: found.Guidance.WhenToUse, WhenNotToUse: found.Guidance.WhenNotToUse}
		if s := found.Schema(); s != nil {
			d.InputSchema = s
		}
		if err := readExtensions(found.Config, &d); err != nil {
			err.File = file
			err.Path = joinPath(d.Where, err.Path)
			return nil, err
		}
		defs = append(defs, d)
	}
	return defs, nil
}

func orType(t manifest.ToolType) string {
	if t == "" {
		return "untyped"
	}
	return string(t)
}
