package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/agentjudge/judge/server/api"
)

// TestTraceCheckOTLP posts the OTLP/JSON export requests real
// instrumentation of the openai client made (trace/testdata/otlp) as the
// conversations of POST /v1/traces/check: each request is one
// conversation, the one whose call asks for "kelvin" breaks the tool's
// enum.
func TestTraceCheckOTLP(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	tools := readExample(t, "..", "trace", "testdata", "otlp", "tools.json")
	lines := bytes.Split(bytes.TrimSpace([]byte(readExample(t, "..", "trace", "testdata", "otlp", "openllmetry.jsonl"))), []byte("\n"))
	if len(lines) != 2 {
		t.Fatalf("%d export requests in the file, want 2", len(lines))
	}
	for i, line := range lines {
		r := do(t, ts, http.MethodPost, "/v1/traces/check", `{"conversations": `+string(line)+`, "tools": `+tools+`}`, nil)
		if r.status != http.StatusOK {
			t.Fatalf("request %d: status %d:\n%s", i, r.status, r.body)
		}
		var ans api.TraceCheckResponse
		if err := json.Unmarshal(r.body, &ans); err != nil {
			t.Fatal(err)
		}
		if len(ans.Conversations) != 1 || ans.Summary.Calls != 1 || ans.Conversations[0].Result.Valid != (i == 0) {
			t.Errorf("request %d: %d conversations, summary %+v", i, len(ans.Conversations), ans.Summary)
		}
	}
}
