package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/telemetry"
)

// BenchmarkValidateTelemetry measures POST /validate over loopback with
// span export off (no Telemetry: no span is started) and on (every
// request's spans batched and sent by the OTLP/HTTP exporter to a loopback
// receiver that reads and discards them), the request carrying a
// traceparent; "large" posts the bench corpus's large document (from
// ../shared) instead. docs/observability.md gives the figures.
func BenchmarkValidateTelemetry(b *testing.B) {
	for _, c := range []struct {
		name   string
		export bool
		large  bool
	}{{"off", false, false}, {"on", true, false}, {"large/off", false, true}, {"large/on", true, true}} {
		export := c.export
		b.Run(c.name, func(b *testing.B) {
			body := inlineToolOutput
			if c.large {
				lc := sharedtest.LoadBenchCorpus(b).Large
				r, _ := json.Marshal(map[string]any{"output": json.RawMessage(lc.Valid), "expected_schema": lc.Schema})
				body = string(r)
			}
			var opts []judge.Option
			var tel *telemetry.Telemetry
			var received atomic.Int64
			if export {
				sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					n, _ := io.Copy(io.Discard, r.Body)
					received.Add(n)
				}))
				defer sink.Close()
				var err error
				tel, err = telemetry.New(context.Background(), telemetry.Config{Export: true, Protocol: "http/protobuf", Endpoint: sink.URL + "/v1/traces"})
				if err != nil {
					b.Fatal(err)
				}
				opts = append(opts, judge.WithTracerProvider(tel.TracerProvider))
			}
			s := New(newEngine(b, opts...), Options{Telemetry: tel})
			ts := httptest.NewServer(s.Handler())
			defer ts.Close()
			client := ts.Client()
			client.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				req, _ := http.NewRequest(http.MethodPost, ts.URL+"/validate", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
			b.StopTimer()
			if export {
				if err := tel.Shutdown(context.Background()); err != nil {
					b.Fatal(err)
				}
				if received.Load() == 0 {
					b.Fatal("the exporter sent nothing")
				}
			}
		})
	}
}
