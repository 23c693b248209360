package telemetry

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// OTLPHTTP is what the OTEL_EXPORTER_OTLP_* variables ask of an OTLP
// http/protobuf export besides its endpoint, read by [ReadConfig]. The
// TRACES_ variable of each, when set, wins over the general one.
type OTLPHTTP struct {
	// Headers are sent with every export request:
	// OTEL_EXPORTER_OTLP_HEADERS (key=value,… with percent-encoded
	// values).
	Headers map[string]string
	// Timeout bounds each export request: OTEL_EXPORTER_OTLP_TIMEOUT in
	// milliseconds; 0 means DefaultExportTimeout.
	Timeout time.Duration
	// Gzip is OTEL_EXPORTER_OTLP_COMPRESSION=gzip.
	Gzip bool
	// TLS names the certificate variables that are set
	// (OTEL_EXPORTER_OTLP_CERTIFICATE, …_CLIENT_CERTIFICATE,
	// …_CLIENT_KEY): judge's own exporter does not read them, so spans go
	// through the official OTLP exporter, which does.
	TLS []string
}

// DefaultExportTimeout bounds an export request when
// OTEL_EXPORTER_OTLP_TIMEOUT is unset, as in the OpenTelemetry spec.
const DefaultExportTimeout = 10 * time.Second

// Limits of judge's OTLP/HTTP exporter, the official exporter's.
const (
	maxExportRequest  = 64 << 20 // bytes of one encoded batch
	maxExportResponse = 4 << 20  // bytes of a receiver's answer read
	maxKeptBuffer     = 4 << 20  // bytes of buffer kept for the next batch
)

// readOTLPHTTP reads the export variables of [OTLPHTTP] through env. A
// value it cannot use is an error naming the variable.
func readOTLPHTTP(env func(string) string) (OTLPHTTP, error) {
	var o OTLPHTTP
	pick := func(k string) (string, string) {
		if v := env("OTEL_EXPORTER_OTLP_TRACES_" + k); v != "" {
			return "OTEL_EXPORTER_OTLP_TRACES_" + k, v
		}
		return "OTEL_EXPORTER_OTLP_" + k, env("OTEL_EXPORTER_OTLP_" + k)
	}
	if name, v := pick("HEADERS"); v != "" {
		o.Headers = map[string]string{}
		for kv := range strings.SplitSeq(v, ",") {
			if strings.TrimSpace(kv) == "" {
				continue
			}
			k, val, ok := strings.Cut(kv, "=")
			k = strings.TrimSpace(k)
			if !ok || !validHeaderKey(k) {
				return o, fmt.Errorf("telemetry: %s: %q is not key=value with a header name as key", name, kv)
			}
			dv, err := url.PathUnescape(val)
			if err != nil {
				return o, fmt.Errorf("telemetry: %s: %s: %w", name, k, err)
			}
			if i := badHeaderByte(dv); i >= 0 {
				// Else every export would fail in the transport.
				return o, fmt.Errorf("telemetry: %s: the value of %s has the control byte %#02x at %d (decoded)", name, k, dv[i], i)
			}
			o.Headers[k] = strings.TrimSpace(dv)
		}
	}
	if name, v := pick("TIMEOUT"); v != "" {
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil || ms < 0 || ms > int64(time.Hour/time.Millisecond) {
			return o, fmt.Errorf("telemetry: %s=%q is not a number of milliseconds up to an hour", name, v)
		}
		o.Timeout = time.Duration(ms) * time.Millisecond
	}
	if name, v := pick("COMPRESSION"); v != "" {
		switch strings.ToLower(v) {
		case "gzip":
			o.Gzip = true
		case "none":
		default:
			return o, fmt.Errorf("telemetry: %s=%q: expected gzip or none", name, v)
		}
	}
	for _, k := range []string{"CERTIFICATE", "CLIENT_CERTIFICATE", "CLIENT_KEY"} {
		for _, name := range []string{"OTEL_EXPORTER_OTLP_" + k, "OTEL_EXPORTER_OTLP_TRACES_" + k} {
			if env(name) != "" {
				o.TLS = append(o.TLS, name)
			}
		}
	}
	return o, nil
}

// validHeaderKey reports whether k is an HTTP header name (an RFC 9110
// token).
func validHeaderKey(k string) bool {
	if k == "" {
		return false
	}
	for i := range len(k) {
		c := k[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0 {
			continue
		}
		return false
	}
	return true
}

// badHeaderByte returns the index of the first byte of v that an HTTP
// header value may not hold (a control character other than a tab, as
// net/http refuses), or -1.
func badHeaderByte(v string) int {
	for i := range len(v) {
		if c := v[i]; c < ' ' && c != '\t' || c == 0x7f {
			return i
		}
	}
	return -1
}

// otlpHTTPExporter is judge's span exporter for OTLP http/protobuf: it
// writes each batch with [otlpEncoder] into a buffer reused from batch
// to batch and POSTs it, as the official otlptracehttp exporter does
// (headers, per-request timeout, gzip, retries on 429, 502, 503 and 504
// with exponential backoff and Retry-After, the partial-success answer
// returned as an error that the SDK logs), without building the protobuf
// structs of every span first.
type otlpHTTPExporter struct {
	url    string
	shown  string // url for messages, its password hidden (redacted)
	header http.Header
	gzip   bool
	client *http.Client
	retry  retryPolicy
	// life ends at Shutdown, cancelling an export in flight.
	life context.Context
	end  context.CancelFunc

	mu  sync.Mutex // one export at a time: the buffers are shared
	enc otlpEncoder
	zb  bytes.Buffer
	zw  *gzip.Writer
}

// retryPolicy is the exponential backoff between attempts; a zero
// initial interval means no retry.
type retryPolicy struct {
	initial, maxInterval, maxElapsed time.Duration
}

// defaultRetry is the official exporter's: 5 s, growing by half up to
// 30 s, for at most a minute.
var defaultRetry = retryPolicy{initial: 5 * time.Second, maxInterval: 30 * time.Second, maxElapsed: time.Minute}

// newOTLPHTTPExporter returns an exporter to endpoint (the full URL,
// /v1/traces included) with o's settings.
func newOTLPHTTPExporter(endpoint string, o OTLPHTTP) *otlpHTTPExporter {
	timeout := o.Timeout
	if timeout == 0 {
		timeout = DefaultExportTimeout
	}
	h := http.Header{}
	for k, v := range o.Headers {
		h.Set(k, v)
	}
	h.Set("Content-Type", "application/x-protobuf")
	h.Set("User-Agent", "judge OTLP/HTTP span exporter")
	if o.Gzip {
		h.Set("Content-Encoding", "gzip")
	}
	life, end := context.WithCancel(context.Background())
	e := &otlpHTTPExporter{
		url: endpoint, shown: redacted(endpoint), header: h, gzip: o.Gzip, retry: defaultRetry, life: life, end: end,
		client: &http.Client{Timeout: timeout, CheckRedirect: sameOrigin, Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			ForceAttemptHTTP2:     true,
			MaxIdleConns:          100,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   10 * time.Second,
			ExpectContinueTimeout: time.Second,
		}},
	}
	if o.Gzip {
		e.zw = gzip.NewWriter(io.Discard)
	}
	return e
}

// sameOrigin follows a redirect only to the endpoint's own scheme, host
// and port: the spans, and the headers of OTEL_EXPORTER_OTLP_HEADERS
// (often a key), go nowhere else. net/http would forward every header but
// Authorization and cookies to any host. A redirect elsewhere is
// answered as the receiver's error (see post).
func sameOrigin(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if u, first := req.URL, via[0].URL; u.Scheme != first.Scheme || u.Host != first.Host {
		return http.ErrUseLastResponse
	}
	return nil
}

// redacted is the URL u with its password, if any, shown as "xxxxx",
// for messages and logs: an endpoint may carry credentials
// (https://user:key@host/v1/traces).
func redacted(u string) string {
	if p, err := url.Parse(u); err == nil {
		return p.Redacted()
	}
	return u
}

// errExporterShutdown is the answer of an export after Shutdown.
var errExporterShutdown = errors.New("telemetry: OTLP exporter is shut down")

// ExportSpans encodes spans and sends them, retrying as the official
// exporter does, within ctx (the batch processor's export timeout).
func (e *otlpHTTPExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	return e.export(ctx, len(spans), func(enc *otlpEncoder) []byte { return enc.encode(spans) })
}

// exportEncoded sends judge's own spans, each encoded as it ended, as
// ExportSpans does the SDK's spans; res is their provider's resource.
func (e *otlpHTTPExporter) exportEncoded(ctx context.Context, res *resource.Resource, spans []encSpan) error {
	return e.export(ctx, len(spans), func(enc *otlpEncoder) []byte { return enc.encodeEncoded(res, spans) })
}

// export encodes a batch of n spans with encode, in the exporter's
// buffer, and sends it.
func (e *otlpHTTPExporter) export(ctx context.Context, n int, encode func(*otlpEncoder) []byte) error {
	if n == 0 {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.life.Err() != nil {
		return errExporterShutdown
	}
	body := encode(&e.enc)
	if len(body) == 0 {
		return nil // only nil spans
	}
	if e.gzip {
		e.zb.Reset()
		e.zw.Reset(&e.zb)
		if _, err := e.zw.Write(body); err != nil {
			return fmt.Errorf("telemetry: OTLP export: gzip: %w", err)
		}
		if err := e.zw.Close(); err != nil {
			return fmt.Errorf("telemetry: OTLP export: gzip: %w", err)
		}
		body = e.zb.Bytes()
	}
	if len(body) > maxExportRequest {
		return fmt.Errorf("telemetry: OTLP export: a batch of %d spans is %d bytes, over the %d a request may carry", n, len(body), maxExportRequest)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(e.life, cancel)()
	open := new(atomic.Int32)
	err := e.send(ctx, body, open)
	if open.Load() != 0 || cap(e.enc.b) > maxKeptBuffer {
		// The transport may still read a body it has not closed (it
		// may close it after the answer): leave it the buffers. A
		// buffer grown by an unusual batch is not kept either.
		e.enc.b, e.zb = nil, bytes.Buffer{}
	}
	return err
}

// send POSTs body, again after a retryable failure until the policy's
// time is up. open counts the request bodies the transport has not
// closed yet.
func (e *otlpHTTPExporter) send(ctx context.Context, body []byte, open *atomic.Int32) error {
	start, interval := time.Now(), e.retry.initial
	for {
		err := e.post(ctx, body, open)
		var re *retryableError
		if err == nil || e.retry.initial == 0 || !errors.As(err, &re) {
			return err
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%w: %w", context.Cause(ctx), err)
		}
		elapsed := time.Since(start)
		if elapsed > e.retry.maxElapsed || elapsed+re.throttle > e.retry.maxElapsed {
			return fmt.Errorf("telemetry: OTLP export: gave up retrying after %s: %w", elapsed.Round(time.Millisecond), err)
		}
		// The backoff is randomized by ±50 %, as the official exporter's.
		delay := max(re.throttle, time.Duration(float64(interval)*(0.5+rand.Float64())))
		interval = min(interval*3/2, e.retry.maxInterval)
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w: %w", context.Cause(ctx), err)
		case <-t.C:
		}
	}
}

// retryableError is a failed attempt worth another: a 429, 502, 503 or
// 504 answer (throttle is its Retry-After), or a timeout.
type retryableError struct {
	throttle time.Duration
	err      error
}

func (r *retryableError) Error() string { return r.err.Error() }
func (r *retryableError) Unwrap() error { return r.err }

// post makes one attempt.
func (e *otlpHTTPExporter) post(ctx context.Context, body []byte, open *atomic.Int32) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, nil)
	if err != nil {
		return fmt.Errorf("telemetry: OTLP export: %w", err)
	}
	req.Header = e.header.Clone()
	req.ContentLength = int64(len(body))
	req.Body = newExportBody(body, open)
	req.GetBody = func() (io.ReadCloser, error) { return newExportBody(body, open), nil }
	resp, err := e.client.Do(req)
	if err != nil {
		err = fmt.Errorf("telemetry: OTLP export to %s: %w", e.shown, err)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() && ctx.Err() == nil {
			return &retryableError{err: err}
		}
		return err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxExportResponse+1))
	if err != nil {
		return fmt.Errorf("telemetry: OTLP export to %s: reading the answer: %w", e.shown, err)
	}
	if len(answer) > maxExportResponse {
		return fmt.Errorf("telemetry: OTLP export to %s: the answer is over %d bytes", e.shown, maxExportResponse)
	}
	switch code := resp.StatusCode; {
	case code >= 200 && code <= 299:
		return partialSuccess(resp.Header.Get("Content-Type"), answer)
	case code == http.StatusTooManyRequests || code == http.StatusBadGateway || code == http.StatusServiceUnavailable || code == http.StatusGatewayTimeout:
		return &retryableError{throttle: retryAfter(resp.Header.Get("Retry-After"), time.Now()),
			err: fmt.Errorf("telemetry: OTLP export to %s: %s (body: %s)", e.shown, resp.Status, answerText(answer))}
	case code >= 300 && code <= 399 && resp.Header.Get("Location") != "":
		return fmt.Errorf("telemetry: OTLP export to %s: %s to %q, another origin: not followed (set the endpoint to it if it is meant)", e.shown, resp.Status, answerText([]byte(resp.Header.Get("Location"))))
	default:
		return fmt.Errorf("telemetry: OTLP export to %s: %s (body: %s)", e.shown, resp.Status, answerText(answer))
	}
}

// partialSuccess reads a 2xx answer: an ExportTraceServiceResponse whose
// partial_success, when it rejects spans or says something, is returned
// as an error (the SDK's batch processor hands it to OpenTelemetry's
// error handler, which logs it). An answer that is neither protobuf nor
// JSON, or empty, is success.
func partialSuccess(contentType string, answer []byte) error {
	if len(answer) == 0 {
		return nil
	}
	var r coltracepb.ExportTraceServiceResponse
	var err error
	switch ct, _, _ := strings.Cut(contentType, ";"); strings.TrimSpace(strings.ToLower(ct)) {
	case "application/x-protobuf":
		err = proto.Unmarshal(answer, &r)
	case "application/json":
		err = protojson.UnmarshalOptions{DiscardUnknown: true}.Unmarshal(answer, &r)
	default:
		return nil
	}
	if err != nil {
		return fmt.Errorf("telemetry: OTLP export: the receiver's answer (%s) does not decode: %w", contentType, err)
	}
	ps := r.GetPartialSuccess()
	if n, msg := ps.GetRejectedSpans(), ps.GetErrorMessage(); n != 0 || msg != "" {
		if msg == "" {
			msg = "no message"
		}
		return fmt.Errorf("telemetry: OTLP partial success: %s (%d spans rejected)", msg, n)
	}
	return nil
}

// retryAfter is a Retry-After header's wait (seconds or an HTTP date),
// 0 when absent or unreadable.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil && s >= 0 {
		return time.Duration(min(s, int64(time.Hour/time.Second))) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}

// answerText is a receiver's answer for an error message: trimmed,
// at most 512 bytes, "(empty)" when empty.
func answerText(b []byte) string {
	s := strings.TrimSpace(string(b[:min(len(b), 512)]))
	if s == "" {
		return "(empty)"
	}
	return s
}

// exportBody is a request body over the encoded batch that counts
// itself open until the transport closes it.
type exportBody struct {
	bytes.Reader
	open   *atomic.Int32
	closed atomic.Bool
}

func newExportBody(b []byte, open *atomic.Int32) *exportBody {
	open.Add(1)
	r := &exportBody{open: open}
	r.Reset(b)
	return r
}

// Close marks the body closed.
func (r *exportBody) Close() error {
	if r.closed.CompareAndSwap(false, true) {
		r.open.Add(-1)
	}
	return nil
}

// Shutdown cancels an export in flight and closes idle connections.
func (e *otlpHTTPExporter) Shutdown(context.Context) error {
	e.end()
	e.client.CloseIdleConnections()
	return nil
}

// newSpanExporter returns the exporter of c and its description for
// Telemetry.Exporter: judge's own for http/protobuf, the official
// otlptracehttp one for http/json and when a certificate variable is
// set (it reads them), the official otlptracegrpc one for grpc.
func newSpanExporter(ctx context.Context, c Config) (sdktrace.SpanExporter, string, error) {
	name := "otlp " + c.Protocol + " " + redacted(c.Endpoint)
	var (
		exp sdktrace.SpanExporter
		err error
	)
	switch {
	case c.Protocol == "grpc":
		exp, err = otlptracegrpc.New(ctx, otlptracegrpc.WithEndpointURL(c.Endpoint))
	case c.Protocol == "http/protobuf" && len(c.OTLP.TLS) == 0:
		return newOTLPHTTPExporter(c.Endpoint, c.OTLP), name, nil
	default:
		opts := []otlptracehttp.Option{otlptracehttp.WithEndpointURL(c.Endpoint)}
		if c.Protocol == "http/json" {
			opts = append(opts, otlptracehttp.WithEncoding(otlptracehttp.EncodingJSON))
		}
		exp, err = otlptracehttp.New(ctx, opts...)
		name += " (the official exporter)"
	}
	if err != nil {
		return nil, "", fmt.Errorf("telemetry: OTLP exporter: %w", err)
	}
	return exp, name, nil
}
