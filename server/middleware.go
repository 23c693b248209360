package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"net/url"
	"strings"

	"github.com/agentjudge/judge/internal/httpapi"
	"github.com/agentjudge/judge/server/api"
)

// HeaderRequestID is the header that carries a request's id, in and out.
const HeaderRequestID = httpapi.HeaderRequestID

// AccessLogMessage is the message of the line the server logs for each
// request it answers.
const AccessLogMessage = httpapi.AccessLogMessage

// routeLabel is the route label of a request to path: the path when a
// route serves it, the pattern of the mount that serves a GET or POST of
// it, unmatched otherwise.
func (s *Server) routeLabel(path string) string {
	if s.paths[path] {
		return path
	}
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		if p, _, ok := s.mountOf(&http.Request{Method: method, URL: &url.URL{Path: path}}); ok {
			return p
		}
	}
	return unmatched
}

// authenticate requires the bearer token on every path but /healthz,
// /readyz and the public mounts when the server has one. Tokens are compared in constant time.
func (s *Server) authenticate(next http.Handler) http.Handler {
	if s.opts.Token == "" {
		return next
	}
	want := sha256.Sum256([]byte(s.opts.Token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" || r.URL.Path == "/readyz" {
			next.ServeHTTP(w, r)
			return
		}
		if _, public, _ := s.mountOf(r); public {
			next.ServeHTTP(w, r)
			return
		}
		auth := r.Header.Get("Authorization")
		scheme, token, _ := strings.Cut(auth, " ")
		got := sha256.Sum256([]byte(strings.TrimSpace(token)))
		if strings.EqualFold(scheme, "Bearer") && subtle.ConstantTimeCompare(got[:], want[:]) == 1 {
			next.ServeHTTP(w, r)
			return
		}
		challenge := `Bearer realm="judge"`
		detail := "this route requires an Authorization: Bearer <token> header"
		if auth != "" {
			challenge += `, error="invalid_token"`
			detail = "the bearer token is not valid"
		}
		w.Header().Set("WWW-Authenticate", challenge)
		writeProblem(w, r, api.Problem{Status: http.StatusUnauthorized, Code: api.CodeUnauthorized, Detail: detail})
	})
}
