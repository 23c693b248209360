package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/internal/accesslog"
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

// dropExporter exports nothing: the batch processor's own cost.
type dropExporter struct{}

func (dropExporter) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (dropExporter) Shutdown(context.Context) error                             { return nil }

// countExporter counts the spans it is given and sends nothing.
type countExporter struct{ n atomic.Int64 }

func (e *countExporter) ExportSpans(_ context.Context, spans []sdktrace.ReadOnlySpan) error {
	e.n.Add(int64(len(spans)))
	return nil
}
func (*countExporter) Shutdown(context.Context) error { return nil }

// dropProcessor keeps no span: the cost of recording spans alone.
type dropProcessor struct{}

func (dropProcessor) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (dropProcessor) OnEnd(sdktrace.ReadOnlySpan)                     {}
func (dropProcessor) Shutdown(context.Context) error                  { return nil }
func (dropProcessor) ForceFlush(context.Context) error                { return nil }

// BenchmarkTelemetryParts splits the cost of export on into its parts,
// each a step up from the one before: off (no span), spans (recorded
// and dropped at End), batch (the SDK's batch processor, an exporter
// that sends nothing), official (the official OTLP/HTTP exporter to a
// loopback receiver), export-sdk (judge's own OTLP/HTTP exporter, to
// the same receiver, the SDK's spans: judge serve before decision 90)
// and export (what judge serve does: judge's own recorder and exporter). It reports the process's CPU time per request (cpu-µs/op),
// which moves less than wall time on a shared machine; run with -count
// to interleave the parts. "inline" takes the layers' path (4 spans),
// "corpus" the bench corpus's schema-only documents, answered by the
// engine's fast path (2 spans). docs/observability.md gives the figures.
func BenchmarkTelemetryParts(b *testing.B) {
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.Copy(io.Discard, r.Body) }))
	defer sink.Close()
	var corpus []string
	for _, c := range sharedtest.LoadBenchCorpus(b).Cases {
		r, _ := json.Marshal(map[string]any{"output": json.RawMessage(c.Valid), "expected_schema": c.Schema})
		corpus = append(corpus, string(r))
	}
	for _, w := range []struct {
		name   string
		bodies []string
	}{{"inline", []string{inlineToolOutput}}, {"corpus", corpus}} {
		for _, part := range []string{"off", "spans", "batch", "official", "export-sdk", "export"} {
			b.Run(w.name+"/"+part, func(b *testing.B) {
				var tel *telemetry.Telemetry
				switch part {
				case "spans":
					tel = telemetry.ForProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(dropProcessor{})), false)
				case "batch":
					tel = telemetry.ForProvider(sdktrace.NewTracerProvider(sdktrace.WithBatcher(dropExporter{})), false)
				case "official":
					exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(sink.URL+"/v1/traces"))
					if err != nil {
						b.Fatal(err)
					}
					tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp))
					defer tp.Shutdown(context.Background())
					tel = telemetry.ForProvider(tp, false)
				case "export-sdk", "export":
					var err error
					if tel, err = telemetry.New(context.Background(), telemetry.Config{Export: true, Protocol: "http/protobuf", Endpoint: sink.URL + "/v1/traces", SDKSpans: part == "export-sdk"}); err != nil {
						b.Fatal(err)
					}
				}
				var opts []judge.Option
				if tel != nil {
					opts = append(opts, judge.WithTracerProvider(tel.TracerProvider))
				}
				s := New(newEngine(b, opts...), Options{Telemetry: tel, Logger: serveLogger()})
				ts := httptest.NewServer(s.Handler())
				defer ts.Close()
				client := ts.Client()
				b.ReportAllocs()
				c0, i := cpuTime(b), 0
				for b.Loop() {
					req, _ := http.NewRequest(http.MethodPost, ts.URL+"/validate", strings.NewReader(w.bodies[i%len(w.bodies)]))
					i++
					req.Header.Set("Content-Type", "application/json")
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
				b.ReportMetric(float64(cpuTime(b)-c0)/1e3/float64(b.N), "cpu-µs/op") // cpuTime: bench_test.go
				if tel != nil {
					if err := tel.Shutdown(context.Background()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkTelemetryRecord measures what recording spans costs POST
// /validate, in process and without the network (the server's handler
// and middleware, the JSON access log as judge serve writes it: its
// buffer and its direct access line, serveLogger), over the
// bench row's documents (the 234 tool-argument documents, valid and
// invalid in turn: the engine's fast path, 2 spans a request), from 4
// goroutines at once as the bench row's 4 connections: off (no span),
// spans (recorded, dropped at End), sdkbatch (a caller's provider with
// the SDK's batch processor, whose exporter sends nothing: what judge
// serve did before its own processor), judge (judge's own batch
// processor and the SDK's spans, with an exporter that sends nothing),
// and what judge serve does, to a loopback receiver: serve-sdk (the
// SDK's spans, judge's batch processor and OTLP/HTTP exporter: judge
// serve before decision 90) and serve (judge's own recorder, decision 90).
// cpu-ns/op is the process's CPU time per request, the garbage
// collector's included.
func BenchmarkTelemetryRecord(b *testing.B) {
	bodies := corpusBodies(b)
	var received atomic.Int64
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		received.Add(n)
	}))
	defer sink.Close()
	for _, part := range []string{"off", "spans", "sdkbatch", "judge", "serve-sdk", "serve"} {
		b.Run(part, func(b *testing.B) {
			var tel *telemetry.Telemetry
			counter := &countExporter{}
			switch part {
			case "serve-sdk", "serve":
				var err error
				tel, err = telemetry.New(context.Background(), telemetry.Config{Export: true, Protocol: "http/protobuf", Endpoint: sink.URL + "/v1/traces", SDKSpans: part == "serve-sdk",
					Batch: telemetry.Batch{MaxQueueSize: 1 << 20}}) // nothing dropped: every span encoded and sent
				if err != nil {
					b.Fatal(err)
				}
			case "spans":
				tel = telemetry.ForProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(dropProcessor{})), false)
			case "sdkbatch":
				tel = telemetry.ForProvider(sdktrace.NewTracerProvider(sdktrace.WithBatcher(counter)), false)
			case "judge":
				tel = telemetry.WithExporter(telemetry.Config{Export: true}, counter)
			}
			var opts []judge.Option
			if tel != nil {
				opts = append(opts, judge.WithTracerProvider(tel.TracerProvider))
			}
			h := New(newEngine(b, opts...), Options{Telemetry: tel, Logger: serveLogger()}).Handler()
			for _, body := range bodies { // compile every schema
				req := httptest.NewRequest(http.MethodPost, "/validate", bytes.NewReader(body))
				h.ServeHTTP(&discardWriter{h: http.Header{}}, req)
			}
			var flusher interface{ ForceFlush(context.Context) error } // judge's provider's and the SDK's
			if tel != nil {
				flusher, _ = tel.TracerProvider.(interface{ ForceFlush(context.Context) error })
			}
			var next atomic.Int64
			b.ReportAllocs()
			b.SetParallelism(2) // 4 goroutines on 2 cores
			cpu0 := cpuTime(b)
			b.RunParallel(func(pb *testing.PB) {
				rd := bytes.NewReader(nil)
				for pb.Next() {
					i := next.Add(1)
					rd.Reset(bodies[int(i)%len(bodies)])
					req := httptest.NewRequest(http.MethodPost, "/validate", rd)
					req.Header.Set("Content-Type", "application/json")
					w := &discardWriter{h: http.Header{}}
					h.ServeHTTP(w, req)
					if w.status != http.StatusOK {
						b.Errorf("status %d", w.status)
						return
					}
					// In judge serve the exporting goroutine keeps up (a
					// request waits on its connection, and the POSTs' answers
					// are read at once); here, on one processor
					// (bench/otel-cg.py), nothing waits and the network is
					// polled every 10 ms, so the queue grew to thousands of
					// spans and its arena's growth was counted as export's
					// cost (at 300,000 requests, a fifth of the CPU time). A
					// flush every 256 requests (512 spans, a batch) keeps
					// the queue to about a batch.
					if flusher != nil && i%256 == 0 {
						if err := flusher.ForceFlush(context.Background()); err != nil {
							b.Error(err)
							return
						}
					}
				}
			})
			b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/op")
			if tel != nil {
				if err := tel.Shutdown(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
			if part == "sdkbatch" || part == "judge" { // below the spans made when the queue had no room (the SDK's processor drops silently)
				b.ReportMetric(float64(counter.n.Load())/float64(b.N+len(bodies)), "exported/op")
			}
		})
	}
}

// serveLogger is judge serve's logger writing to io.Discard: the access
// log's buffer and handler (internal/accesslog: the access-log line
// written directly, not through slog.JSONHandler) under
// telemetry.LogHandler, as cmd/judge's runServe and startTelemetry make it.
func serveLogger() *slog.Logger {
	return slog.New(telemetry.LogHandler(accesslog.NewHandler(accesslog.NewBuffer(io.Discard, time.Hour), slog.LevelInfo)))
}
