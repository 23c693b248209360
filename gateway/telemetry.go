package gateway

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentjudge/judge/executor"
	"github.com/agentjudge/judge/internal/mcpstdio"
	"github.com/agentjudge/judge/internal/otelattr"
	"github.com/agentjudge/judge/telemetry"
	"github.com/agentjudge/judge/toolcall"
)

// The gateway's spans (docs/observability.md), named and attributed by
// the OpenTelemetry semantic conventions for MCP and GenAI: a SERVER span
// "tools/call {tool}" per call, under the context of the request's
// params._meta (traceparent, tracestate, baggage; SEP-414) with the
// transport's own span linked, else under the transport's span; a CLIENT
// span "tools/call {tool}" around an upstream MCP server's call, whose
// context goes to the upstream in its request's _meta; an INTERNAL span
// "execute_tool {tool}" around a registry tool's run.

// maxContentAttr bounds the arguments and results recorded as attributes
// when content capture is on.
const maxContentAttr = 32 << 10

type transportKey struct{}

// withTransport marks ctx as a request that came over transport
// ("pipe" for stdio, "tcp" for HTTP), for network.transport.
func withTransport(ctx context.Context, transport string) context.Context {
	return context.WithValue(ctx, transportKey{}, transport)
}

type rpcKey struct{}

// rpcInfo is what the transport knows of a tools/call request: its
// JSON-RPC id (jsonrpc.request.id) and the protocol version of its
// session (mcp.protocol.version), each "" when unknown.
type rpcInfo struct{ id, version string }

// withRPC marks ctx as answering the request of JSON-RPC id (as
// jsonrpcID renders it) in a session of protocol version.
func withRPC(ctx context.Context, id, version string) context.Context {
	return context.WithValue(ctx, rpcKey{}, rpcInfo{id: id, version: version})
}

// jsonrpcID renders a JSON-RPC id as jsonrpc.request.id: a string as it
// is, a number as its digits; "" for anything else.
func jsonrpcID(raw any) string {
	switch v := raw.(type) {
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// rawJSONRPCID is jsonrpcID of an id as it came on the wire.
func rawJSONRPCID(b []byte) string {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if json.Unmarshal(b, &s) == nil {
			return s
		}
		return ""
	}
	return string(b)
}

// withSessionVersion marks ctx, when the gateway exports spans, with the
// protocol version ss's client asked for, so that the call's span need
// not look the session up, and with the JSON-RPC id the HTTP front or the
// stdio transport noted in extra's header (internalHeaders), and the stdio
// transport its transport: the SDK's typed path does
// not give a request's id otherwise.
func (g *Gateway) withSessionVersion(ctx context.Context, ss *mcp.ServerSession, extra *mcp.RequestExtra) context.Context {
	if !g.opts.Telemetry.Enabled() || ss == nil {
		return ctx
	}
	id := ""
	if extra != nil && extra.Header != nil {
		id = extra.Header.Get(g.hdr.rpcID)
		if tr := extra.Header.Get(g.hdr.transport); tr != "" && ctx.Value(transportKey{}) == nil {
			ctx = withTransport(ctx, tr)
		}
	}
	if ip := ss.InitializeParams(); ip != nil {
		return withRPC(ctx, id, ip.ProtocolVersion)
	}
	if id != "" {
		return withRPC(ctx, id, "")
	}
	return ctx
}

// internalHeaders are the names of the headers by which the gateway's
// own fronts tell the SDK's path what it cannot learn otherwise: rpcID
// carries the JSON-RPC id of a request, as jsonrpc.request.id renders it,
// from the stdio transport and from the HTTP front (for a POST whose body
// is one tools/call); transport carries,
// from the stdio transport, the network.transport of a request ("pipe";
// a request whose context already names its transport keeps it). Each
// gateway draws its own names at random, so a client cannot send them,
// whichever handler serves Server (the HTTP front also removes the id's
// from every request, and names its requests' transport in their context,
// so that the transport's is never read there).
type internalHeaders struct{ rpcID, transport string }

// newInternalHeaders draws a gateway's internal header names.
func newInternalHeaders() internalHeaders {
	var b [12]byte
	_, _ = rand.Read(b[:])
	tag := hex.EncodeToString(b[:])
	return internalHeaders{
		rpcID:     http.CanonicalHeaderKey("Judge-Internal-Jsonrpc-Id-" + tag),
		transport: http.CanonicalHeaderKey("Judge-Internal-Transport-" + tag),
	}
}

// noteCallID sets r's internal rpcID header to the id of the tools/call that body
// is, when the gateway exports spans; it removes one the client sent in
// every case.
func (g *Gateway) noteCallID(r *http.Request, body []byte) {
	r.Header.Del(g.hdr.rpcID)
	if !g.opts.Telemetry.Enabled() {
		return
	}
	var id, method []byte
	err := mcpstdio.Members(body, func(key, val []byte) error {
		switch string(key) {
		case "id":
			id = val
		case "method":
			method = val
		}
		return nil
	})
	if err != nil || string(method) != `"tools/call"` || len(id) == 0 {
		return
	}
	if s := rawJSONRPCID(id); s != "" {
		r.Header.Set(g.hdr.rpcID, s)
	}
}

// protocolVersion is the MCP version a call was made in: the request's
// own (sessionless protocol, in _meta), the transport's, else the
// version its session's client asked for at initialize.
func (g *Gateway) protocolVersion(ctx context.Context, sid string, reqMeta map[string]any) string {
	if v, _ := reqMeta[mcp.MetaKeyProtocolVersion].(string); v != "" {
		return v
	}
	if ri, _ := ctx.Value(rpcKey{}).(rpcInfo); ri.version != "" {
		return ri.version
	}
	if ss := g.peerSession(sid); ss != nil {
		if ip := ss.InitializeParams(); ip != nil {
			return ip.ProtocolVersion
		}
	}
	return ""
}

// rpcErrorCode is the JSON-RPC error code err is answered with: a
// *jsonrpc.Error's, else 0, as both transports write it.
func rpcErrorCode(err error) string {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return strconv.FormatInt(je.Code, 10)
	}
	return "0"
}

// traceCall starts the span of one tools/call when the gateway exports
// spans, and returns the context to run the call in and the function that
// ends the span with the call's answer. Without telemetry it returns ctx
// and a function that does nothing.
func (g *Gateway) traceCall(ctx context.Context, sid, name string, args json.RawMessage, reqMeta map[string]any) (context.Context, func(answer, error)) {
	t := g.opts.Telemetry
	if !t.Enabled() {
		return ctx, func(answer, error) {}
	}
	opts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer)}
	ambient := trace.SpanContextFromContext(ctx)
	if pctx, ok := t.ExtractMeta(ctx, reqMeta); ok {
		ctx = pctx
		if ambient.IsValid() {
			opts = append(opts, trace.WithLinks(trace.Link{SpanContext: ambient}))
		}
	}
	attrs := []attribute.KeyValue{
		attribute.String("mcp.method.name", "tools/call"),
		attribute.String("gen_ai.operation.name", "execute_tool"),
		attribute.String("gen_ai.tool.name", name),
	}
	if sid != "" {
		attrs = append(attrs, attribute.String("mcp.session.id", strings.TrimPrefix(sid, "mcp:")))
	}
	if tr, _ := ctx.Value(transportKey{}).(string); tr != "" {
		attrs = append(attrs, attribute.String("network.transport", tr))
		if tr == "tcp" {
			attrs = append(attrs, attribute.String("network.protocol.name", "http"))
		}
	}
	if ri, _ := ctx.Value(rpcKey{}).(rpcInfo); ri.id != "" {
		attrs = append(attrs, attribute.String("jsonrpc.request.id", ri.id))
	}
	if v := g.protocolVersion(ctx, sid, reqMeta); v != "" {
		attrs = append(attrs, attribute.String("mcp.protocol.version", v))
	}
	if id := toolCallID(reqMeta); id != "" {
		attrs = append(attrs, attribute.String("gen_ai.tool.call.id", id))
	}
	if t.CaptureContent && len(args) > 0 {
		attrs = append(attrs, attribute.String("gen_ai.tool.call.arguments", capped(args)))
	}
	ctx, span := t.Tracer().Start(ctx, "tools/call "+name, append(opts, trace.WithAttributes(attrs...))...)
	return ctx, func(ans answer, err error) {
		switch {
		case err != nil:
			code := rpcErrorCode(err)
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
			span.SetAttributes(attribute.String("error.type", code), attribute.String("rpc.response.status_code", code))
		case ans.own != nil && ans.own.IsError || resultIsError(ans.raw):
			span.SetStatus(codes.Error, "tool_error")
			span.SetAttributes(attribute.String("error.type", "tool_error"))
		}
		if ans.meta.Status != "" {
			span.SetAttributes(otelattr.Status.String(string(ans.meta.Status)))
		}
		if ans.meta.Progress != nil && ans.meta.Progress.Refused {
			span.SetAttributes(attribute.Bool("judge.refused", true))
		}
		if t.CaptureContent && len(ans.raw) > 0 {
			span.SetAttributes(attribute.String("gen_ai.tool.call.result", capped(ans.raw)))
		}
		span.End()
	}
}

// traceStep starts the INTERNAL child span of one step of a call's
// pipeline, "judge.check" (the pre-execution check) or "judge.outcome"
// (the outcome's classification), so that a trace shows what each took
// beside the tool's own run. The returned function ends it with the
// step's error, if any. Without a recording span it returns ctx and a
// function that does nothing.
func (g *Gateway) traceStep(ctx context.Context, name string) (context.Context, func(error)) {
	if !trace.SpanFromContext(ctx).IsRecording() {
		return ctx, func(error) {}
	}
	ctx, span := g.opts.Telemetry.Tracer().Start(ctx, name)
	return ctx, func(err error) {
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
			span.SetAttributes(attribute.String("error.type", "_OTHER"))
		}
		span.End()
	}
}

// noteCheck records the pre-execution verdict on the call's span: the
// check's judge.valid, judge.confidence, issue counts and types, and an
// event per error issue.
func noteCheck(ctx context.Context, chk *toolcall.CheckResult) {
	span := trace.SpanFromContext(ctx)
	if chk == nil || chk.Result == nil || !span.IsRecording() {
		return
	}
	span.SetAttributes(otelattr.Verdict(chk.Result)...)
	for _, is := range chk.Result.Issues {
		if is.Severity == "error" {
			span.AddEvent("judge.issue", trace.WithAttributes(
				attribute.String("judge.issue.type", string(is.Type)),
				attribute.String("judge.issue.location", is.Location),
				attribute.String("judge.issue.message", is.Message)))
		}
	}
	if chk.Refused != "" {
		span.AddEvent("judge.refused", trace.WithAttributes(attribute.String("judge.reason", chk.Refused)))
	}
}

// noteOutcome records the post-execution verdict on the call's span.
func noteOutcome(ctx context.Context, oc *toolcall.Outcome) {
	span := trace.SpanFromContext(ctx)
	if oc == nil || !span.IsRecording() {
		return
	}
	span.SetAttributes(otelattr.Status.String(string(oc.Status)))
	if oc.Result != nil {
		span.SetAttributes(
			attribute.Bool("judge.outcome.valid", oc.Result.Valid),
			attribute.Float64("judge.outcome.confidence", oc.Result.Confidence),
			attribute.Int("judge.outcome.issue_count", len(oc.Result.Issues)))
	}
}

// traceRun starts the span of running the tool itself: a CLIENT span
// "tools/call {tool}" for an upstream MCP server's tool, whose context the
// upstream request carries in its _meta, or an INTERNAL "execute_tool
// {tool}" for a registry tool. The returned function ends it.
//
// Without telemetry, the caller's own traceparent, tracestate and baggage
// (reqMeta's) go to an upstream MCP server as they came, so that the
// caller's trace goes on through a gateway that records none of it.
func (g *Gateway) traceRun(ctx context.Context, name string, reqMeta map[string]any) (context.Context, func(*Result, error)) {
	t := g.opts.Telemetry
	if !t.Enabled() {
		if _, ok := reqMeta["traceparent"].(string); ok && g.catalog().servers[name] != "" {
			pass := map[string]string{}
			for _, k := range telemetry.MetaKeys {
				if v, ok := reqMeta[k].(string); ok {
					pass[k] = v
				}
			}
			ctx = executor.WithRequestMeta(ctx, pass)
		}
		return ctx, func(*Result, error) {}
	}
	server := g.catalog().servers[name]
	spanName, kind := "execute_tool "+name, trace.SpanKindInternal
	attrs := []attribute.KeyValue{
		attribute.String("gen_ai.operation.name", "execute_tool"),
		attribute.String("gen_ai.tool.name", name),
	}
	if server != "" {
		spanName, kind = "tools/call "+name, trace.SpanKindClient
		attrs = append(attrs, attribute.String("mcp.method.name", "tools/call"), attribute.String("judge.upstream", server))
	}
	ctx, span := t.Tracer().Start(ctx, spanName, trace.WithSpanKind(kind), trace.WithAttributes(attrs...))
	if server != "" {
		ctx = executor.WithRequestMeta(ctx, t.InjectMeta(ctx))
	}
	return ctx, func(res *Result, err error) {
		switch {
		case err != nil:
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
			span.SetAttributes(attribute.String("error.type", "_OTHER"))
		case res != nil && (res.IsError || res.MCP != nil && res.MCP.IsError || resultIsError(res.Raw)):
			span.SetStatus(codes.Error, "tool_error")
			span.SetAttributes(attribute.String("error.type", "tool_error"))
		}
		span.End()
	}
}

// traceHTTP gives each HTTP request to the gateway its SERVER span,
// continuing its traceparent header's trace, and marks it as over tcp.
func (g *Gateway) traceHTTP(next http.Handler) http.Handler {
	t := g.opts.Telemetry
	if !t.Enabled() {
		return next
	}
	return t.Handler(func(string) string { return HTTPPath }, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(withTransport(r.Context(), "tcp")))
	}))
}

// toolCallID is the model's id of the call when the client gives it, as
// _meta.judge.tool_call_id; "" otherwise (MCP itself has none).
func toolCallID(meta map[string]any) string {
	j, _ := meta[MetaKey].(map[string]any)
	id, _ := j["tool_call_id"].(string)
	if len(id) > 256 {
		return ""
	}
	return id
}

// resultIsError reports whether the JSON of a CallToolResult says
// isError true.
func resultIsError(raw json.RawMessage) bool {
	if len(raw) == 0 || !bytes.Contains(raw, []byte(`"isError"`)) {
		return false
	}
	var r struct {
		IsError bool `json:"isError"`
	}
	return json.Unmarshal(raw, &r) == nil && r.IsError
}

// capped is raw as text, cut at maxContentAttr bytes.
func capped(raw []byte) string {
	if len(raw) > maxContentAttr {
		return string(raw[:maxContentAttr]) + "…"
	}
	return string(raw)
}

// isTraceMeta reports whether a _meta key carries context (traceparent,
// tracestate, baggage), which the fast path keeps for the call's span.
func isTraceMeta(k string) bool {
	for _, m := range telemetry.MetaKeys {
		if k == m {
			return true
		}
	}
	return false
}
