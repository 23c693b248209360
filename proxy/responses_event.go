package proxy

import (
	"context"
	"encoding/json"
	"fmt"
)

// EventValidation is the type of the event the proxy adds at the end of a
// Responses API stream in the annotate and stop modes: a
// [ValidationEvent].
const EventValidation = "judge.validation"

// ValidationEvent is the event that carries judge's [Report] on a
// Responses API stream: "event: judge.validation", its data
// {"type": "judge.validation", "sequence_number": N, "judge": Report},
// N following the upstream's last sequence number.
type ValidationEvent struct {
	// Type is EventValidation.
	Type string `json:"type"`
	// SequenceNumber follows the last event's.
	SequenceNumber int64 `json:"sequence_number"`
	// Judge is the report on the answer.
	Judge *Report `json:"judge"`
}

// respEvent is what the proxy reads of one event of a Responses API
// stream (openai-go's responses.ResponseStreamEventUnion).
type respEvent struct {
	Type           string `json:"type"`
	SequenceNumber int64  `json:"sequence_number"`
	OutputIndex    *int   `json:"output_index"`
	// Delta is a string for the text, refusal and arguments deltas; other
	// events (a shell call's output) carry objects.
	Delta     json.RawMessage `json:"delta"`
	Arguments *string         `json:"arguments"`
	Item      json.RawMessage `json:"item"`
	Response  json.RawMessage `json:"response"`
}

// respItem is what the proxy reads of an output item.
type respItem struct {
	Type      string `json:"type"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Content   []struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Refusal string `json:"refusal"`
	} `json:"content"`
}

// respObject is what the proxy reads of a response object.
type respObject struct {
	Output []json.RawMessage `json:"output"`
	Usage  *struct {
		InputTokens  int64 `json:"input_tokens"`
		OutputTokens int64 `json:"output_tokens"`
		TotalTokens  int64 `json:"total_tokens"`
	} `json:"usage"`
}

// The event types the proxy reads; every other passes untouched.
const (
	evCreated     = "response.created"
	evInProgress  = "response.in_progress"
	evItemAdded   = "response.output_item.added"
	evItemDone    = "response.output_item.done"
	evTextDelta   = "response.output_text.delta"
	evRefusal     = "response.refusal.delta"
	evArgsDelta   = "response.function_call_arguments.delta"
	evArgsDone    = "response.function_call_arguments.done"
	evCompleted   = "response.completed"
	evIncomplete  = "response.incomplete"
	evFailed      = "response.failed"
	evError       = "error"
	itemFunction  = "function_call"
	reasonJudge   = "content_filter"
	statusStopped = "incomplete"
)

// MaxOutputItems bounds the output items of one Responses API answer.
const MaxOutputItems = 4096

// responsesProtocol names the Responses API in a *ProtocolError.
const responsesProtocol = "Responses API"

// terminal reports whether typ ends a response.
func terminal(typ string) bool {
	return typ == evCompleted || typ == evIncomplete || typ == evFailed
}

// read reports whether the proxy reads events of type typ.
func read(typ string) bool {
	switch typ {
	case evCreated, evInProgress, evItemAdded, evItemDone, evTextDelta, evRefusal, evArgsDelta, evArgsDone,
		evCompleted, evIncomplete, evFailed, evError:
		return true
	}
	return false
}

// parseRespEvent reads data, one event's data, at line of the upstream's
// stream. An event whose type the proxy does not read is returned with its
// type only, whatever its other members; one it reads whose members do not
// have their types is an *SSEError at line.
func parseRespEvent(data []byte, line int) (respEvent, error) {
	var e respEvent
	err := json.Unmarshal(data, &e)
	if err == nil {
		return e, nil
	}
	// One pass reads every event whose members have the types the proxy
	// reads; only one that does not is read again, for its type.
	var head struct {
		Type           string `json:"type"`
		SequenceNumber int64  `json:"sequence_number"`
	}
	if herr := json.Unmarshal(data, &head); herr != nil {
		return respEvent{}, &SSEError{Line: line, Msg: "an event's data is not a Responses API event: " + herr.Error(), Err: herr}
	}
	if !read(head.Type) {
		return respEvent{Type: head.Type, SequenceNumber: head.SequenceNumber}, nil
	}
	return respEvent{}, &SSEError{Line: line, Msg: fmt.Sprintf("a %s event is malformed: %v", head.Type, err), Err: err}
}

// respAnswer assembles a Responses API answer from its events, on the
// chat assembler's documents: the answer is one choice (0) whose content
// is the text of its output_text parts, in order, and whose tool calls are
// its function_call items, indexed in the order they began. A call's
// arguments are checked when the call ends (its
// function_call_arguments.done or output_item.done), the content when the
// response ends.
type respAnswer struct {
	a  *answer
	st *choiceState
	// calls are the function calls by output index; closed those ended.
	calls  map[int]*callState
	closed map[int]bool
	// items are the output items done so far, as they came.
	items []json.RawMessage
	// last is the last response object the stream gave.
	last json.RawMessage
}

func newRespAnswer(cp Checkpoint) *respAnswer {
	a := newAnswer(cp, 1)
	return &respAnswer{a: a, st: a.choices[0], calls: map[int]*callState{}, closed: map[int]bool{}}
}

// deltaText returns e's delta as a string.
func deltaText(e *respEvent, line int) (string, error) {
	var s string
	if len(e.Delta) == 0 {
		return "", nil
	}
	if err := json.Unmarshal(e.Delta, &s); err != nil {
		return "", &ProtocolError{Protocol: responsesProtocol, Line: line, Msg: fmt.Sprintf("a %s event's delta is not a string", e.Type)}
	}
	return s, nil
}

func (r *respAnswer) outputIndex(e *respEvent, line int) (int, error) {
	if e.OutputIndex == nil || *e.OutputIndex < 0 {
		return 0, &ProtocolError{Protocol: responsesProtocol, Line: line, Msg: fmt.Sprintf("a %s event without a valid output_index", e.Type)}
	}
	return *e.OutputIndex, nil
}

// add takes one event and returns the verdicts it made certain.
func (r *respAnswer) add(ctx context.Context, e *respEvent, line int) ([]*Verdict, error) {
	start := len(r.a.verdicts)
	switch e.Type {
	case evCreated, evInProgress:
		if len(e.Response) > 0 {
			r.last = e.Response
		}
	case evTextDelta:
		if r.st.finished {
			return nil, &ProtocolError{Protocol: responsesProtocol, Line: line, Msg: "a text delta after the response ended"}
		}
		d, err := deltaText(e, line)
		if err != nil {
			return nil, err
		}
		if d != "" {
			r.a.tokens++
			r.a.feedContent(ctx, 0, r.st, d)
		}
	case evRefusal:
		r.st.refused = true
	case evItemAdded:
		if err := r.itemAdded(ctx, e, line); err != nil {
			return nil, err
		}
	case evArgsDelta:
		call, _, err := r.openCall(e, line)
		if err != nil {
			return nil, err
		}
		d, err := deltaText(e, line)
		if err != nil {
			return nil, err
		}
		if d != "" {
			r.a.tokens++
			r.a.feedCall(ctx, 0, call, d)
		}
	case evArgsDone:
		call, oi, err := r.openCall(e, line)
		if err != nil {
			return nil, err
		}
		args := ""
		if e.Arguments != nil {
			args = *e.Arguments
		}
		if err := r.endCall(ctx, oi, call, args); err != nil {
			return nil, err
		}
	case evItemDone:
		if err := r.itemDone(ctx, e, line); err != nil {
			return nil, err
		}
	case evCompleted, evIncomplete, evFailed:
		if err := r.end(ctx, e.Response, line); err != nil {
			return nil, err
		}
	}
	return r.a.verdicts[start:], nil
}

func (r *respAnswer) itemAdded(ctx context.Context, e *respEvent, line int) error {
	oi, err := r.outputIndex(e, line)
	if err != nil {
		return err
	}
	var it respItem
	if err := json.Unmarshal(e.Item, &it); err != nil {
		return &ProtocolError{Protocol: responsesProtocol, Line: line, Msg: "an output_item.added event without an item object"}
	}
	if it.Type != itemFunction {
		return nil
	}
	return r.beginCall(ctx, oi, &it, line)
}

// beginCall begins the function call it at output index oi.
func (r *respAnswer) beginCall(ctx context.Context, oi int, it *respItem, line int) error {
	if r.st.finished {
		return &ProtocolError{Protocol: responsesProtocol, Line: line, Msg: "an output item after the response ended"}
	}
	if _, dup := r.calls[oi]; dup {
		return &ProtocolError{Protocol: responsesProtocol, Line: line, Msg: fmt.Sprintf("a second item at output_index %d", oi)}
	}
	if len(r.st.calls) >= MaxToolCalls {
		return &ProtocolError{Protocol: responsesProtocol, Line: line, Msg: fmt.Sprintf("more than %d function calls", MaxToolCalls)}
	}
	call := &callState{ref: ToolCallRef{Index: len(r.st.calls), ID: it.CallID, Name: it.Name}, began: true}
	r.st.calls = append(r.st.calls, call)
	r.calls[oi] = call
	if it.Arguments != "" {
		r.a.tokens++
		r.a.feedCall(ctx, 0, call, it.Arguments)
	}
	return nil
}

// openCall returns the call e's output index names, which must have begun
// and not ended.
func (r *respAnswer) openCall(e *respEvent, line int) (*callState, int, error) {
	oi, err := r.outputIndex(e, line)
	if err != nil {
		return nil, 0, err
	}
	call := r.calls[oi]
	switch {
	case call == nil:
		return nil, 0, &ProtocolError{Protocol: responsesProtocol, Line: line, Msg: fmt.Sprintf("a %s event for output_index %d, where no function_call item began", e.Type, oi)}
	case r.closed[oi]:
		return nil, 0, &ProtocolError{Protocol: responsesProtocol, Line: line, Msg: fmt.Sprintf("a %s event for the function call at output_index %d after it ended", e.Type, oi)}
	}
	return call, oi, nil
}

// endCall ends the call at oi, whose whole arguments are args: a call no
// delta carried is fed them whole first.
func (r *respAnswer) endCall(ctx context.Context, oi int, call *callState, args string) error {
	if call.n == 0 && args != "" {
		r.a.tokens++
		r.a.feedCall(ctx, 0, call, args)
	}
	r.closed[oi] = true
	return r.a.endCall(ctx, 0, call)
}

func (r *respAnswer) itemDone(ctx context.Context, e *respEvent, line int) error {
	oi, err := r.outputIndex(e, line)
	if err != nil {
		return err
	}
	var it respItem
	if err := json.Unmarshal(e.Item, &it); err != nil {
		return &ProtocolError{Protocol: responsesProtocol, Line: line, Msg: "an output_item.done event without an item object"}
	}
	if len(r.items) >= MaxOutputItems {
		return &ProtocolError{Protocol: responsesProtocol, Line: line, Msg: fmt.Sprintf("more than %d output items", MaxOutputItems)}
	}
	r.items = append(r.items, e.Item)
	if it.Type != itemFunction {
		return nil
	}
	call := r.calls[oi]
	if call == nil {
		// A call given whole, without its added event.
		if err := r.beginCall(ctx, oi, &it, line); err != nil {
			return err
		}
		r.closed[oi] = true
		return r.a.endCall(ctx, 0, r.calls[oi])
	}
	if r.closed[oi] {
		return nil
	}
	return r.endCall(ctx, oi, call, it.Arguments)
}

// end ends the answer at its terminal event, whose response object (with
// the usage) is resp, and checks every document still open.
func (r *respAnswer) end(ctx context.Context, resp json.RawMessage, line int) error {
	if r.st.finished {
		return &ProtocolError{Protocol: responsesProtocol, Line: line, Msg: "a second terminal event"}
	}
	if len(resp) > 0 {
		var o respObject
		if err := json.Unmarshal(resp, &o); err != nil {
			return &ProtocolError{Protocol: responsesProtocol, Line: line, Msg: "a terminal event's response is not a response object: " + err.Error()}
		}
		if o.Usage != nil {
			r.a.usage = &usage{PromptTokens: o.Usage.InputTokens, CompletionTokens: o.Usage.OutputTokens, TotalTokens: o.Usage.TotalTokens}
		}
		r.last = resp
	}
	for oi := range r.calls {
		r.closed[oi] = true
	}
	return r.a.endChoice(ctx, 0, r.st)
}

// addWhole takes an answer that is not streamed, a whole response object,
// through the same assembly: each message's output_text in order, each
// function call whole.
func (r *respAnswer) addWhole(ctx context.Context, resp json.RawMessage) error {
	var o respObject
	if err := json.Unmarshal(resp, &o); err != nil {
		return &ProtocolError{Protocol: responsesProtocol, Msg: "the answer is not a response object: " + err.Error()}
	}
	for oi, raw := range o.Output {
		var it respItem
		if err := json.Unmarshal(raw, &it); err != nil {
			return &ProtocolError{Protocol: responsesProtocol, Msg: fmt.Sprintf("output[%d] is not an output item: %v", oi, err)}
		}
		switch it.Type {
		case "message":
			for _, c := range it.Content {
				switch c.Type {
				case "output_text":
					if c.Text != "" {
						r.a.tokens++
						r.a.feedContent(ctx, 0, r.st, c.Text)
					}
				case "refusal":
					r.st.refused = true
				}
			}
		case itemFunction:
			if err := r.beginCall(ctx, oi, &it, 0); err != nil {
				return err
			}
			r.closed[oi] = true
			if err := r.a.endCall(ctx, 0, r.calls[oi]); err != nil {
				return err
			}
		}
	}
	return r.end(ctx, resp, 0)
}
