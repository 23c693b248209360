package server

import (
	"errors"
	"net/http"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/server/api"
	"github.com/agentjudge/judge/toolscan"
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
	if err := judge.DecodeStrict(body, s.opts.MaxDepth, &req, "manifests"); err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(req.MCP) > 0 {
		if len(req.Manifests) > 0 {
			s.writeError(w, r, &judge.RequestError{Field: "mcp", Msg: `give either "manifests" or "mcp", not both`})
			return
		}
		s.lintMCP(w, r, req.MCP)
		return
	}
	if len(req.Manifests) == 0 {
		s.writeError(w, r, &judge.RequestError{Field: "manifests", Msg: `the request has no "manifests": give [{"path", "content"}, …], or MCP tool definitions as "mcp"`})
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
	rep, err := manifest.LintWith(r.Context(), reg, manifest.LintOptions{Strict: req.Strict, Checks: []manifest.Check{toolscan.ManifestCheck(reg)}})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeLint(w, rep)
}

// lintMCP answers a lint of MCP tool definitions: the definition checks
// of judge tools lint --mcp and the poisoning scan, keyed by tool name;
// definitions that cannot be read are a 400 at "mcp".
func (s *Server) lintMCP(w http.ResponseWriter, r *http.Request, data []byte) {
	rep, err := manifest.LintMCP(r.Context(), "mcp", data)
	if err == nil {
		err = toolscan.AddToReport(rep, "mcp", data)
	}
	if err != nil {
		if r.Context().Err() == nil {
			err = &judge.RequestError{Field: "mcp", Msg: err.Error(), Err: err}
		}
		s.writeError(w, r, err)
		return
	}
	s.writeLint(w, rep)
}

// writeLint counts a lint's results in the metrics and writes the report.
func (s *Server) writeLint(w http.ResponseWriter, rep *manifest.Report) {
	for _, res := range rep.Results {
		s.metrics.observeResult(res)
	}
	writeJSON(w, http.StatusOK, api.MediaTypeJSON, rep)
}
