package proxy

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// modelCall is the GenAI CLIENT span of one request to the model
// ("chat {gen_ai.request.model}", the OpenTelemetry GenAI conventions'
// inference span), under the proxy's SERVER span: the request's model
// and limits, the answer's id, model, finish reasons and token usage,
// and judge's verdict on the answer (docs/observability.md). Its context
// is the traceparent the upstream receives. A nil *modelCall (telemetry
// off) does nothing.
type modelCall struct {
	span trace.Span
	mu   sync.Mutex
	// finish are the finish reasons by choice index, "" while a choice
	// has none.
	finish    []string
	id, model string
	usage     *usage
}

type modelCallKey struct{}

// traceModel starts the model call's span when the proxy exports spans,
// and returns r with it as the active span (so that the upstream request
// carries its traceparent and log lines its ids) and the call.
func (p *Proxy) traceModel(r *http.Request, req *parsedRequest) (*http.Request, *modelCall) {
	t := p.opts.Telemetry
	if !t.Enabled() {
		return r, nil
	}
	attrs := []attribute.KeyValue{
		attribute.String("gen_ai.operation.name", "chat"),
		attribute.String("gen_ai.provider.name", "openai"),
	}
	name := "chat"
	if req.Model != "" {
		name += " " + req.Model
		attrs = append(attrs, attribute.String("gen_ai.request.model", req.Model))
	}
	if n := req.maxTokens(); n > 0 {
		attrs = append(attrs, attribute.Int64("gen_ai.request.max_tokens", n))
	}
	if req.choices != 1 {
		attrs = append(attrs, attribute.Int("gen_ai.request.choice.count", req.choices))
	}
	if u, err := url.Parse(p.upstream); err == nil {
		attrs = append(attrs, attribute.String("server.address", u.Hostname()))
		port := u.Port()
		if port == "" {
			port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
		}
		if n, err := strconv.Atoi(port); err == nil {
			attrs = append(attrs, attribute.Int("server.port", n))
		}
	}
	ctx, span := t.Tracer().Start(r.Context(), name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	mc := &modelCall{span: span, finish: make([]string, req.choices)}
	return r.WithContext(context.WithValue(ctx, modelCallKey{}, mc)), mc
}

// modelCallFrom is the model call of ctx, nil when none.
func modelCallFrom(ctx context.Context) *modelCall {
	mc, _ := ctx.Value(modelCallKey{}).(*modelCall)
	return mc
}

// response records the upstream's answer to the request, or why there
// was none: error.type is the status code of an answer other than 200,
// or the transport's failure.
func (m *modelCall) response(resp *http.Response, err error) {
	if m == nil {
		return
	}
	switch {
	case err != nil:
		m.span.RecordError(err)
		m.span.SetStatus(codes.Error, err.Error())
		et := "_OTHER"
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			et = "timeout"
		}
		m.span.SetAttributes(attribute.String("error.type", et))
	case resp.StatusCode != http.StatusOK:
		m.span.SetStatus(codes.Error, http.StatusText(resp.StatusCode))
		m.span.SetAttributes(attribute.String("error.type", strconv.Itoa(resp.StatusCode)), attribute.Int("http.response.status_code", resp.StatusCode))
	}
}

// chunk takes what the span records of one chunk of the answer (or of the
// whole answer, not streamed): id, model, usage, finish reasons.
func (m *modelCall) chunk(c *chunk) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.id == "" {
		m.id = c.ID
	}
	if m.model == "" {
		m.model = c.Model
	}
	if c.Usage != nil {
		m.usage = c.Usage
	}
	for _, ch := range c.Choices {
		if ch.FinishReason != nil && *ch.FinishReason != "" && ch.Index >= 0 && ch.Index < len(m.finish) {
			m.finish[ch.Index] = *ch.FinishReason
		}
	}
}

// report records judge's verdict on the answer: judge.valid, the mode,
// whether judge stopped the answer, how many documents were checked and
// how many were invalid, and the tokens after the first violation.
func (m *modelCall) report(rep *Report) {
	if m == nil || rep == nil {
		return
	}
	invalid := 0
	for _, v := range rep.Checks {
		if !v.Result.Valid {
			invalid++
		}
	}
	kv := []attribute.KeyValue{
		attribute.Bool("judge.valid", rep.Valid),
		attribute.String("judge.mode", string(rep.Mode)),
		attribute.Bool("judge.stopped", rep.Stopped),
		attribute.Int("judge.check_count", len(rep.Checks)),
		attribute.Int("judge.invalid_count", invalid),
		attribute.Int64("judge.tokens.after_violation", rep.Tokens.AfterViolation),
	}
	if rep.Tokens.Saved != nil {
		kv = append(kv, attribute.Int64("judge.tokens.saved", *rep.Tokens.Saved))
	}
	m.span.SetAttributes(kv...)
}

// end ends the span with what the answer said.
func (m *modelCall) end() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var kv []attribute.KeyValue
	if m.id != "" {
		kv = append(kv, attribute.String("gen_ai.response.id", m.id))
	}
	if m.model != "" {
		kv = append(kv, attribute.String("gen_ai.response.model", m.model))
	}
	if slices.ContainsFunc(m.finish, func(s string) bool { return s != "" }) {
		kv = append(kv, attribute.StringSlice("gen_ai.response.finish_reasons", m.finish))
	}
	if m.usage != nil {
		kv = append(kv, attribute.Int64("gen_ai.usage.input_tokens", m.usage.PromptTokens),
			attribute.Int64("gen_ai.usage.output_tokens", m.usage.CompletionTokens))
	}
	m.span.SetAttributes(kv...)
	m.span.End()
}
