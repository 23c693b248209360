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
// ValidationResult per tool, read with the server's Options.Registry
// declarations and, when the request says strict, undeclared fields as
// warnings. Tools with errors are findings, answered with
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
	var conv manifest.Conventions
	if s.opts.Registry != nil {
		conv = *s.opts.Registry
	}
	reg, err := manifest.LoadFilesWith(r.Context(), conv, req.Manifests)
	if err != nil {
		var le *manifest.LoadError
		if errors.As(err, &le) {
			err = &judge.RequestError{Field: le.Path, Msg: le.Msg, Err: err}
		}
		s.writeError(w, r, err)
		return
	}
	rep, err := manifest.LintWith(r.Context(), reg, manifest.LintOptions{Strict: req.Strict})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	for _, res := range rep.Results {
		s.metrics.observeResult(res)
	}
	writeJSON(w, http.StatusOK, api.MediaTypeJSON, rep)
}
