package executor

//lint:file-ignore SA1019 roots, sampling and logging are deprecated by protocol 2026-07-28 (SEP-2577) but live in every earlier version, which a proxy must carry (docs/gateway.md, "What MCP carries").

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What an MCP proxy (judge gateway) needs of the Runner's upstream
// sessions beyond listing and calling tools: each upstream is offered the
// capabilities of the proxy's client (roots, sampling, elicitation), its
// requests of the client (roots/list, sampling/createMessage,
// elicitation/create) and its notifications (progress, log messages) are
// handed to a [Downstream], and its tools are kept as the JSON it sent.

// Downstream is the client an MCP proxy serves: where the upstream
// servers' requests of their client and their notifications go. server is
// the mcp_server tool_id of the upstream that sent them. Its methods are
// called on the upstream sessions' goroutines.
type Downstream interface {
	// ListRoots answers an upstream's roots/list.
	ListRoots(ctx context.Context, server string) (*mcp.ListRootsResult, error)
	// CreateMessage answers an upstream's sampling/createMessage.
	CreateMessage(ctx context.Context, server string, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error)
	// Elicit answers an upstream's elicitation/create.
	Elicit(ctx context.Context, server string, p *mcp.ElicitParams) (*mcp.ElicitResult, error)
	// Log receives an upstream's notifications/message.
	Log(ctx context.Context, server string, p *mcp.LoggingMessageParams)
	// ResourceUpdated receives an upstream's notifications/resources/updated.
	ResourceUpdated(ctx context.Context, server string, p *mcp.ResourceUpdatedNotificationParams)
	// ListChanged receives an upstream's notifications/resources/list_changed
	// or notifications/prompts/list_changed (method says which).
	ListChanged(ctx context.Context, server, method string)
}

// Servers returns the tool_ids of the MCP servers the Runner runs, sorted.
func (r *Runner) Servers() []string { return slices.Clone(r.sorder) }

// ErrNoRaw is returned by [Runner.CallRaw] for a server whose requests
// cannot go around the SDK (an SSE server, or one on the sessionless
// protocol): send it through [Runner.Session].
var ErrNoRaw = errNoRaw

// CallRaw sends one request to the stdio or streamable-HTTP MCP server
// whose tool_id is server around the SDK's decoding and returns its result as the server
// sent it (a JSON object), so that a proxy forwards members the SDK's
// types drop. params is the request's params, a JSON object. An error
// answer of the server is a *jsonrpc.Error.
func (r *Runner) CallRaw(ctx context.Context, server, method string, params json.RawMessage) (json.RawMessage, error) {
	if err := r.live(); err != nil {
		return nil, err
	}
	up, ok := r.servers[server]
	if !ok || !up.rawable() {
		return nil, ErrNoRaw
	}
	sess, err := up.session(ctx)
	if err != nil {
		return nil, fmt.Errorf("executor: %w", err)
	}
	up.mu.Lock()
	tr := up.raw
	up.mu.Unlock()
	if tr == nil {
		return nil, ErrNoRaw
	}
	if ir := sess.InitializeResult(); ir != nil && ir.ProtocolVersion >= "2026-07-28" {
		return nil, ErrNoRaw
	}
	res, err := tr.Call(ctx, method, params)
	if err != nil {
		return nil, err
	}
	if t := bytes.TrimSpace(res); len(t) == 0 || t[0] != '{' {
		return nil, fmt.Errorf("executor: %s of MCP server %s: the result is not a JSON object", method, server)
	}
	return res, nil
}

// Session returns the SDK session of the MCP server whose tool_id is
// server, starting or connecting it when there is none: what a proxy
// sends the requests other than tools/call through (resources, prompts,
// completion).
func (r *Runner) Session(ctx context.Context, server string) (*mcp.ClientSession, error) {
	if err := r.live(); err != nil {
		return nil, err
	}
	up, ok := r.servers[server]
	if !ok {
		return nil, fmt.Errorf("executor: %w: no MCP server %q", ErrUnknownTool, server)
	}
	sess, err := up.session(ctx)
	if err != nil {
		return nil, fmt.Errorf("executor: %w", err)
	}
	return sess, nil
}

// proxyState is the Runner's part of the proxying: what upstreams are
// offered, where their requests go, the level of logging asked, and the
// progress of calls in flight.
type proxyState struct {
	mu    sync.Mutex
	down  Downstream
	caps  *mcp.ClientCapabilities // offered to upstreams; nil: none
	capsJ string                  // caps as JSON, to compare
	level mcp.LoggingLevel        // the client's logging/setLevel; "" none
	// clients are the upstreams' live SDK clients, for roots/list_changed.
	clients map[*upstream]*mcp.Client

	next     atomic.Int64
	progress sync.Map // upstream token (string) -> ProgressFunc
}

var errNoDownstream = errors.New("judge: no client to relay the request to")

// ProgressFunc receives the progress notifications of one call.
type ProgressFunc func(ctx context.Context, p *mcp.ProgressNotificationParams)

type progressKey struct{}

// WithProgress returns a context whose upstream MCP calls ask for
// progress notifications (a progressToken of the Runner's own in the
// request's _meta) and hand each to fn, its token replaced by the
// Runner's: the caller maps it back to its client's token.
func WithProgress(ctx context.Context, fn ProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// progressToken registers the call's ProgressFunc, when ctx has one, and
// returns the token to send upstream and its release; "" when none.
func (p *proxyState) progressToken(ctx context.Context) (string, func()) {
	fn, _ := ctx.Value(progressKey{}).(ProgressFunc)
	if fn == nil {
		return "", func() {}
	}
	tok := "judge-" + strconv.FormatInt(p.next.Add(1), 10)
	p.progress.Store(tok, fn)
	return tok, func() { p.progress.Delete(tok) }
}

// SetDownstream sets where the upstreams' requests and notifications go
// and the capabilities every upstream is offered (caps; nil offers none):
// exactly those of the proxy's client. Upstream sessions connected with
// other capabilities are ended, to be connected again on next use, and
// SetDownstream reports true when there was one: their tool lists may
// differ (a server may offer a sampling tool only to a client that can
// sample).
func (r *Runner) SetDownstream(d Downstream, caps *mcp.ClientCapabilities) bool {
	j := capsKey(caps)
	r.proxy.mu.Lock()
	r.proxy.down = d
	changed := j != r.proxy.capsJ
	r.proxy.caps, r.proxy.capsJ = caps, j
	r.proxy.mu.Unlock()
	if !changed {
		return false
	}
	torn := false
	for _, id := range r.sorder {
		up := r.servers[id]
		up.mu.Lock()
		if up.sess != nil {
			r.cfg.logger.Info("MCP server reconnected with the client's capabilities", "server", id, "capabilities", j)
			up.teardown()
			torn = true
		}
		up.mu.Unlock()
	}
	return torn
}

// RootsChanged tells every live upstream that was offered roots that the
// client's roots changed (notifications/roots/list_changed); their next
// roots/list is answered with the new ones.
func (r *Runner) RootsChanged() {
	r.proxy.mu.Lock()
	var cs []*mcp.Client
	for _, c := range r.proxy.clients {
		cs = append(cs, c)
	}
	roots := r.proxy.caps != nil && r.proxy.caps.RootsV2 != nil && r.proxy.caps.RootsV2.ListChanged
	r.proxy.mu.Unlock()
	r.cfg.logger.Debug("roots changed", "clients", len(cs), "offered", roots)
	if !roots {
		return
	}
	for _, c := range cs {
		// The SDK sends roots/list_changed only when the client's own
		// list changes; that list is never served (roots/list is
		// answered by the Downstream), so adding to it is only the
		// way to notify.
		c.AddRoots(&mcp.Root{URI: "judge:roots-changed"})
	}
}

// SetLogLevel forwards a client's logging/setLevel to every live upstream
// and keeps it for the upstreams connected later.
func (r *Runner) SetLogLevel(ctx context.Context, level mcp.LoggingLevel) error {
	r.proxy.mu.Lock()
	r.proxy.level = level
	r.proxy.mu.Unlock()
	var errs []error
	for _, id := range r.sorder {
		up := r.servers[id]
		up.mu.Lock()
		sess := up.sess
		up.mu.Unlock()
		if sess == nil || !hasLogging(sess) {
			continue
		}
		if err := sess.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: level}); err != nil {
			errs = append(errs, fmt.Errorf("logging/setLevel of MCP server %s: %w", id, err))
		}
	}
	return errors.Join(errs...)
}

// capsKey is what of caps the upstreams are offered, as a comparable
// string: roots (and their listChanged), sampling, elicitation.
func capsKey(caps *mcp.ClientCapabilities) string {
	if caps == nil {
		return ""
	}
	var k struct {
		Roots       *mcp.RootCapabilities        `json:"roots,omitempty"`
		Sampling    *mcp.SamplingCapabilities    `json:"sampling,omitempty"`
		Elicitation *mcp.ElicitationCapabilities `json:"elicitation,omitempty"`
	}
	k.Roots, k.Sampling, k.Elicitation = caps.RootsV2, caps.Sampling, caps.Elicitation
	b, _ := json.Marshal(k)
	if string(b) == "{}" {
		return ""
	}
	return string(b)
}

// ProtocolVersion is the oldest MCP protocol version the live upstream
// sessions negotiated (each server's latest, as the client asks for its
// own latest); "" when none is live. A proxy that offers its client a
// newer version would carry what its upstreams cannot.
func (r *Runner) ProtocolVersion() string {
	v := ""
	for _, id := range r.sorder {
		up := r.servers[id]
		up.mu.Lock()
		sess := up.sess
		up.mu.Unlock()
		if sess == nil {
			continue
		}
		if ir := sess.InitializeResult(); ir != nil && (v == "" || ir.ProtocolVersion < v) {
			v = ir.ProtocolVersion
		}
	}
	return v
}

func hasLogging(sess *mcp.ClientSession) bool {
	ir := sess.InitializeResult()
	return ir != nil && ir.Capabilities != nil && ir.Capabilities.Logging != nil
}

// clientOptions are the SDK client options of an upstream session: the
// client's capabilities and the handlers relaying to the Downstream.
func (u *upstream) clientOptions(onTools func()) (*mcp.ClientOptions, func(*mcp.Client)) {
	p := &u.r.proxy
	p.mu.Lock()
	caps := p.caps
	p.mu.Unlock()
	down := func() Downstream {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.down
	}
	id := u.tool.ID
	opts := &mcp.ClientOptions{
		Capabilities:           &mcp.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { onTools() },
		ProgressNotificationHandler: func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
			tok, _ := req.Params.ProgressToken.(string)
			if fn, ok := p.progress.Load(tok); ok {
				fn.(ProgressFunc)(ctx, req.Params)
			}
		},
	}
	opts.LoggingMessageHandler = func(ctx context.Context, req *mcp.LoggingMessageRequest) {
		if d := down(); d != nil {
			d.Log(ctx, id, req.Params)
		}
	}
	opts.ResourceUpdatedHandler = func(ctx context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		if d := down(); d != nil {
			d.ResourceUpdated(ctx, id, req.Params)
		}
	}
	opts.ResourceListChangedHandler = func(ctx context.Context, _ *mcp.ResourceListChangedRequest) {
		if d := down(); d != nil {
			d.ListChanged(ctx, id, "notifications/resources/list_changed")
		}
	}
	opts.PromptListChangedHandler = func(ctx context.Context, _ *mcp.PromptListChangedRequest) {
		if d := down(); d != nil {
			d.ListChanged(ctx, id, "notifications/prompts/list_changed")
		}
	}
	if caps != nil {
		opts.Capabilities = &mcp.ClientCapabilities{RootsV2: caps.RootsV2, Sampling: caps.Sampling, Elicitation: caps.Elicitation}
		if caps.Sampling != nil {
			opts.CreateMessageHandler = func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
				d := down()
				if d == nil {
					return nil, errNoDownstream
				}
				return d.CreateMessage(ctx, id, req.Params)
			}
		}
		if caps.Elicitation != nil {
			opts.ElicitationHandler = func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				d := down()
				if d == nil {
					return nil, errNoDownstream
				}
				return d.Elicit(ctx, id, req.Params)
			}
		}
	}
	setup := func(c *mcp.Client) {
		if caps == nil || caps.RootsV2 == nil {
			return
		}
		c.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method != "roots/list" {
					return next(ctx, method, req)
				}
				d := down()
				if d == nil {
					return nil, errNoDownstream
				}
				return d.ListRoots(ctx, id)
			}
		})
	}
	return opts, setup
}

// connected records a new session's client and sends it the client's
// logging level, if one was set.
func (u *upstream) connected(ctx context.Context, c *mcp.Client, sess *mcp.ClientSession) {
	p := &u.r.proxy
	p.mu.Lock()
	if p.clients == nil {
		p.clients = map[*upstream]*mcp.Client{}
	}
	p.clients[u] = c
	level := p.level
	p.mu.Unlock()
	if level != "" && hasLogging(sess) {
		if err := sess.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: level}); err != nil {
			u.r.cfg.logger.Warn("logging/setLevel of MCP server", "server", u.tool.ID, "err", err)
		}
	}
}

// listRaw lists a stdio or streamable-HTTP server's tools around the
// SDK's decoding, page by
// page, and returns each tool as the JSON it sent (members the SDK's Tool
// lacks, such as execution, kept) with its decoding. errNoRaw: the
// session cannot take a call around the SDK yet.
func (u *upstream) listRaw(ctx context.Context, sess *mcp.ClientSession) ([]*mcp.Tool, []json.RawMessage, error) {
	u.mu.Lock()
	tr := u.raw
	u.mu.Unlock()
	if tr == nil {
		return nil, nil, errNoRaw
	}
	if ir := sess.InitializeResult(); ir != nil && ir.ProtocolVersion >= "2026-07-28" && !tr.RequestMeta() {
		return nil, nil, errNoRaw
	}
	var (
		defs []*mcp.Tool
		raws []json.RawMessage
		seen = map[string]bool{}
	)
	params := json.RawMessage(`{}`)
	for page := 0; ; page++ {
		res, err := tr.Call(ctx, "tools/list", params)
		if err != nil {
			return nil, nil, err
		}
		tools, next, err := DecodeToolsList(res)
		if err != nil {
			return nil, nil, err
		}
		for _, raw := range tools {
			var d mcp.Tool
			if err := json.Unmarshal(raw, &d); err != nil || d.Name == "" {
				u.r.cfg.logger.Warn("MCP server listed a tool that cannot be read", "server", u.tool.ID, "err", err)
				continue
			}
			defs, raws = append(defs, &d), append(raws, raw)
			if len(defs) > 10000 {
				return nil, nil, fmt.Errorf("more than 10000 tools")
			}
		}
		if next == "" {
			return defs, raws, nil
		}
		if seen[next] || page > 1000 {
			return nil, nil, fmt.Errorf("tools/list: the cursor %q repeats", next)
		}
		seen[next] = true
		b, _ := json.Marshal(map[string]string{"cursor": next})
		params = b
	}
}

// DecodeToolsList reads a tools/list result: each tool of its tools array
// as the JSON it holds (an object), and its nextCursor ("" when none).
// Members it does not know are ignored, as the protocol asks.
func DecodeToolsList(res []byte) (tools []json.RawMessage, next string, err error) {
	return DecodeList(res, "tools")
}

// DecodeList reads one page of a list result (tools/list, prompts/list,
// resources/list, …): each item of its array member key as the JSON it
// holds (an object), and its nextCursor ("" when none).
func DecodeList(res []byte, key string) (items []json.RawMessage, next string, err error) {
	var page map[string]json.RawMessage
	if err := json.Unmarshal(res, &page); err != nil {
		return nil, "", fmt.Errorf("list result: %w", err)
	}
	if raw, ok := page[key]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, "", fmt.Errorf("list result: %s: %w", key, err)
		}
	}
	for i, t := range items {
		if t = bytes.TrimSpace(t); len(t) == 0 || t[0] != '{' {
			return nil, "", fmt.Errorf("list result: %s[%d] is not an object", key, i)
		}
		items[i] = t
	}
	if raw, ok := page["nextCursor"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &next); err != nil {
			return nil, "", fmt.Errorf("list result: nextCursor: %w", err)
		}
	}
	return items, next, nil
}
