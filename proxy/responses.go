package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/agentjudge/judge/internal/httpapi"
	"github.com/agentjudge/judge/server/api"
)

// handleResponses answers POST /v1/responses, OpenAI's Responses API: the
// request is forwarded to the upstream's /responses as it came, and its
// answer checked against the request's text.format schema and function
// tools as it streams back, with the same checkpoint, modes, report and
// metrics as the chat completions.
func (p *Proxy) handleResponses(w http.ResponseWriter, r *http.Request) {
	body, release, ok := p.readRequest(w, r)
	if !ok {
		return
	}
	defer release()
	req, err := parseResponsesRequest(r.Context(), body, p.opts.Checker)
	if err != nil {
		p.writeError(w, r, err)
		return
	}
	// The model call's GenAI span, as chat's: one choice, the cap
	// max_output_tokens.
	r, mc := p.traceModel(r, &parsedRequest{chatRequest: chatRequest{Model: req.Model, MaxCompletionTokens: req.MaxOutputTokens}, choices: 1})
	defer mc.end()
	ex, ok := p.callUpstream(w, r, mc, "/responses", body, req.Stream)
	if !ok {
		return
	}
	defer ex.close()
	cp := p.opts.Checkpoint(p.opts.Engine, req.contracts)
	if req.Stream {
		p.streamResponses(ex.ctx, ex.cancel, w, r, req, cp, ex.resp)
	} else {
		p.completeResponses(ex.ctx, w, r, req, cp, ex.resp)
	}
}

// event writes one named server-sent event whose data is v.
func (o *sseOut) event(typ string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		o.err = err
		return
	}
	o.write(fmt.Appendf(nil, "event: %s\ndata: %s\n\n", typ, b))
}

// streamResponses forwards the upstream's Responses API event stream,
// checking each document as it arrives, and acts on violations by the
// mode: after the terminal event (response.completed, .incomplete,
// .failed), annotate and stop add a judge.validation event; stop ends the
// stream at the first violation with response.incomplete and that event.
func (p *Proxy) streamResponses(ctx context.Context, cancel context.CancelCauseFunc, w http.ResponseWriter, r *http.Request,
	req *parsedResponses, cp Checkpoint, resp *http.Response) {
	out := &sseOut{w: w, rc: http.NewResponseController(w), header: resp.Header}
	rd := newSSEReader(resp.Body)
	ra := newRespAnswer(cp)
	seq := int64(-1)
	for {
		ev, err := rd.next()
		if errors.Is(err, io.EOF) {
			err = &SSEError{Line: rd.line, Msg: "the stream ended before its terminal event (response.completed, response.incomplete or response.failed)"}
		}
		if err != nil {
			if r.Context().Err() == nil {
				p.failResponses(ctx, w, r, out, seq, err)
			}
			return
		}
		data := bytes.TrimSpace(ev.data)
		e, err := parseRespEvent(data, ev.line)
		if err != nil {
			p.failResponses(ctx, w, r, out, seq, err)
			return
		}
		if e.Type == evError || (e.Type == "" && isErrorEvent(data)) {
			// The upstream's own error: forwarded as it came.
			p.metrics.upstreamErrors.WithLabelValues("status").Inc()
			out.write(ev.raw)
			return
		}
		vs, err := ra.add(ctx, &e, ev.line)
		if err != nil {
			p.failResponses(ctx, w, r, out, seq, err)
			return
		}
		if e.Type == evCreated || terminal(e.Type) {
			traceResponse(ctx, e.Response)
		}
		if p.opts.Mode == Stop && anyInvalid(vs) {
			p.stopResponses(r, cancel, out, ra, &e, seq, req.maxTokens())
			return
		}
		// seq is the last forwarded event's: the proxy's own events
		// follow it.
		seq = max(seq, e.SequenceNumber)
		out.write(ev.raw)
		if out.err != nil {
			return // the client went away
		}
		if terminal(e.Type) {
			// The answer is whole: the stream ends here, whatever the
			// upstream might still send (a data: [DONE] some servers add
			// is not forwarded; no client of the Responses API waits for
			// it), so that a server slow to close keeps no client waiting.
			rep := ra.a.report(p.opts.Mode, false, req.maxTokens())
			p.done(r, rep)
			if p.opts.Mode != Pass {
				out.event(EventValidation, ValidationEvent{Type: EventValidation, SequenceNumber: seq + 1, Judge: rep})
			}
			return
		}
	}
}

// failResponses ends a Responses API exchange the proxy cannot go on
// with: a problem answer before the stream began, else an error event
// ({"type": "error", code, message, param}, with OpenAI's error object
// beside it, so that the SDKs raise it).
func (p *Proxy) failResponses(ctx context.Context, w http.ResponseWriter, r *http.Request, out *sseOut, seq int64, err error) {
	answered, err := p.streamFailed(ctx, w, r, out, err)
	if answered {
		return
	}
	code := string(api.CodeBadGateway)
	out.event(evError, map[string]any{"type": evError, "sequence_number": seq + 1, "code": code, "message": err.Error(), "param": nil,
		"error": openaiError{Message: err.Error(), Type: "judge_proxy_error", Code: code}})
}

// stopResponses ends the answer at its first violation, in the stop
// mode: the event that made it certain is not forwarded, the upstream's
// request is cancelled, and the stream ends with response.incomplete
// (status "incomplete", incomplete_details.reason "content_filter", the
// output items done so far) and the judge.validation event. When the
// violation came with the terminal event, the model had finished: its
// response (whole output, usage) is the one marked incomplete, and the
// tokens are exact.
func (p *Proxy) stopResponses(r *http.Request, cancel context.CancelCauseFunc, out *sseOut, ra *respAnswer, e *respEvent, seq int64, maxTokens int64) {
	whole := terminal(e.Type)
	ra.a.ended = whole && ra.a.usage != nil
	cancel(errStopped)
	rep := ra.a.report(Stop, true, maxTokens)
	p.done(r, rep)
	out.event(evIncomplete, map[string]any{"type": evIncomplete, "sequence_number": seq + 1, "response": stoppedResponse(ra.last, ra.items, whole)})
	out.event(EventValidation, ValidationEvent{Type: EventValidation, SequenceNumber: seq + 2, Judge: rep})
}

// stoppedResponse returns the response object last marked incomplete by
// judge; unless whole, its output is items, those done before the cut.
func stoppedResponse(last json.RawMessage, items []json.RawMessage, whole bool) map[string]json.RawMessage {
	obj := map[string]json.RawMessage{}
	_ = json.Unmarshal(last, &obj)
	if obj == nil {
		obj = map[string]json.RawMessage{}
	}
	if _, ok := obj["object"]; !ok {
		obj["object"] = json.RawMessage(`"response"`)
	}
	obj["status"] = json.RawMessage(`"` + statusStopped + `"`)
	obj["incomplete_details"] = json.RawMessage(`{"reason":"` + reasonJudge + `"}`)
	if !whole {
		if items == nil {
			items = []json.RawMessage{}
		}
		b, _ := json.Marshal(items)
		obj["output"] = b
	}
	return obj
}

// completeResponses checks a Responses API answer that is not streamed:
// the same documents, checked whole, the same report, as a "judge"
// member of the response in annotate and stop; in stop, an invalid answer
// is marked incomplete (incomplete_details.reason "content_filter").
func (p *Proxy) completeResponses(ctx context.Context, w http.ResponseWriter, r *http.Request, req *parsedResponses, cp Checkpoint, resp *http.Response) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err == nil && len(body) > MaxResponseBytes {
		err = fmt.Errorf("the answer is larger than %d bytes", MaxResponseBytes)
	}
	if err != nil {
		p.metrics.upstreamErrors.WithLabelValues("protocol").Inc()
		p.writeError(w, r, &httpapi.UpstreamError{Msg: "the upstream's answer could not be read: " + upstreamCause(ctx, err), Err: err})
		return
	}
	ra := newRespAnswer(cp)
	if err := ra.addWhole(ctx, body); err != nil {
		var pe *ProtocolError
		if errors.As(err, &pe) {
			p.metrics.upstreamErrors.WithLabelValues("protocol").Inc()
			err = &httpapi.UpstreamError{Msg: err.Error(), Err: err}
		}
		p.writeError(w, r, err)
		return
	}
	traceResponse(ctx, body)
	rep := ra.a.report(p.opts.Mode, false, req.maxTokens())
	p.done(r, rep)
	if p.opts.Mode == Pass {
		copyHeaders(w.Header(), resp.Header)
		httpapi.WriteBody(w, http.StatusOK, api.MediaTypeJSON, body)
		return
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
		p.writeError(w, r, &httpapi.UpstreamError{Msg: "the upstream's answer is not a JSON object", Err: err})
		return
	}
	if p.opts.Mode == Stop && !rep.Valid {
		obj["status"] = json.RawMessage(`"` + statusStopped + `"`)
		obj["incomplete_details"] = json.RawMessage(`{"reason":"` + reasonJudge + `"}`)
	}
	j, err := json.Marshal(rep)
	if err != nil {
		p.writeError(w, r, err)
		return
	}
	obj["judge"] = j
	b, err := json.Marshal(obj)
	if err != nil {
		p.writeError(w, r, err)
		return
	}
	copyHeaders(w.Header(), resp.Header)
	httpapi.WriteBody(w, http.StatusOK, api.MediaTypeJSON, b)
}

// traceResponse gives the model call's span of ctx, when there is one,
// what a response object says: its id, model, usage, and as the finish
// reason its status (completed, failed, incomplete), or
// incomplete_details.reason for an incomplete one; nothing while it is
// in progress.
func traceResponse(ctx context.Context, resp json.RawMessage) {
	mc := modelCallFrom(ctx)
	if mc == nil || len(resp) == 0 {
		return
	}
	var o struct {
		ID                string `json:"id"`
		Model             string `json:"model"`
		Status            string `json:"status"`
		IncompleteDetails *struct {
			Reason string `json:"reason"`
		} `json:"incomplete_details"`
		Usage *struct {
			InputTokens  int64 `json:"input_tokens"`
			OutputTokens int64 `json:"output_tokens"`
			TotalTokens  int64 `json:"total_tokens"`
		} `json:"usage"`
	}
	if json.Unmarshal(resp, &o) != nil {
		return
	}
	c := &chunk{ID: o.ID, Model: o.Model}
	if o.Usage != nil {
		c.Usage = &usage{PromptTokens: o.Usage.InputTokens, CompletionTokens: o.Usage.OutputTokens, TotalTokens: o.Usage.TotalTokens}
	}
	finish := o.Status
	if o.IncompleteDetails != nil && o.IncompleteDetails.Reason != "" {
		finish = o.IncompleteDetails.Reason
	}
	if finish != "" && finish != "in_progress" && finish != "queued" {
		c.Choices = []chunkChoice{{Index: 0, FinishReason: &finish}}
	}
	mc.chunk(c)
}
