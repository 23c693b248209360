// Package gateway is an MCP server that puts judge's tool-call pipeline
// around every call of a set of tools, as docs/gateway.md describes:
// tools/list offers the backend's tools whose definitions pass linting, the
// poisoning scan and the pins; tools/call checks the arguments before the
// call (an invalid call is never run and gets the repair feedback),
// runs a valid call with the normalized arguments, classifies the result
// and puts the outcome in the result's _meta, and watches the MCP session
// for progress (advice in _meta; a call made again and again without
// progress is refused, that call alone).
//
// The gateway never re-implements a check: it calls package toolcall,
// toolscan and toolpin, as the CLI and the HTTP API do.
//
// A Gateway is safe for concurrent use by many MCP sessions.
package gateway

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/mcpstdio"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/result"
	"github.com/agentjudge/judge/telemetry"
	"github.com/agentjudge/judge/toolcall"
	"github.com/agentjudge/judge/toolpin"
	"github.com/agentjudge/judge/toolscan"
)

// Tool is one tool the backend can run: a registry tool (Server empty) or
// a tool of an upstream MCP server.
type Tool struct {
	Name, Description         string
	InputSchema, OutputSchema json.RawMessage
	// Server names the upstream MCP server; empty for a registry tool.
	Server string
	// Upstream is the upstream server's own name of the tool, what is
	// pinned; empty means Name.
	Upstream string
	// Raw is the upstream's definition of the tool as it sent it; tools/list
	// offers every member of it (title, annotations, execution, …) with
	// the gateway's name, description and input schema. nil for a
	// registry tool.
	Raw json.RawMessage
}

// pinName is the name a tool is pinned under.
func (t Tool) pinName() string {
	if t.Upstream != "" {
		return t.Upstream
	}
	return t.Name
}

// Result is what running a tool gave.
type Result struct {
	// MCP is the result as an MCP CallToolResult, when the tool is an
	// upstream MCP tool; nil otherwise.
	MCP *mcp.CallToolResult
	// Value is the structured value of a registry tool's result (decoded
	// JSON) and Text its text; IsError says it failed.
	Value   any
	Text    string
	IsError bool
	// Raw, when set, is the result as the JSON of an MCP CallToolResult
	// (an object), as an upstream sent it; it is forwarded with the judge
	// block added to its _meta, and the other fields are not read.
	Raw json.RawMessage
}

// Backend runs tools: the executor, or anything that lists and calls
// tools.
type Backend interface {
	Tools(ctx context.Context) ([]Tool, error)
	Call(ctx context.Context, name string, args json.RawMessage) (*Result, error)
}

// Options configure a Gateway. The zero value is usable: no pins,
// poisoned and changed tools offered with a logged warning.
type Options struct {
	// Store keeps the sessions' progress; nil means one in memory.
	Store toolcall.Store
	// Limits of the progress verdict; zero fields take their defaults.
	Limits toolcall.Limits
	// Pins, when not nil, pins the upstream tools' definitions.
	Pins *toolpin.Pinner
	// RefuseChanged leaves a tool whose pin reports it out of tools/list.
	RefuseChanged bool
	// RefusePoisoned leaves a tool with an error-severity poisoning
	// finding out of tools/list.
	RefusePoisoned bool
	// Logger receives the reasons tools are left out; nil discards.
	Logger *slog.Logger
	// Name and Version of the server, as it introduces itself.
	Name, Version string
	// CallOptions are more options of the tool-call checker, such as
	// toolcall.WithLLM for goals the deterministic check cannot decide.
	CallOptions []toolcall.Option
	// CompactBudget, when positive, is the character budget of the JSON
	// a model reads of a result: a result over it is answered compacted,
	// with _meta.judge.compacted saying what was cut (see [Compaction] and
	// docs/gateway.md); it is also the checker's budget. 0 (the default)
	// answers every result as the tool gave it.
	CompactBudget int
	// FullMeta keeps the check's and the outcome's ValidationResults in
	// the judge block of every answer. By default one with nothing to
	// say — valid, no issue, confidence 1 — is left out: the status, the
	// reason and the progress say the same in a tenth of the bytes, which
	// every client decodes on every call (see [Meta]).
	FullMeta bool
	// Telemetry, when it exports, gives every tools/call its span (see
	// docs/observability.md), continuing the trace of the request's
	// params._meta traceparent and passing the call's context on to the
	// upstream MCP server in its request's _meta; HTTPHandler's requests
	// get a span of their own. nil starts no span.
	Telemetry *telemetry.Telemetry
	// DrainTimeout is how long the calls in flight on stdio have to be
	// answered once the client's input ends or the transport is told to
	// drain (judge gateway on SIGTERM), before the session closes and
	// cancels what is left; 0 closes it at once.
	DrainTimeout time.Duration
}

// Skip is a tool left out of tools/list and why.
type Skip struct {
	Tool, Server, Reason string
}

// Gateway is the MCP server over a Backend.
type Gateway struct {
	backend Backend
	opts    Options
	server  *mcp.Server
	checker *toolcall.Checker
	log     *slog.Logger

	// cat is the tool catalog of the last refresh, swapped whole: a call
	// reads one consistent catalog without a lock.
	cat atomic.Pointer[catalog]

	failedMu sync.Mutex
	failed   map[string]string // upstream servers failing at the last refresh, and why
	retry    chan struct{}     // an upstream failed: RetryUpstreams wakes

	refreshing sync.Mutex // held by Refresh

	peers peers           // the client sessions (proxy.go)
	up    upstreamCatalog // the upstreams' resources and prompts (resources.go)

	versions   []string        // the protocol versions offered; nil: the SDK's (proxy.go)
	ids        sync.Map        // *mcp.ServerSession -> session id, for transports without one
	serverInfo json.RawMessage // the server's Implementation, for the fast path's sessionless answers
	hdr        internalHeaders // the names of the headers the fronts tell the SDK's path by
}

// catalog is the gateway's tools as of one refresh, never changed once
// made: the toolset calls are checked against, the names offered in
// tools/list, the tools left out, and the findings on each offered tool's
// definition (poisoning, pins), by name. A tool is offered when it has an
// entry in findings, even an empty one.
type catalog struct {
	toolset  *toolcall.Toolset
	offered  []string
	skipped  []Skip
	findings map[string][]result.Issue
	// servers names each offered tool's upstream server ("" for a
	// registry tool); listed is tools/list's tools as JSON, in the
	// backend's order (proxy.go).
	servers map[string]string
	listed  []json.RawMessage
}

// catalog returns the current catalog.
func (g *Gateway) catalog() *catalog { return g.cat.Load() }

// New makes a Gateway over backend and lists its tools once.
func New(ctx context.Context, backend Backend, opts Options) (*Gateway, error) {
	if opts.Store == nil {
		opts.Store = toolcall.NewMemoryStore(0, 0)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	checker, err := toolcall.New(slices.Concat([]toolcall.Option{toolcall.WithStore(opts.Store), toolcall.WithLimits(opts.Limits)}, opts.CallOptions, checkerCompaction(opts.CompactBudget))...)
	if err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	name, ver := opts.Name, opts.Version
	if name == "" {
		name = "judge-gateway"
	}
	g := &Gateway{backend: backend, opts: opts, checker: checker, log: log, retry: make(chan struct{}, 1), hdr: newInternalHeaders()}
	impl := &mcp.Implementation{Name: name, Version: ver}
	if g.serverInfo, err = json.Marshal(impl); err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	g.versions = g.protocolVersions(ctx)
	g.up.resOwner, g.up.tmplOwner = map[string]string{}, map[string]string{}
	sopts := &mcp.ServerOptions{
		SupportedProtocolVersions: g.versions,
		Logger:                    log,
		Capabilities:              serverCapabilities(),
	}
	subscribe, instructions := g.proxyCapabilities(ctx, sopts.Capabilities)
	if subscribe {
		sopts.SubscribeHandler, sopts.UnsubscribeHandler = g.subscribe, g.unsubscribe
	}
	sopts.Instructions = instructions
	if sopts.Capabilities.Completions != nil {
		sopts.CompletionHandler = g.complete
	}
	g.server = mcp.NewServer(impl, sopts)
	g.proxyInit()
	g.server.AddReceivingMiddleware(g.tellFailures)
	if err := g.Refresh(ctx); err != nil {
		return nil, err
	}
	return g, nil
}

// Server is the MCP server, to run on a transport.
func (g *Gateway) Server() *mcp.Server { return g.server }

// Checker is the tool-call checker the gateway uses.
func (g *Gateway) Checker() *toolcall.Checker { return g.checker }

// Skipped returns the tools left out at the last refresh.
func (g *Gateway) Skipped() []Skip {
	return slices.Clone(g.catalog().skipped)
}

// Offered returns the names of the tools in tools/list.
func (g *Gateway) Offered() []string {
	return slices.Clone(g.catalog().offered)
}

// Refresh lists the backend's tools again and updates tools/list: each
// tool's definition is compiled into a contract (a broken schema leaves
// it out), scanned for poisoning and, for an upstream tool, checked
// against its pin. Call it when an upstream announces a changed tool list.
func (g *Gateway) Refresh(ctx context.Context) error {
	g.refreshing.Lock() // one at a time: a list change and a client's capabilities may ask at once
	defer g.refreshing.Unlock()
	tools, err := g.backend.Tools(ctx)
	if err != nil {
		return fmt.Errorf("gateway: list tools: %w", err)
	}
	g.noteUpstreams(ctx)
	names := make([]string, 0, len(tools))
	for _, t := range tools {
		names = append(names, t.Name)
	}
	var (
		defs     []toolcall.Definition
		keep     []Tool
		skipped  []Skip
		findings = map[string][]result.Issue{}
	)
	skip := func(t Tool, reason string) {
		skipped = append(skipped, Skip{Tool: t.Name, Server: t.Server, Reason: reason})
		g.log.Warn("tool left out of tools/list", "tool", t.Name, "server", t.Server, "reason", reason)
	}
	pinIssues, err := g.observePins(ctx, tools)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, t := range tools {
		if seen[t.Name] {
			skip(t, "another tool has the same name")
			continue
		}
		seen[t.Name] = true
		if reason := objectSchema(t.InputSchema); reason != "" {
			skip(t, reason)
			continue
		}
		if reason := taskRequired(t.Raw); reason != "" {
			skip(t, reason)
			continue
		}
		issues := toolscan.ScanTool(toolscan.DefinitionFromJSON(t.Name, t.Description, t.InputSchema, t.OutputSchema), names, "")
		if g.opts.RefusePoisoned && hasError(issues) {
			skip(t, "tool poisoning: "+firstError(issues))
			continue
		}
		if pf := pinIssues[t.Server+"\x00"+t.pinName()]; t.Server != "" && len(pf) > 0 {
			if g.opts.RefuseChanged {
				skip(t, "pinned definition: "+pf[0].Issue.Message)
				continue
			}
			for _, f := range pf {
				issues = append(issues, f.Issue)
			}
		}
		def, err := definition(t)
		if err == nil {
			_, err = g.checker.Compile(def)
		}
		if err != nil {
			skip(t, "definition does not compile: "+err.Error())
			continue
		}
		for _, is := range issues {
			g.log.Warn("tool definition finding", "tool", t.Name, "server", t.Server, "rule", is.Rule, "location", is.Location, "message", is.Message)
		}
		findings[t.Name] = issues
		defs = append(defs, def)
		keep = append(keep, t)
	}
	ts, err := g.checker.NewToolset(defs...)
	if err != nil {
		return fmt.Errorf("gateway: %w", err)
	}
	cat, mts := g.newCatalog(ts, keep, skipped, findings)
	var gone []string
	if old := g.cat.Swap(cat); old != nil {
		for _, n := range old.offered {
			if _, still := findings[n]; !still {
				gone = append(gone, n)
			}
		}
	}
	if len(gone) > 0 {
		g.server.RemoveTools(gone...)
	}
	for _, mt := range mts {
		g.server.AddTool(mt, g.handle)
	}
	return nil
}

// observePins checks the upstream tools against their pins, one server
// at a time, and returns what changed keyed by server and pinned name
// (server + "\x00" + name); nil without a pin store.
func (g *Gateway) observePins(ctx context.Context, tools []Tool) (map[string][]toolpin.Finding, error) {
	if g.opts.Pins == nil {
		return nil, nil
	}
	pinIssues := map[string][]toolpin.Finding{}
	byServer := map[string][]toolpin.Tool{}
	for _, t := range tools {
		if t.Server != "" {
			byServer[t.Server] = append(byServer[t.Server], toolpin.Tool{Name: t.pinName(), Description: t.Description, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema})
		}
	}
	servers := make([]string, 0, len(byServer))
	for s := range byServer {
		servers = append(servers, s)
	}
	slices.Sort(servers)
	for _, s := range servers {
		fs, err := g.opts.Pins.Observe(ctx, s, byServer[s])
		if err != nil {
			return nil, fmt.Errorf("gateway: %w", err)
		}
		for _, f := range fs {
			pinIssues[s+"\x00"+f.Tool] = append(pinIssues[s+"\x00"+f.Tool], f)
			g.log.Warn("pinned tool definition", "tool", f.Tool, "server", s, "rule", f.Rule, "message", f.Issue.Message)
		}
	}
	return pinIssues, nil
}

// newCatalog is the catalog offering keep, checked by ts, and the MCP
// tools to add for them.
func (g *Gateway) newCatalog(ts *toolcall.Toolset, keep []Tool, skipped []Skip, findings map[string][]result.Issue) (*catalog, []*mcp.Tool) {
	cat := &catalog{toolset: ts, skipped: skipped, findings: findings, servers: map[string]string{}, listed: make([]json.RawMessage, 0, len(keep))}
	mts := make([]*mcp.Tool, 0, len(keep))
	for _, t := range keep {
		cat.offered = append(cat.offered, t.Name)
		mt := &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
		mt.Description, mt.InputSchema = offeredDefinition(t)
		if len(t.OutputSchema) > 0 {
			mt.OutputSchema = t.OutputSchema
		}
		mts = append(mts, mt)
		cat.servers[t.Name] = t.Server
		lt, err := listedTool(t, mt)
		if err != nil {
			g.log.Warn("tool offered without the upstream's other members", "tool", t.Name, "err", err)
			lt, _ = json.Marshal(mt)
		}
		cat.listed = append(cat.listed, lt)
	}
	return cat, mts
}

// offeredDefinition is the description and input schema tools/list
// offers for t: usage guidance in the schema (x-when-to-use, x-intent, …)
// is folded into the descriptions a model reads, as judge tools export
// does; the contract keeps it for repair feedback.
func offeredDefinition(t Tool) (string, any) {
	if !bytes.Contains(t.InputSchema, []byte(`"x-`)) {
		return t.Description, t.InputSchema
	}
	var s any
	if err := json.Unmarshal(t.InputSchema, &s); err != nil {
		return t.Description, t.InputSchema
	}
	folded, g := manifest.FoldGuidance(s)
	return manifest.GuidedDescription(t.Description, g), folded
}

// objectSchema says why a tool's input schema cannot be offered, or "".
func objectSchema(raw json.RawMessage) string {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return "the input schema is not a JSON object"
	}
	if m["type"] != "object" {
		return fmt.Sprintf("the input schema's type is %v, not \"object\" as MCP requires", m["type"])
	}
	return ""
}

func hasError(issues []result.Issue) bool {
	return slices.ContainsFunc(issues, func(is result.Issue) bool { return is.Severity == result.Error })
}

func firstError(issues []result.Issue) string {
	for _, is := range issues {
		if is.Severity == result.Error {
			return is.Location + ": " + is.Message
		}
	}
	return ""
}

// definition makes the toolcall definition of a tool.
func definition(t Tool) (toolcall.Definition, error) {
	doc := map[string]json.RawMessage{}
	name, _ := json.Marshal(t.Name)
	desc, _ := json.Marshal(t.Description)
	doc["name"], doc["description"], doc["inputSchema"] = name, desc, t.InputSchema
	if len(t.OutputSchema) > 0 {
		doc["outputSchema"] = t.OutputSchema
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return toolcall.Definition{}, err
	}
	defs, err := toolcall.ParseDefinitions(b, t.Name)
	if err != nil {
		return toolcall.Definition{}, err
	}
	if len(defs) != 1 {
		return toolcall.Definition{}, errors.New("not one definition")
	}
	return defs[0], nil
}

// MetaKey is the key of the judge block in a result's _meta.
const MetaKey = "judge"

// Meta is the judge block of a tools/call result's _meta. Of a call that
// ran, Check and Outcome are left out when they have nothing to say
// (valid, no issue, confidence 1; [Options.FullMeta] keeps them): a clean
// check means the arguments ran as given, since every change
// normalization makes is an issue of the check, and a clean outcome is
// what Status SATISFIED and its Reason already say. A check or an
// outcome with any issue (a coercion, a tool without a contract, an
// undecided goal) is always there.
type Meta struct {
	// Check is the pre-execution verdict.
	Check *toolcall.CheckResult `json:"check,omitempty"`
	// Outcome is the post-execution verdict; absent when the call did not
	// run.
	Status             toolcall.Status          `json:"status,omitempty"`
	Reason             string                   `json:"reason,omitempty"`
	ExtractedFacts     []toolcall.Fact          `json:"extracted_facts,omitempty"`
	SuggestedNextTools []toolcall.NextTool      `json:"suggested_next_tools,omitempty"`
	Progress           *toolcall.Progress       `json:"progress,omitempty"`
	Outcome            *result.ValidationResult `json:"outcome,omitempty"`
	// Goal is the verdict on the goal the request's _meta.judge.goal
	// gave, if any.
	Goal *toolcall.GoalCheck `json:"goal,omitempty"`
	// Definition holds the findings on the tool's definition (poisoning,
	// pins) when there are any.
	Definition []result.Issue `json:"definition,omitempty"`
	// Session is the session id progress is counted under.
	Session string `json:"session,omitempty"`
	// Compacted says what was cut of a result over the budget, when
	// Options.CompactBudget is set.
	Compacted *Compaction `json:"compacted,omitempty"`
}

// sessionID names the MCP session of a request: the transport's session id
// (streamable HTTP), or one made for the connection (stdio).
func (g *Gateway) sessionID(ss *mcp.ServerSession) string {
	if ss == nil {
		return ""
	}
	if id := ss.ID(); id != "" {
		return "mcp:" + id
	}
	if v, ok := g.ids.Load(ss); ok {
		return v.(string)
	}
	var b [12]byte
	_, _ = rand.Read(b[:])
	v, _ := g.ids.LoadOrStore(ss, "mcp:"+hex.EncodeToString(b[:]))
	return v.(string)
}

// handle answers tools/call for every offered tool on the SDK's typed
// path, which the proxy's middleware (callTool) leaves only to a request
// it does not take: the answer callTool writes, decoded into the SDK's
// type.
func (g *Gateway) handle(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	raw, err := g.answerCall(g.withSessionVersion(ctx, req.Session, req.Extra), g.sessionID(req.Session), req.Params)
	if err != nil {
		return nil, err
	}
	out := &mcp.CallToolResult{}
	if err := json.Unmarshal(raw, out); err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	return out, nil
}

// callTool answers tools/call of an offered tool on the SDK's path
// (streamable HTTP, and the stdio requests the fast path declines) with
// the encoder of the fast path: the upstream's result forwarded as it
// came, the judge block set in its _meta, never decoded into the SDK's
// types and encoded again. false: not an offered tool (judge's own, or
// unknown), which the SDK answers.
func (g *Gateway) callTool(ctx context.Context, ss *mcp.ServerSession, req mcp.Request) (mcp.Result, bool, error) {
	p, ok := req.GetParams().(*mcp.CallToolParamsRaw)
	if !ok || p == nil || len(p.InputResponses) > 0 || p.RequestState != "" {
		return nil, false, nil
	}
	if _, offered := g.catalog().findings[p.Name]; !offered {
		return nil, false, nil
	}
	raw, err := g.answerCall(g.withSessionVersion(ctx, ss, req.GetExtra()), g.sessionID(ss), p)
	if err != nil {
		return nil, true, err
	}
	return rawResult{Result: &mcp.CallToolResult{}, raw: raw}, true, nil
}

// answerCall runs tools/call's pipeline for the params the SDK decoded
// and encodes the answer as the fast path does; a request of the
// sessionless protocol (its version in _meta) gets the gateway's
// resultType and serverInfo, as the SDK sets them.
func (g *Gateway) answerCall(ctx context.Context, sid string, p *mcp.CallToolParamsRaw) (json.RawMessage, error) {
	version, _ := p.Meta[mcp.MetaKeyProtocolVersion].(string)
	ans, err := g.call(ctx, sid, p.Name, p.Arguments, p.Meta)
	if err != nil {
		return nil, err
	}
	return g.encode(ans, version >= mcpstdio.SessionlessProtocol)
}

// protocolMetaPrefix begins the _meta keys the MCP protocol itself uses
// (io.modelcontextprotocol/serverInfo, …).
const protocolMetaPrefix = "io.modelcontextprotocol/"

// answer is what tools/call answers: the tool's result as the JSON of a
// CallToolResult, or a result of the gateway's own; and the judge block
// for its _meta.
type answer struct {
	raw  json.RawMessage
	own  *mcp.CallToolResult // set: the gateway answered (invalid, unreadable, refused)
	meta Meta
}

// call is tools/call's pipeline, whichever path the request came by: the
// check (which also says whether the session refuses this very call), the
// run with the normalized arguments, and the outcome. reqMeta is the
// request's _meta (judge.goal, judge.shown_tools). A call judge does not
// run is answered by [refusal].
func (g *Gateway) call(ctx context.Context, sid, name string, args json.RawMessage, reqMeta map[string]any) (ans answer, err error) {
	ctx, endSpan := g.traceCall(ctx, sid, name, args, reqMeta)
	defer func() { endSpan(ans, err) }()
	cat := g.catalog()
	ts, defIssues := cat.toolset, cat.findings[name]

	call := toolcall.Call{Tool: name, Arguments: args, SessionID: sid, Goal: requestGoal(reqMeta), ShownTools: requestShown(reqMeta)}
	cctx, endCheck := g.traceStep(ctx, "judge.check")
	chk, err := ts.Check(cctx, call)
	endCheck(err)
	if err != nil {
		var ce *toolcall.CallError
		if errors.As(err, &ce) {
			return refusal(name, toolcall.UnreadableCheck(name, ce), Meta{Session: sid}), nil
		}
		return answer{}, err
	}
	noteCheck(ctx, chk)
	meta := Meta{Check: chk, Definition: defIssues, Session: sid}
	if !chk.Result.Valid || chk.Refused != "" {
		return refusal(name, chk, meta), nil
	}
	norm, err := normalized(args, chk)
	if err != nil {
		return answer{}, fmt.Errorf("gateway: %w", err)
	}
	rctx, done := g.inFlight(ctx, sid, name, reqMeta)
	rctx, endRun := g.traceRun(rctx, name, reqMeta)
	res, err := g.backend.Call(rctx, name, norm)
	endRun(res, err)
	done()
	if err != nil {
		if ctx.Err() != nil {
			return answer{}, ctx.Err()
		}
		res = &Result{IsError: true, Text: err.Error()}
	}
	raw := res.Raw
	if raw == nil {
		if raw, err = json.Marshal(toMCP(res)); err != nil {
			return answer{}, fmt.Errorf("gateway: %w", err)
		}
	}
	octx, endOutcome := g.traceStep(ctx, "judge.outcome")
	oc, err := ts.Outcome(octx, toolcall.OutcomeRequest{Call: toolcall.Call{Tool: name, Arguments: norm, SessionID: sid, ShownTools: call.ShownTools}, Result: raw, Goal: call.Goal, Checked: chk})
	endOutcome(err)
	if err != nil {
		return answer{}, fmt.Errorf("gateway: outcome: %w", err)
	}
	noteOutcome(ctx, oc)
	meta.Status, meta.Reason, meta.ExtractedFacts, meta.SuggestedNextTools = oc.Status, oc.Reason, oc.ExtractedFacts, oc.SuggestedNextTools
	meta.Progress, meta.Outcome, meta.Goal = oc.Progress, oc.Result, oc.Goal
	raw, meta.Compacted = g.compact(ts, name, call.Goal, norm, raw, oc)
	if !g.opts.FullMeta {
		if clean(meta.Check.Result) {
			meta.Check = nil
		}
		if clean(meta.Outcome) {
			meta.Outcome = nil
		}
	}
	return answer{raw: raw, meta: meta}, nil
}

// refusal is the answer to a call judge does not run: invalid or
// unreadable arguments, or a call its session refuses. Every MCP client
// accepts it whatever the tool's outputSchema: isError true, the repair as
// the text the model reads (toolcall.RepairText, the same words every
// front end writes), the check and its repair in _meta.judge, and no
// structuredContent, which a client checks against the outputSchema
// (the TypeScript SDK's throws -32602 on a mismatch, and the model never
// sees the repair).
func refusal(name string, chk *toolcall.CheckResult, meta Meta) answer {
	meta.Check = chk
	if chk.Refused != "" {
		meta.Progress = &toolcall.Progress{Verdict: toolcall.Stop, Reason: chk.Refused, Refused: true}
	}
	return answer{meta: meta, own: textResult(true, toolcall.RepairText(name, chk), meta)}
}

// normalized is the JSON of a valid call's normalized arguments: the
// arguments as given when the check changed nothing (every change
// normalization makes is an issue of the check) and they are an object
// on one line without \u escapes, else the normalized value encoded
// anew (an escape of a lone surrogate, say, decodes to U+FFFD), its keys
// sorted.
func normalized(args json.RawMessage, chk *toolcall.CheckResult) (json.RawMessage, error) {
	if t := bytes.TrimSpace(args); clean(chk.Result) && len(t) > 0 && t[0] == '{' &&
		!bytes.ContainsAny(t, "\n\r") && !bytes.Contains(t, []byte(`\u`)) {
		return t, nil
	}
	return jsonvalue.Append(nil, chk.Arguments())
}

// clean reports whether r has nothing to say beyond that it passed:
// valid, no issue, no failed criterion, confidence 1.
func clean(r *result.ValidationResult) bool {
	return r != nil && r.Valid && len(r.Issues) == 0 && len(r.FailedCriteria) == 0 && r.Confidence == 1
}

// requestGoal is the user's goal a client gives with a call, as
// _meta.judge.goal of tools/call (meta is the request's _meta); "" when
// none.
func requestGoal(meta map[string]any) string {
	j, _ := meta[MetaKey].(map[string]any)
	g, _ := j["goal"].(string)
	return g
}

// requestShown is the list of tools a client says its model was shown,
// as _meta.judge.shown_tools of tools/call; nil when none.
func requestShown(meta map[string]any) []string {
	j, _ := meta[MetaKey].(map[string]any)
	l, _ := j["shown_tools"].([]any)
	var out []string
	for _, v := range l {
		if s, ok := v.(string); ok && s != "" && len(out) < 1000 {
			out = append(out, s)
		}
	}
	return out
}

// toMCP makes the MCP result of a backend result.
func toMCP(r *Result) *mcp.CallToolResult {
	if r.MCP != nil {
		c := *r.MCP
		if c.Content == nil {
			c.Content = []mcp.Content{}
		}
		if c.Meta != nil {
			c.Meta = mcp.Meta(mapsClone(c.Meta))
		}
		return &c
	}
	out := &mcp.CallToolResult{IsError: r.IsError, Content: []mcp.Content{}}
	text := r.Text
	if r.Value != nil {
		if m, ok := r.Value.(map[string]any); ok {
			out.StructuredContent = m
		}
		if text == "" {
			b, _ := json.Marshal(r.Value)
			text = string(b)
		}
	}
	if text != "" {
		out.Content = append(out.Content, &mcp.TextContent{Text: text})
	}
	return out
}

func mapsClone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// textResult makes a result the gateway answers itself: text content
// and the judge block, never a structuredContent.
func textResult(isErr bool, text string, meta Meta) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: isErr, Content: []mcp.Content{&mcp.TextContent{Text: text}}, Meta: mcp.Meta{MetaKey: meta}}
}
