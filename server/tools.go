package server

import (
	"errors"
	"net/http"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/server/api"
)

// handleToolsLint answers POST /v1/tools/lint: the body is an
// api.ToolsLintRequest, the answer a manifest.Report with one
// ValidationResult per tool. Tools with errors are findings, answered with
// 200; only a request that cannot be linted (a bad path, a file given
// twice, a file over the size limit) is a 400.
func (s *Server) handleToolsLint(w http.ResponseWriter, r *http.Request) {
	body, release, ok := s.acceptBody(w, r)
	if !ok {
		return
	}
	defer release()
	var req api.ToolsLintRequest
	if err := decodeStrict(body, s.opts.MaxDepth, &req, "manifests"); err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(req.Manifests) == 0 {
		s.writeError(w, r, &judge.RequestError{Field: "manifests", Msg: `the request has no "manifests": give [{"path", "content"}, …]`})
		return
	}
	reg, err := manifest.LoadFiles(r.Context(), req.Manifests)
	if err != nil {
		var le *manifest.LoadError
		if errors.As(err, &le) {
			err = &judge.RequestError{Field: le.Path, Msg: le.Msg, Err: err}
		}
		s.writeError(w, r, err)
		return
	}
	rep, err := manifest.Lint(r.Context(), reg)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	for _, res := range rep.Results {
		s.metrics.observeResult(res)
	}
	writeJSON(w, http.StatusOK, api.MediaTypeJSON, rep)
}
