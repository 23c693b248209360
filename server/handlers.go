package server

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/server/api"
)

// handleValidate answers POST /validate and /v1/validate: the body is a
// judge.Request, the answer its ValidationResult. Findings are 200 even
// when the output is invalid; only a request that cannot be answered is an
// error.
func (s *Server) handleValidate(w http.ResponseWriter, r *http.Request) {
	body, release, ok := s.acceptBody(w, r)
	if !ok {
		return
	}
	defer release()
	req, err := judge.DecodeRequest(body, s.opts.MaxDepth)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := s.engine.Validate(r.Context(), req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.metrics.observeResult(res)
	var buf bytes.Buffer
	if err := result.WriteJSON(&buf, res); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeBody(w, http.StatusOK, api.MediaTypeJSON, buf.Bytes())
}

// acceptBody checks the media type, takes an in-flight slot and reads the
// whole body. When one of these fails it answers the request itself (an
// unsupported media type, 503 with Retry-After when every slot is taken,
// a body too large or unreadable) and returns ok false; otherwise the
// caller calls release when done with the request.
func (s *Server) acceptBody(w http.ResponseWriter, r *http.Request) (body []byte, release func(), ok bool) {
	if err := checkMediaType(r.Header); err != nil {
		s.writeError(w, r, err)
		return nil, nil, false
	}
	select {
	case s.inFlight <- struct{}{}:
	default:
		w.Header().Set("Retry-After", "1")
		writeProblem(w, r, api.Problem{Status: http.StatusServiceUnavailable, Code: api.CodeUnavailable,
			Detail: fmt.Sprintf("the server is answering %d validations, its limit; retry shortly", cap(s.inFlight))})
		return nil, nil, false
	}
	release = func() { <-s.inFlight }
	body, err := s.readBody(w, r)
	if err != nil {
		s.writeError(w, r, err)
		release()
		return nil, nil, false
	}
	return body, release, true
}

// readBody reads the whole body within MaxBodyBytes. A body over the limit
// is an *http.MaxBytesError; one that cannot be read is a
// *judge.RequestError.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	limit := s.opts.MaxBodyBytes
	if r.ContentLength > limit {
		return nil, &http.MaxBytesError{Limit: limit}
	}
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		// Trust the announced length only so far: a slow client must not
		// reserve the whole limit before sending anything.
		buf.Grow(int(min(r.ContentLength, 64<<10)))
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
			return nil, err
		}
		if r.Context().Err() != nil {
			return nil, r.Context().Err()
		}
		return nil, &judge.RequestError{Field: "body", Msg: "the request body could not be read: " + err.Error(), Err: err}
	}
	return buf.Bytes(), nil
}

// handleHealthz answers GET /healthz: the process is alive.
func (s *Server) handleHealthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, api.MediaTypeJSON, api.Health{Status: "ok"})
}

// handleReadyz answers GET /readyz: 200 while serving, 503 once shutting
// down.
func (s *Server) handleReadyz(w http.ResponseWriter, r *http.Request) {
	if !s.ready.Load() {
		writeProblem(w, r, api.Problem{Status: http.StatusServiceUnavailable, Code: api.CodeUnavailable,
			Detail: "the server is shutting down"})
		return
	}
	writeJSON(w, http.StatusOK, api.MediaTypeJSON, api.Health{Status: "ok"})
}

// handleOpenAPI answers GET /openapi.json with the OpenAPI document.
func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	writeBody(w, http.StatusOK, api.MediaTypeJSON, s.openapi)
}

// handleCapabilities answers GET /capabilities.
func (s *Server) handleCapabilities(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, api.MediaTypeJSON, s.capabilities())
}

// capabilities describes the engine and the limits.
func (s *Server) capabilities() api.Capabilities {
	c := api.Capabilities{
		Version:         s.opts.Version,
		ValidationTypes: s.engine.Types(),
		Layers:          []api.Layer{},
		Limits:          api.Limits{MaxBodyBytes: s.opts.MaxBodyBytes, MaxDepth: s.opts.MaxDepth},
		Model:           s.engine.Model(),
	}
	if c.Model == "" {
		c.Model = result.Deterministic
	}
	for _, l := range s.engine.Layers() {
		doc, _, _ := strings.Cut(strings.TrimSpace(l.Doc), "\n")
		c.Layers = append(c.Layers, api.Layer{Name: l.Name, Doc: strings.TrimSpace(doc)})
	}
	return c
}
