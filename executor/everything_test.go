package executor_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentjudge/judge/executor"
	"github.com/agentjudge/judge/manifest"
)

// TestEverythingServer runs the real @modelcontextprotocol/server-everything
// (installed by scripts/test into testdata/node with npm ci) through an
// mcp_server manifest: its tools listed, a call answered, a tool error
// reported as IsError.
func TestEverythingServer(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the real MCP server test needs Node.js and npm")
	}
	js, err := filepath.Abs("testdata/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(js); err != nil {
		if _, nerr := exec.LookPath("npm"); nerr != nil {
			t.Skip("npm is not installed: run scripts/test on a machine with npm to install server-everything")
		}
		t.Fatalf("server-everything is not installed; run scripts/test (npm ci in executor/testdata/node): %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "everything.yaml"), []byte(`tool_id: everything
tool_type: mcp_server
version: "1.0.0"
executor: subprocess
description: The MCP reference server that exercises every feature
config:
  transport: stdio
  command: node
  args: ["`+js+`", "stdio"]
  startup_timeout: 30
`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "everything_echo.yaml"), []byte(`tool_id: everything_echo
tool_type: mcp_tool
version: "1.0.0"
executor: everything
description: Echo through the reference server
config:
  mcp_tool_name: echo
`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	reg, err := manifest.LoadDirs(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := executor.New(ctx, reg, executor.WithLookupEnv(env(nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tools, err := r.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	names := toolNames(tools)
	for _, want := range []string{"everything_echo", "echo", "get-sum"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list lacks %s: %v (skipped %v)", want, names, r.Skipped())
		}
	}
	for _, tl := range tools {
		if tl.Name == "everything_echo" && !strings.Contains(string(tl.InputSchema), "message") {
			t.Errorf("everything_echo has no upstream schema: %s", tl.InputSchema)
		}
	}
	res := call(t, r, "everything_echo", `{"message": "hi there"}`)
	if res.IsError || !strings.Contains(res.Text, "hi there") {
		t.Errorf("echo: %+v", res)
	}
	res = call(t, r, "get-sum", `{"a": 2, "b": 3}`)
	if res.IsError || !strings.Contains(res.Text, "5") {
		t.Errorf("get-sum: %+v", res)
	}
	// Arguments the server's own schema rejects: the upstream's error.
	res, err = r.Call(ctx, "get-sum", json.RawMessage(`{"a": "two"}`))
	if err == nil && !res.IsError {
		t.Errorf("bad arguments answered without an error: %+v", res)
	}
}
