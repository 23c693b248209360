package telemetry

import (
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"golang.org/x/net/http/httpguts"
	"google.golang.org/protobuf/proto"
)

// receiver is a loopback OTLP/HTTP receiver whose answers a test
// scripts: the i-th request gets answers[min(i, len-1)].
type receiver struct {
	srv     *httptest.Server
	mu      sync.Mutex
	reqs    []*http.Request
	bodies  [][]byte // decompressed
	answers []func(w http.ResponseWriter, r *http.Request)
	arrived chan struct{}
}

func newReceiver(t *testing.T, answers ...func(w http.ResponseWriter, r *http.Request)) *receiver {
	t.Helper()
	rc := &receiver{answers: answers, arrived: make(chan struct{}, 100)}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			body = zr
		}
		b, err := io.ReadAll(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		rc.mu.Lock()
		i := len(rc.reqs)
		rc.reqs, rc.bodies = append(rc.reqs, r), append(rc.bodies, b)
		rc.mu.Unlock()
		select { // the tests that wait for a request wait for the first
		case rc.arrived <- struct{}{}:
		default:
		}
		if len(rc.answers) > 0 {
			rc.answers[min(i, len(rc.answers)-1)](w, r)
		}
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func status(code int, retryAfter, body string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}
}

func answer(contentType string, body []byte) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write(body)
	}
}

func partialAnswer(t *testing.T, n int64, msg string) []byte {
	t.Helper()
	b, err := proto.Marshal(&coltracepb.ExportTraceServiceResponse{PartialSuccess: &coltracepb.ExportTracePartialSuccess{RejectedSpans: n, ErrorMessage: msg}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fastRetry retries within milliseconds, so that the tests do not wait
// the official 5 s.
var fastRetry = retryPolicy{initial: time.Millisecond, maxInterval: 2 * time.Millisecond, maxElapsed: 5 * time.Second}

// TestOTLPHTTPExporter exports batches to a loopback receiver that
// answers as each case says, and checks what it received and what the
// export returned.
func TestOTLPHTTPExporter(t *testing.T) {
	t.Parallel()
	spans := testSpans(t)
	off := newOfficial(t)
	want := off.request(t, spans)
	for _, c := range []struct {
		name     string
		settings OTLPHTTP
		retry    retryPolicy
		answers  []func(w http.ResponseWriter, r *http.Request)
		batches  int
		requests int
		err      string // "" for success
	}{
		{name: "ok, twice with the buffer reused", settings: OTLPHTTP{Headers: map[string]string{"Authorization": "Bearer s3cret", "X-Tenant": "a b"}}, batches: 2, requests: 2},
		{name: "gzip", settings: OTLPHTTP{Gzip: true}, batches: 2, requests: 2},
		{name: "503 then 429 then ok", retry: fastRetry, answers: []func(http.ResponseWriter, *http.Request){status(503, "0", ""), status(429, "", "slow down"), status(200, "", "")}, batches: 1, requests: 3},
		{name: "502 and 504 retried until the time is up", retry: retryPolicy{initial: time.Millisecond, maxInterval: time.Millisecond, maxElapsed: time.Second},
			answers: []func(http.ResponseWriter, *http.Request){status(502, "", ""), status(504, "", "")}, batches: 1, requests: -1, err: "gave up retrying"},
		{name: "Retry-After beyond the time is not waited", retry: retryPolicy{initial: time.Millisecond, maxInterval: time.Millisecond, maxElapsed: time.Second},
			answers: []func(http.ResponseWriter, *http.Request){status(503, "120", "")}, batches: 1, requests: 1, err: "gave up retrying"},
		{name: "400 is not retried", retry: fastRetry, answers: []func(http.ResponseWriter, *http.Request){status(400, "", "bad trace id")}, batches: 1, requests: 1, err: "400 Bad Request (body: bad trace id)"},
		{name: "partial success, protobuf", answers: []func(http.ResponseWriter, *http.Request){answer("application/x-protobuf", partialAnswer(t, 2, "spans too old"))}, batches: 1, requests: 1,
			err: "OTLP partial success: spans too old (2 spans rejected)"},
		{name: "partial success, JSON", answers: []func(http.ResponseWriter, *http.Request){answer("application/json; charset=utf-8", []byte(`{"partialSuccess":{"rejectedSpans":"1"}}`))}, batches: 1, requests: 1,
			err: "OTLP partial success: no message (1 spans rejected)"},
		{name: "an empty partial success is success", answers: []func(http.ResponseWriter, *http.Request){answer("application/x-protobuf", partialAnswer(t, 0, ""))}, batches: 1, requests: 1},
		{name: "an answer that does not decode", answers: []func(http.ResponseWriter, *http.Request){answer("application/x-protobuf", []byte{0xff})}, batches: 1, requests: 1, err: "does not decode"},
		{name: "timeout retried", settings: OTLPHTTP{Timeout: 20 * time.Millisecond}, retry: retryPolicy{initial: time.Millisecond, maxInterval: time.Millisecond, maxElapsed: time.Second},
			answers: []func(http.ResponseWriter, *http.Request){func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }}, batches: 1, requests: -1, err: "gave up retrying"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rc := newReceiver(t, c.answers...)
			e := newOTLPHTTPExporter(rc.srv.URL+"/v1/traces", c.settings)
			e.retry = c.retry
			defer e.Shutdown(context.Background())
			var err error
			for range c.batches {
				if err = e.ExportSpans(context.Background(), spans); err != nil {
					break
				}
			}
			if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("export: %v, want %q", err, c.err)
			}
			rc.mu.Lock()
			defer rc.mu.Unlock()
			if c.requests >= 0 && len(rc.reqs) != c.requests || c.requests < 0 && len(rc.reqs) < 2 {
				t.Fatalf("%d requests, want %d (-1: more than one)", len(rc.reqs), c.requests)
			}
			for i, r := range rc.reqs {
				if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" || r.Header.Get("User-Agent") == "" {
					t.Fatalf("request %d: %s %s, Content-Type %q, User-Agent %q", i, r.Method, r.URL.Path, r.Header.Get("Content-Type"), r.Header.Get("User-Agent"))
				}
				for k, v := range c.settings.Headers {
					if got := r.Header.Get(k); got != v {
						t.Fatalf("request %d: header %s: %q, want %q", i, k, got, v)
					}
				}
				if gz := r.Header.Get("Content-Encoding") == "gzip"; gz != c.settings.Gzip {
					t.Fatalf("request %d: gzip %v, want %v", i, gz, c.settings.Gzip)
				}
				sameRequest(t, decodeRequest(t, rc.bodies[i]), want)
			}
		})
	}
}

// TestOTLPHTTPRedirect: a redirect to the endpoint's own origin is
// followed; one to another host or port is not, so that neither the
// spans nor the headers (a key, often) reach it, and the export says
// where it was sent.
func TestOTLPHTTPRedirect(t *testing.T) {
	t.Parallel()
	elsewhere := newReceiver(t)
	for _, c := range []struct {
		name     string
		code     int
		location func(home string) string
		err      string
	}{
		{"same origin", http.StatusTemporaryRedirect, func(home string) string { return home + "/v1/traces" }, ""},
		{"another port", http.StatusTemporaryRedirect, func(string) string { return elsewhere.srv.URL + "/v1/traces" }, "307 Temporary Redirect to \"" + elsewhere.srv.URL},
		{"another scheme", http.StatusPermanentRedirect, func(home string) string { return "https" + strings.TrimPrefix(home, "http") + "/v1/traces" }, "308 Permanent Redirect"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code := c.code // not read from err: a port number may hold "308"
			var home string
			rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/old" {
					http.Redirect(w, r, c.location(home), code)
				}
			})
			home = rc.srv.URL
			e := newOTLPHTTPExporter(home+"/old", OTLPHTTP{Headers: map[string]string{"X-Api-Key": "s3cret"}})
			defer e.Shutdown(context.Background())
			err := e.ExportSpans(context.Background(), testSpans(t))
			if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("export: %v, want %q", err, c.err)
			}
			rc.mu.Lock()
			defer rc.mu.Unlock()
			if want := map[bool]int{true: 2, false: 1}[c.err == ""]; len(rc.reqs) != want {
				t.Fatalf("%d requests at the endpoint's origin, want %d", len(rc.reqs), want)
			}
		})
	}
	elsewhere.mu.Lock()
	defer elsewhere.mu.Unlock()
	if len(elsewhere.reqs) != 0 {
		t.Fatalf("the other origin got %d requests, X-Api-Key %q", len(elsewhere.reqs), elsewhere.reqs[0].Header.Get("X-Api-Key"))
	}
}

// TestOTLPHTTPRedactsPassword: an endpoint's password is sent (as basic
// authentication) but shown in no error and not in the exporter's name,
// which judge logs.
func TestOTLPHTTPRedactsPassword(t *testing.T) {
	t.Parallel()
	rc := newReceiver(t, status(400, "", "no"))
	endpoint := strings.Replace(rc.srv.URL, "http://", "http://judge:s3cret-key@", 1) + "/v1/traces"
	e := newOTLPHTTPExporter(endpoint, OTLPHTTP{})
	defer e.Shutdown(context.Background())
	err := e.ExportSpans(context.Background(), testSpans(t))
	if err == nil || strings.Contains(err.Error(), "s3cret-key") || !strings.Contains(err.Error(), "400") {
		t.Fatalf("export: %v; want a 400 without the password", err)
	}
	rc.mu.Lock()
	user, pass, ok := rc.reqs[0].BasicAuth()
	rc.mu.Unlock()
	if !ok || user != "judge" || pass != "s3cret-key" {
		t.Fatalf("basic auth %q %q %v, want the endpoint's", user, pass, ok)
	}
	_, name, err := newSpanExporter(context.Background(), Config{Protocol: "http/protobuf", Endpoint: endpoint})
	if err != nil || strings.Contains(name, "s3cret-key") || !strings.Contains(name, "judge:") {
		t.Fatalf("exporter name %q (%v), want the user without the password", name, err)
	}
}

// TestOTLPHTTPShutdown: Shutdown ends an export waiting to retry, and
// an export after it is refused.
func TestOTLPHTTPShutdown(t *testing.T) {
	t.Parallel()
	rc := newReceiver(t, status(503, "", ""))
	e := newOTLPHTTPExporter(rc.srv.URL+"/v1/traces", OTLPHTTP{})
	e.retry = retryPolicy{initial: time.Hour, maxInterval: time.Hour, maxElapsed: 2 * time.Hour}
	done := make(chan error, 1)
	spans := testSpans(t)[:1]
	go func() { done <- e.ExportSpans(context.Background(), spans) }()
	<-rc.arrived
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err == nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("the export in flight ended with %v, want it cancelled", err)
	}
	if err := e.ExportSpans(context.Background(), spans); !errors.Is(err, errExporterShutdown) {
		t.Fatalf("export after shutdown: %v", err)
	}
}

// TestOTLPHTTPThroughProvider: spans ended on a provider from New reach
// the receiver through judge's exporter, the headers, timeout and gzip
// of the variables applied.
func TestOTLPHTTPThroughProvider(t *testing.T) {
	t.Parallel()
	rc := newReceiver(t)
	c, err := ReadConfig(func(k string) string {
		return map[string]string{
			"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": rc.srv.URL + "/v1/traces", "OTEL_EXPORTER_OTLP_HEADERS": "x-key=a%20b",
			"OTEL_EXPORTER_OTLP_COMPRESSION": "gzip",
		}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	tel, err := New(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(tel.Exporter, "official") {
		t.Fatalf("exporter %q, want judge's own", tel.Exporter)
	}
	_, span := tel.Tracer().Start(context.Background(), "judge.validate")
	span.End()
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.reqs) != 1 || rc.reqs[0].Header.Get("x-key") != "a b" || rc.reqs[0].Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("%d requests; want one, gzipped, with x-key: a b", len(rc.reqs))
	}
	got := decodeRequest(t, rc.bodies[0])
	if n := len(got.ResourceSpans); n != 1 || got.ResourceSpans[0].ScopeSpans[0].Spans[0].Name != "judge.validate" ||
		got.ResourceSpans[0].ScopeSpans[0].Scope.GetName() != ScopeName {
		t.Fatalf("received %v", got)
	}
}

func TestReadOTLPHTTP(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		env  map[string]string
		want OTLPHTTP
		err  string
	}{
		{name: "unset", want: OTLPHTTP{}},
		{name: "headers, percent-decoded", env: map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Basic%20eDp5, x-b = 1 ,"},
			want: OTLPHTTP{Headers: map[string]string{"Authorization": "Basic eDp5", "x-b": "1"}}},
		{name: "traces headers win whole", env: map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "a=1", "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "b=2"},
			want: OTLPHTTP{Headers: map[string]string{"b": "2"}}},
		{name: "timeout and gzip", env: map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "2500", "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION": "GZIP", "OTEL_EXPORTER_OTLP_COMPRESSION": "none"},
			want: OTLPHTTP{Timeout: 2500 * time.Millisecond, Gzip: true}},
		{name: "certificates", env: map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": "/ca.pem", "OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY": "/k.pem"},
			want: OTLPHTTP{TLS: []string{"OTEL_EXPORTER_OTLP_CERTIFICATE", "OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY"}}},
		{name: "header without =", env: map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "token"}, err: "OTEL_EXPORTER_OTLP_HEADERS"},
		{name: "header name not a token", env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_HEADERS": "a b=1"}, err: "OTEL_EXPORTER_OTLP_TRACES_HEADERS"},
		{name: "header value bad escape", env: map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "a=%zz"}, err: "OTEL_EXPORTER_OTLP_HEADERS"},
		{name: "header value with CR LF", env: map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "a=x%0D%0AX-Injected:%201"}, err: "OTEL_EXPORTER_OTLP_HEADERS: the value of a has the control byte 0x0d at 1"},
		{name: "header value with NUL", env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_HEADERS": "k=%00"}, err: "OTEL_EXPORTER_OTLP_TRACES_HEADERS"},
		{name: "header value with a tab", env: map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "a=x%09y"},
			want: OTLPHTTP{Headers: map[string]string{"a": "x\ty"}}},
		{name: "timeout not a number", env: map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "10s"}, err: "OTEL_EXPORTER_OTLP_TIMEOUT"},
		{name: "unknown compression", env: map[string]string{"OTEL_EXPORTER_OTLP_COMPRESSION": "zstd"}, err: "OTEL_EXPORTER_OTLP_COMPRESSION"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := readOTLPHTTP(func(k string) string { return c.env[k] })
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one naming %s", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Headers) != len(c.want.Headers) || got.Timeout != c.want.Timeout || got.Gzip != c.want.Gzip || !slices.Equal(got.TLS, c.want.TLS) {
				t.Fatalf("%+v, want %+v", got, c.want)
			}
			for k, v := range c.want.Headers {
				if got.Headers[k] != v {
					t.Fatalf("header %s: %q, want %q", k, got.Headers[k], v)
				}
			}
		})
	}
}

// TestSpanExporterChoice: judge's exporter for http/protobuf, the
// official ones for http/json, grpc, and certificates.
func TestSpanExporterChoice(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cfg  Config
		own  bool
		name string
	}{
		{Config{Protocol: "http/protobuf", Endpoint: "http://127.0.0.1:1/v1/traces"}, true, "otlp http/protobuf http://127.0.0.1:1/v1/traces"},
		{Config{Protocol: "http/protobuf", Endpoint: "https://127.0.0.1:1/v1/traces", OTLP: OTLPHTTP{TLS: []string{"OTEL_EXPORTER_OTLP_CERTIFICATE"}}}, false, "otlp http/protobuf https://127.0.0.1:1/v1/traces (the official exporter)"},
		{Config{Protocol: "http/json", Endpoint: "http://127.0.0.1:1/v1/traces"}, false, "otlp http/json http://127.0.0.1:1/v1/traces (the official exporter)"},
		{Config{Protocol: "grpc", Endpoint: "http://127.0.0.1:1"}, false, "otlp grpc http://127.0.0.1:1"},
	} {
		exp, name, err := newSpanExporter(context.Background(), c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, own := exp.(*otlpHTTPExporter)
		if own != c.own || name != c.name {
			t.Fatalf("%+v: judge's own %v, %q; want %v, %q", c.cfg, own, name, c.own, c.name)
		}
		_ = exp.Shutdown(context.Background())
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"": 0, "3": 3 * time.Second, "-1": 0, "soon": 0, "99999999999": time.Hour,
		"Fri, 27 Nov 2026 10:00:30 GMT": 30 * time.Second, "Fri, 27 Nov 2026 09:00:00 GMT": 0,
	} {
		if got := retryAfter(v, now); got != want {
			t.Errorf("Retry-After %q: %s, want %s", v, got, want)
		}
	}
}

// BenchmarkEncode is judge's encoder on the test spans without the
// big one (six spans of every kind of field).
func BenchmarkEncode(b *testing.B) {
	spans := slices.DeleteFunc(testSpans(b), func(s sdktrace.ReadOnlySpan) bool { return s == nil || s.Name() == "big" })
	var enc otlpEncoder
	b.ReportAllocs()
	for b.Loop() {
		enc.encode(spans)
	}
}

// FuzzReadOTLPHTTP reads arbitrary values of the export variables: never
// a panic; an error names the variable it could not use; and what is
// accepted can be sent (header names and values as net/http's own rules
// allow, a timeout of at most an hour).
func FuzzReadOTLPHTTP(f *testing.F) {
	f.Add("api-key=secret,x-tenant=a%20b", "5000", "gzip")
	f.Add("k=%0Av", "-1", "GZIP")
	f.Add(" , a=b, =c", "3600001", "zstd")
	f.Add("a=%zz", "", "none")
	f.Add("Authorization=Bearer%20x", "0", "")
	f.Fuzz(func(t *testing.T, headers, timeout, compression string) {
		env := map[string]string{
			"OTEL_EXPORTER_OTLP_HEADERS":            headers,
			"OTEL_EXPORTER_OTLP_TRACES_TIMEOUT":     timeout,
			"OTEL_EXPORTER_OTLP_COMPRESSION":        compression,
			"OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE": "",
		}
		o, err := readOTLPHTTP(func(k string) string { return env[k] })
		if err != nil {
			if !strings.Contains(err.Error(), "OTEL_EXPORTER_OTLP_") {
				t.Fatalf("error %q names no variable", err)
			}
			return
		}
		if o.Timeout < 0 || o.Timeout > time.Hour {
			t.Fatalf("timeout %v accepted", o.Timeout)
		}
		for k, v := range o.Headers {
			// net/http's own rules (golang.org/x/net/http/httpguts).
			if !httpguts.ValidHeaderFieldName(k) || !httpguts.ValidHeaderFieldValue(v) {
				t.Fatalf("header %q: %q accepted", k, v)
			}
		}
	})
}

// BenchmarkEncodeData is judge's own path: a fast-path request's two
// spans (as BenchmarkSpans records them) encoded from their records'
// data, as they end.
func BenchmarkEncodeData(b *testing.B) {
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1, 2, 3}, SpanID: trace.SpanID{4, 5, 6}, TraceFlags: trace.FlagsSampled})
	parent := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1, 2, 3}, SpanID: trace.SpanID{7}, TraceFlags: trace.FlagsSampled, Remote: true})
	start := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	srv := spanData{sc: sc, parent: parent, name: "POST /validate", kind: trace.SpanKindServer, start: start, end: start.Add(40 * time.Microsecond),
		attrs: []attribute.KeyValue{attribute.String("http.request.method", "POST"), attribute.String("http.route", "/validate"), attribute.String("url.path", "/validate"),
			attribute.String("url.scheme", "http"), attribute.String("network.protocol.version", "1.1"), attribute.Int("http.response.status_code", 200)}}
	val := spanData{sc: sc, parent: sc, name: "judge.validate", kind: trace.SpanKindInternal, start: start, end: start.Add(20 * time.Microsecond),
		attrs: []attribute.KeyValue{attribute.Bool("judge.valid", true), attribute.Float64("judge.confidence", 1), attribute.Float64("judge.quality_score", 1),
			attribute.Int("judge.issue_count", 0), attribute.Int("judge.error_count", 0), attribute.Int("judge.warning_count", 0),
			attribute.Int("judge.info_count", 0), attribute.StringSlice("judge.validation_types", []string{"schema"}), attribute.Bool("judge.fast_path", true)}}
	var e otlpEncoder
	b.ReportAllocs()
	for b.Loop() {
		e.b = e.b[:0]
		e.encodeData(&srv, nil)
		e.encodeData(&val, nil)
	}
}
