package trace

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// OpenTelemetry traces (OTLP/JSON) read as conversations: the JSON the
// OpenTelemetry Collector's file exporter writes (one
// ExportTraceServiceRequest per line), a single OTLP/JSON export request,
// or Jaeger's api/v3 answer ({"result": {"resourceSpans": …}}). Each
// conversation is rebuilt from the spans of the GenAI semantic conventions
// (gen_ai.input.messages and gen_ai.output.messages, or the older
// gen_ai.prompt.N.* and gen_ai.completion.N.* attributes and the
// gen_ai.*.message events; execute_tool spans' tool name, call id,
// arguments and result) and of OpenInference (llm.input_messages.*,
// llm.output_messages.*, TOOL spans' tool.name and input/output.value):
// one conversation per gen_ai.conversation.id (or OpenInference's
// session.id), else per trace.

// MaxSpans is the most spans an OTLP input may hold.
const MaxSpans = 1_000_000

// otlpSpan is one span of an OTLP input, its attributes flattened to Go
// values (strings, float64, bool, []any, map[string]any).
type otlpSpan struct {
	traceID, spanID, name string
	start, end            uint64
	attrs                 map[string]any
	events                []otlpEvent
	order                 int // position in the input
	line, col             int // where its export request starts
}

type otlpEvent struct {
	name  string
	attrs map[string]any
}

// wire forms of OTLP/JSON.
type (
	otlpRequest struct {
		ResourceSpans []struct {
			ScopeSpans []struct {
				Spans []otlpWireSpan `json:"spans"`
			} `json:"scopeSpans"`
		} `json:"resourceSpans"`
	}
	otlpWireSpan struct {
		TraceID           string         `json:"traceId"`
		SpanID            string         `json:"spanId"`
		Name              string         `json:"name"`
		StartTimeUnixNano json.Number    `json:"startTimeUnixNano"`
		EndTimeUnixNano   json.Number    `json:"endTimeUnixNano"`
		Attributes        []otlpKeyValue `json:"attributes"`
		Events            []struct {
			Name       string         `json:"name"`
			Attributes []otlpKeyValue `json:"attributes"`
		} `json:"events"`
	}
	otlpKeyValue struct {
		Key   string       `json:"key"`
		Value otlpAnyValue `json:"value"`
	}
	otlpAnyValue struct {
		StringValue *string         `json:"stringValue"`
		BoolValue   *bool           `json:"boolValue"`
		IntValue    json.RawMessage `json:"intValue"`
		DoubleValue *float64        `json:"doubleValue"`
		ArrayValue  *struct {
			Values []otlpAnyValue `json:"values"`
		} `json:"arrayValue"`
		KvlistValue *struct {
			Values []otlpKeyValue `json:"values"`
		} `json:"kvlistValue"`
		BytesValue *string `json:"bytesValue"`
	}
)

// value is the Go value of an OTLP AnyValue.
func (v otlpAnyValue) value() any {
	switch {
	case v.StringValue != nil:
		return *v.StringValue
	case v.BoolValue != nil:
		return *v.BoolValue
	case len(v.IntValue) > 0:
		s := strings.Trim(string(v.IntValue), `"`)
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return float64(n)
		}
		return s
	case v.DoubleValue != nil:
		return *v.DoubleValue
	case v.ArrayValue != nil:
		out := make([]any, len(v.ArrayValue.Values))
		for i, e := range v.ArrayValue.Values {
			out[i] = e.value()
		}
		return out
	case v.KvlistValue != nil:
		return attrMap(v.KvlistValue.Values)
	case v.BytesValue != nil:
		return *v.BytesValue
	}
	return nil
}

func attrMap(kvs []otlpKeyValue) map[string]any {
	m := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		m[kv.Key] = kv.Value.value()
	}
	return m
}

// otlpPayload returns the resourceSpans-holding object of an OTLP/JSON
// value: the value itself, or its "result" (Jaeger's api/v3); nil when
// the value is not OTLP.
func otlpPayload(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' || !bytes.Contains(raw, []byte(`"resourceSpans"`)) {
		return nil
	}
	var probe struct {
		ResourceSpans json.RawMessage `json:"resourceSpans"`
		Result        *struct {
			ResourceSpans json.RawMessage `json:"resourceSpans"`
		} `json:"result"`
	}
	if json.Unmarshal(raw, &probe) != nil {
		return nil
	}
	switch {
	case probe.ResourceSpans != nil:
		return raw
	case probe.Result != nil && probe.Result.ResourceSpans != nil:
		var r struct {
			Result json.RawMessage `json:"result"`
		}
		_ = json.Unmarshal(raw, &r)
		return r.Result
	}
	return nil
}

// decodeOTLP reads the conversations of OTLP/JSON values, each at its
// offset in data.
func decodeOTLP(data []byte, values []json.RawMessage, offsets []int64) ([]Conversation, error) {
	var spans []otlpSpan
	for i, v := range values {
		payload := otlpPayload(v)
		off := offsets[i]
		for off < int64(len(data)) && (data[off] == ' ' || data[off] == '\n' || data[off] == '\r' || data[off] == '\t') {
			off++
		}
		line, col := lineCol(data, off)
		if payload == nil {
			return nil, &DecodeError{Line: line, Col: col, Msg: "expected an OTLP/JSON export request (an object with resourceSpans), as the other lines are"}
		}
		var req otlpRequest
		if err := json.Unmarshal(payload, &req); err != nil {
			return nil, &DecodeError{Line: line, Col: col, At: "resourceSpans", Msg: typeMessage(err), Err: err}
		}
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, w := range ss.Spans {
					if len(spans) >= MaxSpans {
						return nil, &DecodeError{Line: line, Col: col, Msg: fmt.Sprintf("the input holds more than %d spans", MaxSpans)}
					}
					s := otlpSpan{traceID: strings.ToLower(w.TraceID), spanID: strings.ToLower(w.SpanID), name: w.Name,
						attrs: attrMap(w.Attributes), order: len(spans), line: line, col: col}
					s.start, _ = strconv.ParseUint(string(w.StartTimeUnixNano), 10, 64)
					s.end, _ = strconv.ParseUint(string(w.EndTimeUnixNano), 10, 64)
					for _, e := range w.Events {
						s.events = append(s.events, otlpEvent{name: e.Name, attrs: attrMap(e.Attributes)})
					}
					spans = append(spans, s)
				}
			}
		}
	}
	return otlpConversations(spans)
}

// conversationKey is the conversation a span belongs to: its trace's
// gen_ai.conversation.id (or session.id), else its trace.
func conversationKeys(spans []otlpSpan) map[string]string {
	byTrace := map[string]string{}
	for _, s := range spans {
		if _, ok := byTrace[s.traceID]; ok {
			continue
		}
		if id := cmp.Or(str(s.attrs["gen_ai.conversation.id"]), str(s.attrs["session.id"])); id != "" {
			byTrace[s.traceID] = id
		}
	}
	return byTrace
}

// otlpConversations groups spans into conversations, in the order their
// first span came.
func otlpConversations(spans []otlpSpan) ([]Conversation, error) {
	convOf := conversationKeys(spans)
	var order []string
	groups := map[string][]otlpSpan{}
	for _, s := range spans {
		key := "trace " + s.traceID
		if id, ok := convOf[s.traceID]; ok {
			key = id
		}
		if _, seen := groups[key]; !seen {
			order = append(order, key)
		}
		groups[key] = append(groups[key], s)
	}
	var convs []Conversation
	for _, key := range order {
		c, ok, err := spanConversation(key, groups[key])
		if err != nil {
			return nil, err
		}
		if ok {
			convs = append(convs, c)
			if len(convs) > MaxConversations {
				return nil, &DecodeError{Msg: fmt.Sprintf("the input holds more than %d conversations", MaxConversations)}
			}
		}
	}
	if len(convs) == 0 {
		return nil, &DecodeError{Line: 1, Col: 1, Msg: fmt.Sprintf("none of the %d spans is a GenAI or OpenInference model call or tool execution: no conversation to check", len(spans))}
	}
	return convs, nil
}

// spanConversation rebuilds one conversation: the messages of its last
// model call (its input, then its output), then, for every tool
// execution span whose call is not answered there, the call and its
// result. ok is false when no span is a model call or a tool execution.
func spanConversation(id string, spans []otlpSpan) (Conversation, bool, error) {
	c := Conversation{ID: id}
	var last *otlpSpan
	var lastMsgs []Message
	var tools []otlpSpan
	for i := range spans {
		s := &spans[i]
		if isToolSpan(s) {
			tools = append(tools, *s)
			continue
		}
		msgs, isLLM, err := llmMessages(s)
		if err != nil {
			return c, false, &DecodeError{Line: s.line, Col: s.col, At: fmt.Sprintf("%s: span %s (%s)", id, s.spanID, s.name), Msg: err.Error()}
		}
		if !isLLM {
			continue
		}
		if last == nil || s.end > last.end || s.end == last.end && len(msgs) > len(lastMsgs) {
			last, lastMsgs = s, msgs
		}
	}
	if last == nil && len(tools) == 0 {
		return c, false, nil
	}
	c.Messages = lastMsgs
	if last != nil {
		c.Tools = spanTools(last.attrs)
	}
	answered := map[string]bool{}
	called := map[string]bool{}
	for _, m := range c.Messages {
		if m.Role == "tool" && m.ToolCallID != "" {
			answered[m.ToolCallID] = true
		}
		for _, tc := range m.ToolCalls {
			if tc.ID != "" {
				called[tc.ID] = true
			}
		}
	}
	slices.SortStableFunc(tools, func(a, b otlpSpan) int { return cmp.Compare(a.start, b.start) })
	for i, s := range tools {
		name := cmp.Or(str(s.attrs["gen_ai.tool.name"]), str(s.attrs["tool.name"]))
		if name == "" {
			continue
		}
		callID := cmp.Or(str(s.attrs["gen_ai.tool.call.id"]), str(s.attrs["tool_call.id"]))
		if callID != "" && answered[callID] {
			continue
		}
		if callID == "" {
			callID = fmt.Sprintf("span_%s_%d", s.spanID, i)
		}
		args := jsonText(cmp.Or[any](s.attrs["gen_ai.tool.call.arguments"], s.attrs["tool.parameters"], s.attrs["input.value"]))
		if !called[callID] {
			c.Messages = append(c.Messages, Message{Role: "assistant", ToolCalls: []ToolCall{{ID: callID, Name: name, Arguments: args}}})
		}
		if res := cmp.Or[any](s.attrs["gen_ai.tool.call.result"], s.attrs["output.value"]); res != nil {
			c.Messages = append(c.Messages, Message{Role: "tool", ToolCallID: callID, Name: name, Content: text(res)})
		}
	}
	if len(c.Messages) > MaxMessages {
		return c, false, &DecodeError{Line: spans[0].line, Col: spans[0].col, At: id, Msg: fmt.Sprintf("the conversation has %d messages, more than %d", len(c.Messages), MaxMessages)}
	}
	return c, true, nil
}

// isToolSpan reports whether s is a tool execution: GenAI's execute_tool
// or OpenInference's TOOL.
func isToolSpan(s *otlpSpan) bool {
	return str(s.attrs["gen_ai.operation.name"]) == "execute_tool" || strings.EqualFold(str(s.attrs["openinference.span.kind"]), "TOOL")
}

// llmMessages reads the messages of a model call span, from whichever
// convention it follows; isLLM is false for a span of none.
func llmMessages(s *otlpSpan) (msgs []Message, isLLM bool, err error) {
	a := s.attrs
	if in, out := a["gen_ai.input.messages"], a["gen_ai.output.messages"]; in != nil || out != nil {
		for _, f := range []struct {
			key string
			v   any
		}{{"gen_ai.system_instructions", a["gen_ai.system_instructions"]}, {"gen_ai.input.messages", in}, {"gen_ai.output.messages", out}} {
			if f.v == nil {
				continue
			}
			m, err := partsMessages(f.key, f.v)
			if err != nil {
				return nil, true, err
			}
			msgs = append(msgs, m...)
		}
		return msgs, true, nil
	}
	if hasPrefix(a, "gen_ai.prompt.") || hasPrefix(a, "gen_ai.completion.") {
		msgs = append(indexedMessages(a, "gen_ai.prompt.", flatGenAI), indexedMessages(a, "gen_ai.completion.", flatGenAI)...)
		return msgs, true, nil
	}
	if hasPrefix(a, "llm.input_messages.") || hasPrefix(a, "llm.output_messages.") {
		msgs = append(indexedMessages(a, "llm.input_messages.", flatOpenInference), indexedMessages(a, "llm.output_messages.", flatOpenInference)...)
		return msgs, true, nil
	}
	if msgs = eventMessages(s.events); len(msgs) > 0 {
		return msgs, true, nil
	}
	return nil, false, nil
}

// partsMessages reads a gen_ai.*.messages value: a JSON text (or an
// array) of {role, parts: [{type: text|tool_call|tool_call_response, …}]}.
func partsMessages(key string, v any) ([]Message, error) {
	if s, ok := v.(string); ok {
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, fmt.Errorf("%s is not JSON: %w", key, err)
		}
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s is not a list of messages", key)
	}
	var out []Message
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s[%d] is not a message object", key, i)
		}
		role := str(m["role"])
		if key == "gen_ai.system_instructions" {
			role = "system" // a list of parts, no role
		}
		if role == "" {
			return nil, fmt.Errorf("%s[%d] has no role", key, i)
		}
		msg := Message{Role: role}
		var texts []string
		parts, _ := m["parts"].([]any)
		if key == "gen_ai.system_instructions" {
			parts = []any{m}
		}
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			switch str(pm["type"]) {
			case "text":
				texts = append(texts, str(pm["content"]))
			case "tool_call":
				msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: str(pm["id"]), Name: str(pm["name"]), Arguments: jsonText(pm["arguments"])})
			case "tool_call_response":
				if role == "tool" || msg.ToolCallID == "" {
					msg.ToolCallID = str(pm["id"])
				}
				texts = append(texts, text(pm["response"]))
			}
		}
		msg.Content = strings.Join(texts, "\n")
		if len(msg.ToolCalls) == 0 && msg.ToolCallID != "" && msg.Role != "tool" {
			msg.Role = "tool"
		}
		out = append(out, msg)
	}
	return out, nil
}

// flatMessage reads one message of flattened attributes under prefix
// (ending in "N."), by convention.
type flatMessage func(a map[string]any, prefix string) (Message, bool)

// flatGenAI reads OpenLLMetry's gen_ai.prompt.N.* / gen_ai.completion.N.*:
// role, content, tool_call_id, tool_calls.M.{id,name,arguments}.
func flatGenAI(a map[string]any, p string) (Message, bool) {
	m := Message{Role: str(a[p+"role"]), Content: text(a[p+"content"]), ToolCallID: str(a[p+"tool_call_id"])}
	for j := 0; ; j++ {
		q := p + "tool_calls." + strconv.Itoa(j) + "."
		name := str(a[q+"name"])
		if name == "" {
			break
		}
		m.ToolCalls = append(m.ToolCalls, ToolCall{ID: str(a[q+"id"]), Name: name, Arguments: jsonText(a[q+"arguments"])})
	}
	if m.Role == "" {
		m.Role = "assistant"
		if len(m.ToolCalls) == 0 && m.Content == "" {
			return m, false
		}
	}
	return m, true
}

// flatOpenInference reads OpenInference's llm.*_messages.N.message.*:
// role, content (or contents.K.message_content.text), tool_call_id,
// tool_calls.M.tool_call.{id,function.name,function.arguments}.
func flatOpenInference(a map[string]any, p string) (Message, bool) {
	p += "message."
	m := Message{Role: str(a[p+"role"]), Content: text(a[p+"content"]), ToolCallID: str(a[p+"tool_call_id"]), Name: str(a[p+"name"])}
	if m.Content == "" {
		var texts []string
		for k := 0; ; k++ {
			q := p + "contents." + strconv.Itoa(k) + ".message_content."
			if _, ok := a[q+"type"]; !ok {
				break
			}
			if t := str(a[q+"text"]); t != "" {
				texts = append(texts, t)
			}
		}
		m.Content = strings.Join(texts, "\n")
	}
	for j := 0; ; j++ {
		q := p + "tool_calls." + strconv.Itoa(j) + ".tool_call."
		name := str(a[q+"function.name"])
		if name == "" {
			break
		}
		m.ToolCalls = append(m.ToolCalls, ToolCall{ID: str(a[q+"id"]), Name: name, Arguments: jsonText(a[q+"function.arguments"])})
	}
	return m, m.Role != ""
}

// indexedMessages reads the messages prefix.0., prefix.1., … until an
// index has none.
func indexedMessages(a map[string]any, prefix string, read flatMessage) []Message {
	var out []Message
	for i := 0; i < MaxMessages; i++ {
		p := prefix + strconv.Itoa(i) + "."
		if !hasPrefix(a, p) {
			break
		}
		if m, ok := read(a, p); ok {
			out = append(out, m)
		}
	}
	return out
}

// eventMessages reads the older GenAI events: gen_ai.{system,user,
// assistant,tool}.message with content (and tool_calls, id), and
// gen_ai.choice with message.
func eventMessages(events []otlpEvent) []Message {
	var out []Message
	for _, e := range events {
		role, ok := strings.CutPrefix(e.name, "gen_ai.")
		if !ok {
			continue
		}
		attrs := e.attrs
		if role == "choice" {
			role = "assistant"
			if mv, ok := attrs["message"]; ok {
				if s, isStr := mv.(string); isStr {
					var dec any
					if json.Unmarshal([]byte(s), &dec) == nil {
						mv = dec
					}
				}
				if mm, ok := mv.(map[string]any); ok {
					attrs = mm
				}
			}
		} else if role, ok = strings.CutSuffix(role, ".message"); !ok {
			continue
		}
		m := Message{Role: cmp.Or(str(attrs["role"]), role), Content: text(attrs["content"]), ToolCallID: str(attrs["id"])}
		if m.Role != "tool" {
			m.ToolCallID = ""
		}
		calls := attrs["tool_calls"]
		if s, ok := calls.(string); ok {
			_ = json.Unmarshal([]byte(s), &calls)
		}
		list, _ := calls.([]any)
		for _, c := range list {
			cm, _ := c.(map[string]any)
			fn, _ := cm["function"].(map[string]any)
			if name := str(fn["name"]); name != "" {
				m.ToolCalls = append(m.ToolCalls, ToolCall{ID: str(cm["id"]), Name: name, Arguments: jsonText(fn["arguments"])})
			}
		}
		out = append(out, m)
	}
	return out
}

func hasPrefix(a map[string]any, p string) bool {
	for k := range a {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// str is v when it is a string, else "".
func str(v any) string {
	s, _ := v.(string)
	return s
}

// text is a value as text: a string as it is, nil as "", anything else
// as its JSON.
func text(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// jsonText is a call's arguments as JSON text: a string holding them as
// it is (a text that is not JSON is the call's error, which the check
// reports), any other value encoded, nothing as {}.
func jsonText(v any) json.RawMessage {
	switch t := v.(type) {
	case nil:
		return json.RawMessage("{}")
	case string:
		if strings.TrimSpace(t) == "" {
			return json.RawMessage("{}")
		}
		return json.RawMessage(t)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("{}")
	}
	return b
}

// spanTools are the tool definitions a model call span recorded, as a
// JSON array: GenAI's gen_ai.tool.definitions (a JSON text or a list), or
// OpenInference's llm.tools.N.tool.json_schema; nil when none.
func spanTools(a map[string]any) json.RawMessage {
	var list []any
	switch v := a["gen_ai.tool.definitions"].(type) {
	case string:
		if json.Unmarshal([]byte(v), &list) != nil {
			return nil
		}
	case []any:
		list = v
	}
	if list == nil {
		for i := 0; i < 1000; i++ {
			s := str(a["llm.tools."+strconv.Itoa(i)+".tool.json_schema"])
			if s == "" {
				break
			}
			var d any
			if json.Unmarshal([]byte(s), &d) != nil {
				return nil
			}
			list = append(list, d)
		}
	}
	if len(list) == 0 {
		return nil
	}
	b, err := json.Marshal(list)
	if err != nil {
		return nil
	}
	return b
}

// ToolDefinitions merges the tool definitions the conversations recorded
// (Conversation.Tools), the first definition of each name kept, into one
// JSON array for toolcall.ParseDefinitions; nil when none recorded any.
func ToolDefinitions(convs []Conversation) json.RawMessage {
	var out []json.RawMessage
	seen := map[string]bool{}
	for _, c := range convs {
		var list []json.RawMessage
		if json.Unmarshal(c.Tools, &list) != nil {
			continue
		}
		for _, d := range list {
			var named struct {
				Name     string `json:"name"`
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			}
			_ = json.Unmarshal(d, &named)
			name := cmp.Or(named.Function.Name, named.Name)
			if name == "" || seen[name] {
				continue
			}
			seen[name] = true
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return nil
	}
	b, _ := json.Marshal(out)
	return b
}
