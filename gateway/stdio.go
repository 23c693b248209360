package gateway

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/mcpstdio"
)

// StdioTransport is the transport to run the gateway's server on over a
// pair of streams, as judge gateway does on its stdin and stdout: the
// MCP SDK's session (initialize, tools/list, notifications, every other
// method) with a fast path for tools/call. Once the session is
// initialized, a call of an offered tool whose params hold only name,
// arguments and _meta is answered from the raw JSON: the request is not
// decoded into the SDK's types, and an upstream's result is forwarded as
// it came with the judge block added to its _meta, not decoded and
// encoded again. The pipeline is the same on both paths (Gateway.call);
// any other request takes the SDK's path.
//
// When the input ends, the calls in flight are answered (within
// Options.DrainTimeout) before the session ends; the transport's Drain
// method (interface{ Drain() }) does the same while the input is open,
// for a gateway told to stop. A request the client cancels
// (notifications/cancelled) gets no answer, and its upstream call is
// cancelled.
func (g *Gateway) StdioTransport(r io.ReadCloser, w io.WriteCloser) mcp.Transport {
	var b [12]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	sid := "mcp:" + id // what sessionID gives for the SDK's path
	var extra func(jsonrpc.ID) *mcp.RequestExtra
	if g.opts.Telemetry.Enabled() {
		// The SDK's path learns a request's id and transport as the HTTP
		// front tells it (withSessionVersion).
		extra = func(id jsonrpc.ID) *mcp.RequestExtra {
			h := http.Header{g.hdr.transport: {"pipe"}}
			if s := jsonrpcID(id.Raw()); s != "" {
				h.Set(g.hdr.rpcID, s)
			}
			return &mcp.RequestExtra{Header: h}
		}
	}
	return &mcpstdio.Transport{Reader: r, Writer: w, SessionID: id, DrainTimeout: g.opts.DrainTimeout, Extra: extra, Answer: func(method string, params json.RawMessage, initialized bool) mcpstdio.Answerer {
		if method != "tools/call" {
			return nil
		}
		p, ok := g.fastParams(params)
		if !ok || !initialized && !p.sessionless {
			return nil
		}
		return func(ctx context.Context) (json.RawMessage, error) {
			ctx = withTransport(ctx, "pipe")
			if ri, ok := mcpstdio.Request(ctx); ok && g.opts.Telemetry.Enabled() {
				// The request's own version first, as protocolVersion reads it.
				ctx = withRPC(ctx, jsonrpcID(ri.ID.Raw()), cmp.Or(p.version, ri.ProtocolVersion))
			}
			if err := g.offer(ctx); err != nil {
				return nil, err
			}
			ans, err := g.call(ctx, sid, p.name, p.args, p.meta)
			if err != nil {
				return nil, err
			}
			return g.encode(ans, p.sessionless)
		}
	}}
}

// callParams are the params of a tools/call the fast path answers.
type callParams struct {
	name string
	args json.RawMessage
	meta map[string]any
	// sessionless: the request is of the sessionless protocol
	// (2026-07-28, SEP-2575), its version one the SDK supports, which
	// version is.
	sessionless bool
	version     string
}

// fastParams reads the params of a tools/call for the fast path; false
// sends the request the SDK's way: params it cannot read (the SDK
// answers with its error), members other than name, arguments and _meta
// (tasks, multi-round-trip input), the new protocol's per-request _meta,
// or a tool not offered.
func (g *Gateway) fastParams(params json.RawMessage) (callParams, bool) {
	var p callParams
	var name, meta []byte
	err := mcpstdio.Members(params, func(key, val []byte) error {
		switch string(key) {
		case "name":
			name = val
		case "arguments":
			p.args = val
		case "_meta":
			meta = val
		default:
			return errors.New("other member")
		}
		return nil
	})
	if err != nil || name == nil || json.Unmarshal(name, &p.name) != nil {
		return p, false
	}
	if string(p.args) == "null" {
		p.args = nil
	}
	if meta != nil && string(meta) != "null" {
		// Only judge's block is decoded; of the protocol's members, what
		// the SDK's validateRequestMeta reads is checked: a version it
		// supports, the client's capabilities (and info, when given) as
		// objects. Anything else gets the SDK's answer.
		var version string
		var caps, info []byte
		err := mcpstdio.Members(meta, func(key, val []byte) error {
			k := string(key)
			switch {
			case k == MetaKey || k == "progressToken" || isTraceMeta(k):
				var j any
				if err := json.Unmarshal(val, &j); err != nil {
					return err
				}
				if p.meta == nil {
					p.meta = map[string]any{}
				}
				p.meta[k] = j
			case k == mcp.MetaKeyProtocolVersion:
				if val[0] == '"' {
					return json.Unmarshal(val, &version)
				}
			case k == mcp.MetaKeyClientCapabilities:
				caps = val
			case k == mcp.MetaKeyClientInfo:
				info = val
			case strings.HasPrefix(k, protocolMetaPrefix) && !knownRequestMeta[k]:
				return errors.New("unknown protocol member")
			}
			return nil
		})
		if err != nil {
			return p, false
		}
		if version >= mcpstdio.SessionlessProtocol {
			if !slices.Contains(mcp.SupportedProtocolVersions(), version) || g.versions != nil && !slices.Contains(g.versions, version) || len(caps) == 0 || caps[0] != '{' || info != nil && info[0] != '{' {
				return p, false
			}
			p.sessionless, p.version = true, version
		}
	}
	_, offered := g.catalog().findings[p.name]
	return p, offered
}

// appendMeta appends the judge block m as JSON. The block of a clean call
// (a status, a reason, the progress without tools to show, the session) is
// written by hand, as encoding/json would but for <, > and &, which are
// written as they are; any other block by encoding/json. By hand it is a
// tenth of the time, which counts on every call.
func appendMeta(b []byte, m *Meta) ([]byte, error) {
	if m.Check != nil || len(m.ExtractedFacts) > 0 || len(m.SuggestedNextTools) > 0 || m.Outcome != nil ||
		m.Goal != nil || len(m.Definition) > 0 || m.Compacted != nil || m.Progress != nil && len(m.Progress.Show) > 0 {
		j, err := json.Marshal(*m) // a copy: m itself stays on its caller's stack
		return append(b, j...), err
	}
	b = append(b, '{')
	start := len(b)
	if m.Status != "" {
		b = jsonvalue.AppendString(appendMember(b, start, "status"), string(m.Status))
	}
	if m.Reason != "" {
		b = jsonvalue.AppendString(appendMember(b, start, "reason"), m.Reason)
	}
	if p := m.Progress; p != nil {
		b = jsonvalue.AppendString(append(appendMember(b, start, "progress"), `{"verdict":`...), p.Verdict)
		if p.Reason != "" {
			b = jsonvalue.AppendString(append(b, `,"reason":`...), p.Reason)
		}
		if p.Limit != "" {
			b = jsonvalue.AppendString(append(b, `,"limit":`...), p.Limit)
		}
		b = strconv.AppendInt(append(b, `,"calls":`...), int64(p.Calls), 10)
		if p.Refused {
			b = append(b, `,"refused":true`...)
		}
		b = append(b, '}')
	}
	if m.Session != "" {
		b = jsonvalue.AppendString(appendMember(b, start, "session"), m.Session)
	}
	return append(b, '}'), nil
}

// appendMember appends an object's member name (a plain key) and its
// colon, after a comma unless it is the first member: the object's
// members start at start.
func appendMember(b []byte, start int, key string) []byte {
	if len(b) > start {
		b = append(b, ',')
	}
	return append(append(append(b, '"'), key...), `":`...)
}

// knownRequestMeta are the io.modelcontextprotocol/ keys of a request's
// _meta the fast path knows; a request with another takes the SDK's path.
var knownRequestMeta = map[string]bool{
	mcp.MetaKeyProtocolVersion: true, mcp.MetaKeyClientInfo: true, mcp.MetaKeyClientCapabilities: true,
	"io.modelcontextprotocol/logLevel": true,
}

// encode is an answer as the JSON of a CallToolResult, as the SDK's path
// would answer it: a result of the gateway's own encoded whole; a tool's
// result with the judge block set in its _meta and an empty content list
// when it had none, its other members as they came. What described the
// upstream's own hop (its resultType and io.modelcontextprotocol/ _meta,
// such as its serverInfo) is dropped; for a request of the sessionless
// protocol, the gateway's resultType and serverInfo are set, as the SDK
// sets them.
func (g *Gateway) encode(a answer, sessionless bool) (json.RawMessage, error) {
	raw := a.raw
	var judge []byte
	var err error
	if a.own != nil {
		raw, err = json.Marshal(a.own)
	} else {
		judge, err = appendMeta(make([]byte, 0, 256), &a.meta)
	}
	if err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	out := make([]byte, 0, len(raw)+len(judge)+64)
	out = append(out, '{')
	var upMeta []byte
	content := false
	err = mcpstdio.Members(raw, func(key, val []byte) error {
		if miscased(key) {
			return nil
		}
		switch string(key) {
		case "_meta":
			upMeta = val
			return nil
		case "resultType":
			return nil
		case "content":
			if string(val) == "null" {
				return nil
			}
			if v := bytes.TrimSpace(val); len(v) == 0 || v[0] != '[' {
				return errNotList
			}
			content = true
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(appendKey(out, key), val...)
		return nil
	})
	if errors.Is(err, errNotList) && a.own == nil {
		// What the SDK's path answers of a result it cannot decode.
		meta := a.meta
		return g.encode(answer{meta: meta, own: textResult(true, "judge could not read the tool's result: its content is not a list", meta)}, sessionless)
	}
	if err != nil {
		return nil, fmt.Errorf("gateway: the tool's result: %w", err)
	}
	if !content {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, `"content":[]`...)
	}
	// The _meta: the upstream's members (the last of a repeated key wins,
	// as in a decoder) but the protocol's, then the judge block and, for the
	// sessionless protocol, the gateway's serverInfo, sorted by key. By
	// hand: encoding/json would check and compact every raw value again,
	// the judge block included.
	var meta []metaMember
	if m := bytes.TrimSpace(upMeta); len(m) > 0 && m[0] == '{' {
		err := mcpstdio.Members(m, func(key, val []byte) error {
			k := string(key)
			if k == MetaKey && judge != nil || strings.HasPrefix(k, protocolMetaPrefix) {
				return nil // replaced below, or the upstream's own hop (its serverInfo)
			}
			meta = slices.DeleteFunc(meta, func(m metaMember) bool { return m.key == k })
			meta = append(meta, metaMember{k, val})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("gateway: the tool's result's _meta: %w", err)
		}
	}
	if judge != nil {
		meta = append(meta, metaMember{MetaKey, judge})
	}
	if sessionless {
		meta = append(meta, metaMember{mcp.MetaKeyServerInfo, g.serverInfo})
		out = append(out, `,"resultType":"complete"`...)
	}
	if len(meta) > 0 {
		slices.SortFunc(meta, func(a, b metaMember) int { return strings.Compare(a.key, b.key) })
		out = append(out, `,"_meta":{`...)
		for i, m := range meta {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(appendKey(out, []byte(m.key)), bytes.TrimSpace(m.val)...)
		}
		out = append(out, '}')
	}
	return append(out, '}'), nil
}

// errNotList is a result whose content is not a list.
var errNotList = errors.New("the content is not a list")

// resultFields are the members of a CallToolResult.
var resultFields = [...]string{"content", "structuredContent", "isError", "_meta", "resultType"}

// miscased reports whether key spells a member of a CallToolResult in
// other letter cases ("Content"): Go's decoder (the go-sdk client's) reads
// it as that member, so an upstream's "Content": "" beside the content
// list would break the answer; it is dropped.
func miscased(key []byte) bool {
	for _, f := range resultFields {
		if len(key) == len(f) && string(key) != f && strings.EqualFold(string(key), f) {
			return true
		}
	}
	return false
}

// metaMember is a member of the _meta encode writes.
type metaMember struct {
	key string
	val []byte
}

// appendKey appends key, quoted as a JSON string, and a colon.
func appendKey(out, key []byte) []byte {
	return append(jsonvalue.AppendString(out, string(key)), ':')
}
