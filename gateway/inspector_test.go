package gateway_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestInspectorCLI is the smoke test of issue 24 with the MCP Inspector's
// CLI mode (@modelcontextprotocol/inspector 0.15.0, the last that runs on
// Node 20), against server-everything directly and through judge gateway
// over stdio and streamable HTTP: tools/list and a tools/call exit 0, and
// what they print is the server's (but for _meta.judge); the invalid call
// of a tool with an outputSchema is held to the ledger like the SDK
// clients' features.
func TestInspectorCLI(t *testing.T) {
	t.Parallel()
	f := needSDKClient(t)
	cli := filepath.Join(f.modules, "@modelcontextprotocol/inspector/cli/build/cli.js")
	if _, err := os.Stat(cli); err != nil {
		t.Skipf("the MCP Inspector is not installed: run scripts/test (npm ci in gateway/%s): %v", sdkClientDir, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// target is what follows --cli: a command line, or a URL with
	// --transport http.
	direct, _ := f.serverCmd("everything", "")
	targets := map[sdkRun][]string{
		{"everything", "stdio", false}: direct,
		{"everything", "stdio", true}:  {judgeBin, "gateway", "--tools", f.registryFor(t, "everything", "")},
		{"everything", "http", true}:   {strings.TrimSuffix(strings.TrimSuffix(f.startGatewayHTTP(t, "everything", ""), "/mcp"), "/") + "/mcp", "--transport", "http"},
	}
	features := []struct {
		name string
		args []string
	}{
		{"tools/list", []string{"--method", "tools/list"}},
		{"call/text", []string{"--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=through judge"}},
		{"call/invalid-args-output-schema", []string{"--method", "tools/call", "--tool-name", "get-structured-content", "--tool-arg", "location=Paris"}},
	}
	var mu sync.Mutex
	lines := map[sdkRun]map[string]featureLine{}
	var wg sync.WaitGroup
	for r, target := range targets {
		// Each run's own map, written under mu: the goroutines never read
		// lines itself, which this loop writes as they run.
		m := map[string]featureLine{}
		lines[r] = m
		for _, feat := range features {
			wg.Go(func() {
				args := append([]string{cli, "--cli"}, target...)
				cmd := exec.CommandContext(ctx, f.node, append(args, feat.args...)...)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				l := inspectorLine(feat.name, out, stderr.String(), err)
				mu.Lock()
				m[feat.name] = l
				mu.Unlock()
			})
		}
	}
	wg.Wait()
	order := []string{"tools/list", "call/text", "call/invalid-args-output-schema"}
	// The smoke: tools/list and a valid call exit 0 on every path.
	for r, ls := range lines {
		for _, feat := range order[:2] {
			if !ls[feat].Accepted {
				t.Errorf("inspector %s %s: exit not 0: %s", r, feat, ls[feat].Answer)
			}
		}
		if !bytes.Contains(ls["tools/list"].Answer, []byte(`"name":"echo"`)) {
			t.Errorf("inspector %s tools/list: no echo in %s", r, truncate(string(ls["tools/list"].Answer), 300))
		}
		if !bytes.Contains(ls["call/text"].Answer, []byte("Echo: through judge")) {
			t.Errorf("inspector %s call/text: %s", r, ls["call/text"].Answer)
		}
	}
	var table []diffRow
	for _, transport := range []string{"stdio", "http"} {
		table = append(table, compareRuns("inspector", "everything", transport, order,
			lines[sdkRun{"everything", "stdio", false}], lines[sdkRun{"everything", transport, true}])...)
	}
	checkLedger(t, "inspector", table)
}

// inspectorLine turns one Inspector CLI run into a feature line: accepted
// when it exited 0, its printed JSON normalized like the SDK clients'
// answers (tools sorted by name; a call with invalid arguments reduced to
// its refusal shape); else the first line of its stderr.
func inspectorLine(feature string, out []byte, stderr string, err error) featureLine {
	l := featureLine{Feature: feature, Accepted: err == nil, Notifications: json.RawMessage("[]"), Errors: json.RawMessage("[]")}
	if err != nil {
		var ee *exec.ExitError
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr), "\n")
		if !errors.As(err, &ee) {
			msg = err.Error()
		}
		l.Answer, _ = json.Marshal(map[string]any{"error": map[string]any{"message": normString(msg)}})
		return l
	}
	var v any
	if jerr := json.Unmarshal(out, &v); jerr != nil {
		l.Accepted = false
		l.Answer, _ = json.Marshal(map[string]any{"error": map[string]any{"message": "not JSON: " + truncate(string(out), 200)}})
		return l
	}
	v = normalizeJSON(v)
	if m, ok := v.(map[string]any); ok {
		if tools, ok := m["tools"].([]any); ok {
			slices.SortFunc(tools, func(a, b any) int { return strings.Compare(itemName(a, 0), itemName(b, 0)) })
		}
		if strings.HasPrefix(feature, "call/invalid-args") {
			var kinds []any
			content, _ := m["content"].([]any)
			for _, c := range content {
				if cm, ok := c.(map[string]any); ok {
					kinds = append(kinds, cm["type"])
				}
			}
			isErr, _ := m["isError"].(bool)
			_, sc := m["structuredContent"]
			v = map[string]any{"isError": isErr, "content": kinds, "structuredContent": sc}
		}
	}
	l.Answer, _ = json.Marshal(v)
	return l
}
