package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentjudge/judge/toolcall"
)

// TestCompactFocusRoute: POST /v1/calls/outcome compacts a large result
// keeping the document the call asked about.
func TestCompactFocusRoute(t *testing.T) {
	t.Parallel()
	_, ts := newTestServer(t, Options{})
	body := strings.Repeat("The payments outage was resolved at 11:30 after the failover. ", 24)
	var items []string
	for i := range 200 {
		snip := strings.Repeat("lorem ipsum ", 50)
		if i == 150 {
			snip = body
		}
		items = append(items, fmt.Sprintf(`{"id": "doc-%d", "snippet": %q}`, i, snip))
	}
	tools := `[{"name": "get_doc", "description": "Read one document of the archive by its id, with its text", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}}]`
	r := do(t, ts, http.MethodPost, "/v1/calls/outcome", `{"tool": "get_doc", "arguments": {"id": "doc-150"}, "result": {"results": [`+strings.Join(items, ",")+`]}, "tools": `+tools+`}`, nil)
	var o toolcall.Outcome
	if err := json.Unmarshal(r.body, &o); err != nil || r.status != http.StatusOK {
		t.Fatalf("%d %v", r.status, err)
	}
	b, _ := json.Marshal(o.Compacted)
	if o.Compacted == nil || len(o.Compacted.Focus) != 1 || o.Compacted.Focus[0] != "results[150]" || !strings.Contains(string(b), body) {
		t.Errorf("compacted focus %v, want results[150] with its text", o.Compacted)
	}
}
