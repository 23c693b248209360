package gateway

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/toolcall"
	"github.com/agentjudge/judge/toolscan"
)

// Names of judge's own tools, offered with [Gateway.ExposeJudge].
const (
	ToolValidate  = "validate"
	ToolCheckCall = "check_call"
	ToolLintTools = "lint_tools"
)

// ExposeJudge adds judge's own checks as MCP tools: validate (the body of
// POST /validate, answered with a ValidationResult), check_call (the body
// of POST /v1/calls/check; without tools, against the gateway's own tools)
// and lint_tools (MCP tool definitions, linted and scanned for poisoning as
// `judge tools lint --mcp` does). Each calls the same core as the CLI and
// the HTTP API. A gateway tool of the same name is replaced.
func (g *Gateway) ExposeJudge(engine *judge.Engine) {
	g.server.AddTool(&mcp.Tool{
		Name:        ToolValidate,
		Description: "Validate an LLM output with judge: give the output and, optionally, expected_schema, acceptance_criteria and sources, as POST /validate takes them. Answers a ValidationResult: valid, issues with locations and suggestions, quality_score.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"output":{"description":"the output to check: any JSON value or a string"},"expected_schema":{"type":"object","description":"JSON Schema the output must match"},"acceptance_criteria":{"type":"array","description":"criteria: text, or {id, rule} with a CEL rule"},"validation_types":{"type":"array","items":{"type":"string"}},"sources":{"type":"array","items":{"type":"object"}},"context":{}},"required":["output"]}`),
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r, err := judge.DecodeRequest(req.Params.Arguments, 0)
		if err != nil {
			return errorResult(err), nil
		}
		res, err := engine.Validate(ctx, r)
		if err != nil {
			return errorResult(err), nil
		}
		return jsonResult(res, !res.Valid)
	})
	g.server.AddTool(&mcp.Tool{
		Name:        ToolCheckCall,
		Description: "Check a tool call's arguments with judge before making it: give tool and arguments (and tools, definitions to check against; absent means this gateway's tools). Answers the verdict, the normalized arguments and repair feedback.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"tool":{"type":"string"},"arguments":{"type":"object"},"session_id":{"type":"string"},"tools":{"description":"MCP tool definitions, OpenAI functions, or a tools/list answer"}},"required":["tool"]}`),
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in toolcall.CheckRequest
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return errorResult(fmt.Errorf("arguments: %w", err)), nil
		}
		ts := g.catalog().toolset
		if len(in.Tools) > 0 {
			defs, err := toolcall.ParseDefinitionsContext(ctx, in.Tools, "tools")
			if err == nil {
				ts, err = g.checker.NewToolset(defs...)
			}
			if err != nil {
				return errorResult(err), nil
			}
		}
		res, err := ts.Check(ctx, toolcall.Call{Tool: in.Tool, Arguments: in.Arguments, SessionID: in.SessionID})
		if err != nil {
			return errorResult(err), nil
		}
		return jsonResult(res, false)
	})
	g.server.AddTool(&mcp.Tool{
		Name:        ToolLintTools,
		Description: "Lint MCP tool definitions with judge: give tools, a list of definitions or a tools/list answer. Answers one ValidationResult per tool (schema, provider rules, tool poisoning) and a summary.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"tools":{"description":"MCP tool definitions: a list, or a tools/list answer"}},"required":["tools"]}`),
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct {
			Tools json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return errorResult(fmt.Errorf("arguments: %w", err)), nil
		}
		rep, err := manifest.LintMCP(ctx, "tools", in.Tools)
		if err == nil {
			err = toolscan.AddToReport(rep, "tools", in.Tools)
		}
		if err != nil {
			return errorResult(err), nil
		}
		return jsonResult(rep, false)
	})
}

// jsonResult answers v as structuredContent and as its JSON text.
func jsonResult(v any, isErr bool) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b), IsError: isErr}, nil
}

// errorResult answers bad input to one of judge's tools.
func errorResult(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "judge could not check this input: " + err.Error()}}, IsError: true}
}
