package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/agentjudge/judge/proxy/proxytest"
)

// FuzzResponsesStream feeds arbitrary bytes, as an upstream's Responses
// API event stream, to the SSE reader, the event parser and the
// Responses assembler with real contracts (a response schema checked by
// the engine's streaming validator, tools checked by the pre-execution
// check). It must never panic or loop; the raw bytes of the events read
// are a prefix of the input; every failure is an *SSEError or a
// *ProtocolError with a line; every verdict's validity agrees with its
// error issues; and the report encodes.
func FuzzResponsesStream(f *testing.F) {
	engine, checker := fuzzCheckers(f)
	req := []byte(`{"model":"m","input":"x","text":{"format":{"type":"json_schema","name":"w","strict":true,"schema":{"type":"object","properties":{"city":{"type":"string"},"temperature":{"type":"number"},"unit":{"enum":["c","f"]}},"required":["city","temperature","unit"],"additionalProperties":false}}},
		"tools":[{"type":"function","name":"get_user_details","parameters":{"type":"object","properties":{"user_id":{"type":"string"}},"required":["user_id"]}},
		{"type":"function","name":"book","parameters":{"type":"object","properties":{"cabin":{"type":"string","enum":["economy","business"]},"n":{"type":"integer"}},"required":["cabin"]}},
		{"type":"web_search"}]}`)
	pr, err := parseResponsesRequest(context.Background(), req, checker)
	if err != nil {
		f.Fatal(err)
	}
	seed := func(sc proxytest.Script) string { return strings.Join(proxytest.ResponseEventsOf(sc, req), "") }
	f.Add(seed(proxytest.Script{Choices: []proxytest.Choice{{Content: `{"city":"Paris","temperature":21.5,"unit":"c"}`}}}))
	f.Add(seed(proxytest.Script{Choices: []proxytest.Choice{{Content: `{"city":"Paris","temperature":"warm","unit":"c"}`}}, Fragment: 3}))
	f.Add(seed(proxytest.Script{Choices: []proxytest.Choice{{Calls: []proxytest.ToolCall{{Name: "get_user_details", Args: `{"user_id":"sara_doe_496"}`}, {Name: "book", Args: `{"cabin":"first","n":"2"}`}}}}, Fragment: 5}))
	f.Add(seed(proxytest.Script{Choices: []proxytest.Choice{{Content: "{}", Calls: []proxytest.ToolCall{{Name: "nope", Args: `[`}}}}}))
	f.Add("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":{\"stdout\":1}}\n\n")
	f.Add("data: {\"type\":\"response.shell_call_output_content.delta\",\"delta\":{\"stdout\":\"x\"},\"output_index\":0}\n\n")
	f.Add("data: {\"type\":\"response.output_item.done\",\"output_index\":2,\"item\":{\"type\":\"function_call\",\"name\":\"book\",\"arguments\":\"{}\"}}\r\n\r\n")
	f.Add("event: error\ndata: {\"type\":\"error\",\"code\":\"x\",\"message\":\"overloaded\"}\n\n")
	f.Add("data: {\"type\":\"response.completed\",\"response\":{\"usage\":{\"output_tokens\":\"many\"}}}\n\n")

	f.Fuzz(func(t *testing.T, in string) {
		ctx := context.Background()
		rd := newSSEReader(strings.NewReader(in))
		ra := newRespAnswer(WholeDocuments(engine, pr.contracts))
		var raw []byte
		for range len(in) + 2 {
			ev, err := rd.next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				var se *SSEError
				if !errors.As(err, &se) || se.Line < 1 {
					t.Fatalf("reader error %T %v", err, err)
				}
				return
			}
			if len(ev.raw) == 0 {
				t.Fatal("an event consumed no bytes")
			}
			raw = append(raw, ev.raw...)
			if !bytes.HasPrefix([]byte(in), raw) {
				t.Fatalf("the events' raw bytes are not the input's")
			}
			e, err := parseRespEvent(bytes.TrimSpace(ev.data), ev.line)
			if err != nil {
				var se *SSEError
				if !errors.As(err, &se) || se.Line != ev.line {
					t.Fatalf("parser error %T %v", err, err)
				}
				continue
			}
			vs, err := ra.add(ctx, &e, ev.line)
			if err != nil {
				var pe *ProtocolError
				if !errors.As(err, &pe) || pe.Line != ev.line || pe.Protocol != responsesProtocol {
					t.Fatalf("assembler error %T %v", err, err)
				}
				return
			}
			checkVerdicts(t, vs)
		}
		if !ra.st.finished {
			if err := ra.end(ctx, nil, 1); err != nil {
				t.Fatalf("end: %v", err)
			}
		}
		rep := ra.a.report(Stop, true, 100)
		if rep.Valid != !anyInvalid(rep.Checks) {
			t.Fatalf("report valid %v disagrees with its checks", rep.Valid)
		}
		if _, err := json.Marshal(rep); err != nil {
			t.Fatalf("report does not encode: %v", err)
		}
		if _, err := json.Marshal(stoppedResponse(ra.last, ra.items, false)); err != nil {
			t.Fatalf("the stopped response does not encode: %v", err)
		}
	})
}
