package clienttest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/proxy"
	"github.com/agentjudge/judge/proxy/proxytest"
)

// nodeResult is what testdata/node/client.mjs prints.
type nodeResult struct {
	Chunks    int                                               `json:"chunks"`
	Content   map[string]string                                 `json:"content"`
	ToolCalls map[string][]struct{ ID, Name, Arguments string } `json:"toolCalls"`
	Finish    map[string]string                                 `json:"finish"`
	Judge     *proxy.Report                                     `json:"judge"`
	Usage     *struct {
		CompletionTokens int64 `json:"completion_tokens"`
	} `json:"usage"`
	Error *struct {
		Status  int    `json:"status"`
		Message string `json:"message"`
	} `json:"error"`
}

// runNode sends req through the official openai npm client to the proxy
// at base.
func runNode(t *testing.T, base string, req map[string]any) nodeResult {
	t.Helper()
	var res nodeResult
	runNodeScript(t, "client.mjs", base, req, &res)
	return res
}

// runNodeScript runs testdata/node's script with req on its stdin and
// decodes what it prints into res.
func runNodeScript(t *testing.T, script, base string, req map[string]any, res any) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir, _ := filepath.Abs(filepath.Join("..", "testdata", "node"))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "openai", "package.json")); err != nil {
		t.Skip("the openai npm client is not installed: run (cd proxy/testdata/node && npm ci), as scripts/test does")
	}
	body, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, script))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PROXY_URL="+base, "OPENAI_API_KEY="+testKey)
	cmd.Stdin = bytes.NewReader(body)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client: %v\n%s", err, stderr.String())
	}
	if err := json.Unmarshal(out, res); err != nil {
		t.Fatalf("node client printed %q: %v", out, err)
	}
}

func airlineToolsJSON(t *testing.T) []any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "testdata", "agent-traces", "tau-bench-airline-tools.json"))
	if err != nil {
		t.Skipf("../shared/testdata/agent-traces is absent: %v", err)
	}
	var tools []any
	if err := json.Unmarshal(b, &tools); err != nil {
		t.Fatal(err)
	}
	return tools
}

func TestOpenAINodeClient(t *testing.T) {
	t.Parallel()
	tools := airlineToolsJSON(t)
	weather := map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "weather", "schema": weatherSchema, "strict": true}}
	msgs := []any{map[string]any{"role": "user", "content": "go"}}

	t.Run("parallel tool calls stopped", func(t *testing.T) {
		t.Parallel()
		sc := proxytest.Script{Choices: []proxytest.Choice{{Calls: airlineCalls}}, Fragment: 5}
		sc.HoldAfter = 1 + len(proxytest.Split(airlineCalls[0].Args, 5)) + 1 + len(proxytest.Split(airlineCalls[1].Args, 5)) + 1
		up := proxytest.New(t, sc)
		_, base := startProxy(t, up.URL, proxy.Stop)
		res := runNode(t, base, map[string]any{"model": proxytest.Model, "messages": msgs, "tools": tools, "stream": true})
		if res.Error != nil {
			t.Fatalf("client error %+v", res.Error)
		}
		select {
		case <-up.Cancelled:
		case <-time.After(15 * time.Second):
			t.Fatal("the upstream was not cancelled")
		}
		if res.Judge == nil || !res.Judge.Stopped || res.Finish["0"] != proxy.FinishStopped || !strings.Contains(res.Judge.RepairText, "cabin") {
			t.Fatalf("judge %+v finish %v", res.Judge, res.Finish)
		}
		if calls := res.ToolCalls["0"]; len(calls) != 2 || calls[1].Arguments != airlineCalls[1].Args || calls[0].Name != airlineCalls[0].Name {
			t.Errorf("tool calls %+v", calls)
		}
	})
	t.Run("n=2 with usage annotated", func(t *testing.T) {
		t.Parallel()
		up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{
			{Content: `{"city":"Oslo","temperature":-3,"unit":"c"}`},
			{Content: `{"city":"Oslo","temperature":-3}`},
		}})
		_, base := startProxy(t, up.URL, proxy.Annotate)
		res := runNode(t, base, map[string]any{"model": proxytest.Model, "messages": msgs, "response_format": weather, "n": 2,
			"stream": true, "stream_options": map[string]any{"include_usage": true}})
		if res.Error != nil || res.Judge == nil || res.Usage == nil {
			t.Fatalf("result %+v", res)
		}
		if res.Judge.Valid || len(res.Judge.Checks) != 2 || res.Judge.Tokens.Completion != res.Usage.CompletionTokens {
			t.Errorf("judge %+v", res.Judge)
		}
		if res.Content["1"] != `{"city":"Oslo","temperature":-3}` || res.Finish["0"] != "stop" || res.Finish["1"] != "stop" {
			t.Errorf("content %v finish %v", res.Content, res.Finish)
		}
	})
	t.Run("not streamed", func(t *testing.T) {
		t.Parallel()
		up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{{Calls: airlineCalls}}})
		_, base := startProxy(t, up.URL, proxy.Annotate)
		res := runNode(t, base, map[string]any{"model": proxytest.Model, "messages": msgs, "tools": tools})
		if res.Error != nil || res.Judge == nil || res.Judge.Valid || len(res.Judge.Checks) != 3 || len(res.ToolCalls["0"]) != 3 {
			t.Fatalf("result %+v", res)
		}
	})
	t.Run("upstream error", func(t *testing.T) {
		t.Parallel()
		up := proxytest.New(t, proxytest.Script{Status: 429, Body: `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`})
		_, base := startProxy(t, up.URL, proxy.Stop)
		res := runNode(t, base, map[string]any{"model": proxytest.Model, "messages": msgs, "stream": true})
		if res.Error == nil || res.Error.Status != 429 || !strings.Contains(res.Error.Message, "Rate limit reached") {
			t.Fatalf("error %+v", res.Error)
		}
	})
	t.Run("malformed stream", func(t *testing.T) {
		t.Parallel()
		good := proxytest.ChunksOf(proxytest.Script{Choices: []proxytest.Choice{{Content: `{"city":"Paris"}`}}}, false)
		up := proxytest.New(t, proxytest.Script{Raw: "data: " + good[0] + "\n\ndata: {oops\n\n"})
		_, base := startProxy(t, up.URL, proxy.Annotate)
		res := runNode(t, base, map[string]any{"model": proxytest.Model, "messages": msgs, "response_format": weather, "stream": true})
		if res.Error == nil || !strings.Contains(res.Error.Message, "not a chat completion chunk") {
			t.Fatalf("error %+v", res.Error)
		}
	})
}
