package trace_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/agentjudge/judge/trace"
)

// FuzzDecodeLocated feeds Decode arbitrary input and checks what it
// promises a reader: an error is a *DecodeError located at a line and
// column inside the input (only a limit on the whole input has none), and
// a decoded conversation has an id, messages with a role, and tool calls
// with arguments ({} when absent).
func FuzzDecodeLocated(f *testing.F) {
	for _, s := range []string{
		`[{"role": "user", "content": "hi"}, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get", "arguments": "{\"a\": 1}"}}]}]`,
		"{\"role\": \"user\", \"content\": \"a\"}\n{\"role\": \"tool\", \"tool_call_id\": \"c1\", \"content\": \"x\"}\n",
		"{\"messages\": [{\"role\": \"user\"}]}\n{\"messages\": [{\"role\": 7}]}\n",
		`{"task_id": 3, "trial": 1, "reward": 0, "traj": [{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "{not json"}}]}]}`,
		`[{"messages": []}, {"messages": "x"}]`, `{"task_id": 0, "reward": 0.0, "info": {"error": "boom", "traceback": "Traceback\n  x\nValueError: boom"}, "traj": []}`,
		"{\"task_id\": 1, \"info\": {\"error\": \"x\"}}\n{\"task_id\": 2, \"info\": {\"error\": 3}, \"traj\": null}\n", "\n\n  [", "{\"messages\": [{\"role\": \"user\", \"content\": [{\"type\": \"image\"}]}]}", `1`, "\xef\xbb\xbf[]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(checkDecode)
}

// checkDecode decodes data and fails t where Decode breaks what it
// promises a reader: an error is a *DecodeError located at a line and
// column inside the input (only a limit on the whole input has none), and
// a decoded conversation has an id, messages with a role, and tool calls
// with arguments ({} when absent). Every Decode fuzz target checks this.
func checkDecode(t *testing.T, data []byte) {
	convs, err := trace.Decode(data)
	if err != nil {
		var de *trace.DecodeError
		if !errors.As(err, &de) {
			t.Fatalf("Decode(%q): %T %v, not a *DecodeError", data, err, err)
		}
		if strings.HasPrefix(de.Msg, "the input is larger than") || strings.HasPrefix(de.Msg, "the input holds more than") {
			return
		}
		lines := bytes.Count(data, []byte("\n")) + 1
		if de.Line < 1 || de.Line > lines || de.Col < 1 {
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
				// Arguments are kept as written (a text that is not
				// JSON is the call's error, for the check to report);
				// absent ones are {}.
				if len(tc.Arguments) == 0 {
					t.Fatalf("Decode(%q): %s message %d: a tool call without arguments", data, c.ID, i)
				}
			}
		}
	}
}
