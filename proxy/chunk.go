package proxy

import (
	"context"
	"fmt"
)

// chunk is what the proxy reads of a chat.completion.chunk.
type chunk struct {
	ID                string        `json:"id"`
	Object            string        `json:"object"`
	Created           int64         `json:"created"`
	Model             string        `json:"model"`
	SystemFingerprint string        `json:"system_fingerprint,omitempty"`
	Choices           []chunkChoice `json:"choices"`
	Usage             *usage        `json:"usage"`
}

type chunkChoice struct {
	Index int `json:"index"`
	Delta struct {
		Content   *string         `json:"content"`
		Refusal   *string         `json:"refusal"`
		ToolCalls []toolCallDelta `json:"tool_calls"`
	} `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

type toolCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// usage is the token usage an upstream reports.
type usage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TotalTokens      int64 `json:"total_tokens"`
}

// ProtocolError is an upstream chunk that breaks the chat completions
// protocol: a choice the request did not ask for, a tool call without an
// index, a delta after its choice finished.
type ProtocolError struct {
	// Line is the line of the upstream's stream the chunk starts at (0
	// for an answer that is not streamed).
	Line int
	// Msg says what is wrong.
	Msg string
	// Protocol names the protocol broken; "" is chat completions.
	Protocol string
}

func (e *ProtocolError) Error() string {
	proto := e.Protocol
	if proto == "" {
		proto = "chat completions"
	}
	if e.Line > 0 {
		return fmt.Sprintf("the upstream's chunk at line %d breaks the %s protocol: %s", e.Line, proto, e.Msg)
	}
	return fmt.Sprintf("the upstream's answer breaks the %s protocol: %s", proto, e.Msg)
}

// answer assembles the choices of one answer from its deltas and checks
// each document as soon as it is complete: a tool call's arguments when
// the next call of its choice starts or the choice finishes, the content
// when the choice finishes.
type answer struct {
	cp      Checkpoint
	choices []*choiceState
	// verdicts are every verdict so far, in the order they came.
	verdicts []*Verdict
	// tokens counts the deltas that carried content or arguments, one
	// token each (as OpenAI streams them); violatedAt is tokens when the
	// first invalid verdict came, -1 before.
	tokens, violatedAt int64
	usage              *usage
	// ended is set when every choice had finished before a stop, so that
	// the upstream's usage was read after it.
	ended bool
}

// allFinished reports whether every choice has its finish_reason.
func (a *answer) allFinished() bool {
	for _, st := range a.choices {
		if !st.finished {
			return false
		}
	}
	return true
}

type choiceState struct {
	content     Watch
	contentMade bool
	contentLen  int
	contentDone bool
	refused     bool
	calls       []*callState
	finished    bool
}

type callState struct {
	ref   ToolCallRef
	watch Watch
	made  bool
	n     int
	done  bool
	// began is true once any delta of the call came.
	began bool
}

func newAnswer(cp Checkpoint, choices int) *answer {
	a := &answer{cp: cp, choices: make([]*choiceState, choices), violatedAt: -1}
	for i := range a.choices {
		a.choices[i] = &choiceState{}
	}
	return a
}

// add takes one chunk and returns the verdicts it made certain.
func (a *answer) add(ctx context.Context, c *chunk, line int) ([]*Verdict, error) {
	start := len(a.verdicts)
	if c.Usage != nil {
		a.usage = c.Usage
	}
	for _, ch := range c.Choices {
		if ch.Index < 0 || ch.Index >= len(a.choices) {
			return nil, &ProtocolError{Line: line, Msg: fmt.Sprintf("choice index %d, but the request asked for %d choice(s)", ch.Index, len(a.choices))}
		}
		st := a.choices[ch.Index]
		counted := false
		hasDelta := (ch.Delta.Content != nil && *ch.Delta.Content != "") || len(ch.Delta.ToolCalls) > 0
		if st.finished && hasDelta {
			return nil, &ProtocolError{Line: line, Msg: fmt.Sprintf("a delta for choice %d after its finish_reason", ch.Index)}
		}
		if ch.Delta.Refusal != nil && *ch.Delta.Refusal != "" {
			st.refused = true
		}
		if ch.Delta.Content != nil && *ch.Delta.Content != "" {
			counted = true
			a.feedContent(ctx, ch.Index, st, *ch.Delta.Content)
		}
		for i, tc := range ch.Delta.ToolCalls {
			if tc.Index == nil {
				return nil, &ProtocolError{Line: line, Msg: fmt.Sprintf("choices[%d].delta.tool_calls[%d] has no index", ch.Index, i)}
			}
			idx := *tc.Index
			if idx < 0 || idx >= MaxToolCalls {
				return nil, &ProtocolError{Line: line, Msg: fmt.Sprintf("tool call index %d is outside 0..%d", idx, MaxToolCalls-1)}
			}
			// A later call starting completes every earlier one.
			for j := 0; j < idx && j < len(st.calls); j++ {
				if err := a.endCall(ctx, ch.Index, st.calls[j]); err != nil {
					return nil, err
				}
			}
			for len(st.calls) <= idx {
				st.calls = append(st.calls, nil)
			}
			call := st.calls[idx]
			if call == nil {
				call = &callState{ref: ToolCallRef{Index: idx}}
				st.calls[idx] = call
			}
			if call.done {
				return nil, &ProtocolError{Line: line, Msg: fmt.Sprintf("a delta for tool call %d of choice %d after a later call began", idx, ch.Index)}
			}
			call.began = true
			if call.ref.ID == "" {
				call.ref.ID = tc.ID
			}
			call.ref.Name += tc.Function.Name
			if tc.Function.Arguments != "" {
				counted = true
				a.feedCall(ctx, ch.Index, call, tc.Function.Arguments)
			}
		}
		if counted {
			a.tokens++
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			if err := a.endChoice(ctx, ch.Index, st); err != nil {
				return nil, err
			}
		}
	}
	return a.verdicts[start:], nil
}

// finish ends every document still open, at the end of the stream, and
// returns the verdicts that made.
func (a *answer) finish(ctx context.Context) ([]*Verdict, error) {
	start := len(a.verdicts)
	for i, st := range a.choices {
		if err := a.endChoice(ctx, i, st); err != nil {
			return nil, err
		}
	}
	return a.verdicts[start:], nil
}

func (a *answer) record(v *Verdict) {
	a.verdicts = append(a.verdicts, v)
	if !v.Result.Valid && a.violatedAt < 0 {
		a.violatedAt = a.tokens
	}
}

func (a *answer) feedContent(ctx context.Context, choice int, st *choiceState, frag string) {
	if !st.contentMade {
		st.content, st.contentMade = a.cp.Content(ctx), true
	}
	st.contentLen += len(frag)
	if st.content == nil || st.contentDone {
		return
	}
	if v := st.content.Feed([]byte(frag)); v != nil {
		st.contentDone = true
		v.Choice, v.Kind, v.At, v.Early = choice, "content", st.contentLen, true
		a.record(v)
	}
}

func (a *answer) feedCall(ctx context.Context, choice int, call *callState, frag string) {
	if !call.made {
		call.watch, call.made = a.cp.Arguments(ctx, call.ref.Name), true
	}
	call.n += len(frag)
	if call.watch == nil || call.done {
		return
	}
	if v := call.watch.Feed([]byte(frag)); v != nil {
		call.done = true
		ref := call.ref
		v.Choice, v.Kind, v.ToolCall, v.At, v.Early = choice, "tool_call", &ref, call.n, true
		a.record(v)
	}
}

// endCall ends a call's arguments and checks them whole, unless a verdict
// on them came early.
func (a *answer) endCall(ctx context.Context, choice int, call *callState) error {
	if call == nil || call.done {
		return nil
	}
	call.done = true
	if !call.made {
		call.watch, call.made = a.cp.Arguments(ctx, call.ref.Name), true
	}
	if call.watch == nil {
		return nil
	}
	v, err := call.watch.End(ctx)
	if err != nil {
		return err
	}
	ref := call.ref
	v.Choice, v.Kind, v.ToolCall, v.At = choice, "tool_call", &ref, call.n
	a.record(v)
	return nil
}

// endChoice ends every open document of a choice. A choice that made tool
// calls and no content, or refused, has no content to check; one that
// made neither is checked as empty content.
func (a *answer) endChoice(ctx context.Context, choice int, st *choiceState) error {
	if st.finished {
		return nil
	}
	st.finished = true
	for _, call := range st.calls {
		if err := a.endCall(ctx, choice, call); err != nil {
			return err
		}
	}
	if st.contentDone || st.refused || (!st.contentMade && len(st.calls) > 0) {
		return nil
	}
	if !st.contentMade {
		st.content, st.contentMade = a.cp.Content(ctx), true
	}
	if st.content == nil {
		return nil
	}
	st.contentDone = true
	v, err := st.content.End(ctx)
	if err != nil {
		return err
	}
	v.Choice, v.Kind, v.At = choice, "content", st.contentLen
	a.record(v)
	return nil
}
