package api

import (
	"encoding/json"

	"github.com/agentjudge/judge/toolcall"
)

// CallCheckRequest is the body of POST /v1/calls/check: tool (required),
// arguments (absent means {}), session_id, goal, shown_tools and tools
// (absent means the server's own tools). It is toolcall's type, which the
// gateway's check_call tool decodes too.
type CallCheckRequest = toolcall.CheckRequest

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
