package telemetry_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	oteltrace "go.opentelemetry.io/otel/trace"

	"github.com/agentjudge/judge/internal/accesslog"
	"github.com/agentjudge/judge/internal/httpapi"
	"github.com/agentjudge/judge/telemetry"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestReadConfig(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		env      map[string]string
		export   bool
		protocol string
		endpoint string
		service  string
		err      string
	}{
		{name: "unset exports nothing", env: nil},
		{name: "base endpoint gets /v1/traces", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318/"},
			export: true, protocol: "http/protobuf", endpoint: "http://collector:4318/v1/traces", service: "judge"},
		{name: "traces endpoint as it is", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://b/x"},
			export: true, protocol: "http/protobuf", endpoint: "https://b/x", service: "judge"},
		{name: "grpc base endpoint as it is", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"},
			export: true, protocol: "grpc", endpoint: "http://a:4317", service: "judge"},
		{name: "otlp exporter named defaults to localhost", env: map[string]string{"OTEL_TRACES_EXPORTER": "otlp"},
			export: true, protocol: "http/protobuf", endpoint: "http://localhost:4318/v1/traces", service: "judge"},
		{name: "service name", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a", "OTEL_SERVICE_NAME": "checker", "OTEL_RESOURCE_ATTRIBUTES": "service.name=x,deployment.environment=prod%20eu"},
			export: true, protocol: "http/protobuf", endpoint: "http://a/v1/traces", service: "checker"},
		{name: "service name from resource attributes", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a", "OTEL_RESOURCE_ATTRIBUTES": "service.name=x"},
			export: true, protocol: "http/protobuf", endpoint: "http://a/v1/traces", service: "x"},
		{name: "sdk disabled", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a", "OTEL_SDK_DISABLED": "true"}},
		{name: "exporter none", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a", "OTEL_TRACES_EXPORTER": "none"}},
		{name: "bad protocol", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a", "OTEL_EXPORTER_OTLP_PROTOCOL": "udp"}, err: "OTEL_EXPORTER_OTLP_PROTOCOL"},
		{name: "bad exporter", env: map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"}, err: "OTEL_TRACES_EXPORTER"},
		{name: "bad sampler", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a", "OTEL_TRACES_SAMPLER": "sometimes"}, err: "OTEL_TRACES_SAMPLER"},
		{name: "bad ratio", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a", "OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "2"}, err: "OTEL_TRACES_SAMPLER_ARG"},
		{name: "endpoint not a URL", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4318"}, err: "not an http(s) URL"},
		{name: "bad boolean", env: map[string]string{"OTEL_SDK_DISABLED": "yes"}, err: "OTEL_SDK_DISABLED"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := telemetry.ReadConfig(env(c.env))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one naming %s", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Export != c.export || c.export && (got.Protocol != c.protocol || got.Endpoint != c.endpoint) {
				t.Fatalf("export %v %s %s, want %v %s %s", got.Export, got.Protocol, got.Endpoint, c.export, c.protocol, c.endpoint)
			}
			if c.export {
				svc := ""
				for _, kv := range got.Resource {
					if kv.Key == "service.name" {
						svc = kv.Value.AsString()
					}
				}
				if svc != c.service {
					t.Errorf("service.name %q, want %q", svc, c.service)
				}
			}
		})
	}
}

// TestDisabled checks that without export the Telemetry
// records nothing and starts no HTTP span.
func TestDisabled(t *testing.T) {
	t.Parallel()
	tel, err := telemetry.New(context.Background(), telemetry.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if tel.Enabled() {
		t.Fatal("a Telemetry without export says it is enabled")
	}
	_, span := tel.Tracer().Start(context.Background(), "x")
	if span.IsRecording() || span.SpanContext().IsValid() {
		t.Error("the disabled tracer made a recording span")
	}
}

// TestMetaRoundTrip carries a span context through an MCP _meta: what
// InjectMeta writes, ExtractMeta reads back as the remote parent.
func TestMetaRoundTrip(t *testing.T) {
	t.Parallel()
	tp := trace.NewTracerProvider()
	tel := telemetry.Disabled()
	ctx, span := tp.Tracer("t").Start(context.Background(), "caller")
	defer span.End()
	out := tel.InjectMeta(ctx)
	if !strings.HasPrefix(out["traceparent"], "00-"+span.SpanContext().TraceID().String()+"-"+span.SpanContext().SpanID().String()) {
		t.Fatalf("traceparent %q does not carry the span", out["traceparent"])
	}
	meta := map[string]any{"traceparent": out["traceparent"], "judge": map[string]any{}}
	got, ok := tel.ExtractMeta(context.Background(), meta)
	sc := oteltrace.SpanContextFromContext(got)
	if !ok || sc.SpanID() != span.SpanContext().SpanID() || !sc.IsRemote() {
		t.Errorf("extracted %v (ok %v), want the caller's span as remote", sc, ok)
	}
	for _, bad := range []map[string]any{nil, {"traceparent": 7}, {"traceparent": "00-zz-yy-01"}} {
		if _, ok := tel.ExtractMeta(context.Background(), bad); ok {
			t.Errorf("ExtractMeta(%v) found a context", bad)
		}
	}
	if m := tel.InjectMeta(context.Background()); m != nil {
		t.Errorf("InjectMeta without a span = %v", m)
	}
}

// TestLogHandler checks that a line logged under a span carries its ids,
// and one logged without none.
func TestLogHandler(t *testing.T) {
	t.Parallel()
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.Copy(io.Discard, r.Body) }))
	defer sink.Close()
	own, err := telemetry.New(context.Background(), telemetry.Config{Export: true, Protocol: "http/protobuf", Endpoint: sink.URL + "/v1/traces"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = own.Shutdown(context.Background()) }()
	for _, c := range []struct {
		name string
		tp   oteltrace.TracerProvider
		kind oteltrace.SpanKind
	}{{"sdk", trace.NewTracerProvider(), oteltrace.SpanKindInternal}, {"sdk/server", trace.NewTracerProvider(), oteltrace.SpanKindServer},
		{"judge", own.TracerProvider, oteltrace.SpanKindInternal}, {"judge/server", own.TracerProvider, oteltrace.SpanKindServer}} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			log := slog.New(telemetry.LogHandler(slog.NewJSONHandler(&buf, nil))).With("app", "judge")
			ctx, span := c.tp.Tracer("t").Start(context.Background(), "x", oteltrace.WithSpanKind(c.kind))
			log.InfoContext(ctx, "with")
			log.InfoContext(ctx, "again") // judge's SERVER span: the ids it wrote for the first line
			span.End()
			log.InfoContext(ctx, "ended")
			log.InfoContext(context.Background(), "without")
			lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
			if len(lines) != 4 {
				t.Fatalf("%d lines", len(lines))
			}
			for i, l := range lines[:3] {
				var with map[string]any
				_ = json.Unmarshal([]byte(l), &with)
				if with["trace_id"] != span.SpanContext().TraceID().String() || with["span_id"] != span.SpanContext().SpanID().String() || with["app"] != "judge" {
					t.Errorf("line %d under a span: %s", i, l)
				}
			}
			var without map[string]any
			_ = json.Unmarshal([]byte(lines[3]), &without)
			if _, ok := without["trace_id"]; ok {
				t.Errorf("line without a span has a trace_id: %s", lines[3])
			}
		})
	}
}

// TestLogHandlerContextAttrs: a record made with the attributes
// ContextAttrs gives, handed to the handler it gives, is the line Handle
// writes for the record without them, under a span and without one.
func TestLogHandlerContextAttrs(t *testing.T) {
	t.Parallel()
	ctx, span := trace.NewTracerProvider().Tracer("t").Start(context.Background(), "x")
	defer span.End()
	at := time.Date(2026, 11, 27, 16, 0, 0, 0, time.UTC)
	attrs := []slog.Attr{slog.String("a", "1"), slog.Int("b", 2), slog.String("c", "3"), slog.String("d", "4"), slog.String("e", "5"), slog.String("f", "6")}
	for _, c := range []struct {
		name string
		ctx  context.Context
		n    int
	}{{"under a span", ctx, 2}, {"without a span", context.Background(), 0}} {
		var handled, made bytes.Buffer
		h := telemetry.LogHandler(slog.NewJSONHandler(&handled, nil))
		rec := slog.NewRecord(at, slog.LevelInfo, "request", 0)
		rec.AddAttrs(attrs...)
		if err := h.Handle(c.ctx, rec); err != nil {
			t.Fatal(err)
		}
		ch, ok := telemetry.LogHandler(slog.NewJSONHandler(&made, nil)).(interface {
			ContextAttrs(context.Context) ([2]slog.Attr, int, slog.Handler)
		})
		if !ok {
			t.Fatal("LogHandler has no ContextAttrs")
		}
		extra, n, next := ch.ContextAttrs(c.ctx)
		if n != c.n {
			t.Fatalf("%s: %d attributes, want %d", c.name, n, c.n)
		}
		rec = slog.NewRecord(at, slog.LevelInfo, "request", 0)
		rec.AddAttrs(append(slices.Clone(attrs), extra[:n]...)...)
		if err := next.Handle(c.ctx, rec); err != nil {
			t.Fatal(err)
		}
		if handled.String() != made.String() {
			t.Errorf("%s: made with ContextAttrs\n%s\nwhere Handle wrote\n%s", c.name, made.String(), handled.String())
		}
		if c.n > 0 && !strings.Contains(made.String(), `"trace_id":"`+span.SpanContext().TraceID().String()+`","span_id":"`+span.SpanContext().SpanID().String()+`"`) {
			t.Errorf("%s: no ids in %s", c.name, made.String())
		}
	}
}

// TestBatchConfig: the OTEL_BSP_* variables are read into Config.Batch
// (zero: the default, which judge's processor fills in; 0 ms: no wait or
// no bound), and a value that is not a number is an error naming it.
func TestBatchConfig(t *testing.T) {
	t.Parallel()
	base := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a"}
	for _, c := range []struct {
		env  map[string]string
		want telemetry.Batch
		err  string
	}{
		{base, telemetry.Batch{}, ""},
		{map[string]string{"OTEL_BSP_SCHEDULE_DELAY": "200"}, telemetry.Batch{Delay: 200 * time.Millisecond}, ""},
		{map[string]string{"OTEL_BSP_SCHEDULE_DELAY": "0"}, telemetry.Batch{Delay: -1}, ""},
		{map[string]string{"OTEL_BSP_EXPORT_TIMEOUT": "1500"}, telemetry.Batch{ExportTimeout: 1500 * time.Millisecond}, ""},
		{map[string]string{"OTEL_BSP_EXPORT_TIMEOUT": "0"}, telemetry.Batch{ExportTimeout: -1}, ""},
		{map[string]string{"OTEL_BSP_MAX_QUEUE_SIZE": "100", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "10"}, telemetry.Batch{MaxQueueSize: 100, MaxExportBatchSize: 10}, ""},
		{map[string]string{"OTEL_BSP_MAX_QUEUE_SIZE": "0"}, telemetry.Batch{}, "OTEL_BSP_MAX_QUEUE_SIZE"},
		{map[string]string{"OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "ten"}, telemetry.Batch{}, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE"},
		{map[string]string{"OTEL_BSP_SCHEDULE_DELAY": "-5"}, telemetry.Batch{}, "OTEL_BSP_SCHEDULE_DELAY"},
		{map[string]string{"OTEL_BSP_EXPORT_TIMEOUT": "99999999999999999"}, telemetry.Batch{}, "OTEL_BSP_EXPORT_TIMEOUT"},
	} {
		vars := map[string]string{}
		for k, v := range base {
			vars[k] = v
		}
		for k, v := range c.env {
			vars[k] = v
		}
		got, err := telemetry.ReadConfig(env(vars))
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v: error %v, want one naming %s", c.env, err, c.err)
		case c.err == "" && (err != nil || got.Batch != c.want):
			t.Errorf("%v: %+v (%v), want %+v", c.env, got.Batch, err, c.want)
		}
	}
}

// TestHTTPServerContext: a request's SERVER span continues its
// traceparent header, carries its baggage, and is a root without either.
func TestHTTPServerContext(t *testing.T) {
	t.Parallel()
	rec := tracetest.NewSpanRecorder()
	tel := telemetry.ForProvider(trace.NewTracerProvider(trace.WithSpanProcessor(rec)), false)
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	for _, c := range []struct {
		name            string
		header          map[string]string
		parent, baggage string
	}{
		{"traceparent", map[string]string{"traceparent": tp}, "00f067aa0ba902b7", ""},
		{"baggage only", map[string]string{"baggage": "tenant=acme"}, "", "acme"},
		{"neither", nil, "", ""},
	} {
		r := httptest.NewRequest(http.MethodPost, "/validate", nil)
		for k, v := range c.header {
			r.Header.Set(k, v)
		}
		r2, end := tel.StartHTTPServer(r, "/validate")
		got := baggage.FromContext(r2.Context()).Member("tenant").Value()
		end(http.StatusOK)
		spans := rec.Ended()
		s := spans[len(spans)-1]
		parent := ""
		if s.Parent().IsValid() {
			parent = s.Parent().SpanID().String()
		}
		if parent != c.parent || got != c.baggage {
			t.Errorf("%s: parent %q, baggage %q; want %q, %q", c.name, parent, got, c.parent, c.baggage)
		}
	}
}

// TestLogHandlerIDs: over judge serve's access log (internal/accesslog,
// which takes the ids' digits from LogHandler rather than as attributes),
// a record logged under a span, or under none, is written as over
// slog.JSONHandler, through Handle and through ContextAttrs as
// internal/httpapi's access log uses it: an access line the access log
// writes directly, one it leaves to the JSON handler (a quote in the
// path), another message.
func TestLogHandlerIDs(t *testing.T) {
	t.Parallel()
	spanCtx, span := trace.NewTracerProvider().Tracer("t").Start(context.Background(), "x")
	defer span.End()
	at := time.Date(2026, 11, 28, 13, 0, 0, 0, time.UTC)
	access := func(path string) slog.Record {
		r := slog.NewRecord(at, slog.LevelInfo, httpapi.AccessLogMessage, 0)
		r.AddAttrs(slog.String("method", "POST"), slog.String("route", "/validate"), slog.String("path", path), slog.Int("status", 200),
			slog.Duration("duration", 1500), slog.Int64("bytes", 10), slog.String("request_id", "r"), slog.String("remote", "127.0.0.1:1"))
		return r
	}
	other := slog.NewRecord(at, slog.LevelWarn, "something", 0)
	other.AddAttrs(slog.String("k", "v"))
	for _, ctx := range []context.Context{spanCtx, context.Background()} {
		for _, rec := range []slog.Record{access("/validate"), access(`/a"b`), other} {
			var ref bytes.Buffer
			if err := telemetry.LogHandler(slog.NewJSONHandler(&ref, nil)).Handle(ctx, rec.Clone()); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			buf := accesslog.NewBuffer(&out, time.Hour)
			h := telemetry.LogHandler(accesslog.NewHandler(buf, slog.LevelInfo))
			if err := h.Handle(ctx, rec.Clone()); err != nil {
				t.Fatal(err)
			}
			extra, n, next := h.(httpapi.ContextAttrsHandler).ContextAttrs(ctx)
			r := rec.Clone()
			r.AddAttrs(extra[:n]...)
			if err := next.Handle(ctx, r); err != nil {
				t.Fatal(err)
			}
			if err := buf.Flush(); err != nil {
				t.Fatal(err)
			}
			if want := ref.String() + ref.String(); out.String() != want {
				t.Errorf("%s, under a span %v: got\n%s\nwant\n%s", rec.Message, ctx == spanCtx, out.String(), want)
			}
			if ctx == spanCtx && !strings.Contains(out.String(), `"trace_id":"`+span.SpanContext().TraceID().String()+`","span_id":"`+span.SpanContext().SpanID().String()+`"`) {
				t.Errorf("no ids in %s", out.String())
			}
		}
	}
}
