package httpapi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
	return ReadBodyInto(nil, w, r, limit, readTimeout)
}

// ReadBodyInto is [ReadBody] reading a body of announced length into
// dst's array when it is large enough (a buffer the caller reuses once
// done with the body), else into a new one.
func ReadBodyInto(dst []byte, w http.ResponseWriter, r *http.Request, limit int64, readTimeout time.Duration) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, &http.MaxBytesError{Limit: limit}
	}
	if r.ContentLength > 0 && r.ContentLength <= maxExactBody {
		// An announced length within the limit is all net/http lets the
		// body give: one buffer of that size is the whole read, without
		// a MaxBytesReader or a buffer grown with room to spare (two
		// allocations and a copy of the body's size, per request).
		body := dst[:0]
		if int64(cap(body)) < r.ContentLength {
			body = make([]byte, 0, r.ContentLength)
		}
		body = body[:r.ContentLength]
		n, err := io.ReadFull(r.Body, body)
		if err != nil {
			return nil, bodyError(r, err, readTimeout, int64(n))
		}
		return body, nil
	}
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		// Trust the announced length only so far: a slow client must not
		// reserve the whole limit before sending anything.
		// The extra MinRead spares ReadFrom a second allocation (and a
		// copy of the body) when it checks for more after the last byte.
		buf.Grow(int(min(r.ContentLength, maxExactBody)) + bytes.MinRead)
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
			return nil, err
		}
		return nil, bodyError(r, err, readTimeout, int64(buf.Len()))
	}
	return buf.Bytes(), nil
}

// maxExactBody is the largest announced body length ReadBody allocates
// at once, before any of it has arrived: a slow client must not reserve
// the whole limit before sending anything.
const maxExactBody = 64 << 10

// bodyError is the error of a body read that failed with err after read
// bytes: a *BodyTimeoutError when the server's read deadline
// (readTimeout) ended it, the request context's error when the client
// went away, a *judge.RequestError otherwise.
func bodyError(r *http.Request, err error, readTimeout time.Duration, read int64) error {
	// The server's own read deadline, not the client, ended the read:
	// the connection's failed read also cancels the request's context,
	// so this is checked first.
	if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() || errors.Is(err, os.ErrDeadlineExceeded) {
		return &BodyTimeoutError{Timeout: readTimeout, Read: read, Err: err}
	}
	if r.Context().Err() != nil {
		return r.Context().Err()
	}
	return &judge.RequestError{Field: "body", Msg: "the request body could not be read: " + err.Error(), Err: err}
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
