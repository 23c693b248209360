package server

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

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

// acceptBody checks the media type, reads the whole body and then admits
// the request: an in-flight slot and its body's bytes against
// MaxInFlightBytes. The body is read before admission, so that a client
// still sending one (a slow upload) holds no slot. When one of these fails
// it answers the request itself (an unsupported media type, a body too
// large, unreadable or not sent within ReadTimeout, 503 with Retry-After
// when the server is saturated) and returns ok false; otherwise the caller
// calls release when done with the request.
func (s *Server) acceptBody(w http.ResponseWriter, r *http.Request) (body []byte, release func(), ok bool) {
	if err := checkMediaType(r.Header); err != nil {
		s.writeError(w, r, err)
		return nil, nil, false
	}
	body, err := s.readBody(w, r)
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

// readBody reads the whole body within MaxBodyBytes. A body over the limit
// is an *http.MaxBytesError; one that did not arrive before the server's
// read deadline is a *bodyTimeoutError; one that cannot be read otherwise
// is a *judge.RequestError, or the request context's error when the client
// went away.
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
		// The server's own read deadline, not the client, ended the read:
		// the connection's failed read also cancels the request's
		// context, so this is checked first.
		if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() || errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, &bodyTimeoutError{timeout: s.opts.ReadTimeout, read: int64(buf.Len()), err: err}
		}
		if r.Context().Err() != nil {
			return nil, r.Context().Err()
		}
		return nil, &judge.RequestError{Field: "body", Msg: "the request body could not be read: " + err.Error(), Err: err}
	}
	return buf.Bytes(), nil
}

// bodyTimeoutError is a request whose body had not arrived whole when the
// server's read deadline passed: 408, the server's doing, not the client's
// going away.
type bodyTimeoutError struct {
	timeout time.Duration
	read    int64
	err     error
	idle    bool // a streamed body that paused longer than the idle timeout
}

func (e *bodyTimeoutError) Error() string {
	if e.idle {
		return fmt.Sprintf("no byte of the streamed request body arrived for %v, the idle timeout between chunks (%d bytes read)", e.timeout, e.read)
	}
	return fmt.Sprintf("the request body did not arrive within the server's read timeout of %v (%d bytes read)", e.timeout, e.read)
}

func (e *bodyTimeoutError) Unwrap() error { return e.err }

// busyError is a request refused because the server is saturated: 503
// with Retry-After.
type busyError struct{ msg string }

func (e *busyError) Error() string { return e.msg }

// admit takes an in-flight slot and weight bytes of MaxInFlightBytes (a
// body larger than the whole budget weighs the budget, so that it runs
// alone), without waiting: when either is exhausted it returns a
// *busyError. release gives both back.
func (s *Server) admit(weight int64) (release func(), err error) {
	select {
	case s.inFlight <- struct{}{}:
	default:
		return nil, &busyError{fmt.Sprintf("the server is answering %d requests, its limit (--max-in-flight); retry shortly", cap(s.inFlight))}
	}
	weight = max(min(weight, s.opts.MaxInFlightBytes), 1)
	s.weightMu.Lock()
	if s.weight+weight > s.opts.MaxInFlightBytes {
		used := s.weight
		s.weightMu.Unlock()
		<-s.inFlight
		return nil, &busyError{fmt.Sprintf("the server is answering requests of %d bytes in all and this one adds %d, over its limit of %d (--max-in-flight-bytes); retry shortly", used, weight, s.opts.MaxInFlightBytes)}
	}
	s.weight += weight
	s.weightMu.Unlock()
	return func() {
		s.weightMu.Lock()
		s.weight -= weight
		s.weightMu.Unlock()
		<-s.inFlight
	}, nil
}

// saturation says why the server would refuse a request now, or "" when
// it would admit one: every in-flight slot taken, the in-flight bytes at
// their limit, or every engine slot running a layer.
func (s *Server) saturation() string {
	if n := len(s.inFlight); n >= cap(s.inFlight) {
		return fmt.Sprintf("saturated: %d of %d requests in flight", n, cap(s.inFlight))
	}
	s.weightMu.Lock()
	used := s.weight
	s.weightMu.Unlock()
	if used >= s.opts.MaxInFlightBytes {
		return fmt.Sprintf("saturated: %d of %d in-flight request bytes", used, s.opts.MaxInFlightBytes)
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
	if !s.ready.Load() {
		writeProblem(w, r, api.Problem{Status: http.StatusServiceUnavailable, Code: api.CodeUnavailable,
			Detail: "the server is shutting down"})
		return
	}
	if why := s.saturation(); why != "" {
		w.Header().Set("Retry-After", "1")
		writeProblem(w, r, api.Problem{Status: http.StatusServiceUnavailable, Code: api.CodeUnavailable, Detail: why})
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
