package gateway

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPPath is where the gateway serves streamable HTTP: the URL clients
// and the MCP Inspectors expect is http://HOST:PORT/mcp. The root path "/"
// serves the same endpoint, as before it was moved there.
const HTTPPath = "/mcp"

// HTTPOptions configure [Gateway.HTTPHandler].
type HTTPOptions struct {
	// Token, when not empty, is the bearer token every request must
	// carry ("Authorization: Bearer <token>"), compared in constant time,
	// as judge serve requires its API token; a request without it gets 401
	// with a WWW-Authenticate challenge.
	Token string
	// AllowedOrigins are the origins ("https://app.example.com", scheme,
	// host and port as a browser sends them) a request may come from when
	// it carries an Origin header; a request with another gets 403, so
	// that a web page cannot reach the gateway through DNS rebinding (as
	// the MCP spec asks of streamable HTTP servers). A request without an
	// Origin header (not from a browser) is not refused by this check.
	AllowedOrigins []string
	// Loopback allows the loopback origins (localhost, 127.0.0.0/8,
	// [::1], on any port): set it when the server is bound to a loopback
	// address, where only local pages can reach it anyway.
	Loopback bool
	// Stopping, when it ends, ends the open GET event streams (the
	// server-to-client streams a client holds open for as long as its
	// session lives), so that http.Server.Shutdown, which waits for every
	// request, waits only for the POSTs in flight; a POST's own stream ends
	// with its answer. nil: the GET streams end with their sessions.
	Stopping context.Context
}

// HTTPHandler serves the gateway's MCP server over streamable HTTP at
// HTTPPath (and "/"), behind the Origin check and the bearer token of
// opts. Every client session shares the gateway's server. A request the
// client cancels (notifications/cancelled) gets no answer: its POST's
// event stream ends without one (unansweredCancelled).
func (g *Gateway) HTTPHandler(opts HTTPOptions) http.Handler {
	var mcpH http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return g.server }, nil)
	mcpH = g.unansweredCancelled(mcpH)
	if opts.Stopping != nil {
		mcpH = endStreamsWhen(opts.Stopping, mcpH)
	}
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, mcpH)
	mux.Handle("/{$}", mcpH)
	var h http.Handler = mux
	if opts.Token != "" {
		h = bearer(opts.Token, h)
	}
	return g.traceHTTP(checkOrigin(opts, h))
}

// HTTPServer returns an http.Server for [Gateway.HTTPHandler] of opts: a
// request header must arrive within 10 s, and, when the gateway's
// Telemetry records spans, each connection's context is made by
// telemetry's ConnContext (which saves each request's span the search
// for a parent above the connection). The caller serves it and shuts it
// down.
func (g *Gateway) HTTPServer(opts HTTPOptions) *http.Server {
	return &http.Server{
		Handler:           g.HTTPHandler(opts),
		ReadHeaderTimeout: 10 * time.Second,
		ConnContext:       func(ctx context.Context, _ net.Conn) context.Context { return g.opts.Telemetry.ConnContext(ctx) },
	}
}

// checkOrigin refuses, with 403, a request whose Origin is present and
// not allowed.
func checkOrigin(opts HTTPOptions, next http.Handler) http.Handler {
	allowed := make([]string, 0, len(opts.AllowedOrigins))
	for _, o := range opts.AllowedOrigins {
		allowed = append(allowed, strings.ToLower(strings.TrimRight(o, "/")))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" || OriginAllowed(origin, allowed, opts.Loopback) {
			next.ServeHTTP(w, r)
			return
		}
		httpError(w, http.StatusForbidden, "origin "+origin+" is not allowed (judge gateway --allow-origin allows an origin)")
	})
}

// OriginAllowed reports whether an Origin header's value is one of
// allowed (lower-case, without a trailing slash) or, with loopback, an
// http(s) origin on a loopback host.
func OriginAllowed(origin string, allowed []string, loopback bool) bool {
	o := strings.ToLower(origin)
	if slices.Contains(allowed, o) || slices.Contains(allowed, "*") {
		return true
	}
	if !loopback {
		return false
	}
	u, err := url.Parse(o)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.Path != "" || u.User != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// bearer requires "Authorization: Bearer <token>", compared in constant
// time (as judge serve does).
func bearer(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		scheme, tok, _ := strings.Cut(auth, " ")
		got := sha256.Sum256([]byte(strings.TrimSpace(tok)))
		if strings.EqualFold(scheme, "Bearer") && subtle.ConstantTimeCompare(got[:], want[:]) == 1 {
			next.ServeHTTP(w, r)
			return
		}
		challenge := `Bearer realm="judge"`
		detail := "this endpoint requires an Authorization: Bearer <token> header"
		if auth != "" {
			challenge += `, error="invalid_token"`
			detail = "the bearer token is not valid"
		}
		w.Header().Set("WWW-Authenticate", challenge)
		httpError(w, http.StatusUnauthorized, detail)
	})
}

// httpError answers a refused request with a JSON-RPC error body, which an
// MCP client shows, and the HTTP status.
func httpError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32001, "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// endStreamsWhen ends the context of every GET request (an event stream
// the client holds open) when stopping ends.
func endStreamsWhen(stopping context.Context, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			next.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		stop := context.AfterFunc(stopping, cancel)
		defer stop()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// maxCancelled bounds the cancelled requests remembered at once.
const maxCancelled = 10000

// maxCancelBody bounds the POST body read for a notifications/cancelled.
const maxCancelBody = 1 << 20

// cancelledSet is the requests clients cancelled whose answers were not
// written yet, by session id and the request id as JSON.
type cancelledSet struct {
	mu  sync.Mutex
	ids map[string]map[string]time.Time // session id -> request id -> when cancelled
	n   int
	// calls are the fast path's calls in flight, by session id + "\x00" +
	// request id: a cancellation ends its context.
	calls map[string]context.CancelFunc
}

// unansweredCancelled keeps the SDK's answer to a request its client
// cancelled from the client, as the MCP spec asks ("receivers of a
// cancellation notification SHOULD NOT send a response for the cancelled
// request") and as the stdio transport does: a POST holding
// notifications/cancelled is read first and the request id remembered;
// the SDK cancels the handler, writes its error answer, and the event
// carrying it is dropped, so that the request's stream ends without an
// answer. The SDK's streamable server cannot be told to answer nothing:
// its stream ends only once each request on it has its answer written.
//
// A tools/call the fast path takes (answerHTTP) is answered here, around
// the SDK.
func (g *Gateway) unansweredCancelled(next http.Handler) http.Handler {
	set := &cancelledSet{ids: map[string]map[string]time.Time{}, calls: map[string]context.CancelFunc{}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sid := r.Header.Get("Mcp-Session-Id")
		if r.Method != http.MethodPost || sid == "" {
			r.Header.Del(g.hdr.rpcID)
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxCancelBody))
		if err == nil && bytes.Contains(body, []byte("notifications/cancelled")) {
			set.note(sid, body)
		}
		if err == nil && len(body) < maxCancelBody && g.answerHTTP(w, r, sid, body, set) {
			return
		}
		g.noteCallID(r, body)
		r.Body = readCloser{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
		next.ServeHTTP(&dropAnswers{ResponseWriter: w, set: set, sid: sid}, r)
	})
}

type readCloser struct {
	io.Reader
	io.Closer
}

// note remembers the requests a body's notifications/cancelled name (a
// message or a batch).
func (c *cancelledSet) note(sid string, body []byte) {
	var msgs []json.RawMessage
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '[' {
		if json.Unmarshal(t, &msgs) != nil {
			return
		}
	} else {
		msgs = []json.RawMessage{t}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range msgs {
		var n struct {
			Method string `json:"method"`
			Params struct {
				RequestID any `json:"requestId"`
			} `json:"params"`
		}
		if json.Unmarshal(m, &n) != nil || n.Method != "notifications/cancelled" {
			continue
		}
		key, ok := idKey(n.Params.RequestID)
		if !ok {
			continue
		}
		if c.n >= maxCancelled {
			c.forget(time.Now().Add(-cancelledFor))
		}
		if c.n >= maxCancelled {
			clear(c.ids) // a bound, not a queue: at worst an answer goes out, as before
			c.n = 0
		}
		if c.ids[sid] == nil {
			c.ids[sid] = map[string]time.Time{}
		}
		if _, dup := c.ids[sid][key]; !dup {
			c.n++
		}
		c.ids[sid][key] = time.Now()
		if cancel := c.calls[sid+"\x00"+key]; cancel != nil {
			cancel()
		}
	}
}

// running records a call of the fast path in flight, which a cancellation
// ends; done forgets it.
func (c *cancelledSet) running(sid, key string, cancel context.CancelFunc) (done func()) {
	k := sid + "\x00" + key
	c.mu.Lock()
	c.calls[k] = cancel
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		delete(c.calls, k)
		c.mu.Unlock()
	}
}

// cancelledFor is how long a cancelled request is remembered once the
// set is full: a request answered before its cancellation came is never
// answered again.
const cancelledFor = 10 * time.Minute

// forget drops the requests cancelled before t; c.mu is held.
func (c *cancelledSet) forget(t time.Time) {
	for sid, m := range c.ids {
		for k, at := range m {
			if at.Before(t) {
				delete(m, k)
				c.n--
			}
		}
		if len(m) == 0 {
			delete(c.ids, sid)
		}
	}
}

// idKey is a JSON-RPC id as a comparable string.
func idKey(v any) (string, bool) {
	id, err := jsonrpc.MakeID(v)
	if err != nil || !id.IsValid() {
		return "", false
	}
	b, err := json.Marshal(id.Raw())
	return string(b), err == nil
}

// answered reports whether the event data (a JSON-RPC message) answers a
// cancelled request of session sid, and forgets the request.
func (c *cancelledSet) answered(sid string, data []byte) bool {
	c.mu.Lock()
	none := len(c.ids[sid]) == 0
	c.mu.Unlock()
	if none {
		return false
	}
	var m struct {
		ID     any             `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(data, &m) != nil || m.Method != "" || m.Result == nil && m.Error == nil {
		return false
	}
	key, ok := idKey(m.ID)
	if !ok {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	pending := c.ids[sid]
	if _, ok := pending[key]; !ok {
		return false
	}
	delete(pending, key)
	c.n--
	if len(pending) == 0 {
		delete(c.ids, sid)
	}
	return true
}

// dropAnswers is a POST's response writer that drops the event answering
// a cancelled request. The SDK writes each event of a stream in one Write
// ("event: message\n", maybe "id: …\n", "data: …\n\n").
type dropAnswers struct {
	http.ResponseWriter
	set *cancelledSet
	sid string
}

func (d *dropAnswers) Write(b []byte) (int, error) {
	if bytes.HasPrefix(b, []byte("event: message\n")) && bytes.HasSuffix(b, []byte("\n\n")) {
		if i := bytes.Index(b, []byte("\ndata: ")); i >= 0 && d.set.answered(d.sid, b[i+len("\ndata: "):len(b)-2]) {
			return len(b), nil
		}
	}
	return d.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController the writer beneath (to flush).
func (d *dropAnswers) Unwrap() http.ResponseWriter { return d.ResponseWriter }

// Flush flushes the writer beneath.
func (d *dropAnswers) Flush() {
	if f, ok := d.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
