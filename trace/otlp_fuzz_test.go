package trace_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/trace"
)

// FuzzDecodeOTLP feeds Decode OTLP/JSON-shaped input (seeded with the
// files real instrumentation exported) and checks the reader's promises:
// an error is a *DecodeError at a line and column inside the input, and
// every conversation has an id, roles, and tool calls with arguments.
func FuzzDecodeOTLP(f *testing.F) {
	for _, name := range []string{"openinference.jsonl", "openllmetry.jsonl"} {
		data, err := os.ReadFile(filepath.Join("testdata", "otlp", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		first, _, _ := bytes.Cut(data, []byte("\n"))
		f.Add(first)
	}
	for _, s := range []string{
		`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"a","spanId":"b","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}},{"key":"gen_ai.tool.name","value":{"stringValue":"t"}}]}]}]}]}`,
		`{"result":{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"gen_ai.input.messages","value":{"stringValue":"[{\"role\":\"user\",\"parts\":[{\"type\":\"tool_call\"}]}]"}}]}]}]}]}}`,
		`{"resourceSpans":[{"scopeSpans":[{"spans":[{"events":[{"name":"gen_ai.choice","attributes":[{"key":"message","value":{"kvlistValue":{"values":[{"key":"tool_calls","value":{"arrayValue":{"values":[]}}}]}}}]}]}]}]}]}`,
		`{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"llm.input_messages.0.message.role","value":{"intValue":"7"}}]}]}]}]}`,
		`{"resourceSpans": null}`, `{"resourceSpans": [1]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		convs, err := trace.Decode(data)
		if err != nil {
			var de *trace.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("Decode(%q): %T %v, not a *DecodeError", data, err, err)
			}
			if strings.HasPrefix(de.Msg, "the input is larger than") || strings.HasPrefix(de.Msg, "the input holds more than") {
				return
			}
			if lines := bytes.Count(data, []byte("\n")) + 1; de.Line < 1 || de.Line > lines || de.Col < 1 {
				t.Fatalf("Decode(%q): error %q at %d:%d, outside the input's %d lines", data, err, de.Line, de.Col, lines)
			}
			return
		}
		for _, c := range convs {
			if c.ID == "" {
				t.Fatalf("Decode(%q): a conversation without an id", data)
			}
			for i, m := range c.Messages {
				if m.Role == "" {
					t.Fatalf("Decode(%q): %s message %d has no role", data, c.ID, i)
				}
				for _, tc := range m.ToolCalls {
					if len(tc.Arguments) == 0 {
						t.Fatalf("Decode(%q): %s message %d: a tool call without arguments", data, c.ID, i)
					}
				}
			}
		}
	})
}
