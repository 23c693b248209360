package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/server/api"
	"github.com/agentjudge/judge/toolcall"
)

// handleCallCheck answers POST /v1/calls/check: the body is an
// api.CallCheckRequest, the answer {result, normalized_arguments, repair}.
// An invalid call is 200 with valid false; only a request that cannot be
// answered (malformed body, broken tool definitions, arguments that are
// not JSON) is an error.
func (s *Server) handleCallCheck(w http.ResponseWriter, r *http.Request) {
	var req api.CallCheckRequest
	release, ok := s.startCall(w, r, &req, "tool, arguments, session_id, goal, shown_tools, tools")
	if !ok {
		return
	}
	defer release()
	ts, err := s.toolsetFor(r.Context(), req.Tools)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := ts.Check(r.Context(), toolcall.Call{Tool: req.Tool, Arguments: req.Arguments, SessionID: req.SessionID, Goal: req.Goal, ShownTools: req.ShownTools})
	if err != nil {
		s.writeError(w, r, callError(err))
		return
	}
	s.metrics.observeResult(res.Result)
	status := "valid"
	if !res.Result.Valid {
		status = "invalid"
	}
	s.metrics.observeCall("check", s.history.Tools.Label(req.Tool), status)
	s.history.Check(req.Tool, res.Result.Valid, res.Result.Issues)
	writeJSON(w, http.StatusOK, api.MediaTypeJSON, res)
}

// handleCallOutcome answers POST /v1/calls/outcome: the body is an
// api.CallOutcomeRequest, the answer {status, reason, result,
// extracted_facts, suggested_next_tools, progress, compacted}.
func (s *Server) handleCallOutcome(w http.ResponseWriter, r *http.Request) {
	var req api.CallOutcomeRequest
	release, ok := s.startCall(w, r, &req, "tool, arguments, result, goal, session_id, shown_tools, tools")
	if !ok {
		return
	}
	defer release()
	if len(req.Result) == 0 {
		s.writeError(w, r, &judge.RequestError{Field: "result", Msg: `the request has no "result"`})
		return
	}
	ts, err := s.toolsetFor(r.Context(), req.Tools)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	o, err := ts.Outcome(r.Context(), toolcall.OutcomeRequest{
		Call:   toolcall.Call{Tool: req.Tool, Arguments: req.Arguments, SessionID: req.SessionID, ShownTools: req.ShownTools},
		Result: req.Result, Goal: req.Goal,
	})
	if err != nil {
		s.writeError(w, r, callError(err))
		return
	}
	s.metrics.observeResult(o.Result)
	s.metrics.observeCall("outcome", s.history.Tools.Label(req.Tool), string(o.Status))
	s.history.Outcome(req.Tool, o.Status, o.Result.Issues)
	writeJSON(w, http.StatusOK, api.MediaTypeJSON, o)
}

// startCall takes an in-flight slot and decodes the body into v strictly
// (known lists the fields for the error of an unknown one). It answers the
// request itself and returns false when it cannot go on; otherwise the
// caller calls release when done.
func (s *Server) startCall(w http.ResponseWriter, r *http.Request, v any, known string) (release func(), ok bool) {
	body, release, ok := s.acceptBody(w, r)
	if !ok {
		return nil, false
	}
	if err := judge.DecodeStrict(body, s.opts.MaxDepth, v, known); err != nil {
		release()
		s.writeError(w, r, err)
		return nil, false
	}
	if s.calls == nil {
		release()
		s.writeError(w, r, fmt.Errorf("server: tool-call checker: %w", s.callsErr))
		return nil, false
	}
	tool := ""
	switch x := v.(type) {
	case *api.CallCheckRequest:
		tool = x.Tool
	case *api.CallOutcomeRequest:
		tool = x.Tool
	}
	if strings.TrimSpace(tool) == "" {
		release()
		s.writeError(w, r, &judge.RequestError{Field: "tool", Msg: `the request has no "tool"`})
		return nil, false
	}
	return release, true
}

// toolsetFor compiles the request's tool definitions (cached by content in
// the checker), or returns the server's own tools when the request has
// none.
func (s *Server) toolsetFor(ctx context.Context, raw json.RawMessage) (*toolcall.Toolset, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		if s.opts.Tools == nil {
			return nil, &judge.RequestError{Field: "tools",
				Msg: `the request has no "tools" and the server has none: give the tool definitions (MCP tools, OpenAI functions or a tools/list answer)`}
		}
		return s.opts.Tools, nil
	}
	defs, err := toolcall.ParseDefinitionsContext(ctx, raw, "")
	if err == nil {
		var ts *toolcall.Toolset
		if ts, err = s.calls.NewToolset(defs...); err == nil {
			return ts, nil
		}
	}
	var de *toolcall.DefinitionError
	if errors.As(err, &de) {
		field := "tools"
		if de.Path != "" {
			field = "tools" + pathSuffix(de.Path)
		}
		if de.Line > 0 {
			field += fmt.Sprintf(":%d:%d", de.Line, de.Col)
		}
		return nil, &judge.RequestError{Field: field, Msg: de.Msg, Err: err}
	}
	return nil, err
}

// pathSuffix appends a definition path to "tools": "[2].rules[0]" as it
// is, "rules[0]" after a dot.
func pathSuffix(p string) string {
	if strings.HasPrefix(p, "[") {
		return p
	}
	return "." + p
}

// callError turns a *toolcall.CallError into a *judge.RequestError, so
// that it answers 400 with its field and position.
func callError(err error) error {
	var ce *toolcall.CallError
	if errors.As(err, &ce) {
		field := ce.Field
		if ce.Line > 0 {
			field += fmt.Sprintf(":%d:%d", ce.Line, ce.Col)
		}
		return &judge.RequestError{Field: field, Msg: ce.Msg, Err: err}
	}
	return err
}
