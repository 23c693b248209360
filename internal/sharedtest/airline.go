package sharedtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// AirlineMessage is one message of a recorded airline conversation
// (agent-traces/tau-bench-airline-gpt-4o.dev.json): an OpenAI chat message
// with its tool calls, or a tool's answer to one of them.
type AirlineMessage struct {
	Role, Content string
	ToolCallID    string `json:"tool_call_id"`
	ToolCalls     []struct {
		ID       string
		Function struct{ Name, Arguments string }
	} `json:"tool_calls"`
}

// AirlineTraces reads the 100 recorded tau-bench airline conversations:
// the domain's tool definitions (OpenAI functions, as JSON) and each
// conversation's messages. It skips tb when the data is absent.
func AirlineTraces(tb testing.TB) (tools []byte, convs [][]AirlineMessage) {
	tb.Helper()
	dir := Dir(tb, "agent-traces")
	tools, err := os.ReadFile(filepath.Join(dir, "tau-bench-airline-tools.json"))
	if err != nil {
		tb.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "tau-bench-airline-gpt-4o.dev.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var recs []struct{ Traj []AirlineMessage }
	if err := json.Unmarshal(data, &recs); err != nil {
		tb.Fatalf("tau-bench-airline-gpt-4o.dev.json: %v", err)
	}
	for _, r := range recs {
		convs = append(convs, r.Traj)
	}
	return tools, convs
}
