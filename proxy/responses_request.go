package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/toolcall"
)

// responsesRequest is what the proxy reads of a Responses API request
// (POST /v1/responses); the request is forwarded as it came.
type responsesRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	Text   *struct {
		Format json.RawMessage `json:"format"`
	} `json:"text"`
	Tools           json.RawMessage `json:"tools"`
	MaxOutputTokens *int64          `json:"max_output_tokens"`
}

// textFormat is the request's text.format: {type: json_schema, name,
// schema, strict}, {type: json_object} or {type: text}.
type textFormat struct {
	Type   string          `json:"type"`
	Schema json.RawMessage `json:"schema"`
}

// parsedResponses is a Responses API request with what its answer must
// satisfy.
type parsedResponses struct {
	responsesRequest
	contracts Contracts
}

// maxTokens is the request's cap on output tokens, 0 when none.
func (p *parsedResponses) maxTokens() int64 {
	if p.MaxOutputTokens != nil {
		return *p.MaxOutputTokens
	}
	return 0
}

// parseResponsesRequest reads body, a Responses API request, and compiles
// the contracts of its answer with checker: text.format's schema and the
// request's function tools (tools of other types — web_search, mcp,
// custom… — are run by OpenAI, not by the client, and are not checked).
// A request judge cannot read is a *judge.RequestError at the field at
// fault.
func parseResponsesRequest(ctx context.Context, body []byte, checker *toolcall.Checker) (*parsedResponses, error) {
	var p parsedResponses
	if err := json.Unmarshal(body, &p.responsesRequest); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return nil, &judge.RequestError{Field: te.Field, Msg: fmt.Sprintf("%s must be %s, not %s", te.Field, te.Type, te.Value), Err: err}
		}
		return nil, &judge.RequestError{Field: "body", Msg: "the request is not a JSON object: " + err.Error(), Err: err}
	}
	if p.Text != nil && len(p.Text.Format) > 0 && !bytes.Equal(p.Text.Format, []byte("null")) {
		var f textFormat
		if err := json.Unmarshal(p.Text.Format, &f); err != nil {
			return nil, &judge.RequestError{Field: "text.format", Msg: "text.format must be an object {type, name, schema, strict}: " + err.Error(), Err: err}
		}
		switch f.Type {
		case "json_schema":
			if len(f.Schema) == 0 || bytes.Equal(f.Schema, []byte("null")) {
				return nil, &judge.RequestError{Field: "text.format.schema", Msg: "a json_schema text format needs a schema"}
			}
			p.contracts.Schema = f.Schema
		case "json_object":
			p.contracts.Schema = json.RawMessage(`{"type":"object"}`)
		}
	}
	if len(p.Tools) == 0 || bytes.Equal(p.Tools, []byte("null")) {
		return &p, nil
	}
	var tools []json.RawMessage
	if err := json.Unmarshal(p.Tools, &tools); err != nil {
		return nil, &judge.RequestError{Field: "tools", Msg: "tools must be an array of tools: " + err.Error(), Err: err}
	}
	var defs []toolcall.Definition
	for i, raw := range tools {
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return nil, &judge.RequestError{Field: fmt.Sprintf("tools[%d]", i), Msg: "a tool must be an object with a type: " + err.Error(), Err: err}
		}
		if head.Type != "function" {
			continue
		}
		d, err := toolcall.ParseDefinitionsContext(ctx, raw, fmt.Sprintf("tools[%d]", i))
		if err != nil {
			return nil, &judge.RequestError{Field: fmt.Sprintf("tools[%d]", i), Msg: err.Error(), Err: err}
		}
		defs = append(defs, d...)
	}
	if len(defs) > 0 {
		ts, err := checker.NewToolset(defs...)
		if err != nil {
			return nil, &judge.RequestError{Field: "tools", Msg: err.Error(), Err: err}
		}
		p.contracts.Tools = ts
	}
	return &p, nil
}
