package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/server/api"
)

// ErrShuttingDown is the cause of the cancellation of requests still
// running when a server's shutdown timeout ends (see [Serve]).
var ErrShuttingDown = errors.New("server: shutting down")

// Title is the problem title of a code: the same for every occurrence;
// "" for a code it does not know.
func Title(c api.Code) string {
	switch c {
	case api.CodeInvalidRequest:
		return "Invalid request"
	case api.CodeUnauthorized:
		return "Unauthorized"
	case api.CodeNotFound:
		return "Not found"
	case api.CodeMethodNotAllowed:
		return "Method not allowed"
	case api.CodeBodyTooLarge:
		return "Request body too large"
	case api.CodeUnsupportedMediaType:
		return "Unsupported media type"
	case api.CodeClientClosedRequest:
		return "Client closed request"
	case api.CodeRequestTimeout:
		return "Request timeout"
	case api.CodeInternal:
		return "Internal server error"
	case api.CodeUnavailable:
		return "Service unavailable"
	case api.CodeBadGateway:
		return "Bad gateway"
	}
	return ""
}

// ProblemOf maps an error to the problem that answers it: the one place
// where errors get their status (OPA's writer.ErrorAuto). ctx is the
// request's context, whose cause tells a client that went away from a
// server that is shutting down.
func ProblemOf(ctx context.Context, err error) api.Problem {
	var (
		tooLarge   *http.MaxBytesError
		media      *MediaTypeError
		reqErr     *judge.RequestError
		slow       *BodyTimeoutError
		busy       *BusyError
		engineBusy *judge.BusyError
		upstream   *UpstreamError
	)
	switch {
	case errors.As(err, &slow):
		return api.Problem{Status: http.StatusRequestTimeout, Code: api.CodeRequestTimeout, Detail: slow.Error()}
	case errors.As(err, &busy):
		return api.Problem{Status: http.StatusServiceUnavailable, Code: api.CodeUnavailable, Detail: busy.Msg}
	case errors.As(err, &engineBusy):
		return api.Problem{Status: http.StatusServiceUnavailable, Code: api.CodeUnavailable,
			Detail: "the output was not checked: " + engineBusy.Reason() + "; retry shortly"}
	case errors.Is(err, judge.ErrBusy):
		return api.Problem{Status: http.StatusServiceUnavailable, Code: api.CodeUnavailable,
			Detail: "the output was not checked: " + judge.ErrBusy.Error() + "; retry shortly"}
	case errors.As(err, &tooLarge):
		return api.Problem{Status: http.StatusRequestEntityTooLarge, Code: api.CodeBodyTooLarge,
			Detail: fmt.Sprintf("the request body is larger than the limit of %d bytes", tooLarge.Limit)}
	case errors.As(err, &media):
		return api.Problem{Status: http.StatusUnsupportedMediaType, Code: api.CodeUnsupportedMediaType, Detail: media.Msg}
	case errors.As(err, &reqErr):
		p := api.Problem{Status: http.StatusBadRequest, Code: api.CodeInvalidRequest, Detail: reqErr.Error()}
		p.Errors = []api.FieldError{{Field: reqErr.Field, Message: reqErr.Msg}}
		return p
	case errors.As(err, &upstream):
		return api.Problem{Status: http.StatusBadGateway, Code: api.CodeBadGateway, Detail: upstream.Error()}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		if errors.Is(context.Cause(ctx), ErrShuttingDown) {
			return api.Problem{Status: http.StatusServiceUnavailable, Code: api.CodeUnavailable,
				Detail: "the server is shutting down and the request did not finish in time; retry it"}
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return api.Problem{Status: http.StatusServiceUnavailable, Code: api.CodeUnavailable,
				Detail: "the request did not finish in time; retry it"}
		}
		return api.Problem{Status: api.StatusClientClosedRequest, Code: api.CodeClientClosedRequest,
			Detail: "the client closed the request before it was answered"}
	}
	return api.Problem{Status: http.StatusInternalServerError, Code: api.CodeInternal,
		Detail: "the server failed to answer the request; quote the request id when reporting it"}
}

// UpstreamError is a server this one forwards to that could not be
// reached or answered with something unreadable: 502. Its message is
// shown to the client, so it names what went wrong, never a secret.
type UpstreamError struct {
	// Msg says what went wrong with the upstream.
	Msg string
	// Err is the cause.
	Err error
}

func (e *UpstreamError) Error() string { return e.Msg }

// Unwrap returns the cause.
func (e *UpstreamError) Unwrap() error { return e.Err }

// WriteError answers r with the problem err maps to (see [ProblemFor]).
func WriteError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	p := ProblemFor(w, r, log, err)
	WriteJSON(w, p.Status, api.MediaTypeProblem, p)
}

// ProblemFor returns the completed problem err maps to, for a front end
// that writes it with members of its own, having set the headers it goes
// with and logged err to log when it is the server's fault. A 503 carries
// Retry-After; a 408 closes the connection, whose body was not read
// whole.
func ProblemFor(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) api.Problem {
	p := ProblemOf(r.Context(), err)
	switch p.Status {
	case http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", "1")
	case http.StatusRequestTimeout:
		w.Header().Set("Connection", "close")
	case http.StatusInternalServerError, http.StatusBadGateway:
		log.ErrorContext(r.Context(), "internal error", "request_id", RequestIDFrom(r.Context()), "error", err.Error())
	case http.StatusUnsupportedMediaType:
		w.Header().Set("Accept-Post", api.MediaTypeJSON)
	}
	Complete(r, &p)
	return p
}

// WriteProblem completes p (see [Complete]) and writes it as
// application/problem+json.
func WriteProblem(w http.ResponseWriter, r *http.Request, p api.Problem) {
	Complete(r, &p)
	WriteJSON(w, p.Status, api.MediaTypeProblem, p)
}

// Complete fills what p lacks: its code from its status, its type and
// title from its code, the request's path as instance and its id.
func Complete(r *http.Request, p *api.Problem) {
	if p.Code == "" {
		p.Code = CodeOfStatus(p.Status)
	}
	p.Type = p.Code.TypeURI()
	if p.Title == "" {
		p.Title = Title(p.Code)
	}
	p.Instance = r.URL.Path
	p.RequestID = RequestIDFrom(r.Context())
}

// CodeOfStatus is the code of a problem known only by its status, as the
// mux reports it.
func CodeOfStatus(status int) api.Code {
	switch status {
	case http.StatusBadRequest:
		return api.CodeInvalidRequest
	case http.StatusUnauthorized:
		return api.CodeUnauthorized
	case http.StatusNotFound:
		return api.CodeNotFound
	case http.StatusMethodNotAllowed:
		return api.CodeMethodNotAllowed
	case http.StatusRequestEntityTooLarge:
		return api.CodeBodyTooLarge
	case http.StatusUnsupportedMediaType:
		return api.CodeUnsupportedMediaType
	case http.StatusServiceUnavailable:
		return api.CodeUnavailable
	case http.StatusRequestTimeout:
		return api.CodeRequestTimeout
	case http.StatusBadGateway:
		return api.CodeBadGateway
	}
	return api.CodeInternal
}

// WriteJSON writes v as indented JSON with a trailing newline.
func WriteJSON(w http.ResponseWriter, status int, mediaType string, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only unencodable values fail; none of the API's types is one.
		http.Error(w, "internal error: "+err.Error(), http.StatusInternalServerError)
		return
	}
	WriteBody(w, status, mediaType, buf.Bytes())
}

// WriteBody writes a complete body with its type and length.
func WriteBody(w http.ResponseWriter, status int, mediaType string, body []byte) {
	// The keys are canonical, so the map is written directly, as
	// Header.Set would after canonicalizing them; the three values share
	// one backing array (each slice capped, so an Add appends elsewhere).
	h := w.Header()
	vals := [...]string{mediaType, strconv.Itoa(len(body)), "nosniff"}
	h["Content-Type"] = vals[0:1:1]
	h["Content-Length"] = vals[1:2:2]
	h["X-Content-Type-Options"] = vals[2:3:3]
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// Flush sends what w holds to the client now, through the writers that
// wrap it (each with an Unwrap method, as http.ResponseController finds
// them), without the allocation of a ResponseController. A handler that
// has written its whole answer with [WriteBody], whose Content-Length is
// set, calls it so that the work left after the answer (metrics, the
// access-log line) does not delay it: the answer is the same bytes, sent
// before the handler returns rather than after. A writer that cannot
// flush is left as it is.
func Flush(w http.ResponseWriter) {
	for {
		switch t := w.(type) {
		case http.Flusher:
			t.Flush()
			return
		case interface{ Unwrap() http.ResponseWriter }:
			w = t.Unwrap()
		default:
			return
		}
	}
}
