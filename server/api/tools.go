package api

import "github.com/agentjudge/judge/manifest"

// ToolsLintRequest is the body of POST /v1/tools/lint: the files of a tool
// directory given by content. Tools in directories are given as
// DIR/tool.yaml plus their other files (DIR/main.py, …); paths are local
// and slash-separated. The answer is a manifest.Report: {results: {tool_id:
// ValidationResult}, summary}.
type ToolsLintRequest struct {
	Manifests []manifest.File `json:"manifests"`
	// Strict reports fields the registry does not declare as warnings in
	// every convention, as judge tools lint --strict does; otherwise a
	// manifest in the registry convention (identity from its path) gets
	// an info note for each.
	Strict bool `json:"strict,omitempty"`
}
