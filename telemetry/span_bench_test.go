package telemetry

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentjudge/judge/internal/otelattr"
	"github.com/agentjudge/judge/result"
)

// BenchmarkSpans records a fast-path request's two spans as judge serve
// does (a SERVER span with its request attributes and status set at the
// end, a judge.validate child with the verdict), exported to a loopback
// receiver (which reads and discards them) in batches: sdk with the SDK's spans (Config.SDKSpans), judge
// with judge's own. cpu-ns/op is the process's CPU time per request,
// the exporter, the receiver and the garbage collector included.
//
// serve records them as judge serve does, through the same calls: the
// SERVER span started and ended by StartRequest and EndRequest at the
// middleware's times, the access-log line's ids (ContextAttrs), and the
// engine's judge.validate span with the verdict of a valid document of
// the fast path set by otelattr.Setter.
func BenchmarkSpans(b *testing.B) {
	for _, part := range []string{"sdk", "judge", "serve"} {
		b.Run(part, func(b *testing.B) {
			sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.Copy(io.Discard, r.Body) }))
			defer sink.Close()
			tel, err := New(context.Background(), Config{Export: true, Protocol: "http/protobuf", Endpoint: sink.URL + "/v1/traces",
				SDKSpans: part == "sdk", Batch: Batch{MaxQueueSize: 1 << 20}})
			if err != nil {
				b.Fatal(err)
			}
			tr := tel.Tracer()
			kind := trace.WithSpanKind(trace.SpanKindServer)
			b.ReportAllocs()
			cpu0 := cpuNow(b)
			if part == "serve" {
				r := httptest.NewRequest(http.MethodPost, "/validate", nil)
				var set otelattr.Setter
				res := &result.ValidationResult{Valid: true, Confidence: 1, QualityScore: 1, Metadata: result.Metadata{ValidationTypesRun: []string{"schema"}}}
				for b.Loop() {
					start := time.Now()
					ctx := tel.StartRequest(r.Context(), r, "/validate", start)
					_, v := tr.Start(ctx, "judge.validate")
					set.Verdict(v, res, otelattr.FastPath.Bool(true))
					v.End()
					if _, n, _ := (&logHandler{}).ContextAttrs(ctx); n != 2 {
						b.Fatal("no log ids")
					}
					tel.EndRequest(ctx, r, "/validate", http.StatusOK, start.Add(time.Since(start)))
				}
			}
			for part != "serve" && b.Loop() {
				ctx, srv := tr.Start(context.Background(), "POST /validate", kind)
				_, v := tr.Start(ctx, "judge.validate")
				v.SetAttributes(attribute.Bool("judge.valid", true), attribute.Float64("judge.confidence", 1), attribute.Float64("judge.quality_score", 1),
					attribute.Int("judge.issue_count", 0), attribute.Int("judge.error_count", 0), attribute.Int("judge.warning_count", 0),
					attribute.Int("judge.info_count", 0), attribute.StringSlice("judge.validation_types", []string{"schema"}), attribute.Bool("judge.fast_path", true))
				v.End()
				srv.SetAttributes(attribute.String("http.request.method", "POST"), attribute.String("http.route", "/validate"), attribute.String("url.path", "/validate"),
					attribute.String("url.scheme", "http"), attribute.String("network.protocol.version", "1.1"), attribute.Int("http.response.status_code", 200))
				srv.End()
			}
			b.StopTimer()
			if err := tel.Shutdown(context.Background()); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(cpuNow(b)-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

func cpuNow(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
