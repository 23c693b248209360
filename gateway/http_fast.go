package gateway

//lint:file-ignore SA1019 sampling is deprecated by protocol 2026-07-28 (SEP-2577) but lives in every earlier version: a client that can be asked for it takes the SDK's path.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/internal/mcpstdio"
)

// answerHTTP is the streamable HTTP transport's fast path for tools/call,
// as StdioTransport's is on stdio: a POST holding one tools/call of an
// offered tool, in an initialized session of the gateway, is answered from
// its raw JSON by the same pipeline (Gateway.call) and encoder
// (Gateway.encode), on an event stream as the SDK answers it; the SDK's
// streamable server never decodes it. It reports whether it answered.
//
// It declines, leaving the request to the SDK, what would need the SDK's
// stream of the request: a call asking for progress (a progressToken),
// a session whose client can be asked for sampling or elicitation during
// the call (they are relayed on the call's stream), a request of the
// sessionless protocol, a protocol version header other than the one the
// session's client asked for, and anything else the SDK answers
// differently (batches, other methods, tools not offered).
func (g *Gateway) answerHTTP(w http.ResponseWriter, r *http.Request, sid string, body []byte, set *cancelledSet) bool {
	if accept := r.Header.Get("Accept"); !strings.Contains(accept, "text/event-stream") || !strings.Contains(accept, "application/json") {
		return false
	}
	var id, method, params []byte
	version := false
	err := mcpstdio.Members(body, func(key, val []byte) error {
		switch string(key) {
		case "jsonrpc":
			version = string(val) == `"2.0"`
		case "id":
			id = val
		case "method":
			method = val
		case "params":
			params = val
		}
		return nil
	})
	if err != nil || !version || string(method) != `"tools/call"` || len(id) == 0 || len(params) == 0 {
		return false
	}
	var idv any
	if json.Unmarshal(id, &idv) != nil {
		return false
	}
	key, ok := idKey(idv)
	if !ok {
		return false
	}
	p, ok := g.fastParams(params)
	if !ok || p.sessionless || p.meta["progressToken"] != nil {
		return false
	}
	ss := g.peerSession("mcp:" + sid)
	if ss == nil {
		return false
	}
	ip := ss.InitializeParams()
	if ip == nil || r.Header.Get("Mcp-Protocol-Version") != ip.ProtocolVersion {
		return false
	}
	if c := ip.Capabilities; c != nil && (c.Sampling != nil || c.Elicitation != nil) {
		return false
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	if g.opts.Telemetry.Enabled() {
		ctx = withRPC(ctx, rawJSONRPCID(id), ip.ProtocolVersion)
	}
	if g.log.Enabled(ctx, slog.LevelDebug) {
		g.log.Debug("tools/call on the HTTP fast path", "tool", p.name, "session", sid)
	}
	defer set.running(sid, key, cancel)()
	if err := g.offer(ctx); err != nil {
		return false
	}
	ans, err := g.call(ctx, "mcp:"+sid, p.name, p.args, p.meta)
	resp := g.eventData(id, ans, err)
	h := w.Header()
	h.Set("Cache-Control", "no-cache, no-transform")
	h.Set("Content-Type", "text/event-stream")
	h.Set("Connection", "keep-alive")
	h.Set("Mcp-Session-Id", sid)
	w.WriteHeader(http.StatusOK)
	if set.answered(sid, resp) {
		return true // cancelled: the stream ends without an answer
	}
	ev := make([]byte, 0, len(resp)+32)
	ev = append(append(append(ev, "event: message\ndata: "...), resp...), "\n\n"...)
	_, _ = w.Write(ev)
	_ = http.NewResponseController(w).Flush()
	return true
}

// peerSession is the initialized client session whose session id (as
// sessionID gives it) is sid; nil when none.
func (g *Gateway) peerSession(sid string) *mcp.ServerSession {
	g.peers.mu.Lock()
	defer g.peers.mu.Unlock()
	for ss, pr := range g.peers.sessions {
		if pr.sid == sid {
			return ss
		}
	}
	return nil
}

// eventData is the JSON-RPC response to the tools/call of id, answered
// ans or failed with err, on one line as an event's data.
func (g *Gateway) eventData(id []byte, ans answer, err error) []byte {
	resp := append(append(make([]byte, 0, 512), `{"jsonrpc":"2.0","id":`...), id...)
	var raw json.RawMessage
	if err == nil {
		raw, err = g.encode(ans, false)
	}
	if err != nil {
		we := &jsonrpc.Error{Message: err.Error()}
		var je *jsonrpc.Error
		if errors.As(err, &je) {
			we.Code, we.Data = je.Code, je.Data
		}
		b, _ := json.Marshal(we)
		resp = append(append(resp, `,"error":`...), b...)
	} else {
		resp = append(append(resp, `,"result":`...), raw...)
	}
	resp = append(resp, '}')
	if bytes.IndexByte(resp, '\n') >= 0 || bytes.IndexByte(resp, '\r') >= 0 {
		// An event's data is one line: a pretty-printed upstream's result
		// is compacted (the bytes inside its strings are escapes).
		var cb bytes.Buffer
		if err := json.Compact(&cb, resp); err != nil {
			b, _ := json.Marshal(&jsonrpc.Error{Message: "judge gateway: encoding the answer: " + err.Error()})
			cb.Reset()
			cb.WriteString(`{"jsonrpc":"2.0","id":`)
			cb.Write(id)
			cb.WriteString(`,"error":`)
			cb.Write(b)
			cb.WriteByte('}')
		}
		resp = cb.Bytes()
	}
	return resp
}
