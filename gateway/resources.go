package gateway

//lint:file-ignore SA1019 logging is deprecated by protocol 2026-07-28 (SEP-2577) but lives in every earlier version, which a proxy must carry.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/executor"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/toolpin"
	"github.com/agentjudge/judge/toolscan"
)

// Resources, resource templates, prompts and completion of the
// upstreams, served as the gateway's own: lists merged page by page (a
// cursor of the gateway's names the upstream and its own cursor), reads,
// subscriptions, prompts/get and completion/complete sent to the upstream
// that listed the resource, template or prompt. Resource URIs are kept
// as they are; a prompt's name is prefixed "<server>__" only when two
// upstreams have a prompt of that name, as for tools. Each description is
// scanned for poisoning as tools' are: the findings go in the item's
// _meta.judge.definition, and with RefusePoisoned an item with an
// error-severity finding is left out.

// Upstreams is the part of a Proxy that reaches the upstream sessions.
type Upstreams interface {
	// Servers returns the upstream servers' ids, in order.
	Servers() []string
	// Session returns the live session of one, connecting it if needed.
	Session(ctx context.Context, server string) (*mcp.ClientSession, error)
}

// upstreamCatalog is what the gateway knows of its upstreams' resources
// and prompts.
type upstreamCatalog struct {
	mu        sync.Mutex
	resOwner  map[string]string // resource URI -> server that listed it
	tmplOwner map[string]string // URI template -> server
	prompts   []promptEntry     // nil: list them again
}

type promptEntry struct {
	server, name string // name: what the client sees
	prompt       *mcp.Prompt
	raw          json.RawMessage // the prompt as the upstream sent it (stdio), else nil
}

// maxOwners bounds the URIs the catalog remembers.
const maxOwners = 100000

// proxyCapabilities are the capabilities of the live upstreams that the
// gateway serves as its own: resources (and subscribe), prompts,
// completions, logging (also when an upstream failed to start: decision
// 53); and their instructions (one upstream's as they are, several each
// under a heading naming its server).
func (g *Gateway) proxyCapabilities(ctx context.Context, caps *mcp.ServerCapabilities) (subscribe bool, instructions string) {
	up, ok := g.backend.(Upstreams)
	if !ok {
		return false, ""
	}
	var ins []string
	for _, s := range up.Servers() {
		sess, err := up.Session(ctx, s)
		if err != nil {
			continue
		}
		ir := sess.InitializeResult()
		if ir == nil || ir.Capabilities == nil {
			continue
		}
		if ir.Instructions != "" {
			ins = append(ins, "# "+s+"\n\n"+ir.Instructions)
		}
		c := ir.Capabilities
		if c.Resources != nil {
			if caps.Resources == nil {
				caps.Resources = &mcp.ResourceCapabilities{ListChanged: true}
			}
			subscribe = subscribe || c.Resources.Subscribe
		}
		if c.Prompts != nil && caps.Prompts == nil {
			caps.Prompts = &mcp.PromptCapabilities{ListChanged: true}
		}
		if c.Completions != nil && caps.Completions == nil {
			caps.Completions = &mcp.CompletionCapabilities{}
		}
		if c.Logging != nil && caps.Logging == nil {
			caps.Logging = &mcp.LoggingCapabilities{}
		}
	}
	if subscribe {
		caps.Resources.Subscribe = true
	}
	if fr, ok := g.backend.(FailureReporter); ok && caps.Logging == nil && len(fr.Failed()) > 0 {
		// An upstream that failed to start may have logging, which is
		// not known; and judge tells clients of the failure in log
		// messages, which a client asks for only of a server with
		// logging (decision 57).
		caps.Logging = &mcp.LoggingCapabilities{}
	}
	if len(ins) == 1 {
		_, one, _ := strings.Cut(ins[0], "\n\n")
		return subscribe, one
	}
	return subscribe, strings.Join(ins, "\n\n")
}

// cursor is the gateway's list cursor: the index of the upstream and the
// upstream's own cursor.
type cursor struct {
	S int    `json:"s"`
	C string `json:"c,omitempty"`
}

func encodeCursor(c cursor) string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a cursor the gateway gave ("" is the first page);
// servers is how many upstreams there are.
func decodeCursor(s string, servers int) (cursor, error) {
	if s == "" {
		return cursor{}, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) > 4096 {
		return cursor{}, invalidCursor(s)
	}
	var c cursor
	if err := json.Unmarshal(b, &c); err != nil || c.S < 0 || c.S >= servers {
		return cursor{}, invalidCursor(s)
	}
	return c, nil
}

func invalidCursor(s string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("invalid cursor %q: not one judge gateway gave", result.Clip(s, 41))}
}

// mergedPage is one page of a list merged over the upstreams that have
// the capability: the page of the upstream the cursor names, and the
// cursor of what follows (the same upstream's next page, else the next
// upstream's first).
func mergedPage[T any](ctx context.Context, g *Gateway, cur string, has func(*mcp.ServerCapabilities) bool,
	fetch func(context.Context, *mcp.ClientSession, string) ([]T, string, error), own func(server string, items []T)) ([]T, string, error) {
	up := g.backend.(Upstreams)
	servers := up.Servers()
	c, err := decodeCursor(cur, len(servers))
	if err != nil {
		return nil, "", err
	}
	for i := c.S; i < len(servers); i, c.C = i+1, "" {
		sess, err := up.Session(ctx, servers[i])
		if err != nil {
			g.log.Warn("MCP server left out of a list", "server", servers[i], "err", err)
			continue
		}
		if ir := sess.InitializeResult(); ir == nil || ir.Capabilities == nil || !has(ir.Capabilities) {
			continue
		}
		items, next, err := fetch(ctx, sess, c.C)
		if err != nil {
			return nil, "", err
		}
		own(servers[i], items)
		switch {
		case next != "":
			return items, encodeCursor(cursor{S: i, C: next}), nil
		case len(items) > 0 && i+1 < len(servers):
			return items, encodeCursor(cursor{S: i + 1}), nil
		case len(items) > 0:
			return items, "", nil
		}
	}
	return []T{}, "", nil
}

// scanned returns the poisoning findings of an item (a resource, a
// template, a prompt) and whether it is left out.
func (g *Gateway) scanned(kind, name string, item any) ([]result.Issue, bool) {
	b, err := json.Marshal(item)
	if err != nil {
		return nil, false
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil, false
	}
	delete(m, "_meta")
	issues := toolscan.ScanTool(toolscan.DefinitionOf(m), nil, "")
	if len(issues) == 0 {
		return nil, false
	}
	if g.opts.RefusePoisoned && hasError(issues) {
		g.log.Warn(kind+" left out", kind, name, "reason", "poisoning: "+firstError(issues))
		return issues, true
	}
	return issues, false
}

// withFindings puts the findings in meta's judge block.
func withFindings(meta mcp.Meta, issues []result.Issue) mcp.Meta {
	if len(issues) == 0 {
		return meta
	}
	out := mcp.Meta{}
	for k, v := range meta {
		out[k] = v
	}
	out[MetaKey] = Meta{Definition: issues}
	return out
}

func (g *Gateway) listResources(ctx context.Context, p *mcp.ListResourcesParams) (*mcp.ListResourcesResult, error) {
	var cur string
	if p != nil {
		cur = p.Cursor
	}
	var pinned map[string][]result.Issue
	items, next, err := mergedPage(ctx, g, cur, func(c *mcp.ServerCapabilities) bool { return c.Resources != nil },
		func(ctx context.Context, s *mcp.ClientSession, c string) ([]*mcp.Resource, string, error) {
			r, err := s.ListResources(ctx, &mcp.ListResourcesParams{Cursor: c})
			if err != nil {
				return nil, "", err
			}
			return r.Resources, r.NextCursor, nil
		},
		func(server string, items []*mcp.Resource) {
			noteOwners(g, g.up.resOwner, server, items, func(r *mcp.Resource) string { return r.URI })
			pinned = pinItems(ctx, g, server, toolpin.KindResource, items, false, func(r *mcp.Resource) (string, string, any) {
				return r.URI, r.Description, map[string]any{"name": r.Name, "title": r.Title, "mimeType": r.MIMEType}
			})
		})
	if err != nil {
		return nil, err
	}
	out := scanList(g, "resource", items, pinned, func(r *mcp.Resource) string { return r.URI }, func(r *mcp.Resource) *mcp.Meta { return &r.Meta })
	return &mcp.ListResourcesResult{Resources: out, NextCursor: next}, nil
}

func (g *Gateway) listTemplates(ctx context.Context, p *mcp.ListResourceTemplatesParams) (*mcp.ListResourceTemplatesResult, error) {
	var cur string
	if p != nil {
		cur = p.Cursor
	}
	var pinned map[string][]result.Issue
	items, next, err := mergedPage(ctx, g, cur, func(c *mcp.ServerCapabilities) bool { return c.Resources != nil },
		func(ctx context.Context, s *mcp.ClientSession, c string) ([]*mcp.ResourceTemplate, string, error) {
			r, err := s.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: c})
			if err != nil {
				return nil, "", err
			}
			return r.ResourceTemplates, r.NextCursor, nil
		},
		func(server string, items []*mcp.ResourceTemplate) {
			noteOwners(g, g.up.tmplOwner, server, items, func(r *mcp.ResourceTemplate) string { return r.URITemplate })
			pinned = pinItems(ctx, g, server, toolpin.KindResourceTemplate, items, false, func(r *mcp.ResourceTemplate) (string, string, any) {
				return r.URITemplate, r.Description, map[string]any{"name": r.Name, "title": r.Title, "mimeType": r.MIMEType}
			})
		})
	if err != nil {
		return nil, err
	}
	out := scanList(g, "resource template", items, pinned, func(r *mcp.ResourceTemplate) string { return r.URITemplate }, func(r *mcp.ResourceTemplate) *mcp.Meta { return &r.Meta })
	return &mcp.ListResourceTemplatesResult{ResourceTemplates: out, NextCursor: next}, nil
}

// noteOwners records, under the upstreams' lock, which server listed each
// of items (by key) first, up to maxOwners entries.
func noteOwners[T any](g *Gateway, owners map[string]string, server string, items []*T, key func(*T) string) {
	g.up.mu.Lock()
	defer g.up.mu.Unlock()
	for _, r := range items {
		if _, ok := owners[key(r)]; !ok && len(owners) < maxOwners {
			owners[key(r)] = server
		}
	}
}

// scanList runs the poisoning scan over listed items of one kind and adds
// the pins' findings (pinned, by key): an item the scan refuses, or whose
// pin reports it with RefuseChanged, is left out; one with findings is
// copied with them in its _meta (meta points at the copy's _meta).
func scanList[T any](g *Gateway, kind string, items []*T, pinned map[string][]result.Issue, key func(*T) string, meta func(*T) *mcp.Meta) []*T {
	out := make([]*T, 0, len(items))
	for _, r := range items {
		issues, drop := g.scanned(kind, key(r), r)
		if drop || g.refusePinned(kind, key(r), pinned[key(r)]) {
			continue
		}
		issues = append(issues, pinned[key(r)]...)
		if len(issues) > 0 {
			c := *r
			m := meta(&c)
			*m = withFindings(*m, issues)
			r = &c
		}
		out = append(out, r)
	}
	return out
}

// upstreamSession is an upstream server and the session to it.
type upstreamSession struct {
	server string
	sess   *mcp.ClientSession
}

// pinItems pins one server's listed items of a kind (a page of resources
// or templates, or every prompt: complete) and returns the findings by
// the items' keys; def gives an item's key, description and the rest a
// model is shown of it. nil without pins.
func pinItems[T any](ctx context.Context, g *Gateway, server, kind string, items []*T, complete bool, def func(*T) (string, string, any)) map[string][]result.Issue {
	if g.opts.Pins == nil || len(items) == 0 && !complete {
		return nil
	}
	defs := make([]toolpin.Tool, 0, len(items))
	for _, it := range items {
		k, desc, rest := def(it)
		b, _ := json.Marshal(rest)
		defs = append(defs, toolpin.Tool{Name: k, Description: desc, InputSchema: b})
	}
	fs, err := g.opts.Pins.ObserveKind(ctx, server, kind, defs, complete)
	if err != nil {
		g.log.Warn("pinning "+kind+"s", "server", server, "err", err)
	}
	if len(fs) == 0 {
		return nil
	}
	out := map[string][]result.Issue{}
	for _, f := range fs {
		g.log.Warn("pinned "+kind+" definition", kind, f.Tool, "server", server, "rule", f.Rule, "message", f.Issue.Message)
		out[f.Tool] = append(out[f.Tool], f.Issue)
	}
	return out
}

// refusePinned reports whether an item whose pin reports it (issues) is
// left out: with RefuseChanged, as a tool is.
func (g *Gateway) refusePinned(kind, key string, issues []result.Issue) bool {
	if !g.opts.RefuseChanged || len(issues) == 0 {
		return false
	}
	g.log.Warn(kind+" left out", kind, key, "reason", "pinned definition: "+issues[0].Message)
	return true
}

// resourceServers are the upstreams to send a request about uri to, in
// order: the one that listed it, else every upstream with resources (a
// URI of a template or of a link a tool returned).
func (g *Gateway) resourceServers(ctx context.Context, uri string) []upstreamSession {
	up := g.backend.(Upstreams)
	g.up.mu.Lock()
	owner := g.up.resOwner[uri]
	g.up.mu.Unlock()
	var out []upstreamSession
	for _, s := range up.Servers() {
		if owner != "" && s != owner {
			continue
		}
		sess, err := up.Session(ctx, s)
		if err != nil {
			continue
		}
		if ir := sess.InitializeResult(); ir != nil && ir.Capabilities != nil && ir.Capabilities.Resources != nil {
			out = append(out, upstreamSession{s, sess})
		}
	}
	return out
}

var errNoResources = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Resource not found"}

// readResource sends resources/read to the upstreams that may have the
// resource, in order, and answers with the first that reads it, as it
// sent its result where the backend can send around the SDK.
func (g *Gateway) readResource(ctx context.Context, p *mcp.ReadResourceParams) (mcp.Result, error) {
	if p == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "missing params"}
	}
	var first error
	for _, u := range g.resourceServers(ctx, p.URI) {
		res, err := g.sendRaw(ctx, u.server, "resources/read", p, func() (mcp.Result, error) { return u.sess.ReadResource(ctx, p) })
		if err == nil {
			return res, nil
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = errNoResources
	}
	return nil, upstreamError(first)
}

// upstreamError is an upstream's error as the gateway answers it: the
// upstream's JSON-RPC error (its code and message) when it sent one.
func upstreamError(err error) error {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je
	}
	return err
}

func (g *Gateway) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	return g.subscription(ctx, req.Params.URI, func(s *mcp.ClientSession) error { return s.Subscribe(ctx, req.Params) })
}

func (g *Gateway) unsubscribe(ctx context.Context, req *mcp.UnsubscribeRequest) error {
	return g.subscription(ctx, req.Params.URI, func(s *mcp.ClientSession) error { return s.Unsubscribe(ctx, req.Params) })
}

func (g *Gateway) subscription(ctx context.Context, uri string, do func(*mcp.ClientSession) error) error {
	var first error
	for _, u := range g.resourceServers(ctx, uri) {
		if c := u.sess.InitializeResult().Capabilities.Resources; !c.Subscribe {
			continue
		}
		err := do(u.sess)
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = errNoResources
	}
	return upstreamError(first)
}

// promptCatalog lists every upstream's prompts (all pages) when the
// catalog has none, names them (prefixed on a clash) and scans them.
func (g *Gateway) promptCatalog(ctx context.Context) ([]promptEntry, error) {
	g.up.mu.Lock()
	if g.up.prompts != nil {
		defer g.up.mu.Unlock()
		return g.up.prompts, nil
	}
	g.up.mu.Unlock()
	up := g.backend.(Upstreams)
	var all []promptEntry
	count := map[string]int{}
	pinned := map[string][]result.Issue{} // server + "\x00" + the upstream's name
	for _, s := range up.Servers() {
		sess, err := up.Session(ctx, s)
		if err != nil {
			continue
		}
		if ir := sess.InitializeResult(); ir == nil || ir.Capabilities == nil || ir.Capabilities.Prompts == nil {
			continue
		}
		listed, err := g.rawPrompts(ctx, s)
		if errors.Is(err, executor.ErrNoRaw) {
			listed, err = nil, nil
			for p, e := range sess.Prompts(ctx, nil) {
				if e != nil {
					err = e
					break
				}
				listed = append(listed, promptEntry{server: s, name: p.Name, prompt: p})
			}
		}
		if err != nil {
			return nil, fmt.Errorf("prompts/list of MCP server %s: %w", s, err)
		}
		ps := make([]*mcp.Prompt, len(listed))
		for i, e := range listed {
			ps[i] = e.prompt
		}
		for name, issues := range pinItems(ctx, g, s, toolpin.KindPrompt, ps, true, func(p *mcp.Prompt) (string, string, any) {
			return p.Name, p.Description, map[string]any{"title": p.Title, "arguments": p.Arguments}
		}) {
			pinned[s+"\x00"+name] = issues
		}
		for _, e := range listed {
			all = append(all, e)
			count[e.name]++
			if len(all) > 10000 {
				return nil, fmt.Errorf("prompts/list: more than 10000 prompts")
			}
		}
	}
	out := all[:0]
	for _, e := range all {
		if count[e.name] > 1 {
			e.name = e.server + "__" + e.name
		}
		issues, drop := g.scanned("prompt", e.name, e.prompt)
		pf := pinned[e.server+"\x00"+e.prompt.Name]
		if drop || g.refusePinned("prompt", e.name, pf) {
			continue
		}
		issues = append(issues, pf...)
		if len(issues) > 0 || e.name != e.prompt.Name {
			c := *e.prompt
			c.Name, c.Meta = e.name, withFindings(e.prompt.Meta, issues)
			e.prompt, e.raw = &c, nil // the SDK's encoding of what judge changed
		}
		out = append(out, e)
	}
	if out == nil {
		out = []promptEntry{}
	}
	g.up.mu.Lock()
	g.up.prompts = out
	g.up.mu.Unlock()
	return out, nil
}

// listPrompts answers prompts/list from the catalog, in one page: each
// prompt as its upstream sent it, unless judge renamed it or has findings
// on it.
func (g *Gateway) listPrompts(ctx context.Context, p *mcp.ListPromptsParams) (mcp.Result, error) {
	if p != nil && p.Cursor != "" {
		return nil, invalidCursor(p.Cursor)
	}
	cat, err := g.promptCatalog(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]*mcp.Prompt, len(cat))
	raws := make([]json.RawMessage, len(cat))
	for i, e := range cat {
		out[i], raws[i] = e.prompt, e.raw
		if raws[i] == nil {
			if raws[i], err = json.Marshal(e.prompt); err != nil {
				return nil, err
			}
		}
	}
	b, err := json.Marshal(map[string]any{"prompts": raws})
	if err != nil {
		return nil, err
	}
	return rawResult{Result: &mcp.ListPromptsResult{Prompts: out}, raw: b}, nil
}

// rawPrompts lists a stdio upstream's prompts around the SDK's decoding,
// every page; executor.ErrNoRaw when it cannot.
func (g *Gateway) rawPrompts(ctx context.Context, server string) ([]promptEntry, error) {
	rc, ok := g.backend.(rawCaller)
	if !ok {
		return nil, executor.ErrNoRaw
	}
	var out []promptEntry
	params := json.RawMessage(`{}`)
	for page := 0; page < 1000; page++ {
		res, err := rc.CallRaw(ctx, server, "prompts/list", params)
		if err != nil {
			return nil, err
		}
		items, next, err := executor.DecodeList(res, "prompts")
		if err != nil {
			return nil, err
		}
		for _, raw := range items {
			var p mcp.Prompt
			if err := json.Unmarshal(raw, &p); err != nil || p.Name == "" {
				continue
			}
			out = append(out, promptEntry{server: server, name: p.Name, prompt: &p, raw: raw})
		}
		if next == "" {
			return out, nil
		}
		params, _ = json.Marshal(map[string]string{"cursor": next})
	}
	return nil, fmt.Errorf("prompts/list: more than 1000 pages")
}

// prompt finds a prompt by the name the client sees: its upstream, the
// session to it and the upstream's name of the prompt.
func (g *Gateway) prompt(ctx context.Context, name string) (string, *mcp.ClientSession, string, error) {
	cat, err := g.promptCatalog(ctx)
	if err != nil {
		return "", nil, "", err
	}
	for _, e := range cat {
		if e.name == name {
			sess, err := g.backend.(Upstreams).Session(ctx, e.server)
			if err != nil {
				return "", nil, "", err
			}
			orig := name
			if len(name) > len(e.server)+2 && name[:len(e.server)+2] == e.server+"__" {
				orig = name[len(e.server)+2:]
			}
			return e.server, sess, orig, nil
		}
	}
	// A name no upstream listed: the first with prompts answers it (its
	// own error, as a client would get directly).
	up := g.backend.(Upstreams)
	for _, s := range up.Servers() {
		if sess, err := up.Session(ctx, s); err == nil {
			if ir := sess.InitializeResult(); ir != nil && ir.Capabilities != nil && ir.Capabilities.Prompts != nil {
				return s, sess, name, nil
			}
		}
	}
	return "", nil, "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown prompt %q", name)}
}

// getPrompt sends prompts/get to the prompt's upstream under its own
// name of the prompt, and answers as it sent its result where the backend
// can send around the SDK.
func (g *Gateway) getPrompt(ctx context.Context, p *mcp.GetPromptParams) (mcp.Result, error) {
	if p == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "missing params"}
	}
	server, sess, name, err := g.prompt(ctx, p.Name)
	if err != nil {
		return nil, err
	}
	q := *p
	q.Name = name
	res, err := g.sendRaw(ctx, server, "prompts/get", &q, func() (mcp.Result, error) { return sess.GetPrompt(ctx, &q) })
	if err != nil {
		return nil, upstreamError(err)
	}
	return res, nil
}

// complete sends completion/complete to the upstream of the prompt or the
// resource template it refers to; through the CompletionHandler the SDK
// calls (the middleware answers first: see completeUpstream).
func (g *Gateway) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	res, err := g.completeUpstream(ctx, req.Params)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	var out mcp.CompleteResult
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// completeUpstream sends completion/complete to the upstream of the
// prompt or resource template it refers to, around the SDK's decoding
// where it can (a stdio upstream): the answer as the upstream sent it
// (go-sdk's CompleteResult drops hasMore: false).
func (g *Gateway) completeUpstream(ctx context.Context, p *mcp.CompleteParams) (mcp.Result, error) {
	if p == nil || p.Ref == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "missing ref"}
	}
	q := *p
	ref := *p.Ref
	q.Ref = &ref
	type target struct {
		server string
		sess   *mcp.ClientSession
	}
	var targets []target
	switch ref.Type {
	case "ref/prompt":
		server, sess, name, err := g.prompt(ctx, ref.Name)
		if err != nil {
			return nil, err
		}
		ref.Name, targets = name, []target{{server, sess}}
	default:
		g.up.mu.Lock()
		owner := g.up.tmplOwner[ref.URI]
		g.up.mu.Unlock()
		up := g.backend.(Upstreams)
		for _, s := range up.Servers() {
			if owner != "" && s != owner {
				continue
			}
			if sess, err := up.Session(ctx, s); err == nil {
				if ir := sess.InitializeResult(); ir != nil && ir.Capabilities != nil && ir.Capabilities.Completions != nil {
					targets = append(targets, target{s, sess})
				}
			}
		}
	}
	var first error
	for _, t := range targets {
		res, err := g.sendRaw(ctx, t.server, "completion/complete", &q, func() (mcp.Result, error) { return t.sess.Complete(ctx, &q) })
		if err == nil {
			return res, nil
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "no upstream completes this reference"}
	}
	return nil, upstreamError(first)
}

// rawCaller is a backend that sends a request to an upstream around the
// SDK's decoding ([executor.Runner.CallRaw]).
type rawCaller interface {
	CallRaw(ctx context.Context, server, method string, params json.RawMessage) (json.RawMessage, error)
}

// rawResult is an upstream's result as it sent it.
type rawResult struct {
	mcp.Result // for the SDK's type; never encoded
	raw        json.RawMessage
}

// MarshalJSON writes the upstream's result.
func (r rawResult) MarshalJSON() ([]byte, error) { return r.raw, nil }

// sendRaw sends params to server's method around the SDK's decoding when
// the backend can, and answers with the upstream's result as it came; else
// with typed (the SDK's way), without the zero members the SDK's types
// add (uncached).
func (g *Gateway) sendRaw(ctx context.Context, server, method string, params any, typed func() (mcp.Result, error)) (mcp.Result, error) {
	rc, ok := g.backend.(rawCaller)
	if !ok {
		return typed()
	}
	b, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	raw, err := rc.CallRaw(ctx, server, method, b)
	switch {
	case errors.Is(err, executor.ErrNoRaw):
		res, err := typed()
		if err != nil {
			return nil, err
		}
		return uncached{res}, nil
	case err != nil:
		return nil, err
	}
	return rawResult{Result: &mcp.CompleteResult{}, raw: raw}, nil
}

// listChanged tells the clients an upstream's resources or prompts
// changed: the SDK sends list_changed when its own registry changes, so a
// placeholder is added and removed (the registry is never served: the
// lists are the upstreams').
func (g *Gateway) listChanged(method string) {
	const placeholder = "judge:list-changed"
	switch method {
	case "notifications/prompts/list_changed":
		g.up.mu.Lock()
		g.up.prompts = nil
		g.up.mu.Unlock()
		g.server.AddPrompt(&mcp.Prompt{Name: placeholder}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return nil, errors.New("placeholder")
		})
		g.server.RemovePrompts(placeholder)
	case "notifications/resources/list_changed":
		g.server.AddResource(&mcp.Resource{URI: placeholder, Name: placeholder}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return nil, errNoResources
		})
		g.server.RemoveResources(placeholder)
	}
}
