package toolcall_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/toolcall"
)

const createIssue = `tool_id: github_create_issue
tool_type: mcp_tool
version: "1.0.0"
executor: github_mcp
description: Create an issue in a GitHub repository
config:
  mcp_tool_name: create_issue
  next_tools: [github_get_issue]
input_schema:
  type: object
  properties:
    owner: {type: string}
    repo: {type: string}
    title: {type: string}
  required: [owner, repo, title]
`

func TestRegistryDefinitions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	reg, err := manifest.LoadFiles(ctx, []manifest.File{
		{Path: "github_create_issue.yaml", Content: createIssue},
		{Path: "python_runtime.yaml", Content: "tool_id: python_runtime\ntool_type: runtime\nversion: \"1.0.0\"\nexecutor: subprocess\ndescription: Runs Python\nconfig:\n  command: python3\n"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defs, err := toolcall.RegistryDefinitions(reg)
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != 1 || defs[0].Name != "github_create_issue" || defs[0].Kind != toolcall.KindManifest ||
		len(defs[0].NextTools) != 1 {
		t.Fatalf("definitions = %+v, want only the MCP tool with its next tool", defs)
	}
	c, err := toolcall.New()
	if err != nil {
		t.Fatal(err)
	}
	ts, err := c.NewToolset(defs...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ts.Check(ctx, toolcall.Call{Tool: "github_create_issue", Arguments: json.RawMessage(`{"owner": "o", "repo": "r"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Result.Valid || res.Result.Issues[0].Location != "title" {
		t.Errorf("missing title: %+v", res.Result.Issues)
	}

	// A broken extension, or a rule that does not compile, names the
	// manifest's file.
	reg, err = manifest.LoadFiles(ctx, []manifest.File{{Path: "bad.yaml",
		Content: strings.Replace(createIssue, "next_tools: [github_get_issue]", "rules: [{id: r, message: m}]", 1)}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = toolcall.RegistryDefinitions(reg)
	var de *toolcall.DefinitionError
	if !errors.As(err, &de) || !strings.HasSuffix(de.File, "bad.yaml") || de.Path != "config.rules[0].expression" {
		t.Errorf("err = %v, want a *DefinitionError at bad.yaml: config.rules[0].expression", err)
	}
	reg, err = manifest.LoadFiles(ctx, []manifest.File{{Path: "broken.yaml",
		Content: strings.Replace(createIssue, "next_tools: [github_get_issue]", "rules: [{id: r, message: m, expression: 'args.title =='}]", 1)}})
	if err != nil {
		t.Fatal(err)
	}
	if defs, err = toolcall.RegistryDefinitions(reg); err == nil {
		_, err = c.NewToolset(defs...)
	}
	if !errors.As(err, &de) || !strings.HasPrefix(de.Error(), "broken.yaml: config.rules[0].expression:1:14: Syntax error") {
		t.Errorf("err = %v, want it at broken.yaml: config.rules[0].expression:1:14", err)
	}
}

// Manifests are definitions too, in a definitions document: as JSON
// objects with tool_id, or as files by path and content, beside MCP tools.
func TestManifestDefinitions(t *testing.T) {
	t.Parallel()
	doc, _ := json.Marshal([]any{
		map[string]any{"name": "mcp_tool", "inputSchema": map[string]any{"type": "object"}},
		map[string]any{"path": "github_create_issue.yaml", "content": createIssue},
		map[string]any{"tool_id": "weather", "tool_type": "api", "version": "1.0.0", "executor": "http_client", "description": "Weather.",
			"config":     map[string]any{"method": "GET", "url_template": "https://example.com/{lat}"},
			"parameters": []any{map[string]any{"name": "lat", "type": "number", "required": true}}},
	})
	defs, err := toolcall.ParseDefinitions(doc, "defs.json")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range defs {
		names = append(names, d.Name+":"+d.Kind)
	}
	if strings.Join(names, ",") != "mcp_tool:mcp,github_create_issue:manifest,weather:manifest" {
		t.Fatalf("definitions = %v", names)
	}
	ts := toolsetOf(t, defs)
	res, err := ts.Check(context.Background(), toolcall.Call{Tool: "weather", Arguments: json.RawMessage(`{"lat": "north"}`)})
	if err != nil || res.Result.Valid || res.Result.Issues[0].Location != "lat" {
		t.Errorf("weather with a bad lat: %v %+v", err, res)
	}

	for _, tt := range []struct{ doc, want string }{
		{`[{"tool_id": "py", "tool_type": "runtime", "version": "1.0.0", "executor": "subprocess", "description": "x", "config": {"command": "python3"}}]`,
			"defs.json: [0].tool_type: a runtime tool is not called with arguments"},
		{`[{"path": "x.yaml", "content": "tool_type: [\n"}]`, "defs.json: [0]: not a tool manifest judge can read"},
		{`[{"path": "../x.yaml", "content": "a: 1"}]`, "defs.json: manifests: manifest: manifests[0].path"},
		{`[{"tool_id": "w", "tool_type": "api", "config": {"rules": [{"id": "r", "message": "m"}]}}]`, "defs.json: [0].config.rules[0].expression: a rule needs an expression"},
	} {
		_, err := toolcall.ParseDefinitions([]byte(tt.doc), "defs.json")
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want prefix %q", tt.doc, err, tt.want)
		}
	}
}

// TestParseDefinitionsContext checks that the manifests among definitions
// load under the caller's context: the same document parses under a live
// one and ends with the context's error under a cancelled one.
func TestParseDefinitionsContext(t *testing.T) {
	t.Parallel()
	doc, err := json.Marshal([]map[string]string{{"path": "github_create_issue.yaml", "content": createIssue}})
	if err != nil {
		t.Fatal(err)
	}
	defs, err := toolcall.ParseDefinitionsContext(context.Background(), doc, "tools.json")
	if err != nil || len(defs) != 1 || defs[0].Name != "github_create_issue" {
		t.Fatalf("live context: %+v, %v; want the manifest's tool", defs, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = toolcall.ParseDefinitionsContext(ctx, doc, "tools.json")
	var de *toolcall.DefinitionError
	if !errors.Is(err, context.Canceled) || !errors.As(err, &de) || de.File != "tools.json" {
		t.Fatalf("cancelled context: %v; want a *DefinitionError of tools.json wrapping context.Canceled", err)
	}
}
