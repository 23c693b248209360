package httpapi

import (
	"bytes"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/server/api"
)

// ReadBody reads r's whole body within limit bytes. A body over the limit
// is an *http.MaxBytesError; one that did not arrive before the server's
// read deadline (readTimeout, for the message) is a *BodyTimeoutError; one
// that cannot be read otherwise is a *judge.RequestError, or the request
// context's error when the client went away.
func ReadBody(w http.ResponseWriter, r *http.Request, limit int64, readTimeout time.Duration) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, &http.MaxBytesError{Limit: limit}
	}
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		// Trust the announced length only so far: a slow client must not
		// reserve the whole limit before sending anything.
		// The extra MinRead spares ReadFrom a second allocation (and a
		// copy of the body) when it checks for more after the last byte.
		buf.Grow(int(min(r.ContentLength, 64<<10)) + bytes.MinRead)
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
			return nil, &BodyTimeoutError{Timeout: readTimeout, Read: int64(buf.Len()), Err: err}
		}
		if r.Context().Err() != nil {
			return nil, r.Context().Err()
		}
		return nil, &judge.RequestError{Field: "body", Msg: "the request body could not be read: " + err.Error(), Err: err}
	}
	return buf.Bytes(), nil
}

// BodyTimeoutError is a request whose body had not arrived whole when the
// server's read deadline passed: 408, the server's doing, not the client's
// going away.
type BodyTimeoutError struct {
	// Timeout is the server's read timeout.
	Timeout time.Duration
	// Read is how many bytes of the body had arrived.
	Read int64
	// Err is the read's error.
	Err error
	// Idle says that Timeout is the idle timeout between two chunks of a
	// streamed body (POST /v1/validate/stream), not the read timeout.
	Idle bool
}

func (e *BodyTimeoutError) Error() string {
	if e.Idle {
		return fmt.Sprintf("no byte of the streamed request body arrived for %v, the idle timeout between chunks (%d bytes read)", e.Timeout, e.Read)
	}
	return fmt.Sprintf("the request body did not arrive within the server's read timeout of %v (%d bytes read)", e.Timeout, e.Read)
}

// Unwrap returns the read's error.
func (e *BodyTimeoutError) Unwrap() error { return e.Err }

// MediaTypeError is a request body in a media type or coding the server
// does not read: 415.
type MediaTypeError struct {
	// Msg says what was sent and what to send.
	Msg string
}

func (e *MediaTypeError) Error() string { return e.Msg }

// CheckMediaType accepts a body declared as application/json or an
// application/*+json type, in UTF-8, without a content coding; a missing
// Content-Type is taken as application/json. Anything else is a
// *MediaTypeError.
func CheckMediaType(h http.Header) error {
	if ce := h.Get("Content-Encoding"); ce != "" && !strings.EqualFold(ce, "identity") {
		return &MediaTypeError{fmt.Sprintf("Content-Encoding %q is not supported; send the body uncompressed", ce)}
	}
	switch ct := h.Get("Content-Type"); ct {
	case "", api.MediaTypeJSON, "application/json; charset=utf-8":
		// What clients send, accepted without parsing (as
		// checkContentType would accept them: FuzzCheckMediaType).
		return nil
	default:
		return checkContentType(ct)
	}
}

// checkContentType parses a Content-Type and accepts application/json or
// an application/*+json type in UTF-8.
func checkContentType(ct string) error {
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return &MediaTypeError{fmt.Sprintf("Content-Type %q does not parse: %v; send application/json", ct, err)}
	}
	if mt != api.MediaTypeJSON && !(strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")) {
		hint := ""
		if mt == "application/x-www-form-urlencoded" {
			hint = " (curl sends this type with --data: use --json, or add -H 'Content-Type: application/json')"
		}
		return &MediaTypeError{fmt.Sprintf("Content-Type %q is not JSON; send application/json%s", mt, hint)}
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
		return &MediaTypeError{fmt.Sprintf("charset %q is not supported; send UTF-8", cs)}
	}
	return nil
}
