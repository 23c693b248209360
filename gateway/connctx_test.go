package gateway_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/agentjudge/judge/gateway"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/telemetry"
)

// TestHTTPServerConnContext serves the gateway through Gateway.HTTPServer
// (what judge gateway --http serves) on a real loopback listener, with
// judge's own spans exported to a loopback OTLP receiver, and sends MCP
// initialize requests in turn on one kept-alive connection, with and
// without a traceparent header: each request's "POST /mcp" SERVER span is
// the child of its traceparent or a root, and the trace API asks the
// context the connection started from for a span once (telemetry's
// ConnContext), not once a request without a traceparent.
func TestHTTPServerConnContext(t *testing.T) {
	t.Parallel()
	sink := sharedtest.NewOTLPSink(t)
	tel, err := telemetry.New(context.Background(), telemetry.Config{Export: true, Protocol: "http/protobuf", Endpoint: sink.URL})
	if err != nil {
		t.Fatal(err)
	}
	b := &memBackend{tools: []gateway.Tool{{Name: "echo", Description: "Echo a text back to the caller, unchanged",
		InputSchema: json.RawMessage(`{"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}`)}}}
	g, err := gateway.New(t.Context(), b, gateway.Options{Telemetry: tel})
	if err != nil {
		t.Fatal(err)
	}
	srv := g.HTTPServer(gateway.HTTPOptions{Loopback: true})
	lookups := sharedtest.NewSpanLookups(context.Background())
	srv.BaseContext = func(net.Listener) context.Context { return lookups }
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &sharedtest.CountingListener{Listener: l}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	// Three requests without a traceparent: without ConnContext each of
	// their spans asks the connection's context for a parent.
	parents := []string{"00f067aa0ba902b7", "", "", "b7ad6b7169203331", ""}
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}} // one connection for all
	for i, parent := range parents {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, i+1)
		req, err := http.NewRequest(http.MethodPost, "http://"+ln.Addr().String()+gateway.HTTPPath, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if parent != "" {
			req.Header.Set("traceparent", fmt.Sprintf("00-4bf92f3577b34da6a3ce929d0e0e473%d-%s-01", i, parent))
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(answer), `"protocolVersion"`) {
			t.Fatalf("initialize: status %d, %s", resp.StatusCode, answer)
		}
	}
	client.CloseIdleConnections()
	if err := srv.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		t.Fatalf("Serve: %v", err)
	}
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	sharedtest.CheckConnSpans(t, lookups, ln, sink, "POST "+gateway.HTTPPath, parents)
}
