package gateway_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"

	"github.com/agentjudge/judge/gateway"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/telemetry"
)

// TestCallSpansAgreeWithSDK makes the same tools/call requests (a valid
// call, run, and an invalid one, refused with an issue event; with and
// without a _meta traceparent) through a gateway whose spans judge's own
// recorder records and one whose spans the official SDK records
// (Config.SDKSpans), with message content capture on and off, both
// exported by judge's OTLP/HTTP exporter to a loopback receiver, and
// compares the decoded exports span by span, ids and times aside.
func TestCallSpansAgreeWithSDK(t *testing.T) {
	t.Parallel()
	for _, capture := range []bool{true, false} {
		run := func(sdk bool) [][]sharedtest.NormSpan {
			sink := sharedtest.NewOTLPSink(t)
			tel, err := telemetry.New(context.Background(), telemetry.Config{Export: true, Protocol: "http/protobuf", Endpoint: sink.URL, CaptureContent: capture, SDKSpans: sdk})
			if err != nil {
				t.Fatal(err)
			}
			b := &memBackend{
				tools: []gateway.Tool{{Name: "get_reservation", Description: "Read one reservation by its id, with flights and passengers",
					InputSchema: json.RawMessage(`{"type": "object", "properties": {"reservation_id": {"type": "string"}}, "required": ["reservation_id"], "additionalProperties": false}`)}},
				answer: map[string]func(map[string]any) string{"get_reservation": func(a map[string]any) string {
					return `{"reservation_id": "` + a["reservation_id"].(string) + `", "status": "confirmed"}`
				}},
			}
			g, err := gateway.New(context.Background(), b, gateway.Options{Telemetry: tel})
			if err != nil {
				t.Fatal(err)
			}
			cs := connectMem(t, g)
			for i, args := range []map[string]any{{"reservation_id": "ABC123"}, {"reservation": "ABC123"}, {"reservation_id": "XYZ"}} {
				meta := mcp.Meta{}
				if i != 2 {
					meta["traceparent"] = []string{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "00-5bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}[i]
					meta["tracestate"] = "vendor=1"
				}
				if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_reservation", Arguments: args, Meta: meta}); err != nil {
					t.Fatal(err)
				}
			}
			if err := tel.Shutdown(context.Background()); err != nil {
				t.Fatal(err)
			}
			traces := sink.Traces(t)
			for _, tr := range traces {
				for _, s := range tr {
					for _, kv := range s.Span.Attributes {
						if kv.Key == "mcp.session.id" { // random, as ids are
							kv.Value.Value = &commonpb.AnyValue_StringValue{StringValue: "a session"}
						}
					}
				}
			}
			return traces
		}
		sdk, own := run(true), run(false)
		if len(sdk) < 3 {
			t.Fatalf("capture %v: the SDK exported %d traces, want 3 calls' at least", capture, len(sdk))
		}
		if len(own) != len(sdk) {
			t.Fatalf("capture %v: judge's export has %d traces, the SDK's %d", capture, len(own), len(sdk))
		}
		events := 0
		for i := range sdk {
			if len(own[i]) != len(sdk[i]) {
				t.Errorf("capture %v, trace %d: %d spans, the SDK's %d", capture, i, len(own[i]), len(sdk[i]))
				continue
			}
			for j := range sdk[i] {
				if !own[i][j].Equal(sdk[i][j]) {
					t.Errorf("capture %v, trace %d, span %d differs:\njudge's:\n%s\nthe SDK's:\n%s", capture, i, j, own[i][j], sdk[i][j])
				}
				events += len(sdk[i][j].Span.Events)
			}
		}
		if events == 0 {
			t.Errorf("capture %v: no span has an event: the invalid call's issue is missing", capture)
		}
	}
}
