package server

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/server/api"
	"github.com/agentjudge/judge/trace"
)

// handleTraceCheck answers POST /v1/traces/check: the body is an
// api.TraceCheckRequest, the answer an api.TraceCheckResponse. Findings,
// flagged conversations too, are 200; only a request that cannot be
// answered (malformed body or conversations, broken tools or rules) is an
// error.
func (s *Server) handleTraceCheck(w http.ResponseWriter, r *http.Request) {
	body, release, ok := s.acceptBody(w, r)
	if !ok {
		return
	}
	defer release()
	var req api.TraceCheckRequest
	if err := judge.DecodeStrict(body, s.opts.MaxDepth, &req, "conversations, tools, rules"); err != nil {
		s.writeError(w, r, err)
		return
	}
	if s.calls == nil {
		s.writeError(w, r, fmt.Errorf("server: tool-call checker: %w", s.callsErr))
		return
	}
	if len(bytes.TrimSpace(req.Conversations)) == 0 {
		s.writeError(w, r, &judge.RequestError{Field: "conversations", Msg: `the request has no "conversations"`})
		return
	}
	convs, err := trace.Decode(req.Conversations)
	if err != nil {
		var de *trace.DecodeError
		if errors.As(err, &de) {
			s.writeError(w, r, &judge.RequestError{Field: "conversations", Msg: de.Error(), Err: err})
			return
		}
		s.writeError(w, r, err)
		return
	}
	ts, err := s.toolsetFor(r.Context(), req.Tools)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ch, err := trace.New(ts, req.Rules)
	if err != nil {
		var re *trace.RuleError
		if errors.As(err, &re) {
			s.writeError(w, r, &judge.RequestError{Field: "rules", Msg: re.Error(), Err: err})
			return
		}
		s.writeError(w, r, err)
		return
	}
	if ch, err = ch.ForInput(r.Context(), convs); err != nil {
		s.writeError(w, r, err)
		return
	}
	ans := api.TraceCheckResponse{Conversations: make([]*trace.Report, 0, len(convs))}
	for _, c := range convs {
		rep, err := ch.Check(r.Context(), c)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		s.metrics.observeResult(rep.Result)
		s.history.Issues(rep.Result.Issues)
		ans.Conversations = append(ans.Conversations, rep)
	}
	ans.Summary = ch.Summarize(ans.Conversations)
	writeJSON(w, http.StatusOK, api.MediaTypeJSON, ans)
}
