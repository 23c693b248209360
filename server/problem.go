package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/server/api"
)

// titles are the problem titles by code: the same for every occurrence.
var titles = map[api.Code]string{
	api.CodeInvalidRequest:       "Invalid request",
	api.CodeUnauthorized:         "Unauthorized",
	api.CodeNotFound:             "Not found",
	api.CodeMethodNotAllowed:     "Method not allowed",
	api.CodeBodyTooLarge:         "Request body too large",
	api.CodeUnsupportedMediaType: "Unsupported media type",
	api.CodeClientClosedRequest:  "Client closed request",
	api.CodeRequestTimeout:       "Request timeout",
	api.CodeInternal:             "Internal server error",
	api.CodeUnavailable:          "Service unavailable",
}

// mediaTypeError is a request body in a media type or coding the server
// does not read.
type mediaTypeError struct{ msg string }

func (e *mediaTypeError) Error() string { return e.msg }

// problemOf maps an error to the problem that answers it: the one place
// where errors get their status (OPA's writer.ErrorAuto). ctx is the
// request's context, whose cause tells a client that went away from a
// server that is shutting down.
func problemOf(ctx context.Context, err error) api.Problem {
	var (
		tooLarge   *http.MaxBytesError
		media      *mediaTypeError
		reqErr     *judge.RequestError
		slow       *bodyTimeoutError
		busy       *busyError
		engineBusy *judge.BusyError
	)
	switch {
	case errors.As(err, &slow):
		return api.Problem{Status: http.StatusRequestTimeout, Code: api.CodeRequestTimeout, Detail: slow.Error()}
	case errors.As(err, &busy):
		return api.Problem{Status: http.StatusServiceUnavailable, Code: api.CodeUnavailable, Detail: busy.msg}
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
		return api.Problem{Status: http.StatusUnsupportedMediaType, Code: api.CodeUnsupportedMediaType, Detail: media.msg}
	case errors.As(err, &reqErr):
		p := api.Problem{Status: http.StatusBadRequest, Code: api.CodeInvalidRequest, Detail: reqErr.Error()}
		p.Errors = []api.FieldError{{Field: reqErr.Field, Message: reqErr.Msg}}
		return p
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		if errors.Is(context.Cause(ctx), errShuttingDown) {
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

// writeError answers r with the problem err maps to, logging the error
// when it is the server's fault. A 503 carries Retry-After; a 408 closes
// the connection, whose body was not read whole.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	p := problemOf(r.Context(), err)
	switch p.Status {
	case http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", "1")
	case http.StatusRequestTimeout:
		w.Header().Set("Connection", "close")
	case http.StatusInternalServerError:
		s.log.ErrorContext(r.Context(), "internal error", "request_id", requestIDFrom(r.Context()), "error", err.Error())
	case http.StatusUnsupportedMediaType:
		w.Header().Set("Accept-Post", api.MediaTypeJSON)
	}
	writeProblem(w, r, p)
}

// writeProblem completes p (type, title, instance, request id) and writes
// it as application/problem+json.
func writeProblem(w http.ResponseWriter, r *http.Request, p api.Problem) {
	if p.Code == "" {
		p.Code = codeOfStatus(p.Status)
	}
	p.Type = p.Code.TypeURI()
	if p.Title == "" {
		p.Title = titles[p.Code]
	}
	p.Instance = r.URL.Path
	p.RequestID = requestIDFrom(r.Context())
	writeJSON(w, p.Status, api.MediaTypeProblem, p)
}

// codeOfStatus is the code of a problem known only by its status, as the
// mux reports it.
func codeOfStatus(status int) api.Code {
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
	}
	return api.CodeInternal
}

// writeJSON writes v as indented JSON with a trailing newline.
func writeJSON(w http.ResponseWriter, status int, mediaType string, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only unencodable values fail; none of the API's types is one.
		http.Error(w, "internal error: "+err.Error(), http.StatusInternalServerError)
		return
	}
	writeBody(w, status, mediaType, buf.Bytes())
}

// writeBody writes a complete body with its type and length.
func writeBody(w http.ResponseWriter, status int, mediaType string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", mediaType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// checkMediaType accepts a body declared as application/json or an
// application/*+json type, in UTF-8, without a content coding; a missing
// Content-Type is taken as application/json.
func checkMediaType(h http.Header) error {
	if ce := h.Get("Content-Encoding"); ce != "" && !strings.EqualFold(ce, "identity") {
		return &mediaTypeError{fmt.Sprintf("Content-Encoding %q is not supported; send the body uncompressed", ce)}
	}
	ct := h.Get("Content-Type")
	if ct == "" {
		return nil
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return &mediaTypeError{fmt.Sprintf("Content-Type %q does not parse: %v; send application/json", ct, err)}
	}
	if mt != api.MediaTypeJSON && !(strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")) {
		hint := ""
		if mt == "application/x-www-form-urlencoded" {
			hint = " (curl sends this type with --data: use --json, or add -H 'Content-Type: application/json')"
		}
		return &mediaTypeError{fmt.Sprintf("Content-Type %q is not JSON; send application/json%s", mt, hint)}
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
		return &mediaTypeError{fmt.Sprintf("charset %q is not supported; send UTF-8", cs)}
	}
	return nil
}
