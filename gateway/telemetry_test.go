package gateway_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentjudge/judge/gateway"
	"github.com/agentjudge/judge/telemetry"
)

// TestCallSpans checks the spans of the gateway's tools/call with content
// capture on: a valid call is a SERVER span under the _meta traceparent
// with the arguments and result recorded and an execute_tool child for
// the registry tool; an invalid one is refused with judge.valid false, an
// issue event and error.type tool_error, and runs nothing.
func TestCallSpans(t *testing.T) {
	t.Parallel()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	b := &memBackend{
		tools: []gateway.Tool{{Name: "get_reservation", Description: "Read one reservation by its id, with flights and passengers",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"reservation_id": {"type": "string"}}, "required": ["reservation_id"], "additionalProperties": false}`)}},
		answer: map[string]func(map[string]any) string{"get_reservation": func(a map[string]any) string {
			return `{"reservation_id": "` + a["reservation_id"].(string) + `", "status": "confirmed"}`
		}},
	}
	g, err := gateway.New(context.Background(), b, gateway.Options{Telemetry: telemetry.ForProvider(tp, true)})
	if err != nil {
		t.Fatal(err)
	}
	cs := connectMem(t, g)
	_, caller := tp.Tracer("test").Start(context.Background(), "agent")
	caller.End()
	tp0 := "00-" + caller.SpanContext().TraceID().String() + "-" + caller.SpanContext().SpanID().String() + "-01"
	for _, args := range []map[string]any{{"reservation_id": "ABC123"}, {"reservation": "ABC123"}} {
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_reservation", Arguments: args, Meta: mcp.Meta{"traceparent": tp0}}); err != nil {
			t.Fatal(err)
		}
	}
	var servers, runs []sdktrace.ReadOnlySpan
	steps := map[string][]sdktrace.ReadOnlySpan{}
	for _, s := range rec.Ended() {
		switch {
		case s.Name() == "tools/call get_reservation" && s.SpanKind() == trace.SpanKindServer:
			servers = append(servers, s)
		case s.Name() == "execute_tool get_reservation":
			runs = append(runs, s)
		case s.Name() == "judge.check" || s.Name() == "judge.outcome":
			steps[s.Name()] = append(steps[s.Name()], s)
		}
	}
	if len(servers) != 2 || len(runs) != 1 {
		t.Fatalf("%d server spans and %d execute_tool spans, want 2 and 1", len(servers), len(runs))
	}
	ok, refused := attrs(servers[0]), attrs(servers[1])
	for i, s := range servers {
		if s.Parent().SpanID() != caller.SpanContext().SpanID() || s.SpanContext().TraceID() != caller.SpanContext().TraceID() {
			t.Errorf("call %d's parent %v, want the _meta traceparent's span", i, s.Parent().SpanID())
		}
	}
	if runs[0].Parent().SpanID() != servers[0].SpanContext().SpanID() {
		t.Errorf("execute_tool is not under the valid call's span")
	}
	// Both calls are checked; only the valid one runs and has its outcome
	// classified. Each step is a child of its call's span.
	if len(steps["judge.check"]) != 2 || len(steps["judge.outcome"]) != 1 {
		t.Fatalf("%d judge.check and %d judge.outcome spans, want 2 and 1", len(steps["judge.check"]), len(steps["judge.outcome"]))
	}
	if p := steps["judge.outcome"][0].Parent().SpanID(); p != servers[0].SpanContext().SpanID() {
		t.Errorf("judge.outcome is under %v, want the valid call's span", p)
	}
	for i, c := range steps["judge.check"] {
		if p := c.Parent().SpanID(); p != servers[0].SpanContext().SpanID() && p != servers[1].SpanContext().SpanID() {
			t.Errorf("judge.check %d is under %v, not a call's span", i, p)
		}
		if c.EndTime().Before(c.StartTime()) {
			t.Errorf("judge.check %d ends before it starts", i)
		}
	}
	if ok := attrs(servers[0]); ok["mcp.protocol.version"] != cs.InitializeResult().ProtocolVersion {
		t.Errorf("mcp.protocol.version = %q, want the session's %q", ok["mcp.protocol.version"], cs.InitializeResult().ProtocolVersion)
	}
	if ok["judge.valid"] != "true" || ok["judge.status"] != "SATISFIED" || ok["gen_ai.tool.call.arguments"] != `{"reservation_id":"ABC123"}` ||
		!strings.Contains(ok["gen_ai.tool.call.result"], "confirmed") || ok["error.type"] != "" {
		t.Errorf("valid call's attributes: %v", ok)
	}
	if refused["judge.valid"] != "false" || refused["error.type"] != "tool_error" || refused["judge.status"] != "" {
		t.Errorf("invalid call's attributes: %v", refused)
	}
	if ev := servers[1].Events(); len(ev) == 0 || ev[0].Name != "judge.issue" {
		t.Errorf("invalid call's events: %v", ev)
	}
	if got := b.received(); len(got) != 1 {
		t.Errorf("the backend ran %v, want only the valid call", got)
	}
}

func attrs(s sdktrace.ReadOnlySpan) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes() {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

// spoofHeader is an http.RoundTripper that sends the headers the gateway
// used internally under fixed names before it drew them at random, as a
// hostile client that read the old source could.
type spoofHeader struct{ next http.RoundTripper }

func (s spoofHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Judge-Internal-Jsonrpc-Id", "spoofed")
	r.Header.Set("Judge-Internal-Transport", "pipe")
	return s.next.RoundTrip(r)
}

// TestCallSpanSDKHandlerIgnoresClientHeaders: a library user who serves
// Gateway.Server through the SDK's own streamable HTTP handler, without
// the gateway's HTTP front to remove headers, still gets spans whose
// jsonrpc.request.id and network.transport no client header set.
func TestCallSpanSDKHandlerIgnoresClientHeaders(t *testing.T) {
	t.Parallel()
	g, rec := echoGateway(t)
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return g.Server() }, nil))
	t.Cleanup(srv.Close)
	hc := &http.Client{Transport: spoofHeader{http.DefaultTransport}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(),
		&mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}}); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range rec.Ended() {
		if s.Name() != "tools/call echo" {
			continue
		}
		n++
		if a := attrs(s); a["jsonrpc.request.id"] == "spoofed" || a["network.transport"] == "pipe" {
			t.Errorf("span attributes %v carry what the client's headers said", a)
		}
	}
	if n != 1 {
		t.Errorf("%d tools/call spans, want 1", n)
	}
}

// echoGateway is a gateway over one echo tool whose spans rec records.
func echoGateway(t *testing.T) (*gateway.Gateway, *tracetest.SpanRecorder) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	b := &memBackend{
		tools: []gateway.Tool{{Name: "echo", Description: "Echo a text back to the caller, unchanged",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}`)}},
		answer: map[string]func(map[string]any) string{"echo": func(a map[string]any) string { return a["text"].(string) }},
	}
	g, err := gateway.New(t.Context(), b, gateway.Options{Telemetry: telemetry.ForProvider(tp, false)})
	if err != nil {
		t.Fatal(err)
	}
	return g, rec
}

// TestCallSpanHTTPRequestID: over streamable HTTP, a tools/call's span
// carries the JSON-RPC id of the client's request whichever path answers
// it: the fast path, or the SDK's (a client that offers elicitation, and a
// call that arrives before its session's notifications/initialized is
// handled), and never an id the client put in a header.
func TestCallSpanHTTPRequestID(t *testing.T) {
	t.Parallel()
	for _, elicits := range []bool{false, true} {
		t.Run(fmt.Sprintf("elicitation=%v", elicits), func(t *testing.T) {
			t.Parallel()
			g, rec := echoGateway(t)
			srv := httptest.NewServer(g.HTTPHandler(gateway.HTTPOptions{Loopback: true}))
			t.Cleanup(srv.Close)
			var opts *mcp.ClientOptions
			if elicits {
				opts = &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return nil, errors.New("no person here")
				}}
			}
			hc := &http.Client{Transport: spoofHeader{http.DefaultTransport}}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(t.Context(),
				&mcp.StreamableClientTransport{Endpoint: srv.URL + gateway.HTTPPath, HTTPClient: hc}, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			for range 3 {
				if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}}); err != nil {
					t.Fatal(err)
				}
			}
			n := 0
			for _, s := range rec.Ended() {
				if s.Name() != "tools/call echo" || s.SpanKind() != trace.SpanKindServer {
					continue
				}
				n++
				a := attrs(s)
				if id := a["jsonrpc.request.id"]; id == "" || strings.Trim(id, "0123456789") != "" {
					t.Errorf("jsonrpc.request.id = %q, want the client's numeric id", id)
				}
				if a["mcp.method.name"] != "tools/call" || a["network.transport"] != "tcp" || a["network.protocol.name"] != "http" ||
					a["mcp.protocol.version"] != cs.InitializeResult().ProtocolVersion {
					t.Errorf("%v, want mcp.method.name tools/call, network.transport tcp, network.protocol.name http and the session's protocol version", a)
				}
			}
			if n != 3 {
				t.Errorf("%d tools/call spans, want 3", n)
			}
		})
	}
}

// TestCallSpanStdioRequestID: over stdio, with the go-sdk's client on the
// gateway's stdio transport, a tools/call's span carries the same MCP
// attributes whichever path answers it: the fast path (a plain call), or
// the SDK's (a call with members the fast path leaves to the SDK,
// requestState here): the client's JSON-RPC id as jsonrpc.request.id,
// mcp.method.name, network.transport pipe and the session's protocol
// version.
func TestCallSpanStdioRequestID(t *testing.T) {
	t.Parallel()
	g, rec := echoGateway(t)
	var taken atomic.Int32
	cs := serveFast(t, g, &taken)
	for _, p := range []*mcp.CallToolParams{
		{Name: "echo", Arguments: map[string]any{"text": "fast"}},
		{Name: "echo", Arguments: map[string]any{"text": "sdk"}, RequestState: "opaque"},
	} {
		if _, err := cs.CallTool(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	}
	if n := taken.Load(); n != 1 {
		t.Fatalf("the fast path took %d calls, want the plain one only", n)
	}
	var spans []map[string]string
	for _, s := range rec.Ended() {
		if s.Name() == "tools/call echo" && s.SpanKind() == trace.SpanKindServer {
			spans = append(spans, attrs(s))
		}
	}
	if len(spans) != 2 {
		t.Fatalf("%d tools/call spans, want 2", len(spans))
	}
	for i, a := range spans {
		if id := a["jsonrpc.request.id"]; id == "" || strings.Trim(id, "0123456789") != "" {
			t.Errorf("span %d: jsonrpc.request.id = %q, want the client's numeric id", i, id)
		}
		if a["mcp.method.name"] != "tools/call" || a["network.transport"] != "pipe" || a["mcp.protocol.version"] != cs.InitializeResult().ProtocolVersion {
			t.Errorf("span %d: %v, want mcp.method.name tools/call, network.transport pipe and the session's protocol version", i, a)
		}
	}
	if spans[0]["jsonrpc.request.id"] == spans[1]["jsonrpc.request.id"] {
		t.Errorf("both calls' spans carry the id %q", spans[0]["jsonrpc.request.id"])
	}
}
