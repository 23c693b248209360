package api

import (
	"encoding/json"

	"github.com/agentjudge/judge/manifest"
)

// ToolsLintRequest is the body of POST /v1/tools/lint: the files of a tool
// directory given by content. Tools in directories are given as
// DIR/tool.yaml plus their other files (DIR/main.py, …); paths are local
// and slash-separated. The answer is a manifest.Report: {results: {tool_id:
// ValidationResult}, summary}. Instead of manifests, MCP gives MCP tool
// definitions, as judge tools lint --mcp reads them.
type ToolsLintRequest struct {
	Manifests []manifest.File `json:"manifests,omitempty"`
	// MCP is a tools/list answer (or a list of MCP tool definitions) to
	// lint and scan for poisoning instead of manifests; results are keyed
	// by tool name.
	MCP json.RawMessage `json:"mcp,omitempty"`
	// Strict reports fields the registry does not declare as warnings in
	// every convention, as judge tools lint --strict does; otherwise a
	// manifest in the registry convention (identity from its path) gets
	// an info note for each.
	Strict bool `json:"strict,omitempty"`
}
