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
	if err := httpapi.CheckMediaType(r.Header); err != nil {
		s.writeError(w, r, err)
		return
	}
	uri := r.URL.Query().Get("schema")
	if uri == "" || !s.engine.HasSchema(uri) {
		msg := "the query parameter schema must name one of the server's schemas (judge serve --schemas)"
		if uri != "" {
			msg = fmt.Sprintf("schema %q is not among the server's schemas (judge serve --schemas)", uri)
		}
		s.writeError(w, r, &judge.RequestError{Field: "schema", Msg: msg})
		return
	}
	if r.ContentLength > s.opts.MaxBodyBytes {
		s.writeError(w, r, &http.MaxBytesError{Limit: s.opts.MaxBodyBytes})
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

	rc := http.NewResponseController(w)
	_ = rc.EnableFullDuplex() // read the body after the answer has begun
	started := false
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	write := func(lines ...streamLine) bool {
		if !started {
			h := w.Header()
			h.Set("Content-Type", MediaTypeNDJSON)
			h.Set("X-Content-Type-Options", "nosniff")
			w.WriteHeader(http.StatusOK)
			started = true
		}
		_ = rc.SetWriteDeadline(time.Now().Add(s.opts.WriteTimeout))
		for _, l := range lines {
			if err := enc.Encode(l); err != nil {
				return false
			}
		}
		return rc.Flush() == nil
	}
	fail := func(at int64, err error) {
		if !started {
			s.writeError(w, r, err)
			return
		}
		p := httpapi.ProblemFor(w, r, s.log, err)
		write(streamLine{At: at, Final: true, Problem: &p})
	}
	events := func(evs []judge.StreamEvent) bool {
		if len(evs) == 0 {
			return true
		}
		lines := make([]streamLine, len(evs))
		for i, ev := range evs {
			lines[i] = streamLine{At: ev.At, Final: ev.Final, Result: ev.Result}
			if ev.Final {
				s.observeValidation(ev.Result)
			}
		}
		return write(lines...)
	}

	body := http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes)
	buf := make([]byte, streamChunk)
	var read int64
	for {
		_ = rc.SetReadDeadline(time.Now().Add(s.opts.StreamIdleTimeout))
		n, rerr := body.Read(buf)
		read += int64(n)
		if n > 0 {
			evs, err := st.Write(buf[:n])
			if !events(evs) {
				return // the client went away
			}
			if se := (*jsonvalue.SyntaxError)(nil); errors.As(err, &se) {
				fail(read, &judge.RequestError{Field: "output", Msg: se.Error(), Err: err})
				return
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			fail(read, s.streamReadError(r, rerr, read))
			return
		}
	}
	_ = rc.SetReadDeadline(time.Time{})
	evs, err := st.Close(r.Context())
	if !events(evs) {
		return
	}
	if err != nil {
		fail(read, err)
	}
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
