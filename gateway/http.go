package gateway

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

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
}

// HTTPHandler serves the gateway's MCP server over streamable HTTP at
// HTTPPath (and "/"), behind the Origin check and the bearer token of
// opts. Every client session shares the gateway's server.
func (g *Gateway) HTTPHandler(opts HTTPOptions) http.Handler {
	mcpH := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return g.server }, nil)
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, mcpH)
	mux.Handle("/{$}", mcpH)
	var h http.Handler = mux
	if opts.Token != "" {
		h = bearer(opts.Token, h)
	}
	return g.traceHTTP(checkOrigin(opts, h))
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
