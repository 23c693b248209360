package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/httpapi"
	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/server/api"
)

// DefaultStreamIdleTimeout is the default of Options.StreamIdleTimeout.
const DefaultStreamIdleTimeout = 10 * time.Second

// MediaTypeNDJSON is the media type of POST /v1/validate/stream's answer:
// one JSON object per line.
const MediaTypeNDJSON = "application/x-ndjson"

// streamChunk is how many bytes of a streamed body are read at once.
const streamChunk = 32 << 10

// streamLine is one line of POST /v1/validate/stream's answer: a
// judge.StreamEvent, or the problem that ended the answer once it had
// begun.
type streamLine struct {
	At      int64                    `json:"at"`
	Final   bool                     `json:"final,omitempty"`
	Result  *result.ValidationResult `json:"result,omitempty"`
	Problem *api.Problem             `json:"problem,omitempty"`
}

// handleValidateStream answers POST /v1/validate/stream?schema=URI: the
// body is the output itself, read as it arrives (a chunked body), and
// validated against the schema URI, one of the server's schemas (judge
// serve --schemas). The answer is NDJSON: a line {"at", "result"} as soon
// as a violation is certain, flushed at once, and a last line {"at",
// "final": true, "result"} with the whole output's ValidationResult. The
// body has MaxBodyBytes as its limit, and StreamIdleTimeout between two
// reads. An error before the first line is an ordinary problem answer; one
// after it ends the answer with a line {"at", "final": true, "problem"}.
// The request holds an in-flight slot while its body arrives.
func (s *Server) handleValidateStream(w http.ResponseWriter, r *http.Request) {
	uri, err := s.streamSchema(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	release, err := s.admit(min(max(r.ContentLength, streamChunk), s.opts.MaxBodyBytes))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer release()
	ref, _ := json.Marshal(map[string]string{"$ref": uri})
	st := s.engine.Stream(&judge.Request{ExpectedSchema: ref})
	a := &streamAnswer{s: s, w: w, r: r, rc: http.NewResponseController(w), enc: json.NewEncoder(w)}
	_ = a.rc.EnableFullDuplex() // read the body after the answer has begun
	a.enc.SetEscapeHTML(false)

	body := http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes)
	buf := make([]byte, streamChunk)
	var read int64
	for {
		_ = a.rc.SetReadDeadline(time.Now().Add(s.opts.StreamIdleTimeout))
		n, rerr := body.Read(buf)
		read += int64(n)
		if n > 0 {
			evs, err := st.Write(buf[:n])
			if !a.events(evs) {
				return // the client went away
			}
			if se := (*jsonvalue.SyntaxError)(nil); errors.As(err, &se) {
				a.fail(read, &judge.RequestError{Field: "output", Msg: se.Error(), Err: err})
				return
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			a.fail(read, s.streamReadError(r, rerr, read))
			return
		}
	}
	_ = a.rc.SetReadDeadline(time.Time{})
	evs, err := st.Close(judge.ObserveLayers(r.Context(), s.layerObserver))
	if a.events(evs) && err != nil {
		a.fail(read, err)
	}
}

// streamSchema checks a streamed validation's request before its body is
// read, and returns the URI of the schema it names.
func (s *Server) streamSchema(r *http.Request) (string, error) {
	if err := httpapi.CheckMediaType(r.Header); err != nil {
		return "", err
	}
	uri := r.URL.Query().Get("schema")
	if uri == "" || !s.engine.HasSchema(uri) {
		msg := "the query parameter schema must name one of the server's schemas (judge serve --schemas)"
		if uri != "" {
			msg = fmt.Sprintf("schema %q is not among the server's schemas (judge serve --schemas)", uri)
		}
		return "", &judge.RequestError{Field: "schema", Msg: msg}
	}
	if r.ContentLength > s.opts.MaxBodyBytes {
		return "", &http.MaxBytesError{Limit: s.opts.MaxBodyBytes}
	}
	return uri, nil
}

// streamAnswer writes the NDJSON answer of a streamed validation, its
// status and headers with its first line.
type streamAnswer struct {
	s       *Server
	w       http.ResponseWriter
	r       *http.Request
	rc      *http.ResponseController
	enc     *json.Encoder
	started bool
}

// write writes lines and flushes them; false when the client is gone.
func (a *streamAnswer) write(lines ...streamLine) bool {
	if !a.started {
		h := a.w.Header()
		h.Set("Content-Type", MediaTypeNDJSON)
		h.Set("X-Content-Type-Options", "nosniff")
		a.w.WriteHeader(http.StatusOK)
		a.started = true
	}
	_ = a.rc.SetWriteDeadline(time.Now().Add(a.s.opts.WriteTimeout))
	for _, l := range lines {
		if err := a.enc.Encode(l); err != nil {
			return false
		}
	}
	return a.rc.Flush() == nil
}

// fail ends the answer with err: a problem answer before the first line,
// a last line with the problem after it.
func (a *streamAnswer) fail(at int64, err error) {
	if !a.started {
		a.s.writeError(a.w, a.r, err)
		return
	}
	p := httpapi.ProblemFor(a.w, a.r, a.s.log, err)
	a.write(streamLine{At: at, Final: true, Problem: &p})
}

// events writes the events as lines, counting the final result in the
// metrics; false when the client is gone.
func (a *streamAnswer) events(evs []judge.StreamEvent) bool {
	if len(evs) == 0 {
		return true
	}
	lines := make([]streamLine, len(evs))
	for i, ev := range evs {
		lines[i] = streamLine{At: ev.At, Final: ev.Final, Result: ev.Result}
		if ev.Final {
			a.s.observeValidation(ev.Result)
		}
	}
	return a.write(lines...)
}

// streamReadError classifies an error reading a streamed body: over the
// limit, idle for longer than StreamIdleTimeout (408), the client gone, or
// unreadable.
func (s *Server) streamReadError(r *http.Request, err error, read int64) error {
	if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
		return err
	}
	if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() || errors.Is(err, os.ErrDeadlineExceeded) {
		return &httpapi.BodyTimeoutError{Timeout: s.opts.StreamIdleTimeout, Read: read, Err: err, Idle: true}
	}
	if r.Context().Err() != nil {
		return r.Context().Err()
	}
	return &judge.RequestError{Field: "body", Msg: "the request body could not be read: " + err.Error(), Err: err}
}
