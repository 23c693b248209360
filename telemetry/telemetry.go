// Package telemetry sets up OpenTelemetry tracing from the standard OTEL_*
// environment variables, and holds the few helpers the places that start
// spans share: W3C context carried in an MCP request's params._meta
// (SEP-414), the verdict of a ValidationResult as span attributes, and log
// lines that carry the active span's ids.
//
// Nothing here sets OpenTelemetry's global provider or propagator: the
// [Telemetry] that [Setup] returns is handed to the engine
// (judge.WithTracerProvider), the server and the gateway as an option.
// When the variables ask for no export, its provider is a no-op one, so
// spans cost a few nanoseconds and nothing leaves the process.
//
// Spans are started where the work is (the engine, the HTTP server, the
// gateway's tools/call), never by the validation layers themselves.
// docs/observability.md lists the variables, the span names and the
// attributes.
package telemetry

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// ScopeName is the instrumentation scope of every span judge starts.
const ScopeName = "github.com/agentjudge/judge"

// DefaultServiceName is service.name when OTEL_SERVICE_NAME (and
// service.name in OTEL_RESOURCE_ATTRIBUTES) are unset.
const DefaultServiceName = "judge"

// Telemetry is what the places that start spans need: the provider to get
// their tracer from, the propagator that reads and writes the W3C
// traceparent, tracestate and baggage, and whether message content
// (arguments, outputs) may go into attributes. The zero value is not
// usable; [Disabled] is the one that exports nothing.
type Telemetry struct {
	// TracerProvider gives the tracers; a no-op one when nothing is
	// exported.
	TracerProvider trace.TracerProvider
	// Propagator reads and writes W3C Trace Context and Baggage.
	Propagator propagation.TextMapPropagator
	// CaptureContent is OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true:
	// tool arguments and results may be recorded as attributes. They may
	// hold personal data, so they are not by default.
	CaptureContent bool
	// Exporter names what spans are sent with ("otlp http/protobuf
	// http://host:4318/v1/traces"), or "" when none are.
	Exporter string

	shutdown func(context.Context) error
	// tracer is TracerProvider's tracer of judge's scope, got once: the
	// SDK's Tracer takes a lock and hashes the scope on every call.
	tracer trace.Tracer
	// serverKind starts a SERVER span, made once (a slice, so that
	// passing it makes none).
	serverKind []trace.SpanStartOption
	// attrsAtStart: a request's attributes are given when its span starts
	// (a caller's provider, whose sampler may read them), not at its end.
	attrsAtStart bool
	// attrs lends attribute slices to span calls.
	attrs attrPool
	// names are the SERVER spans' names.
	names spanNames
	// blocks are the SERVER spans' request attributes, encoded.
	blocks requestBlocks
}

// Disabled returns a Telemetry that records and exports nothing.
func Disabled() *Telemetry {
	return withTracer(&Telemetry{TracerProvider: noop.NewTracerProvider(), Propagator: Propagator()})
}

// withTracer sets t's tracer from its provider.
func withTracer(t *Telemetry) *Telemetry {
	t.serverKind = []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer)}
	if t.TracerProvider != nil {
		t.tracer = t.TracerProvider.Tracer(ScopeName)
	}
	return t
}

// ForProvider returns a Telemetry that starts spans from tp, a provider
// the caller made and shuts down itself (Shutdown does nothing): for a
// program that already has its OpenTelemetry SDK set up, and for tests.
// capture is CaptureContent.
func ForProvider(tp trace.TracerProvider, capture bool) *Telemetry {
	return withTracer(&Telemetry{TracerProvider: tp, Propagator: Propagator(), CaptureContent: capture, Exporter: "the caller's provider",
		shutdown: func(context.Context) error { return nil }, attrsAtStart: true})
}

// Propagator is the W3C Trace Context and Baggage propagator judge reads
// and writes, in HTTP headers and in MCP params._meta.
func Propagator() propagation.TextMapPropagator {
	return propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
}

// Enabled reports whether spans are exported.
func (t *Telemetry) Enabled() bool { return t != nil && t.shutdown != nil }

// Tracer returns judge's tracer of t's provider; a no-op tracer when t is
// nil.
func (t *Telemetry) Tracer() trace.Tracer {
	switch {
	case t == nil || t.TracerProvider == nil:
		return noop.NewTracerProvider().Tracer(ScopeName)
	case t.tracer != nil:
		return t.tracer
	}
	return t.TracerProvider.Tracer(ScopeName)
}

// Shutdown flushes the spans not yet exported and stops the exporter,
// within ctx. It does nothing when nothing is exported.
func (t *Telemetry) Shutdown(ctx context.Context) error {
	if t == nil || t.shutdown == nil {
		return nil
	}
	if err := t.shutdown(ctx); err != nil {
		return fmt.Errorf("telemetry: shutdown: %w", err)
	}
	return nil
}

// Config is what the OTEL_* variables ask for, read by [ReadConfig].
type Config struct {
	// Export is false when no span is to be exported: OTEL_SDK_DISABLED
	// is true, OTEL_TRACES_EXPORTER is none, or no OTLP endpoint is set
	// and OTEL_TRACES_EXPORTER does not ask for otlp.
	Export bool
	// Protocol is OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or
	// OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf" (the default),
	// "http/json" or "grpc".
	Protocol string
	// Endpoint is where spans are sent: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
	// as it is, else OTEL_EXPORTER_OTLP_ENDPOINT with /v1/traces added
	// for HTTP, else the protocol's default on localhost.
	Endpoint string
	// Sampler is the sampler OTEL_TRACES_SAMPLER and
	// OTEL_TRACES_SAMPLER_ARG name (parentbased_always_on by default).
	Sampler sdktrace.Sampler
	// Resource holds service.name (OTEL_SERVICE_NAME, default "judge")
	// and OTEL_RESOURCE_ATTRIBUTES.
	Resource []attribute.KeyValue
	// CaptureContent: OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT.
	CaptureContent bool
	// OTLP holds the OTLP headers, timeout, compression and certificate
	// variables (see [OTLPHTTP]).
	OTLP OTLPHTTP
	// Batch is how ended spans are batched: OTEL_BSP_SCHEDULE_DELAY,
	// OTEL_BSP_EXPORT_TIMEOUT, OTEL_BSP_MAX_QUEUE_SIZE and
	// OTEL_BSP_MAX_EXPORT_BATCH_SIZE.
	Batch Batch
	// SDKSpans records spans with the official SDK even where judge's
	// own recorder applies (judge's OTLP http/protobuf exporter and a
	// sampler OTEL_TRACES_SAMPLER names; see docs/decisions.md 90): the
	// same telemetry at a higher cost, for comparing the two.
	SDKSpans bool
}

// DefaultBatchDelay is how long a span may wait in the batch before it
// is sent when OTEL_BSP_SCHEDULE_DELAY is unset (the SDK's default is
// 5 s; a verdict a second late in the backend is late enough).
const DefaultBatchDelay = time.Second

// ReadConfig reads the OTEL_* variables through getenv. A value it cannot
// use is an error naming the variable, so that a typo does not silently
// turn export off.
func ReadConfig(getenv func(string) string) (Config, error) {
	env := func(k string) string { return strings.TrimSpace(getenv(k)) }
	c := Config{Protocol: "http/protobuf"}
	capture, err := boolVar(env, "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT")
	if err != nil {
		return c, err
	}
	c.CaptureContent = capture
	disabled, err := boolVar(env, "OTEL_SDK_DISABLED")
	if err != nil || disabled {
		return c, err
	}
	exporter := strings.ToLower(env("OTEL_TRACES_EXPORTER"))
	switch exporter {
	case "", "otlp":
	case "none":
		return c, nil
	default:
		return c, fmt.Errorf("telemetry: OTEL_TRACES_EXPORTER=%q: judge exports with otlp (or none)", exporter)
	}
	if p := strings.ToLower(cmpOr(env("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"), env("OTEL_EXPORTER_OTLP_PROTOCOL"))); p != "" {
		switch p {
		case "http/protobuf", "http/json", "grpc":
			c.Protocol = p
		default:
			return c, fmt.Errorf("telemetry: OTEL_EXPORTER_OTLP_PROTOCOL=%q: expected http/protobuf, http/json or grpc", p)
		}
	}
	traces, base := env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"), env("OTEL_EXPORTER_OTLP_ENDPOINT")
	switch {
	case traces != "":
		c.Endpoint = traces
	case base != "" && c.Protocol == "grpc":
		c.Endpoint = base
	case base != "":
		c.Endpoint = strings.TrimRight(base, "/") + "/v1/traces"
	case exporter == "otlp" && c.Protocol == "grpc":
		c.Endpoint = "http://localhost:4317"
	case exporter == "otlp":
		c.Endpoint = "http://localhost:4318/v1/traces"
	default:
		return c, nil // nothing asks for export
	}
	if u, err := url.Parse(c.Endpoint); err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return c, fmt.Errorf("telemetry: OTLP endpoint %q is not an http(s) URL", c.Endpoint)
	}
	if c.OTLP, err = readOTLPHTTP(env); err != nil {
		return c, err
	}
	if c.Sampler, err = sampler(env("OTEL_TRACES_SAMPLER"), env("OTEL_TRACES_SAMPLER_ARG")); err != nil {
		return c, err
	}
	if c.Resource, err = resourceAttrs(env("OTEL_SERVICE_NAME"), env("OTEL_RESOURCE_ATTRIBUTES")); err != nil {
		return c, err
	}
	if c.Batch, err = readBatch(env); err != nil {
		return c, err
	}
	c.Export = true
	return c, nil
}

// Setup returns the Telemetry the process environment asks for (see
// [ReadConfig]): spans batched and exported over OTLP, or [Disabled].
// The official exporters, where judge uses them (see newSpanExporter),
// read the certificate variables themselves. Call Shutdown before exiting, so that
// the last spans are sent.
func Setup(ctx context.Context) (*Telemetry, error) {
	c, err := ReadConfig(os.Getenv)
	if err != nil {
		return nil, err
	}
	return New(ctx, c)
}

// New returns the Telemetry of c.
func New(ctx context.Context, c Config) (*Telemetry, error) {
	if !c.Export {
		t := Disabled()
		t.CaptureContent = c.CaptureContent
		return t, nil
	}
	exp, name, err := newSpanExporter(ctx, c)
	if err != nil {
		return nil, err
	}
	if own, ok := exp.(*otlpHTTPExporter); ok && !c.SDKSpans {
		if smp, builtin := builtinOf(c.Sampler); builtin {
			p := newProvider(own, c.Batch, resource.NewWithAttributes("", c.Resource...), smp.Sampler, smp.parentOn)
			return withTracer(&Telemetry{
				TracerProvider: p,
				Propagator:     Propagator(),
				CaptureContent: c.CaptureContent,
				Exporter:       name,
				shutdown:       p.Shutdown,
			}), nil
		}
	}
	t := WithExporter(c, exp)
	t.Exporter = name
	return t, nil
}

// builtinOf returns the built-in sampler that smp (a Config.Sampler) is,
// and whether it is one OTEL_TRACES_SAMPLER names (nil: the default,
// parentbased_always_on).
func builtinOf(smp sdktrace.Sampler) (builtinSampler, bool) {
	switch s := smp.(type) {
	case nil:
		return parentBasedAlwaysOn(), true
	case builtinSampler:
		return s, true
	}
	return builtinSampler{Sampler: smp}, false
}

// WithExporter returns the Telemetry of c that exports with exp, through
// judge's batch processor (c.Batch): for an exporter of the caller's own,
// and for measuring. Its Exporter is "the caller's exporter"; its
// Shutdown shuts exp down.
func WithExporter(c Config, exp sdktrace.SpanExporter) *Telemetry {
	res := resource.NewWithAttributes("", c.Resource...)
	smp := c.Sampler
	if smp == nil {
		smp = parentBasedAlwaysOn()
	}
	_, builtin := smp.(builtinSampler)
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithSpanProcessor(newBatcher(exp, c.Batch)),
		sdktrace.WithResource(res),
		sdktrace.WithSampler(smp),
	)
	return withTracer(&Telemetry{
		TracerProvider: tp,
		Propagator:     Propagator(),
		CaptureContent: c.CaptureContent,
		Exporter:       "the caller's exporter",
		shutdown:       tp.Shutdown,
		attrsAtStart:   !builtin,
	})
}

// builtinSampler marks a sampler that OTEL_TRACES_SAMPLER names: one of
// the SDK's, which read no attribute, so that a span's attributes need
// not be given at its start for it (see [Telemetry.StartRequest]). A
// Config.Sampler of the caller's own is not one.
type builtinSampler struct {
	sdktrace.Sampler
	// parentOn: the sampler is ParentBased(AlwaysSample()) with the
	// SDK's default options (parentbased_always_on, the default), whose
	// decision judge's own tracer makes without calling it.
	parentOn bool
}

// parentBasedAlwaysOn is parentbased_always_on, the default sampler.
func parentBasedAlwaysOn() builtinSampler {
	return builtinSampler{Sampler: sdktrace.ParentBased(sdktrace.AlwaysSample()), parentOn: true}
}

// sampler is the sampler OTEL_TRACES_SAMPLER names, with its argument.
func sampler(name, arg string) (sdktrace.Sampler, error) {
	ratio := 1.0
	if arg != "" {
		r, err := strconv.ParseFloat(arg, 64)
		if err != nil || r < 0 || r > 1 {
			return nil, fmt.Errorf("telemetry: OTEL_TRACES_SAMPLER_ARG=%q is not a ratio in [0, 1]", arg)
		}
		ratio = r
	}
	switch strings.ToLower(name) {
	case "", "parentbased_always_on":
		return parentBasedAlwaysOn(), nil
	case "always_on":
		return builtinSampler{Sampler: sdktrace.AlwaysSample()}, nil
	case "always_off":
		return builtinSampler{Sampler: sdktrace.NeverSample()}, nil
	case "traceidratio":
		return builtinSampler{Sampler: sdktrace.TraceIDRatioBased(ratio)}, nil
	case "parentbased_always_off":
		return builtinSampler{Sampler: sdktrace.ParentBased(sdktrace.NeverSample())}, nil
	case "parentbased_traceidratio":
		return builtinSampler{Sampler: sdktrace.ParentBased(sdktrace.TraceIDRatioBased(ratio))}, nil
	}
	return nil, fmt.Errorf("telemetry: OTEL_TRACES_SAMPLER=%q: expected always_on, always_off, traceidratio or parentbased_ one of them", name)
}

// resourceAttrs is the resource: OTEL_RESOURCE_ATTRIBUTES
// (key=value,… percent-encoded), with service.name from
// OTEL_SERVICE_NAME, else from those attributes, else "judge".
func resourceAttrs(service, attrs string) ([]attribute.KeyValue, error) {
	var out []attribute.KeyValue
	fromAttrs := ""
	for kv := range strings.SplitSeq(attrs, ",") {
		if strings.TrimSpace(kv) == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			return nil, fmt.Errorf("telemetry: OTEL_RESOURCE_ATTRIBUTES: %q is not key=value", kv)
		}
		dv, err := url.PathUnescape(v)
		if err != nil {
			return nil, fmt.Errorf("telemetry: OTEL_RESOURCE_ATTRIBUTES: %s: %w", k, err)
		}
		if k == "service.name" {
			fromAttrs = dv
			continue
		}
		out = append(out, attribute.String(k, dv))
	}
	return append(out, attribute.String("service.name", cmpOr(service, fromAttrs, DefaultServiceName))), nil
}

// readBatch reads the OTEL_BSP_* variables: milliseconds for the delay
// and the export timeout (0: none), counts for the queue and the batch.
// A zero field of the result is the variable's default.
func readBatch(env func(string) string) (Batch, error) {
	var b Batch
	for _, v := range []struct {
		key      string
		millis   *time.Duration
		count    *int
		positive bool
	}{
		{key: "OTEL_BSP_SCHEDULE_DELAY", millis: &b.Delay},
		{key: "OTEL_BSP_EXPORT_TIMEOUT", millis: &b.ExportTimeout},
		{key: "OTEL_BSP_MAX_QUEUE_SIZE", count: &b.MaxQueueSize, positive: true},
		{key: "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", count: &b.MaxExportBatchSize, positive: true},
	} {
		s := env(v.key)
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n == 0 && v.positive || v.millis != nil && int64(n) > math.MaxInt64/int64(time.Millisecond) {
			want := "a whole number of milliseconds"
			if v.count != nil {
				want = "a count above 0"
			}
			return b, fmt.Errorf("telemetry: %s=%q is not %s", v.key, s, want)
		}
		switch {
		case v.count != nil:
			*v.count = n
		case n == 0:
			*v.millis = -1 // no wait, no bound
		default:
			*v.millis = time.Duration(n) * time.Millisecond
		}
	}
	return b, nil
}

// boolVar reads a boolean variable: "true" or "false" in any case, ""
// as false.
func boolVar(env func(string) string, k string) (bool, error) {
	switch strings.ToLower(env(k)) {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, fmt.Errorf("telemetry: %s=%q is not true or false", k, env(k))
}

func cmpOr(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
