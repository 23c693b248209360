package proxytest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// The Responses API's answers (POST /v1/responses) are those OpenAI
// sends, in the shapes of openai-go v3's types (responses.Response,
// responses.ResponseStreamEventUnion): a stream is "event: TYPE" and
// "data: {...}" lines, every event carrying its type and a
// sequence_number from 0 — response.created and response.in_progress
// with the response object (status in_progress, output [], usage null),
// then for each output item response.output_item.added, for a message
// response.content_part.added, response.output_text.delta events (with
// logprobs and obfuscation) and response.output_text.done,
// response.content_part.done, for a function call
// response.function_call_arguments.delta events and
// response.function_call_arguments.done, then response.output_item.done
// with the whole item, and last response.completed with the whole
// response and its usage (input_tokens, output_tokens, total_tokens and
// their details). The stream ends there, without data: [DONE].

// ResponseID, MessageID and ResponseCreated are the id, the message item's
// id and the creation time of every Responses API answer.
const (
	ResponseID      = "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b"
	MessageID       = "msg_67ccd2bf17f0819081ff3bb2cf6508e60bb6a6b452d3795b"
	ResponseCreated = 1741476542
)

// responsesRequest is what the fake reads of a Responses API request, to
// echo it in its response object as OpenAI does.
type responsesRequest struct {
	Stream          bool            `json:"stream"`
	Text            json.RawMessage `json:"text"`
	Tools           json.RawMessage `json:"tools"`
	MaxOutputTokens *int64          `json:"max_output_tokens"`
}

func (u *Upstream) serveResponses(w http.ResponseWriter, r *http.Request, body []byte, sc Script) {
	var req responsesRequest
	_ = json.Unmarshal(body, &req)
	if sc.Raw != "" {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, sc.Raw)
		return
	}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		b, _ := json.Marshal(ResponseOf(sc, body))
		_, _ = w.Write(b)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	hold := func() bool {
		select {
		case <-r.Context().Done():
			u.Cancelled <- struct{}{}
			return true
		case <-time.After(20 * time.Second):
			return false
		}
	}
	evs := ResponseEventsOf(sc, body)
	for n, ev := range evs {
		if sc.HoldAfter > 0 && n == sc.HoldAfter && hold() {
			return
		}
		if _, err := io.WriteString(w, ev); err != nil {
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
	if sc.HoldAfter == len(evs) {
		// A server slow to close after its terminal event.
		hold()
	}
}

// responseObject is the response object of the Responses API, with the
// request's text, tools and max_output_tokens echoed.
func responseObject(req responsesRequest, status string, output []any, usage any) map[string]any {
	var text, tools any = map[string]any{"format": map[string]any{"type": "text"}}, []any{}
	if len(req.Text) > 0 {
		text = req.Text
	}
	if len(req.Tools) > 0 {
		tools = req.Tools
	}
	return map[string]any{"id": ResponseID, "object": "response", "created_at": ResponseCreated, "status": status,
		"background": false, "error": nil, "incomplete_details": nil, "instructions": nil,
		"max_output_tokens": req.MaxOutputTokens, "max_tool_calls": nil, "model": Model, "output": output,
		"parallel_tool_calls": true, "previous_response_id": nil, "prompt_cache_key": nil,
		"reasoning": map[string]any{"effort": nil, "summary": nil}, "safety_identifier": nil,
		"service_tier": "default", "store": true, "temperature": 1.0, "text": text, "tool_choice": "auto",
		"tools": tools, "top_logprobs": 0, "top_p": 1.0, "truncation": "disabled", "usage": usage,
		"user": nil, "metadata": map[string]any{}, "access_programs": map[string]any{"cyber": "standard"}}
}

func responsesUsage(output int) map[string]any {
	return map[string]any{"input_tokens": 120, "input_tokens_details": map[string]any{"cached_tokens": 0, "cache_write_tokens": 0},
		"output_tokens": output, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
		"total_tokens": 120 + output}
}

// responseItems are the output items of sc's first choice, whole: a
// message when it has content or no calls, then one function call per
// call.
func responseItems(sc Script) (items []any, tokens int) {
	if len(sc.Choices) == 0 {
		return []any{}, 0
	}
	ch := sc.Choices[0]
	frag := sc.Fragment
	if frag == 0 {
		frag = 4
	}
	if ch.Content != "" || len(ch.Calls) == 0 {
		items = append(items, messageItem("completed", ch.Content))
		tokens += len(Split(ch.Content, frag))
	}
	for k, tc := range ch.Calls {
		items = append(items, callItem(k, "completed", tc.Name, tc.Args))
		tokens += len(Split(tc.Args, frag))
	}
	return items, tokens
}

func messageItem(status, text string) map[string]any {
	content := []any{}
	if status == "completed" {
		content = []any{outputText(text)}
	}
	return map[string]any{"id": MessageID, "type": "message", "status": status, "role": "assistant", "content": content}
}

func outputText(text string) map[string]any {
	return map[string]any{"type": "output_text", "text": text, "annotations": []any{}, "logprobs": []any{}}
}

// CallItemID is the item id of the k-th function call.item.
func CallItemID(k int) string { return fmt.Sprintf("fc_67ccd2c0a2e88190b1f8e3cbd8a3c07d0%d", k) }

// CallID is the call_id of the k-th function call.
func CallID(k int) string { return fmt.Sprintf("call_%d_Jw9ukD7X", k) }

func callItem(k int, status, name, args string) map[string]any {
	return map[string]any{"id": CallItemID(k), "type": "function_call", "status": status,
		"arguments": args, "call_id": CallID(k), "name": name}
}

// ResponseOf renders sc's first choice as the Responses API's answer that
// is not streamed, for the request body req.
func ResponseOf(sc Script, req []byte) map[string]any {
	var rq responsesRequest
	_ = json.Unmarshal(req, &rq)
	items, tokens := responseItems(sc)
	return responseObject(rq, "completed", items, responsesUsage(tokens))
}

// ResponseEventsOf renders sc's first choice as the events of a Responses
// API stream, each a whole server-sent event ("event: ...\ndata:
// ...\n\n"), for the request body req.
func ResponseEventsOf(sc Script, req []byte) []string {
	var rq responsesRequest
	_ = json.Unmarshal(req, &rq)
	frag := sc.Fragment
	if frag == 0 {
		frag = 4
	}
	var out []string
	seq := 0
	emit := func(typ string, fields map[string]any) {
		fields["type"], fields["sequence_number"] = typ, seq
		b, _ := json.Marshal(fields)
		out = append(out, fmt.Sprintf("event: %s\ndata: %s\n\n", typ, b))
		seq++
	}
	emit("response.created", map[string]any{"response": responseObject(rq, "in_progress", []any{}, nil)})
	emit("response.in_progress", map[string]any{"response": responseObject(rq, "in_progress", []any{}, nil)})
	items, tokens := responseItems(sc)
	oi := 0
	if len(sc.Choices) > 0 {
		ch := sc.Choices[0]
		if ch.Content != "" || len(ch.Calls) == 0 {
			emit("response.output_item.added", map[string]any{"output_index": oi, "item": messageItem("in_progress", "")})
			emit("response.content_part.added", map[string]any{"item_id": MessageID, "output_index": oi, "content_index": 0, "part": outputText("")})
			for _, f := range Split(ch.Content, frag) {
				emit("response.output_text.delta", map[string]any{"item_id": MessageID, "output_index": oi, "content_index": 0,
					"delta": f, "logprobs": []any{}, "obfuscation": obfuscation(f)})
			}
			emit("response.output_text.done", map[string]any{"item_id": MessageID, "output_index": oi, "content_index": 0,
				"text": ch.Content, "logprobs": []any{}})
			emit("response.content_part.done", map[string]any{"item_id": MessageID, "output_index": oi, "content_index": 0, "part": outputText(ch.Content)})
			emit("response.output_item.done", map[string]any{"output_index": oi, "item": messageItem("completed", ch.Content)})
			oi++
		}
		for k, tc := range ch.Calls {
			emit("response.output_item.added", map[string]any{"output_index": oi, "item": callItem(k, "in_progress", tc.Name, "")})
			for _, f := range Split(tc.Args, frag) {
				emit("response.function_call_arguments.delta", map[string]any{"item_id": CallItemID(k), "output_index": oi,
					"delta": f, "obfuscation": obfuscation(f)})
			}
			emit("response.function_call_arguments.done", map[string]any{"item_id": CallItemID(k), "output_index": oi, "arguments": tc.Args})
			emit("response.output_item.done", map[string]any{"output_index": oi, "item": callItem(k, "completed", tc.Name, tc.Args)})
			oi++
		}
	}
	emit("response.completed", map[string]any{"response": responseObject(rq, "completed", items, responsesUsage(tokens))})
	return out
}

// obfuscation pads a delta as OpenAI's stream_options.include_obfuscation
// does (random characters that even out the events' lengths).
func obfuscation(delta string) string {
	const pad = "Qk3vXp9ZrT2mWb"
	return pad[:max(len(pad)-len(delta), 1)]
}
