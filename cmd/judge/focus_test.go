package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/toolcall"
)

// bigSearch is a result of 200 candidates of which doc-150 has a long
// text.
func bigSearch() (string, string) {
	body := strings.Repeat("The payments outage was resolved at 11:30 after the failover. ", 24)
	var items []string
	for i := range 200 {
		snip := strings.Repeat("lorem ipsum ", 50)
		if i == 150 {
			snip = body
		}
		items = append(items, fmt.Sprintf(`{"id": "doc-%d", "snippet": %q}`, i, snip))
	}
	return `{"results": [` + strings.Join(items, ",") + `]}`, body
}

// TestCompactFocusCLI: judge call outcome compacts a large result keeping
// the document the call asked about.
func TestCompactFocusCLI(t *testing.T) {
	t.Parallel()
	res, body := bigSearch()
	dir := writeFiles(t, map[string]string{"res.json": res,
		"defs.json": `[{"name": "get_doc", "description": "Read one document of the archive by its id, with its text", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}}]`})
	out, _ := callCase{name: "outcome", args: []string{"call", "outcome", "--defs", filepath.Join(dir, "defs.json"), "--format", "json", "--budget", "6000",
		"get_doc", `{"id": "doc-150"}`, "@" + filepath.Join(dir, "res.json")}}.run(t)
	var o toolcall.Outcome
	if err := json.Unmarshal(out, &o); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(o.Compacted)
	if o.Compacted == nil || len(o.Compacted.Focus) != 1 || !strings.Contains(string(b), body) {
		t.Errorf("compacted %s…, want doc-150's text kept", b[:min(len(b), 300)])
	}
}
