package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Limits of Decode.
const (
	// MaxTraceBytes is the largest input Decode reads.
	MaxTraceBytes = 256 << 20
	// MaxMessages is the most messages one conversation may hold.
	MaxMessages = 10000
	// MaxConversations is the most conversations one input may hold.
	MaxConversations = 100000
)

// Conversation is one recorded conversation.
type Conversation struct {
	// ID names the conversation: its id field, tau-bench's task and
	// trial, or its position in the input.
	ID       string    `json:"id"`
	Messages []Message `json:"messages"`
	// Reward is the recorded outcome of the task when the input has one
	// (tau-bench: 1 solved, below 1 failed); nil otherwise.
	Reward *float64 `json:"reward,omitempty"`
	// RunError is the error the run recorded when it crashed (tau-bench:
	// info.error and info.traceback, and no messages); nil otherwise.
	RunError *RunError `json:"run_error,omitempty"`
	// Tools are the definitions of the tools the conversation's model was
	// offered, as a JSON array of OpenAI function tools, when the input
	// recorded them (an OpenTelemetry trace's gen_ai.tool.definitions or
	// OpenInference's llm.tools); nil otherwise. See ToolDefinitions.
	Tools json.RawMessage `json:"tools,omitempty"`
}

// RunError is the error a recorded run ended with, as its record gives it.
type RunError struct {
	// Error is the error's text (a JSON value that is no text, compacted).
	Error string `json:"error"`
	// Traceback is the recorded traceback, at most its last
	// MaxTracebackBytes.
	Traceback string `json:"traceback,omitempty"`
}

// MaxTracebackBytes is the most of a recorded traceback a RunError keeps:
// its end, where the exception is.
const MaxTracebackBytes = 4096

// Message is one chat message. Content is the message's text: a string
// content as it is, the text parts of a list content joined.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"`
}

// ToolCall is one tool call of an assistant message. Arguments is the
// JSON text of the arguments (OpenAI sends it as a string).
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// DecodeError is input Decode cannot read: where (a byte offset's line and
// column, and the conversation and field when known) and why.
type DecodeError struct {
	Line, Col int
	// At is the conversation and field: "conversation 3: messages[2].tool_calls[0]".
	At  string
	Msg string
	Err error
}

func (e *DecodeError) Error() string {
	var sb strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&sb, "%d:%d: ", e.Line, e.Col)
	}
	if e.At != "" {
		sb.WriteString(e.At + ": ")
	}
	sb.WriteString(e.Msg)
	return sb.String()
}

func (e *DecodeError) Unwrap() error { return e.Err }

// wire forms of the input.
type (
	wireMessage struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCalls  []wireToolCall  `json:"tool_calls"`
		ToolCallID string          `json:"tool_call_id"`
		Name       string          `json:"name"`
	}
	wireToolCall struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	}
	wireConversation struct {
		ID       json.RawMessage `json:"id"`
		TaskID   json.RawMessage `json:"task_id"`
		Trial    json.RawMessage `json:"trial"`
		Reward   *float64        `json:"reward"`
		Messages json.RawMessage `json:"messages"`
		Traj     json.RawMessage `json:"traj"`
		Info     json.RawMessage `json:"info"`
	}
)

// Decode reads conversations from data: one conversation (a list of
// messages, or an object with "messages" or tau-bench's "traj"), a JSON
// array of conversations, JSONL with one conversation per line (or one
// message per line, read as one conversation), or OpenTelemetry traces as
// OTLP/JSON (one export request, or one per line as the Collector's file
// exporter writes them; see otlp.go). Input that is not one of
// these gives a *DecodeError with its line and column.
func Decode(data []byte) ([]Conversation, error) {
	if len(data) > MaxTraceBytes {
		return nil, &DecodeError{Msg: fmt.Sprintf("the input is larger than %d bytes", MaxTraceBytes)}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var values []json.RawMessage
	var offsets []int64
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var v json.RawMessage
		off := dec.InputOffset()
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			return nil, syntaxError(data, err, off)
		}
		values = append(values, v)
		offsets = append(offsets, off)
		if len(values) > MaxConversations {
			return nil, &DecodeError{Msg: fmt.Sprintf("the input holds more than %d values", MaxConversations)}
		}
	}
	if len(values) == 0 {
		return nil, &DecodeError{Line: 1, Col: 1, Msg: "the input is empty: expected a conversation, a JSON array of them, or JSONL"}
	}
	if otlpPayload(values[0]) != nil {
		return decodeOTLP(data, values, offsets)
	}
	var convs []Conversation
	add := func(raw json.RawMessage, off int64, pos string) error {
		c, err := conversation(raw, pos)
		if err != nil {
			var de *DecodeError
			if errors.As(err, &de) && de.Line == 0 {
				de.Line, de.Col = lineCol(data, off)
			}
			return err
		}
		convs = append(convs, c)
		return nil
	}
	if len(values) > 1 {
		// JSONL: conversations, or messages of one conversation.
		if isMessage(values[0]) {
			list, err := json.Marshal(values)
			if err != nil {
				return nil, err
			}
			return convs, add(list, 0, "conversation 0")
		}
		for i, v := range values {
			if err := add(v, offsets[i], fmt.Sprintf("conversation %d (line %d)", i, lineOf(data, offsets[i]))); err != nil {
				return nil, err
			}
		}
		return convs, nil
	}
	v := bytes.TrimSpace(values[0])
	if len(v) > 0 && v[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal(v, &items); err != nil {
			return nil, syntaxError(data, err, 0)
		}
		if len(items) == 0 || isMessage(items[0]) {
			return convs, add(v, 0, "conversation 0")
		}
		if len(items) > MaxConversations {
			return nil, &DecodeError{Msg: fmt.Sprintf("the input holds more than %d conversations", MaxConversations)}
		}
		for i, it := range items {
			if err := add(it, 0, fmt.Sprintf("conversation %d", i)); err != nil {
				return nil, err
			}
		}
		return convs, nil
	}
	return convs, add(v, 0, "conversation 0")
}

// isMessage reports whether a JSON value is a chat message (an object
// with a role).
func isMessage(raw json.RawMessage) bool {
	var m struct {
		Role *string `json:"role"`
	}
	return json.Unmarshal(raw, &m) == nil && m.Role != nil
}

// conversation reads one conversation: a list of messages or an object
// holding them.
func conversation(raw json.RawMessage, pos string) (Conversation, error) {
	c := Conversation{ID: pos}
	raw = bytes.TrimSpace(raw)
	list := raw
	if len(raw) == 0 || (raw[0] != '[' && raw[0] != '{') {
		return c, &DecodeError{At: pos, Msg: "expected a list of messages or an object with messages or traj"}
	}
	if raw[0] == '{' {
		var w wireConversation
		if err := json.Unmarshal(raw, &w); err != nil {
			return c, &DecodeError{At: pos, Msg: typeMessage(err), Err: err}
		}
		c.RunError = runError(w.Info)
		switch {
		case len(w.Messages) > 0:
			list = w.Messages
		case len(w.Traj) > 0:
			list = w.Traj
		case c.RunError != nil:
			// A run that crashed before its conversation was recorded.
			list = json.RawMessage("[]")
		default:
			return c, &DecodeError{At: pos, Msg: "the object has no messages (or traj) list"}
		}
		c.Reward = w.Reward
		if id := scalar(w.ID); id != "" {
			c.ID = id
		} else if t := scalar(w.TaskID); t != "" {
			c.ID = "task " + t
			if tr := scalar(w.Trial); tr != "" {
				c.ID += " trial " + tr
			}
		}
	}
	var msgs []wireMessage
	if err := json.Unmarshal(list, &msgs); err != nil {
		return c, &DecodeError{At: pos + ": messages", Msg: typeMessage(err), Err: err}
	}
	if len(msgs) > MaxMessages {
		return c, &DecodeError{At: pos, Msg: fmt.Sprintf("the conversation has %d messages, more than %d", len(msgs), MaxMessages)}
	}
	c.Messages = make([]Message, len(msgs))
	for i, w := range msgs {
		at := fmt.Sprintf("%s: messages[%d]", pos, i)
		if w.Role == "" {
			return c, &DecodeError{At: at, Msg: "the message has no role"}
		}
		text, err := contentText(w.Content)
		if err != nil {
			return c, &DecodeError{At: at + ".content", Msg: err.Error()}
		}
		m := Message{Role: w.Role, Content: text, ToolCallID: w.ToolCallID, Name: w.Name}
		for j, tc := range w.ToolCalls {
			if tc.Function.Name == "" {
				return c, &DecodeError{At: fmt.Sprintf("%s.tool_calls[%d]", at, j), Msg: "the tool call has no function name"}
			}
			args, err := arguments(tc.Function.Arguments)
			if err != nil {
				return c, &DecodeError{At: fmt.Sprintf("%s.tool_calls[%d].function.arguments", at, j), Msg: err.Error()}
			}
			m.ToolCalls = append(m.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: args})
		}
		c.Messages[i] = m
	}
	return c, nil
}

// runError reads the error a run recorded in its info object (tau-bench's
// {"error": …, "traceback": …} of a run that raised): nil when info is no
// object or its error is absent, null or empty. Info of another shape is
// not the conversation's to refuse.
func runError(info json.RawMessage) *RunError {
	var w struct {
		Error, Traceback json.RawMessage
	}
	if info = bytes.TrimSpace(info); len(info) == 0 || info[0] != '{' || json.Unmarshal(info, &w) != nil {
		return nil
	}
	e := strings.TrimSpace(recordedText(w.Error))
	if e == "" {
		return nil
	}
	tb := recordedText(w.Traceback)
	if len(tb) > MaxTracebackBytes {
		cut := len(tb) - MaxTracebackBytes
		for cut < len(tb) && !utf8.RuneStart(tb[cut]) {
			cut++
		}
		tb = "…" + tb[cut:]
	}
	return &RunError{Error: e, Traceback: tb}
}

// recordedText is a recorded value as text: a string as it is, null as
// "", any other JSON value compacted.
func recordedText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return compactJSON(raw)
}

// contentText is a message content's text: a string, null, or a list of
// parts whose text parts are joined.
func contentText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", errors.New("the content is neither a text nor a list of content parts")
	}
	var texts []string
	for _, p := range parts {
		if p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n"), nil
}

// arguments reads a call's arguments: a JSON text in a string (OpenAI), or
// the JSON value itself; absent arguments are {}.
func arguments(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}"), nil
	}
	if raw[0] != '"' {
		return raw, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	if strings.TrimSpace(s) == "" {
		return json.RawMessage("{}"), nil
	}
	// Kept as written: a text that is not JSON is the call's error,
	// reported by the check, not a reason to reject the conversation.
	return json.RawMessage(s), nil
}

// scalar renders a JSON string or number as text; "" for anything else.
func scalar(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// syntaxError places a JSON decoding error at its line and column.
func syntaxError(data []byte, err error, base int64) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(data, base+se.Offset)
		return &DecodeError{Line: line, Col: col, Msg: "invalid JSON: " + se.Error(), Err: err}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		line, col := lineCol(data, int64(len(data)))
		return &DecodeError{Line: line, Col: col, Msg: "invalid JSON: unexpected end of input", Err: err}
	}
	return &DecodeError{Msg: err.Error(), Err: err}
}

// typeMessage words a JSON type error by field.
func typeMessage(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			return fmt.Sprintf("%s is a JSON %s, expected %s", te.Field, te.Value, te.Type)
		}
		return fmt.Sprintf("a JSON %s where %s was expected", te.Value, te.Type)
	}
	return err.Error()
}

// lineCol is the 1-based line and column of a byte offset.
func lineCol(data []byte, off int64) (int, int) {
	off = min(max(off, 0), int64(len(data)))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

func lineOf(data []byte, off int64) int {
	l, _ := lineCol(data, off)
	return l
}
