package gateway

//lint:file-ignore SA1019 roots, sampling and logging are deprecated by protocol 2026-07-28 (SEP-2577) but live in every earlier version, which a proxy must carry (docs/gateway.md, "What MCP carries").

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/executor"
	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/mcpstdio"
)

// The gateway as an MCP proxy (docs/gateway.md, "What MCP carries"): the
// upstreams' tools listed with every member they sent, each upstream
// offered the capabilities of the gateway's client, the upstreams'
// requests of their client (roots/list, sampling/createMessage,
// elicitation/create) relayed to the client whose call is in flight, and
// their progress and log notifications passed on.

// Proxy is what a Backend fronting MCP servers does beyond listing and
// calling tools; [FromRunner]'s backend is one. The gateway uses it when
// its Backend implements it.
type Proxy interface {
	Upstreams
	// SetDownstream sets where the upstreams' requests and notifications
	// go and the capabilities they are offered; true: upstreams were
	// reconnected, their tools must be listed again.
	SetDownstream(d executor.Downstream, caps *mcp.ClientCapabilities) bool
	// RootsChanged tells the upstreams the client's roots changed.
	RootsChanged()
	// SetLogLevel forwards logging/setLevel to the upstreams.
	SetLogLevel(ctx context.Context, level mcp.LoggingLevel) error
	// ProtocolVersion is the oldest protocol version the live upstreams
	// speak; "" when none is live.
	ProtocolVersion() string
}

// protocolVersions are the MCP versions the gateway offers its clients:
// those the SDK supports up to the oldest its upstreams speak (each
// upstream, asked for the SDK's latest, answers its own latest). A client
// on a newer version than an upstream's could not be relayed what changed
// between them: on 2026-07-28 a server may not send roots/list, sampling
// or elicitation requests of its own (go-sdk v1.8.0 asks for multi
// round-trip results instead), so server-filesystem would never get the
// client's roots. nil: the SDK's own list (no upstream).
func (g *Gateway) protocolVersions(ctx context.Context) []string {
	p, ok := g.backend.(Proxy)
	if !ok {
		return nil
	}
	if _, err := g.backend.Tools(ctx); err != nil {
		return nil // Refresh reports it
	}
	top := p.ProtocolVersion()
	if top == "" {
		return nil
	}
	var out []string
	for _, v := range mcp.SupportedProtocolVersions() {
		if v <= top {
			out = append(out, v)
		}
	}
	return out
}

// serverCapabilities are the gateway's own capabilities before those of
// its upstreams are added (proxyCapabilities): tools.
func serverCapabilities() *mcp.ServerCapabilities {
	return &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}}
}

// peers are the gateway's client sessions and their calls in flight.
type peers struct {
	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*peer
	gen      atomic.Int64 // counts the sessions' arrivals and departures
	offered  atomic.Int64 // the gen whose capabilities the upstreams were offered
	offering sync.Mutex
}

// peer is one client session.
type peer struct {
	sid      string
	caps     *mcp.ClientCapabilities
	last     time.Time
	inFlight map[string][]context.Context // by upstream server: the calls' contexts
	// levelSet: the client sent logging/setLevel; until then its log
	// messages are kept in pendingLogs.
	levelSet    bool
	pendingLogs []*mcp.LoggingMessageParams
}

// proxyInit sets up the proxying on g's server: the list of tools with
// every member, the sessions' registry, logging/setLevel and the roots'
// changes forwarded.
func (g *Gateway) proxyInit() {
	g.peers.sessions = map[*mcp.ServerSession]*peer{}
	g.server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			ss, _ := req.GetSession().(*mcp.ServerSession)
			switch method {
			case "notifications/initialized":
				res, err := next(ctx, method, req)
				if ss != nil {
					g.join(ss)
				}
				return res, err
			case "initialize", "ping", "notifications/cancelled", "notifications/progress":
				return next(ctx, method, req)
			case "notifications/roots/list_changed":
				if p, ok := g.backend.(Proxy); ok {
					p.RootsChanged()
				}
				return next(ctx, method, req)
			}
			if ss != nil {
				g.join(ss)
				if err := g.offer(ctx); err != nil {
					return nil, err
				}
			}
			if method == "tools/call" {
				if res, ok, err := g.callTool(ctx, ss, req); ok {
					return res, err
				}
			}
			if res, ok, err := g.serveUpstreams(ctx, req); ok {
				return res, err
			}
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			switch method {
			case "tools/list":
				if lr, ok := res.(*mcp.ListToolsResult); ok {
					return g.rawTools(lr), nil
				}
			case "logging/setLevel":
				if ss != nil {
					g.levelSet(ss)
				}
				if p, ok := g.backend.(Proxy); ok {
					if sl, ok := req.GetParams().(*mcp.SetLoggingLevelParams); ok && sl != nil {
						if err := p.SetLogLevel(ctx, sl.Level); err != nil {
							g.log.Warn("logging/setLevel of the upstreams", "err", err)
						}
					}
				}
			}
			return res, nil
		}
	})
}

// join registers a client session once it is initialized.
func (g *Gateway) join(ss *mcp.ServerSession) {
	ip := ss.InitializeParams()
	if ip == nil {
		return
	}
	g.peers.mu.Lock()
	defer g.peers.mu.Unlock()
	if pr := g.peers.sessions[ss]; pr != nil {
		pr.last = time.Now()
		return
	}
	g.peers.sessions[ss] = &peer{sid: g.sessionID(ss), caps: ip.Capabilities, inFlight: map[string][]context.Context{}, last: time.Now()}
	g.peers.gen.Add(1)
	go func() {
		_ = ss.Wait()
		g.peers.mu.Lock()
		delete(g.peers.sessions, ss)
		g.peers.mu.Unlock()
		g.peers.gen.Add(1)
	}()
}

// offer offers the upstreams the capabilities every live session has
// (over stdio, the client's exactly); when they change, the upstreams are
// reconnected and their tools listed again before offer returns.
func (g *Gateway) offer(ctx context.Context) error {
	p, ok := g.backend.(Proxy)
	if !ok || g.peers.offered.Load() == g.peers.gen.Load() {
		return nil
	}
	g.peers.offering.Lock()
	defer g.peers.offering.Unlock()
	gen := g.peers.gen.Load()
	if g.peers.offered.Load() == gen {
		return nil
	}
	g.peers.mu.Lock()
	caps := g.commonCaps()
	empty := len(g.peers.sessions) == 0
	g.peers.mu.Unlock()
	if empty {
		return nil // keep what the last client had until the next one comes
	}
	if p.SetDownstream(relay{g}, caps) {
		g.up.mu.Lock()
		g.up.prompts = nil
		g.up.mu.Unlock()
		if err := g.Refresh(ctx); err != nil {
			return err
		}
	} else if g.peers.offered.Load() != 0 {
		// The same capabilities, other clients: the roots they share
		// may differ; the upstreams that were offered roots ask again.
		p.RootsChanged()
	}
	g.peers.offered.Store(gen)
	return nil
}

// commonCaps are the client capabilities the upstreams are offered: roots,
// sampling and elicitation when every live session has them (the first's
// details); g.peers.mu is held.
func (g *Gateway) commonCaps() *mcp.ClientCapabilities {
	out := &mcp.ClientCapabilities{}
	first := true
	for _, pr := range g.peers.sessions {
		c := pr.caps
		if c == nil {
			c = &mcp.ClientCapabilities{}
		}
		if first {
			if c.RootsV2 != nil {
				r := *c.RootsV2
				out.RootsV2 = &r
			}
			out.Sampling, out.Elicitation = c.Sampling, c.Elicitation
			first = false
			continue
		}
		if c.RootsV2 == nil {
			out.RootsV2 = nil
		} else if out.RootsV2 != nil && !c.RootsV2.ListChanged {
			out.RootsV2.ListChanged = false
		}
		if c.Sampling == nil {
			out.Sampling = nil
		}
		if c.Elicitation == nil {
			out.Elicitation = nil
		}
	}
	return out
}

// inFlight records a call of tool name in session sid while it runs, so
// that the upstream's requests during it go to that session, and asks for
// its progress when the request gave a progressToken; done ends it.
func (g *Gateway) inFlight(ctx context.Context, sid, name string, reqMeta map[string]any) (context.Context, func()) {
	server := g.catalog().servers[name]
	if server == "" {
		return ctx, func() {}
	}
	g.peers.mu.Lock()
	var ss *mcp.ServerSession
	var pr *peer
	for s, p := range g.peers.sessions {
		if p.sid == sid {
			ss, pr = s, p
		}
	}
	if pr == nil {
		g.peers.mu.Unlock()
		return ctx, func() {}
	}
	pr.last = time.Now()
	callCtx := ctx
	pr.inFlight[server] = append(pr.inFlight[server], callCtx)
	g.peers.mu.Unlock()
	if tok := reqMeta["progressToken"]; tok != nil {
		ctx = executor.WithProgress(ctx, func(_ context.Context, p *mcp.ProgressNotificationParams) {
			q := *p
			q.ProgressToken, q.Meta = tok, nil
			if err := ss.NotifyProgress(callCtx, &q); err != nil {
				g.log.Debug("progress notification", "err", err)
			}
		})
	}
	return ctx, func() {
		g.peers.mu.Lock()
		l := pr.inFlight[server]
		if i := slices.Index(l, callCtx); i >= 0 {
			pr.inFlight[server] = slices.Delete(l, i, i+1)
		}
		g.peers.mu.Unlock()
	}
}

// target is the session an upstream's request goes to, and the context to
// send it with: the session with a call to that server in flight (the
// latest), else the session last active; nil when there is none.
func (g *Gateway) target(server string) (*mcp.ServerSession, context.Context) {
	g.peers.mu.Lock()
	defer g.peers.mu.Unlock()
	var (
		best    *mcp.ServerSession
		bestCtx context.Context
		last    time.Time
	)
	for ss, pr := range g.peers.sessions {
		if l := pr.inFlight[server]; len(l) > 0 {
			return ss, l[len(l)-1]
		}
		if best == nil || pr.last.After(last) {
			best, last = ss, pr.last
		}
	}
	if best != nil {
		// No call in flight to tie the request to: it is the upstream's
		// own, and lives until the upstream's request ends.
		bestCtx = context.Background()
	}
	return best, bestCtx
}

// relay is the gateway as the upstreams' client.
type relay struct{ g *Gateway }

var errNoClient = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "judge gateway: no client session to relay the request to"}

// ListRoots answers an upstream's roots/list with the roots of the client
// session whose call is in flight on it; outside a call, with the roots
// every live session shares (over stdio, the client's).
func (r relay) ListRoots(ctx context.Context, server string) (*mcp.ListRootsResult, error) {
	g := r.g
	g.log.Debug("roots/list of an upstream", "server", server)
	// Not on the call's stream (streamable HTTP): the roots are not the
	// call's, and a server asks for them when it likes (server-filesystem
	// after roots/list_changed), maybe as the call ends and its stream
	// with it. Nor on the stream of the upstream's request id, which the
	// SDK leaves in ctx under the key it routes by. Bounded: a client
	// that never answers does not hold the upstream's request for ever.
	ctx, cancel := context.WithTimeout(mergeCancel(context.Background(), ctx), rootsTimeout)
	defer cancel()
	g.peers.mu.Lock()
	var inCall *mcp.ServerSession
	var all []*mcp.ServerSession
	for ss, pr := range g.peers.sessions {
		if l := pr.inFlight[server]; len(l) > 0 && inCall == nil {
			inCall = ss
		}
		all = append(all, ss)
	}
	g.peers.mu.Unlock()
	if inCall != nil {
		res, err := inCall.ListRoots(ctx, &mcp.ListRootsParams{})
		g.log.Debug("roots/list of the client in a call", "server", server, "err", err)
		return res, err
	}
	if len(all) == 0 {
		return &mcp.ListRootsResult{Roots: []*mcp.Root{}}, nil
	}
	var out []*mcp.Root
	for i, ss := range all {
		res, err := ss.ListRoots(ctx, &mcp.ListRootsParams{})
		g.log.Debug("roots/list of a client", "server", server, "err", err)
		if err != nil {
			return nil, fmt.Errorf("roots/list of a client session: %w", err)
		}
		if i == 0 {
			out = res.Roots
			continue
		}
		out = slices.DeleteFunc(out, func(a *mcp.Root) bool {
			return !slices.ContainsFunc(res.Roots, func(b *mcp.Root) bool { return b.URI == a.URI })
		})
	}
	if out == nil {
		out = []*mcp.Root{}
	}
	return &mcp.ListRootsResult{Roots: out}, nil
}

// rootsTimeout bounds a roots/list asked of a client.
const rootsTimeout = 30 * time.Second

// CreateMessage relays an upstream's sampling request to the client.
func (r relay) CreateMessage(ctx context.Context, server string, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	ss, callCtx := r.g.target(server)
	if ss == nil {
		return nil, errNoClient
	}
	return ss.CreateMessage(mergeCancel(callCtx, ctx), p)
}

// Elicit relays an upstream's elicitation request to the client.
func (r relay) Elicit(ctx context.Context, server string, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	ss, callCtx := r.g.target(server)
	if ss == nil {
		return nil, errNoClient
	}
	return ss.Elicit(mergeCancel(callCtx, ctx), p)
}

// Log passes an upstream's log message on to every client session (each
// gets what its logging/setLevel asks for).
//
// The go-sdk server sends a session no log message before its client
// sets a level, where a server of the TypeScript SDK sends them all: a
// session's messages are kept until it sets one (the last maxPendingLogs)
// and sent then, at the level it set.
func (r relay) Log(ctx context.Context, server string, p *mcp.LoggingMessageParams) {
	g := r.g
	g.peers.mu.Lock()
	ss := make([]*mcp.ServerSession, 0, len(g.peers.sessions))
	for s, pr := range g.peers.sessions {
		if !pr.levelSet {
			if pr.pendingLogs = append(pr.pendingLogs, p); len(pr.pendingLogs) > maxPendingLogs {
				pr.pendingLogs = pr.pendingLogs[1:]
			}
			continue
		}
		ss = append(ss, s)
	}
	g.peers.mu.Unlock()
	ctx = mergeCancel(context.Background(), ctx) // not the upstream's request id (see ListRoots)
	for _, s := range ss {
		g.sendLog(ctx, s, p)
	}
}

// maxPendingLogs bounds the log messages kept for a session that has not
// set a level.
const maxPendingLogs = 100

func (g *Gateway) sendLog(ctx context.Context, ss *mcp.ServerSession, p *mcp.LoggingMessageParams) {
	if err := ss.Log(ctx, p); err != nil && !errors.Is(err, mcp.ErrConnectionClosed) {
		g.log.Debug("log notification", "err", err)
	}
}

// levelSet records that a session set its logging level and sends it the
// messages kept until then.
func (g *Gateway) levelSet(ss *mcp.ServerSession) {
	g.peers.mu.Lock()
	pr := g.peers.sessions[ss]
	var pending []*mcp.LoggingMessageParams
	if pr != nil {
		pr.levelSet, pending, pr.pendingLogs = true, pr.pendingLogs, nil
	}
	g.peers.mu.Unlock()
	for _, p := range pending {
		// Detached on purpose: the messages were kept for the session,
		// not for the setLevel request, which may end before they are sent.
		g.sendLog(context.Background(), ss, p)
	}
}

// ResourceUpdated passes an upstream's notifications/resources/updated on
// to the client sessions subscribed to the resource.
func (r relay) ResourceUpdated(ctx context.Context, server string, p *mcp.ResourceUpdatedNotificationParams) {
	if err := r.g.server.ResourceUpdated(ctx, p); err != nil {
		r.g.log.Debug("resource updated notification", "server", server, "err", err)
	}
}

// ListChanged tells the clients an upstream's resources or prompts
// changed.
func (r relay) ListChanged(_ context.Context, _, method string) { r.g.listChanged(method) }

// mergeCancel is base's values (the call's context: on streamable HTTP it
// names the request whose stream carries the relayed request) with ctx's
// end (the upstream's request). Not base's end: the relayed request may
// outlive the call that was in flight when it came (server-filesystem
// asks for the roots whenever they change).
func mergeCancel(base, ctx context.Context) context.Context {
	m, cancel := context.WithCancel(context.WithoutCancel(base))
	context.AfterFunc(ctx, cancel)
	return m
}

// taskRequired says why a tool whose definition requires task
// augmentation (execution.taskSupport "required") cannot be offered; ""
// when it can. The SDK the gateway is built on (go-sdk v1.8.0) neither
// serves nor sends task-augmented calls.
func taskRequired(raw json.RawMessage) string {
	if !bytes.Contains(raw, []byte(`"execution"`)) {
		return ""
	}
	var d struct {
		Execution struct {
			TaskSupport string `json:"taskSupport"`
		} `json:"execution"`
	}
	if json.Unmarshal(raw, &d) != nil || d.Execution.TaskSupport != "required" {
		return ""
	}
	return `execution.taskSupport is "required": the tool runs only as a task, and judge gateway cannot forward task-augmented calls (go-sdk v1.8.0 has no tasks)`
}

// serveUpstreams answers the requests the upstreams answer (resources,
// prompts); false: the SDK's server answers it.
func (g *Gateway) serveUpstreams(ctx context.Context, req mcp.Request) (mcp.Result, bool, error) {
	if _, ok := g.backend.(Upstreams); !ok {
		return nil, false, nil
	}
	var res mcp.Result
	var err error
	switch params := req.GetParams().(type) {
	case *mcp.ListResourcesParams:
		res, err = g.listResources(ctx, params)
	case *mcp.ListResourceTemplatesParams:
		res, err = g.listTemplates(ctx, params)
	case *mcp.ReadResourceParams:
		res, err = g.readResource(ctx, params)
		return res, true, err // as the upstream sent it (sendRaw)
	case *mcp.ListPromptsParams:
		if res, err = g.listPrompts(ctx, params); err == nil {
			return res, true, nil // as the upstreams sent them
		}
	case *mcp.GetPromptParams:
		res, err = g.getPrompt(ctx, params)
		return res, true, err // as the upstream sent it (sendRaw)
	case *mcp.CompleteParams:
		if res, err = g.completeUpstream(ctx, params); err == nil {
			return res, true, nil // as the upstream sent it (or the SDK's CompleteResult)
		}
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	return uncached{res}, true, nil
}

// uncached is an upstream's result as the gateway answers it: without the
// ttlMs and cacheScope members the SDK's types write when the upstream
// sent none (zero values).
type uncached struct{ mcp.Result }

// MarshalJSON writes the result without a zero ttlMs or an empty
// cacheScope.
func (u uncached) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(u.Result)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(b))
	out = append(out, '{')
	err = mcpstdio.Members(b, func(key, val []byte) error {
		switch k := string(key); {
		case k == "ttlMs" && string(val) == "0", k == "cacheScope" && string(val) == `""`:
			return nil
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(jsonvalue.AppendString(out, string(key)), ':'), val...)
		return nil
	})
	return append(out, '}'), err
}

// rawToolsResult is a tools/list result with each tool as the upstream
// sent it.
type rawToolsResult struct {
	*mcp.ListToolsResult
	tools []json.RawMessage
}

// MarshalJSON writes the SDK's result with its tools replaced.
func (r *rawToolsResult) MarshalJSON() ([]byte, error) {
	cp := *r.ListToolsResult
	cp.Tools = nil
	b, err := json.Marshal(&cp)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(b)+64*len(r.tools))
	out = append(out, `{"tools":[`...)
	for i, t := range r.tools {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, t...)
	}
	out = append(out, ']')
	err = mcpstdio.Members(b, func(key, val []byte) error {
		if string(key) == "tools" {
			return nil
		}
		out = append(append(append(out, ','), jsonvalue.AppendString(nil, string(key))...), ':')
		out = append(out, val...)
		return nil
	})
	return append(out, '}'), err
}

// rawTools replaces the tools of the SDK's tools/list page by the
// catalog's JSON, in the backend's order (the upstreams' own).
func (g *Gateway) rawTools(lr *mcp.ListToolsResult) mcp.Result {
	all := g.catalog().listed
	if lr.NextCursor != "" || len(lr.Tools) != len(all) {
		return lr // a page of several: the SDK's (a tool list over PageSize)
	}
	return &rawToolsResult{ListToolsResult: lr, tools: all}
}

// listedTool is the JSON tools/list offers for t, mt being the SDK's Tool
// the gateway serves: the upstream's definition as it sent it (title,
// annotations, icons, execution, _meta, outputSchema, unknown members),
// its name, description and inputSchema those the gateway offers.
func listedTool(t Tool, mt *mcp.Tool) (json.RawMessage, error) {
	own, err := json.Marshal(mt)
	if err != nil {
		return nil, err
	}
	if len(t.Raw) == 0 {
		return own, nil
	}
	repl := map[string][]byte{}
	if err := mcpstdio.Members(own, func(key, val []byte) error {
		switch k := string(key); k {
		case "name", "description", "inputSchema":
			repl[k] = val
		}
		return nil
	}); err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(t.Raw)+64)
	out = append(out, '{')
	seen := map[string]bool{}
	err = mcpstdio.Members(t.Raw, func(key, val []byte) error {
		k := string(key)
		if seen[k] {
			return nil
		}
		seen[k] = true
		if v, ok := repl[k]; ok {
			val = v
		} else if k == "description" || k == "inputSchema" {
			return nil // the gateway offers none: the SDK's Tool has none
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(jsonvalue.AppendString(out, k), ':'), bytes.TrimSpace(val)...)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("the upstream's definition of %s: %w", t.Name, err)
	}
	for _, k := range []string{"name", "description", "inputSchema"} {
		if v, ok := repl[k]; ok && !seen[k] {
			out = append(append(append(append(out, ','), jsonvalue.AppendString(nil, k)...), ':'), v...)
		}
	}
	out = append(out, '}')
	if !json.Valid(out) {
		return nil, fmt.Errorf("the upstream's definition of %s is not valid JSON", t.Name)
	}
	return out, nil
}
