package manifest

import (
	"fmt"
	"path"
	"strings"
)

// ScaffoldOptions say what [Scaffold] creates.
type ScaffoldOptions struct {
	// Type is the new tool's type: script, api, mcp_tool, mcp_server,
	// runtime, knowledge or directive.
	Type ToolType
	// Name is the new tool's tool_id.
	Name string
	// Executor is the tool that runs it: the runtime of a script (default
	// python_runtime), the server of an mcp_tool (default NAME_server).
	// Other types have a fixed executor.
	Executor string
}

// ScaffoldTypes are the types [Scaffold] creates, in documentation order.
func ScaffoldTypes() []ToolType {
	return []ToolType{Script, API, MCPTool, MCPServer, Runtime, Knowledge, Directive}
}

// Scaffold returns the files of a new tool with every required field, a
// parameter with its description where the type takes parameters, and an
// entrypoint for a script: a tool that lints clean once its executor is in
// the registry. Paths are relative to the tools directory.
func Scaffold(o ScaffoldOptions) ([]File, error) {
	if !idPattern.MatchString(o.Name) {
		return nil, fmt.Errorf("manifest: tool name %q does not match ^[A-Za-z][A-Za-z0-9_-]{0,63}$: use a letter, then letters, digits, '_' or '-'", o.Name)
	}
	if o.Executor != "" && !idPattern.MatchString(o.Executor) && !pathIDPattern.MatchString(o.Executor) {
		return nil, fmt.Errorf("manifest: executor %q is not a tool id or path", o.Executor)
	}
	n := o.Name
	words := strings.ReplaceAll(strings.ReplaceAll(n, "_", " "), "-", " ")
	switch o.Type {
	case Script:
		return scriptFiles(n, words, o.Executor), nil
	case API:
		return []File{{Path: n + ".yaml", Content: fmt.Sprintf(`tool_id: %s
tool_type: api
version: "0.1.0"
description: %s (describe what it returns in one sentence)
executor: http_client
config:
  method: GET
  url_template: "https://api.example.com/v1/items/{id}"
  headers:
    Authorization: "Bearer ${%s_TOKEN}"
parameters:
  - name: id
    type: string
    required: true
    description: The item's identifier
`, n, capitalize(words), strings.ToUpper(strings.ReplaceAll(n, "-", "_")))}}, nil
	case MCPTool:
		return mcpToolFiles(n, words, o.Executor), nil
	case MCPServer:
		return []File{{Path: n + ".yaml", Content: fmt.Sprintf(`tool_id: %s
tool_type: mcp_server
version: "0.1.0"
description: %s MCP server, started over stdio
executor: subprocess
config:
  transport: stdio
  command: npx
  args: ["-y", "@modelcontextprotocol/server-everything"]
  startup_timeout: 10
`, n, capitalize(words))}}, nil
	case Runtime:
		return runtimeFiles(n), nil
	case Knowledge:
		return []File{{Path: n + ".md", Content: fmt.Sprintf(`---
id: %s
title: "%s"
entry_type: reference
tags: [draft]
version: "0.1.0"
---

# %s

Write what the agent should know here.
`, n, capitalize(words), capitalize(words))}}, nil
	case Directive:
		return []File{{Path: n + ".xml", Content: fmt.Sprintf(`<directive name="%s" version="0.1.0">
  <metadata>
    <description>%s (describe the workflow in one sentence)</description>
    <model tier="fast"/>
    <permissions>
      <read resource="fs"/>
    </permissions>
  </metadata>
  <inputs/>
  <process>
    <step name="start">Describe the first step.</step>
  </process>
</directive>
`, n, capitalize(words))}}, nil
	case Primitive:
		return nil, fmt.Errorf("manifest: primitives are built into the host (subprocess, http_client); create a runtime run by one instead")
	}
	return nil, fmt.Errorf("manifest: cannot scaffold type %q; the types are %s", o.Type, strings.Join(scaffoldTypeNames(), ", "))
}

// scriptFiles scaffolds a script tool named n and its entry point, run by
// executor (python_runtime when empty).
func scriptFiles(n, words, executor string) []File {
	rt := executor
	if rt == "" {
		rt = "python_runtime"
	}
	entry, body := scriptEntry(rt)
	return []File{
		{Path: path.Join(n, "tool.yaml"), Content: fmt.Sprintf(`tool_id: %s
tool_type: script
version: "0.1.0"
description: %s (describe what it does in one sentence)
executor: %s
config:
  entrypoint: %s
parameters:
  - name: text
    type: string
    required: true
    description: The text to work on
`, n, capitalize(words), rt, entry)},
		{Path: path.Join(n, entry), Content: body},
	}
}

// mcpToolFiles scaffolds an MCP tool named n, served by executor (n_server
// when empty).
func mcpToolFiles(n, words, executor string) []File {
	srv := executor
	if srv == "" {
		srv = n + "_server"
	}
	return []File{{Path: n + ".yaml", Content: fmt.Sprintf(`tool_id: %s
tool_type: mcp_tool
version: "0.1.0"
description: %s (describe what it does in one sentence)
executor: %s
config:
  mcp_tool_name: %s
input_schema:
  type: object
  properties:
    query:
      type: string
      description: What to look for
  required: [query]
  additionalProperties: false
`, n, capitalize(words), srv, n)}}
}

// runtimeFiles scaffolds a runtime named n, its language guessed from the
// name (node, bash or shell; python otherwise).
func runtimeFiles(n string) []File {
	cmd, lang := "python3", "python"
	switch {
	case strings.Contains(n, "node"):
		cmd, lang = "node", "javascript"
	case strings.Contains(n, "bash") || strings.Contains(n, "shell"):
		cmd, lang = "bash", "bash"
	}
	return []File{{Path: n + ".yaml", Content: fmt.Sprintf(`tool_id: %s
tool_type: runtime
version: "0.1.0"
description: Runs %s scripts with %s
executor: subprocess
config:
  command: %s
  language: %s
`, n, lang, cmd, cmd, lang)}}
}

func scaffoldTypeNames() []string {
	var out []string
	for _, t := range ScaffoldTypes() {
		out = append(out, string(t))
	}
	return out
}

// scriptEntry is the entrypoint file of a script run by the runtime rt,
// chosen by the runtime's name.
func scriptEntry(rt string) (string, string) {
	switch {
	case strings.Contains(rt, "node") || strings.Contains(rt, "js"):
		return "main.js", `// Reads the parameters as JSON on stdin and writes the result as JSON.
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const params = JSON.parse(Buffer.concat(chunks).toString() || "{}");
  process.stdout.write(JSON.stringify({ text: params.text }) + "\n");
});
`
	case strings.Contains(rt, "bash") || strings.Contains(rt, "shell") || strings.HasSuffix(rt, "sh"):
		return "main.sh", `#!/usr/bin/env bash
# Reads the parameters as JSON on stdin and writes the result as JSON.
set -euo pipefail
cat
`
	}
	return "main.py", `"""Reads the parameters as JSON on stdin and writes the result as JSON."""
import json
import sys


def main() -> None:
    params = json.load(sys.stdin)
    json.dump({"text": params["text"]}, sys.stdout)


if __name__ == "__main__":
    main()
`
}
