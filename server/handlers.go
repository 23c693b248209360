package server

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/httpapi"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/server/api"
)

// handleValidate answers POST /validate and /v1/validate: the body is a
// judge.Request, the answer its ValidationResult. Findings are 200 even
// when the output is invalid; only a request that cannot be answered is an
// error.
func (s *Server) handleValidate(w http.ResponseWriter, r *http.Request) {
	bb := s.buf()
	body, release, ok := s.acceptBodyInto(w, r, *bb)
	if !ok {
		return
	}
	defer release()
	req, err := judge.DecodeRequest(body, s.opts.MaxDepth)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.keepBuf(bb, body) // the request holds copies of what it keeps
	res, err := s.engine.Validate(judge.ObserveLayers(r.Context(), s.layerObserver), req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	bp := s.buf()
	out, err := encodeResult(*bp, res)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// The validation is counted (metrics, the dashboard's history) before
	// its answer leaves, so a client that reads the dashboard once it has
	// the answer finds it there; the answer (its length set) then leaves
	// before the middleware's request metrics and access-log line, which
	// run after this returns (decision 114).
	s.observeValidation(res)
	writeBody(w, http.StatusOK, api.MediaTypeJSON, out)
	httpapi.Flush(w)
	s.keepBuf(bp, out)
}

// acceptBody checks the media type, reads the whole body and then admits
// the request: an in-flight slot and its body's bytes against
// MaxInFlightBytes. The body is read before admission, so that a client
// still sending one (a slow upload) holds no slot. When one of these fails
// it answers the request itself (an unsupported media type, a body too
// large, unreadable or not sent within ReadTimeout, 503 with Retry-After
// when the server is saturated) and returns ok false; otherwise the caller
// calls release when done with the request.
func (s *Server) acceptBody(w http.ResponseWriter, r *http.Request) (body []byte, release func(), ok bool) {
	return s.acceptBodyInto(w, r, nil)
}

// acceptBodyInto is acceptBody reading the body into dst's array when it
// is large enough (see httpapi.ReadBodyInto).
func (s *Server) acceptBodyInto(w http.ResponseWriter, r *http.Request, dst []byte) (body []byte, release func(), ok bool) {
	if err := httpapi.CheckMediaType(r.Header); err != nil {
		s.writeError(w, r, err)
		return nil, nil, false
	}
	body, err := httpapi.ReadBodyInto(dst, w, r, s.opts.MaxBodyBytes, s.opts.ReadTimeout)
	if err != nil {
		s.writeError(w, r, err)
		return nil, nil, false
	}
	release, err = s.admit(int64(len(body)))
	if err != nil {
		s.writeError(w, r, err)
		return nil, nil, false
	}
	return body, release, true
}

// admit takes an in-flight slot and weight bytes of MaxInFlightBytes
// without waiting (see httpapi.Admission.Admit).
func (s *Server) admit(weight int64) (release func(), err error) {
	return s.admission.Admit(weight)
}

// saturation says why the server would refuse a request now, or "" when
// it would admit one: every in-flight slot taken, the in-flight bytes at
// their limit, or every engine slot running a layer.
func (s *Server) saturation() string {
	if why := s.admission.Saturation(); why != "" {
		return why
	}
	if running, limit := s.engine.Runs(); running >= limit {
		return fmt.Sprintf("saturated: %d of %d engine layer runs busy", running, limit)
	}
	return ""
}

// handleHealthz answers GET /healthz: the process is alive.
func (s *Server) handleHealthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, api.MediaTypeJSON, api.Health{Status: "ok"})
}

// handleReadyz answers GET /readyz: 200 while serving, 503 once shutting
// down or while saturated (see saturation), with the reason as detail.
func (s *Server) handleReadyz(w http.ResponseWriter, r *http.Request) {
	httpapi.Readiness(w, r, s.ready.Load(), "server", s.saturation)
}

// handleOpenAPI answers GET /openapi.json with the OpenAPI document.
func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	writeBody(w, http.StatusOK, api.MediaTypeJSON, s.openapi)
}

// observeValidation counts a validation's result in the metrics and the
// history, with the duration the result reports.
func (s *Server) observeValidation(res *result.ValidationResult) {
	s.metrics.observeResult(res)
	s.history.Validation(res, time.Duration(res.Metadata.DurationMS*float64(time.Millisecond)))
}

// observeLayer counts one layer run of a validation.
func (s *Server) observeLayer(run judge.LayerRun) {
	s.metrics.observeLayer(s.history.Layers.Label(run.Layer), run)
	s.history.Layer(run.Layer, run.Duration, run.Failed, run.Issues)
}

// handleDashboard answers GET /v1/dashboard with the history's snapshot.
func (s *Server) handleDashboard(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, api.MediaTypeJSON, s.history.Snapshot())
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
