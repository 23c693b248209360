package api

import (
	"encoding/json"

	"github.com/agentjudge/judge/trace"
)

// TraceCheckRequest is the body of POST /v1/traces/check.
type TraceCheckRequest struct {
	// Conversations is one conversation (a list of chat messages, or an
	// object with "messages" or tau-bench's "traj"), or a list of them.
	// Required.
	Conversations json.RawMessage `json:"conversations"`
	// Tools are the tool definitions (MCP tools, OpenAI functions, a
	// tools/list answer); without them, the server's own tools.
	Tools json.RawMessage `json:"tools,omitempty"`
	// Rules are the policy rules: {"rules": [{name, expr, …}]}.
	Rules *trace.Rules `json:"rules,omitempty"`
}

// TraceCheckResponse is the answer of POST /v1/traces/check: one report a
// conversation, and the summary.
type TraceCheckResponse struct {
	Conversations []*trace.Report `json:"conversations"`
	Summary       trace.Summary   `json:"summary"`
}
