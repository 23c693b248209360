package server

import (
	"net/http"

	"github.com/agentjudge/judge/internal/httpapi"
	"github.com/agentjudge/judge/server/api"
)

// The problem answers are httpapi's, shared with judge proxy; these name
// them as the handlers of this package always have.

// writeError answers r with the problem err maps to, logging the error
// when it is the server's fault (see httpapi.WriteError).
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	httpapi.WriteError(w, r, s.log, err)
}

// writeProblem completes p and writes it as application/problem+json.
func writeProblem(w http.ResponseWriter, r *http.Request, p api.Problem) {
	httpapi.WriteProblem(w, r, p)
}

// writeJSON writes v as indented JSON with a trailing newline.
func writeJSON(w http.ResponseWriter, status int, mediaType string, v any) {
	httpapi.WriteJSON(w, status, mediaType, v)
}

// writeBody writes a complete body with its type and length.
func writeBody(w http.ResponseWriter, status int, mediaType string, body []byte) {
	httpapi.WriteBody(w, status, mediaType, body)
}
