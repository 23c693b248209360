package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/manifest"
	"github.com/agentjudge/judge/server"
)

// POST /v1/tools/lint lints tool manifests given by content and answers
// one ValidationResult per tool: here an MCP tool whose executor is a
// runtime instead of an MCP server.
func Example_toolsLint() {
	e, err := judge.New()
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(server.New(e, server.Options{}).Handler())
	defer ts.Close()

	body, _ := json.Marshal(map[string]any{"manifests": []manifest.File{
		{Path: "py.yaml", Content: "tool_id: py\ntool_type: runtime\nversion: \"1.0.0\"\ndescription: Python\nexecutor: subprocess\nconfig:\n  command: python3\n"},
		{Path: "search.yaml", Content: "tool_id: search\ntool_type: mcp_tool\nversion: \"1.0.0\"\ndescription: Search the web for pages that answer a question\nexecutor: py\nconfig:\n  mcp_tool_name: search\n"},
	}})
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, ts.URL+"/v1/tools/lint", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var rep manifest.Report
	if err := json.NewDecoder(resp.Body).Decode(&rep); err != nil {
		panic(err)
	}
	fmt.Println(resp.StatusCode, rep.Summary.Tools, "tools,", rep.Summary.Invalid, "invalid")
	for _, key := range rep.Keys() {
		for _, is := range rep.Results[key].Issues {
			fmt.Printf("%s: %s %s\n", key, is.Location, is.Message)
		}
	}
	// Output:
	// 200 2 tools, 1 invalid
	// search: search.yaml:5:11 Executor 'py' is a runtime, but an mcp_tool tool must be run by an mcp_server
}
