package api

import (
	"encoding/json"

	"github.com/agentjudge/judge/toolcall"
)

// CallCheckRequest is the body of POST /v1/calls/check.
type CallCheckRequest struct {
	// Tool is the name of the tool called. Required.
	Tool string `json:"tool"`
	// Arguments are the call's arguments, a JSON object; absent means {}.
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// SessionID names the session that counts repair attempts.
	SessionID string `json:"session_id,omitempty"`
	// Goal is what the user asked for: a goal asking for everything
	// lifts the call's limit-like parameters.
	Goal string `json:"goal,omitempty"`
	// ShownTools are the tools the model was shown, kept in the
	// session for escalation.
	ShownTools []string `json:"shown_tools,omitempty"`
	// Tools are the tool definitions (MCP tools, OpenAI functions, or a
	// tools/list answer); absent means the server's own tools.
	Tools json.RawMessage `json:"tools,omitempty"`
}

// CallCheckResponse is the answer of POST /v1/calls/check.
type CallCheckResponse = toolcall.CheckResult

// CallOutcomeRequest is the body of POST /v1/calls/outcome.
type CallOutcomeRequest struct {
	CallCheckRequest
	// Result is the tool's result: an MCP CallToolResult or any JSON
	// value. Required.
	Result json.RawMessage `json:"result"`
	// Goal is what the user asked for: checked against the result (see
	// toolcall.GoalCheck).
	Goal string `json:"goal,omitempty"`
}

// CallOutcomeResponse is the answer of POST /v1/calls/outcome.
type CallOutcomeResponse = toolcall.Outcome
