package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strings"

	"go.opentelemetry.io/otel/propagation"

	"github.com/agentjudge/judge/internal/httpapi"
	"github.com/agentjudge/judge/server/api"
)

// errUpstreamTimeout is the cause of an upstream exchange cut by
// UpstreamTimeout.
var errUpstreamTimeout = errors.New("the upstream did not finish its answer within the proxy's upstream timeout")

// handleChat answers POST /v1/chat/completions: the request is forwarded
// to the upstream as it came, and its answer checked against the
// request's response schema and tools as it streams back.
func (p *Proxy) handleChat(w http.ResponseWriter, r *http.Request) {
	body, release, ok := p.readRequest(w, r)
	if !ok {
		return
	}
	defer release()
	req, err := parseRequest(r.Context(), body, p.opts.Checker)
	if err != nil {
		p.writeError(w, r, err)
		return
	}
	r, mc := p.traceModel(r, req)
	defer mc.end()
	ex, ok := p.callUpstream(w, r, mc, "/chat/completions", body, req.Stream)
	if !ok {
		return
	}
	defer ex.close()
	cp := p.opts.Checkpoint(p.opts.Engine, req.contracts)
	if req.Stream {
		p.stream(ex.ctx, ex.cancel, w, r, req, cp, ex.resp)
	} else {
		p.complete(ex.ctx, w, r, req, cp, ex.resp)
	}
}

// readRequest reads r's body within the API's limits and admits it; the
// caller calls release when done. ok is false when r has been answered
// with the problem.
func (p *Proxy) readRequest(w http.ResponseWriter, r *http.Request) (body []byte, release func(), ok bool) {
	if err := httpapi.CheckMediaType(r.Header); err != nil {
		p.writeError(w, r, err)
		return nil, nil, false
	}
	body, err := httpapi.ReadBody(w, r, p.opts.MaxBodyBytes, p.opts.ReadTimeout)
	if err != nil {
		p.writeError(w, r, err)
		return nil, nil, false
	}
	release, err = p.admission.Admit(int64(len(body)))
	if err != nil {
		p.writeError(w, r, err)
		return nil, nil, false
	}
	return body, release, true
}

// upstreamExchange is the upstream's answer to a forwarded request, with
// the context it streams under.
type upstreamExchange struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	resp   *http.Response
	done   func()
}

// close ends the exchange: the answer's body closed, its contexts
// cancelled.
func (ex *upstreamExchange) close() {
	ex.resp.Body.Close()
	ex.done()
}

// callUpstream forwards body to the upstream's path under the upstream
// timeout. ok is false when r has been answered instead (the upstream
// unreachable, a redirect, an error status passed through, a stream that
// is not one); otherwise the caller checks the answer and closes the
// exchange.
func (p *Proxy) callUpstream(w http.ResponseWriter, r *http.Request, mc *modelCall, path string, body []byte, streaming bool) (ex *upstreamExchange, ok bool) {
	ctx, cancelTimeout := context.WithTimeoutCause(r.Context(), p.opts.UpstreamTimeout, errUpstreamTimeout)
	ctx, cancel := context.WithCancelCause(ctx)
	done := func() { cancel(nil); cancelTimeout() }
	resp, err := p.forward(ctx, r, path, body)
	mc.response(resp, err)
	if err != nil {
		defer done()
		p.metrics.upstreamErrors.WithLabelValues("unreachable").Inc()
		if r.Context().Err() != nil {
			p.writeError(w, r, r.Context().Err())
			return nil, false
		}
		p.writeError(w, r, &httpapi.UpstreamError{Msg: "the upstream could not be reached: " + upstreamCause(ctx, err), Err: err})
		return nil, false
	}
	ex = &upstreamExchange{ctx: ctx, cancel: cancel, resp: resp, done: done}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		p.metrics.upstreamErrors.WithLabelValues("status").Inc()
		p.writeError(w, r, &httpapi.UpstreamError{Msg: fmt.Sprintf("the upstream answered %d, a redirect; judge proxy posts to the configured upstream URL only and follows no redirect", resp.StatusCode)})
	case resp.StatusCode != http.StatusOK:
		p.metrics.upstreamErrors.WithLabelValues("status").Inc()
		p.passThrough(w, r, resp)
	case streaming && mt != "text/event-stream":
		p.metrics.upstreamErrors.WithLabelValues("protocol").Inc()
		p.writeError(w, r, &httpapi.UpstreamError{Msg: fmt.Sprintf("the upstream answered a streaming request with %q, not text/event-stream", resp.Header.Get("Content-Type"))})
	default:
		return ex, true
	}
	ex.close()
	return nil, false
}

// writeError answers r with the problem err maps to, as judge's API
// does (RFC 9457), with OpenAI's error object beside it, so that an
// OpenAI client shows its message.
func (p *Proxy) writeError(w http.ResponseWriter, r *http.Request, err error) {
	pb := httpapi.ProblemFor(w, r, p.log, err)
	httpapi.WriteJSON(w, pb.Status, api.MediaTypeProblem, problem{Problem: pb,
		Error: openaiError{Message: pb.Detail, Type: "judge_proxy_error", Code: string(pb.Code)}})
}

// problem is a problem document with OpenAI's error object as an
// extension member.
type problem struct {
	api.Problem
	Error openaiError `json:"error"`
}

type openaiError struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Code    string `json:"code"`
}

// upstreamCause says why an exchange with the upstream failed, without
// the request's headers.
func upstreamCause(ctx context.Context, err error) string {
	if c := context.Cause(ctx); errors.Is(c, errUpstreamTimeout) {
		return c.Error()
	}
	return err.Error()
}

// forward posts body to the upstream's path (/chat/completions,
// /responses), with the client's Authorization and OpenAI organisation
// and project headers and nothing else of the client's.
func (p *Proxy) forward(ctx context.Context, r *http.Request, path string, body []byte) (*http.Response, error) {
	up, err := http.NewRequestWithContext(ctx, http.MethodPost, p.upstream+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	up.Header.Set("Content-Type", api.MediaTypeJSON)
	up.Header.Set("Accept", "application/json, text/event-stream")
	for _, h := range []string{"Authorization", "OpenAI-Organization", "OpenAI-Project"} {
		if v := r.Header.Get(h); v != "" {
			up.Header.Set(h, v)
		}
	}
	if t := p.opts.Telemetry; t.Enabled() {
		t.Propagator.Inject(ctx, propagation.HeaderCarrier(up.Header))
	}
	return p.client.Do(up)
}

// copyHeaders copies the upstream's headers a client may use: the type,
// caching, Retry-After, the rate limits and OpenAI's own.
func copyHeaders(dst, src http.Header) {
	for k, vs := range src {
		lk := strings.ToLower(k)
		if lk == "content-type" || lk == "cache-control" || lk == "retry-after" ||
			strings.HasPrefix(lk, "x-ratelimit-") || strings.HasPrefix(lk, "openai-") {
			dst[k] = vs
		}
	}
}

// passThrough answers with the upstream's error answer: its status, type
// and body, within MaxResponseBytes.
func (p *Proxy) passThrough(w http.ResponseWriter, r *http.Request, resp *http.Response) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes))
	if err != nil && len(body) == 0 {
		p.writeError(w, r, &httpapi.UpstreamError{Msg: fmt.Sprintf("the upstream answered %d and its body could not be read: %v", resp.StatusCode, err), Err: err})
		return
	}
	copyHeaders(w.Header(), resp.Header)
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(body)
}

// outChunk is a chunk the proxy writes itself: the finish of a stopped
// choice, or judge's report.
type outChunk struct {
	ID                string      `json:"id"`
	Object            string      `json:"object"`
	Created           int64       `json:"created"`
	Model             string      `json:"model"`
	SystemFingerprint string      `json:"system_fingerprint,omitempty"`
	Choices           []outChoice `json:"choices"`
	Judge             *Report     `json:"judge,omitempty"`
	// Usage is the upstream's usage, on the report's chunk of an answer
	// stopped after the model had finished (the usage chunk it replaces).
	Usage *usage `json:"usage,omitempty"`
}

type outChoice struct {
	Index        int      `json:"index"`
	Delta        struct{} `json:"delta"`
	FinishReason string   `json:"finish_reason"`
}

// FinishStopped is the finish_reason of a choice the stop mode ended: the
// standard value for content that a filter withheld, so that every
// client accepts it.
const FinishStopped = "content_filter"

// sseOut writes events to the client, sending the upstream's headers with
// the first.
type sseOut struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	header  http.Header
	started bool
	err     error
}

func (o *sseOut) write(b []byte) {
	if o.err != nil {
		return
	}
	if !o.started {
		o.started = true
		copyHeaders(o.w.Header(), o.header)
		o.w.Header().Set("Content-Type", "text/event-stream")
		o.w.Header().Set("Cache-Control", "no-cache")
		o.w.Header().Set("X-Content-Type-Options", "nosniff")
		o.w.WriteHeader(http.StatusOK)
	}
	if _, err := o.w.Write(b); err != nil {
		o.err = err
		return
	}
	if err := o.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		o.err = err
	}
}

func (o *sseOut) data(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		o.err = err
		return
	}
	o.write(append(append([]byte("data: "), b...), '\n', '\n'))
}

// streamError is the event that ends a stream the proxy cannot go on
// with: OpenAI's error object, which the clients raise as an error.
func streamError(msg, code string) map[string]any {
	return map[string]any{"error": map[string]any{"message": msg, "type": "judge_proxy_error", "code": code}}
}

// stream forwards the upstream's event stream, checking each document as
// it completes, and acts on violations by the mode.
func (p *Proxy) stream(ctx context.Context, cancel context.CancelCauseFunc, w http.ResponseWriter, r *http.Request,
	req *parsedRequest, cp Checkpoint, resp *http.Response) {
	out := &sseOut{w: w, rc: http.NewResponseController(w), header: resp.Header}
	rd := newSSEReader(resp.Body)
	a := newAnswer(cp, req.choices)
	finishSent := make([]bool, req.choices)
	var meta chunk
	fail := func(err error) {
		if answered, err := p.streamFailed(ctx, w, r, out, err); !answered {
			out.data(streamError(err.Error(), string(api.CodeBadGateway)))
		}
	}
	for {
		ev, err := rd.next()
		if errors.Is(err, io.EOF) {
			err = &SSEError{Line: rd.line, Msg: "the stream ended without data: [DONE]"}
		}
		if err != nil {
			if r.Context().Err() != nil {
				return // the client went away; nothing to answer
			}
			fail(err)
			return
		}
		data := bytes.TrimSpace(ev.data)
		if bytes.Equal(data, []byte("[DONE]")) {
			if _, err := a.finish(ctx); err != nil {
				fail(err)
				return
			}
			rep := a.report(p.opts.Mode, false, req.maxTokens())
			p.done(r, rep)
			if p.opts.Mode != Pass {
				out.data(outChunk{ID: meta.ID, Object: "chat.completion.chunk", Created: meta.Created, Model: meta.Model,
					SystemFingerprint: meta.SystemFingerprint, Choices: []outChoice{}, Judge: rep})
			}
			out.write(ev.raw)
			return
		}
		var c chunk
		if err := json.Unmarshal(data, &c); err != nil {
			fail(&SSEError{Line: ev.line, Msg: "an event's data is not a chat completion chunk: " + err.Error(), Err: err})
			return
		}
		modelCallFrom(ctx).chunk(&c)
		if bytes.Contains(data, []byte(`"error"`)) && isErrorEvent(data) {
			// The upstream's own error mid-stream: forwarded as it came,
			// the client raises it.
			p.metrics.upstreamErrors.WithLabelValues("status").Inc()
			out.write(ev.raw)
			return
		}
		if meta.ID == "" {
			meta = chunk{ID: c.ID, Created: c.Created, Model: c.Model, SystemFingerprint: c.SystemFingerprint}
		}
		vs, err := a.add(ctx, &c, ev.line)
		if err != nil {
			fail(err)
			return
		}
		if p.opts.Mode == Stop && anyInvalid(vs) {
			p.stopAnswer(r, cancel, rd, out, a, req, &meta, finishSent)
			return
		}
		for _, ch := range c.Choices {
			if ch.FinishReason != nil && *ch.FinishReason != "" {
				finishSent[ch.Index] = true
			}
		}
		out.write(ev.raw)
		if out.err != nil {
			return // the client went away
		}
	}
}

// stopAnswer ends the answer at its first violation, in the stop mode:
// every choice still generating ends with FinishStopped, and the report
// comes in a last chunk. When every choice had already finished and the
// request asked for usage, the generation is over and nothing is left to
// save: the upstream's usage, which comes next, is read (not forwarded)
// so that the report's tokens are exact. Else the upstream's request is
// cancelled.
func (p *Proxy) stopAnswer(r *http.Request, cancel context.CancelCauseFunc, rd *sseReader, out *sseOut,
	a *answer, req *parsedRequest, meta *chunk, finishSent []bool) {
	if a.allFinished() && req.includeUsage() {
		a.ended = readUsage(rd, a)
	}
	cancel(errStopped)
	rep := a.report(Stop, true, req.maxTokens())
	p.done(r, rep)
	for i, sent := range finishSent {
		if !sent {
			out.data(outChunk{ID: meta.ID, Object: "chat.completion.chunk", Created: meta.Created, Model: meta.Model,
				SystemFingerprint: meta.SystemFingerprint, Choices: []outChoice{{Index: i, FinishReason: FinishStopped}}})
		}
	}
	last := outChunk{ID: meta.ID, Object: "chat.completion.chunk", Created: meta.Created, Model: meta.Model,
		SystemFingerprint: meta.SystemFingerprint, Choices: []outChoice{}, Judge: rep}
	if a.ended {
		last.Usage = a.usage
	}
	out.data(last)
	out.write([]byte("data: [DONE]\n\n"))
}

// maxUsageEvents bounds the events read after a stop looking for the
// usage chunk: after every choice's finish_reason only it should come.
const maxUsageEvents = 4

// readUsage reads the rest of a finished answer's stream, up to data:
// [DONE], for its usage chunk, and reports whether a usage came.
func readUsage(rd *sseReader, a *answer) bool {
	for range maxUsageEvents {
		ev, err := rd.next()
		if err != nil {
			return false
		}
		data := bytes.TrimSpace(ev.data)
		if bytes.Equal(data, []byte("[DONE]")) {
			return a.usage != nil
		}
		var c chunk
		if json.Unmarshal(data, &c) != nil || len(c.Choices) > 0 {
			return false // not the usage chunk: the figure stays an estimate
		}
		if c.Usage != nil {
			a.usage = c.Usage
		}
	}
	return false
}

// isErrorEvent says whether data is an error object ({"error": ...})
// rather than a chunk.
func isErrorEvent(data []byte) bool {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	return json.Unmarshal(data, &e) == nil && len(e.Error) > 0 && !bytes.Equal(e.Error, []byte("null"))
}

func anyInvalid(vs []*Verdict) bool {
	for _, v := range vs {
		if !v.Result.Valid {
			return true
		}
	}
	return false
}

// done logs and counts the report of one answer.
func (p *Proxy) done(r *http.Request, rep *Report) {
	p.metrics.observe(rep)
	modelCallFrom(r.Context()).report(rep)
	level := slog.LevelInfo
	if !rep.Valid {
		level = slog.LevelWarn
	}
	invalid := 0
	for _, v := range rep.Checks {
		if !v.Result.Valid {
			invalid++
		}
	}
	p.log.LogAttrs(r.Context(), level, "answer checked",
		slog.String("request_id", httpapi.RequestIDFrom(r.Context())),
		slog.String("mode", string(rep.Mode)),
		slog.Bool("valid", rep.Valid),
		slog.Int("checks", len(rep.Checks)),
		slog.Int("invalid", invalid),
		slog.Bool("stopped", rep.Stopped),
		slog.Int64("tokens_after_violation", rep.Tokens.AfterViolation))
}

// completion is what the proxy reads of an answer that is not streamed.
type completion struct {
	Choices []struct {
		Index   int `json:"index"`
		Message struct {
			Content   *string `json:"content"`
			Refusal   *string `json:"refusal"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *usage `json:"usage"`
	ID    string `json:"id"`
	Model string `json:"model"`
}

// complete checks an answer that is not streamed: the same documents,
// checked whole, the same report.
func (p *Proxy) complete(ctx context.Context, w http.ResponseWriter, r *http.Request, req *parsedRequest, cp Checkpoint, resp *http.Response) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err == nil && len(body) > MaxResponseBytes {
		err = fmt.Errorf("the answer is larger than %d bytes", MaxResponseBytes)
	}
	if err != nil {
		p.metrics.upstreamErrors.WithLabelValues("protocol").Inc()
		p.writeError(w, r, &httpapi.UpstreamError{Msg: "the upstream's answer could not be read: " + upstreamCause(ctx, err), Err: err})
		return
	}
	var c completion
	if err := json.Unmarshal(body, &c); err != nil {
		p.metrics.upstreamErrors.WithLabelValues("protocol").Inc()
		p.writeError(w, r, &httpapi.UpstreamError{Msg: "the upstream's answer is not a chat completion: " + err.Error(), Err: err})
		return
	}
	// The whole answer is one chunk of deltas: the same assembly and
	// checks as a stream.
	var ck chunk
	ck.Usage = c.Usage
	for _, ch := range c.Choices {
		var cc chunkChoice
		cc.Index, cc.FinishReason = ch.Index, ch.FinishReason
		cc.Delta.Content, cc.Delta.Refusal = ch.Message.Content, ch.Message.Refusal
		for i, tc := range ch.Message.ToolCalls {
			d := toolCallDelta{Index: &i, ID: tc.ID}
			d.Function.Name, d.Function.Arguments = tc.Function.Name, tc.Function.Arguments
			cc.Delta.ToolCalls = append(cc.Delta.ToolCalls, d)
		}
		stop := "stop"
		if cc.FinishReason == nil || *cc.FinishReason == "" {
			cc.FinishReason = &stop
		}
		ck.Choices = append(ck.Choices, cc)
	}
	ck.ID, ck.Model = c.ID, c.Model
	modelCallFrom(ctx).chunk(&ck)
	a := newAnswer(cp, req.choices)
	if _, err := a.add(ctx, &ck, 0); err != nil {
		p.metrics.upstreamErrors.WithLabelValues("protocol").Inc()
		p.writeError(w, r, &httpapi.UpstreamError{Msg: err.Error(), Err: err})
		return
	}
	if _, err := a.finish(ctx); err != nil {
		p.writeError(w, r, err)
		return
	}
	rep := a.report(p.opts.Mode, false, req.maxTokens())
	p.done(r, rep)
	if p.opts.Mode == Pass {
		copyHeaders(w.Header(), resp.Header)
		httpapi.WriteBody(w, http.StatusOK, api.MediaTypeJSON, body)
		return
	}
	out, err := annotated(body, rep, p.opts.Mode == Stop)
	if err != nil {
		p.writeError(w, r, &httpapi.UpstreamError{Msg: "the upstream's answer is not a JSON object: " + err.Error(), Err: err})
		return
	}
	copyHeaders(w.Header(), resp.Header)
	httpapi.WriteBody(w, http.StatusOK, api.MediaTypeJSON, out)
}

// annotated returns body, a chat completion, with rep as its "judge"
// member, every other member as it came; with stop, each choice with an
// invalid document gets finish_reason content_filter.
func annotated(body []byte, rep *Report, stop bool) ([]byte, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		return nil, err
	}
	if stop && !rep.Valid {
		var choices []map[string]json.RawMessage
		if err := json.Unmarshal(obj["choices"], &choices); err != nil {
			return nil, err
		}
		bad := map[int]bool{}
		for _, v := range rep.Checks {
			if !v.Result.Valid {
				bad[v.Choice] = true
			}
		}
		for _, ch := range choices {
			var idx int
			if json.Unmarshal(ch["index"], &idx) == nil && bad[idx] {
				ch["finish_reason"] = json.RawMessage(`"` + FinishStopped + `"`)
			}
		}
		b, err := json.Marshal(choices)
		if err != nil {
			return nil, err
		}
		obj["choices"] = b
	}
	j, err := json.Marshal(rep)
	if err != nil {
		return nil, err
	}
	obj["judge"] = j
	return json.Marshal(obj)
}

// streamFailed does what an upstream stream that failed needs whatever
// its protocol: it is counted, its cause named (the upstream timeout, the
// client gone), logged, and answered with a problem when nothing was sent
// yet (answered). Otherwise the caller ends the stream with its
// protocol's error event, made of err.
func (p *Proxy) streamFailed(ctx context.Context, w http.ResponseWriter, r *http.Request, out *sseOut, err error) (answered bool, _ error) {
	p.metrics.upstreamErrors.WithLabelValues("protocol").Inc()
	if ctx.Err() != nil && r.Context().Err() == nil {
		err = &httpapi.UpstreamError{Msg: upstreamCause(ctx, ctx.Err()), Err: err}
	}
	var ue *httpapi.UpstreamError
	if !errors.As(err, &ue) {
		err = &httpapi.UpstreamError{Msg: err.Error(), Err: err}
	}
	p.log.WarnContext(r.Context(), "upstream stream failed", "request_id", httpapi.RequestIDFrom(r.Context()), "error", err.Error())
	if !out.started {
		p.writeError(w, r, err)
		return true, err
	}
	return false, err
}
