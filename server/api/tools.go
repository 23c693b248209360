package api

import "github.com/agentjudge/judge/manifest"

// ToolsLintRequest is the body of POST /v1/tools/lint: the files of a tool
// directory given by content. Tools in directories are given as
// DIR/tool.yaml plus their other files (DIR/main.py, …); paths are local
// and slash-separated. The answer is a manifest.Report: {results: {tool_id:
// ValidationResult}, summary}.
type ToolsLintRequest struct {
	Manifests []manifest.File `json:"manifests"`
}
