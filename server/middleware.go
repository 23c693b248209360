package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/agentjudge/judge/server/api"
)

// HeaderRequestID is the header that carries a request's id, in and out.
const HeaderRequestID = "X-Request-Id"

// maxRequestIDLen bounds a client's request id; a longer or unprintable
// one is replaced by a generated id.
const maxRequestIDLen = 128

type requestIDKey struct{}

// requestIDFrom returns the id of the request ctx belongs to, or "".
func requestIDFrom(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// requestID returns the client's id when it is printable ASCII of at most
// maxRequestIDLen bytes, and a new random id otherwise.
func requestID(client string) string {
	if client != "" && len(client) <= maxRequestIDLen && !strings.ContainsFunc(client, func(r rune) bool { return r <= ' ' || r > '~' }) {
		return client
	}
	return strings.ToLower(rand.Text())
}

// statusWriter records the status and size of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 && code >= 200 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// AccessLogMessage is the message of the line the server logs for each
// request it answers.
const AccessLogMessage = "request"

// observe gives each request its id, counts it in the metrics and logs one
// line for it when it is answered.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := requestID(r.Header.Get(HeaderRequestID))
		w.Header().Set(HeaderRequestID, id)
		r = r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id))
		route := unmatched
		if s.paths[r.URL.Path] {
			route = r.URL.Path
		}
		sw := &statusWriter{ResponseWriter: w}
		s.metrics.inFlight.Inc()
		defer func() {
			s.metrics.inFlight.Dec()
			status := sw.status
			if status == 0 {
				status = http.StatusOK
			}
			d := time.Since(start)
			s.metrics.observeRequest(route, r.Method, status, d)
			level := slog.LevelInfo
			if status >= 500 {
				level = slog.LevelError
			}
			s.log.LogAttrs(r.Context(), level, AccessLogMessage,
				slog.String("method", r.Method),
				slog.String("route", route),
				slog.String("path", r.URL.Path),
				slog.Int("status", status),
				slog.Duration("duration", d),
				slog.Int64("bytes", sw.bytes),
				slog.String("request_id", id),
				slog.String("remote", r.RemoteAddr))
		}()
		next.ServeHTTP(sw, r)
	})
}

// recoverPanics turns a panic in a handler into a logged 500 problem. When
// the response has already begun, the connection is aborted instead, so
// that the client cannot mistake a cut response for a whole one.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.ErrorContext(r.Context(), "panic in handler",
				"request_id", requestIDFrom(r.Context()),
				"panic", fmt.Sprint(v),
				"stack", string(debug.Stack()))
			if sw, ok := w.(*statusWriter); ok && sw.status != 0 {
				panic(http.ErrAbortHandler)
			}
			writeProblem(w, r, api.Problem{Status: http.StatusInternalServerError, Code: api.CodeInternal,
				Detail: "the server failed to answer the request; quote the request id when reporting it"})
		}()
		next.ServeHTTP(w, r)
	})
}

// authenticate requires the bearer token on every path but /healthz and
// /readyz when the server has one. Tokens are compared in constant time.
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

// problemMux serves mux, turning the plain-text errors it writes for an
// unknown path (404) or method (405, with Allow) into problem documents.
func problemMux(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pattern := mux.Handler(r); pattern == "" {
			w = &muxErrorWriter{ResponseWriter: w, r: r}
		}
		mux.ServeHTTP(w, r)
	})
}

// muxErrorWriter replaces an error the mux writes by a problem document.
type muxErrorWriter struct {
	http.ResponseWriter
	r        *http.Request
	replaced bool
}

func (w *muxErrorWriter) WriteHeader(code int) {
	if code < 400 || w.replaced {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	w.replaced = true
	p := api.Problem{Status: code, Code: codeOfStatus(code)}
	switch code {
	case http.StatusNotFound:
		p.Detail = fmt.Sprintf("no route serves %s; see /openapi.json for the routes", w.r.URL.Path)
	case http.StatusMethodNotAllowed:
		p.Detail = fmt.Sprintf("%s does not accept %s; allowed: %s", w.r.URL.Path, w.r.Method, w.Header().Get("Allow"))
	}
	writeProblem(w.ResponseWriter, w.r, p)
}

func (w *muxErrorWriter) Write(b []byte) (int, error) {
	if w.replaced {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *muxErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
