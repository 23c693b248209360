package httpapi

import (
	"context"
	"crypto/rand"
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

// MaxRequestIDLen bounds a client's request id; a longer or unprintable
// one is replaced by a generated id.
const MaxRequestIDLen = 128

type requestIDKey struct{}

// RequestIDFrom returns the id of the request ctx belongs to, or "".
func RequestIDFrom(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// RequestID returns the client's id when it is printable ASCII of at most
// 128 bytes, and a new random id otherwise.
func RequestID(client string) string {
	if client != "" && len(client) <= MaxRequestIDLen && !strings.ContainsFunc(client, func(r rune) bool { return r <= ' ' || r > '~' }) {
		return client
	}
	return newRequestID()
}

// newRequestID returns strings.ToLower(rand.Text()) in one allocation
// (there were two): 26 base32 letters of crypto/rand, 130 bits, as
// rand.Text makes them, with the lower-case alphabet.
func newRequestID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	var b [26]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand.Read's documentation)
	for i := range b {
		b[i] = alphabet[b[i]%32]
	}
	return string(b[:])
}

// StatusWriter records the status and size of a response.
type StatusWriter struct {
	http.ResponseWriter
	// Status is the status written, 0 before any.
	Status int
	// Bytes counts the body bytes written.
	Bytes int64
}

// WriteHeader records the first final status and writes it.
func (w *StatusWriter) WriteHeader(code int) {
	if w.Status == 0 && code >= 200 {
		w.Status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write counts b and writes it.
func (w *StatusWriter) Write(b []byte) (int, error) {
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.Bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *StatusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// RequestMetrics count the requests [Observe] sees.
type RequestMetrics interface {
	// Begin is called when a request starts.
	Begin()
	// End is called when it has been answered, with its route label,
	// method, status and duration.
	End(route, method string, status int, d time.Duration)
}

// AccessLogMessage is the message of the line Observe logs for each
// request answered.
const AccessLogMessage = "request"

// Observe gives each request its id (the client's X-Request-Id when it is
// usable), counts it in m and logs one line for it to log when it is
// answered. route labels a request by its path, bounded to the routes
// served ("unmatched" otherwise), so that arbitrary paths cannot grow a
// label set.
func Observe(log *slog.Logger, route func(path string) string, m RequestMetrics, next http.Handler) http.Handler {
	return ObserveSpans(log, route, m, nil, next)
}

// Spans starts and ends a span for each request [ObserveSpans] sees
// (telemetry.Telemetry's SERVER spans).
type Spans interface {
	// StartRequest returns ctx with the span of r, its route label
	// route, started in it at start.
	StartRequest(ctx context.Context, r *http.Request, route string, start time.Time) context.Context
	// EndRequest ends the span ctx holds at end with the response's
	// status.
	EndRequest(ctx context.Context, r *http.Request, route string, status int, end time.Time)
}

// ObserveSpans is [Observe] that also gives each request its span from
// spans (nil: none), started before the handler and ended after the
// access-log line, which carries its ids: one middleware, one context
// and one status writer a request, where a middleware of the span's own
// around Observe made a second request, context and writer.
func ObserveSpans(log *slog.Logger, route func(path string) string, m RequestMetrics, spans Spans, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := RequestID(r.Header.Get(HeaderRequestID))
		// The writer, the id's context and its header value in one
		// allocation (they were three).
		st := &requestState{sw: StatusWriter{ResponseWriter: w}, ctx: idContext{Context: r.Context(), id: id}, idv: [1]string{id}}
		// HeaderRequestID is in canonical form: the map is written
		// directly, as Header.Set would after canonicalizing it.
		w.Header()[HeaderRequestID] = st.idv[:]
		rt := route(r.URL.Path)
		var ctx context.Context = &st.ctx
		if spans != nil {
			ctx = spans.StartRequest(ctx, r, rt, start)
		}
		r = r.WithContext(ctx)
		sw := &st.sw
		m.Begin()
		defer func() {
			status := sw.Status
			if status == 0 {
				status = http.StatusOK
			}
			d := time.Since(start)
			end := start.Add(d)
			m.End(rt, r.Method, status, d)
			level := slog.LevelInfo
			if status >= 500 {
				level = slog.LevelError
			}
			accessLog(r.Context(), log.Handler(), level, end,
				slog.String("method", r.Method),
				slog.String("route", rt),
				slog.String("path", r.URL.Path),
				slog.Int("status", status),
				slog.Duration("duration", d),
				slog.Int64("bytes", sw.Bytes),
				slog.String("request_id", id),
				slog.String("remote", r.RemoteAddr))
			if spans != nil {
				spans.EndRequest(r.Context(), r, rt, status, end)
			}
		}()
		next.ServeHTTP(sw, r)
	})
}

// requestState is what [ObserveSpans] keeps for a request, allocated
// together.
type requestState struct {
	sw  StatusWriter
	ctx idContext
	idv [1]string // the X-Request-Id header's value
}

// idContext is a context carrying a request's id, as context.WithValue
// with requestIDKey would.
type idContext struct {
	context.Context
	id string
}

// Value returns the id for requestIDKey, and asks the parent otherwise.
func (c *idContext) Value(key any) any {
	if _, ok := key.(requestIDKey); ok {
		return c.id
	}
	return c.Context.Value(key)
}

// ContextAttrsHandler is a slog.Handler that adds attributes of the
// context to every record it handles (telemetry.LogHandler: the trace_id
// and span_id of the span a record is logged under), which it must do
// by copying the record (Record.Clone) and growing its attributes.
// ObserveSpans asks it for them and makes the access-log line with them
// among its attributes from the start, handing the line to the handler
// it wraps: the same line, without the copy.
type ContextAttrsHandler interface {
	slog.Handler
	// ContextAttrs returns the attributes Handle adds to a record logged
	// with ctx (the first n of attrs) and the handler Handle then hands
	// the record to; or none and a handler that adds them itself without
	// a copy (telemetry.LogHandler's over judge serve's access log,
	// which writes the ids from their digits).
	ContextAttrs(ctx context.Context) (attrs [2]slog.Attr, n int, next slog.Handler)
}

// maxLogAttrs is the most attributes accessLog gathers without an
// allocation.
const maxLogAttrs = 12

// accessLog hands h the access-log line of a request answered at t, as
// Logger.LogAttrs would but without the caller's program counter: the
// line has no source (no handler of judge's adds one), and taking the
// caller's stack was a quarter of the line's cost. The attributes a
// ContextAttrsHandler adds are put in with attrs, at once.
func accessLog(ctx context.Context, h slog.Handler, level slog.Level, t time.Time, attrs ...slog.Attr) {
	if !h.Enabled(ctx, level) {
		return
	}
	rec := slog.NewRecord(t, level, AccessLogMessage, 0)
	if ch, ok := h.(ContextAttrsHandler); ok {
		extra, n, next := ch.ContextAttrs(ctx)
		var buf [maxLogAttrs]slog.Attr
		rec.AddAttrs(append(append(buf[:0], attrs...), extra[:n]...)...)
		_ = next.Handle(ctx, rec)
		return
	}
	rec.AddAttrs(attrs...)
	_ = h.Handle(ctx, rec)
}

// Recover turns a panic in a handler into a logged 500 problem. When the
// response has already begun, the connection is aborted instead, so that
// the client cannot mistake a cut response for a whole one.
func Recover(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			log.ErrorContext(r.Context(), "panic in handler",
				"request_id", RequestIDFrom(r.Context()),
				"panic", fmt.Sprint(v),
				"stack", string(debug.Stack()))
			if sw, ok := w.(*StatusWriter); ok && sw.Status != 0 {
				panic(http.ErrAbortHandler)
			}
			WriteProblem(w, r, api.Problem{Status: http.StatusInternalServerError, Code: api.CodeInternal,
				Detail: "the server failed to answer the request; quote the request id when reporting it"})
		}()
		next.ServeHTTP(w, r)
	})
}

// ProblemMux serves mux, turning the plain-text errors it writes for an
// unknown path (404) or method (405, with Allow) into problem documents.
func ProblemMux(mux *http.ServeMux) http.Handler {
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
	p := api.Problem{Status: code, Code: CodeOfStatus(code)}
	switch code {
	case http.StatusNotFound:
		p.Detail = fmt.Sprintf("no route serves %s; see /openapi.json for the routes", w.r.URL.Path)
	case http.StatusMethodNotAllowed:
		p.Detail = fmt.Sprintf("%s does not accept %s; allowed: %s", w.r.URL.Path, w.r.Method, w.Header().Get("Allow"))
	}
	WriteProblem(w.ResponseWriter, w.r, p)
}

func (w *muxErrorWriter) Write(b []byte) (int, error) {
	if w.replaced {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *muxErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
