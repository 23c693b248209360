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

// MaxChoices bounds n, the choices a request may ask for, and the choice
// indexes an upstream chunk may carry.
const MaxChoices = 128

// MaxToolCalls bounds the tool calls of one choice.
const MaxToolCalls = 128

// chatRequest is what the proxy reads of a chat completions request; the
// request is forwarded as it came, every other field untouched.
type chatRequest struct {
	Model          string          `json:"model"`
	Stream         bool            `json:"stream"`
	N              *int            `json:"n"`
	ResponseFormat json.RawMessage `json:"response_format"`
	Tools          json.RawMessage `json:"tools"`
	StreamOptions  *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	MaxTokens           *int64 `json:"max_tokens"`
	MaxCompletionTokens *int64 `json:"max_completion_tokens"`
}

// responseFormat is the request's response_format.
type responseFormat struct {
	Type       string `json:"type"`
	JSONSchema *struct {
		Name   string          `json:"name"`
		Schema json.RawMessage `json:"schema"`
	} `json:"json_schema"`
}

// parsedRequest is a request with what its answer must satisfy.
type parsedRequest struct {
	chatRequest
	choices   int
	contracts Contracts
}

// includeUsage reports whether the request asks for the usage chunk.
func (p *parsedRequest) includeUsage() bool {
	return p.StreamOptions != nil && p.StreamOptions.IncludeUsage
}

// maxTokens is the request's cap on completion tokens, 0 when none.
func (p *parsedRequest) maxTokens() int64 {
	switch {
	case p.MaxCompletionTokens != nil:
		return *p.MaxCompletionTokens
	case p.MaxTokens != nil:
		return *p.MaxTokens
	}
	return 0
}

// parseRequest reads body, a chat completions request, and compiles the
// contracts of its answer with checker: the response schema and the
// tools. A request that is not a JSON object, asks for more than
// MaxChoices choices or gives tools judge cannot read is a
// *judge.RequestError at the field at fault.
func parseRequest(ctx context.Context, body []byte, checker *toolcall.Checker) (*parsedRequest, error) {
	var p parsedRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&p.chatRequest); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return nil, &judge.RequestError{Field: te.Field, Msg: fmt.Sprintf("%s must be %s, not %s", te.Field, te.Type, te.Value), Err: err}
		}
		return nil, &judge.RequestError{Field: "body", Msg: "the request is not a JSON object: " + err.Error(), Err: err}
	}
	p.choices = 1
	if p.N != nil {
		if *p.N < 1 || *p.N > MaxChoices {
			return nil, &judge.RequestError{Field: "n", Msg: fmt.Sprintf("n must be between 1 and %d", MaxChoices)}
		}
		p.choices = *p.N
	}
	if len(p.ResponseFormat) > 0 && !bytes.Equal(p.ResponseFormat, []byte("null")) {
		var rf responseFormat
		if err := json.Unmarshal(p.ResponseFormat, &rf); err != nil {
			return nil, &judge.RequestError{Field: "response_format", Msg: "response_format must be an object {type, json_schema}: " + err.Error(), Err: err}
		}
		switch rf.Type {
		case "json_schema":
			if rf.JSONSchema == nil || len(rf.JSONSchema.Schema) == 0 {
				return nil, &judge.RequestError{Field: "response_format.json_schema.schema", Msg: "a json_schema response format needs json_schema.schema"}
			}
			p.contracts.Schema = rf.JSONSchema.Schema
		case "json_object":
			p.contracts.Schema = json.RawMessage(`{"type":"object"}`)
		}
	}
	if len(p.Tools) > 0 && !bytes.Equal(p.Tools, []byte("null")) {
		defs, err := toolcall.ParseDefinitionsContext(ctx, p.Tools, "")
		if err != nil {
			return nil, &judge.RequestError{Field: "tools", Msg: err.Error(), Err: err}
		}
		if len(defs) > 0 {
			ts, err := checker.NewToolset(defs...)
			if err != nil {
				return nil, &judge.RequestError{Field: "tools", Msg: err.Error(), Err: err}
			}
			p.contracts.Tools = ts
		}
	}
	return &p, nil
}
