package trace_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecodeOTLP feeds Decode OTLP/JSON-shaped input (seeded with the
// files real instrumentation exported) and checks the reader's promises:
// an error is a *DecodeError at a line and column inside the input, and
// every conversation has an id, roles, and tool calls with arguments (see
// checkDecode).
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
	f.Fuzz(checkDecode)
}
