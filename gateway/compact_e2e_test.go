package gateway_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/internal/llm/llmtest"
	"github.com/agentjudge/judge/toolcall"
)

// ordersRegistry writes a registry of one api tool, list_orders, served
// by an HTTP server on loopback that answers 200 orders, and returns the
// registry's directory.
func ordersRegistry(t *testing.T) string {
	t.Helper()
	body := jsonText(t, orders(200))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	tool := `tool_id: list_orders
tool_type: api
version: "1.0.0"
executor: http_client
description: Lists the customer's orders with their details
config:
  method: GET
  url_template: "` + srv.URL + `/orders?id={order_id}"
parameters:
  - {name: order_id, type: string, required: true, description: The order the user asks about}
`
	if err := os.WriteFile(filepath.Join(dir, "list_orders.yaml"), []byte(tool), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestGatewayCompactProcess starts judge gateway with --compact-budget
// and calls an api tool whose answer is 200 orders: the model reads the
// order it asked about whole, the rest cut, and _meta.judge.compacted says
// so, over stdio and over streamable HTTP; without the flag the same
// answer reaches it whole. The config file's gateway.compact_budget does
// the same as the flag.
func TestGatewayCompactProcess(t *testing.T) {
	t.Parallel()
	dir := ordersRegistry(t)
	full := jsonText(t, orders(200))
	cfg := filepath.Join(t.TempDir(), "judge.yaml")
	if err := os.WriteFile(cfg, []byte("gateway:\n  compact_budget: 3000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		budget int  // 0: whole
		http   bool // over streamable HTTP, not stdio
	}{
		{"flag", []string{"--compact-budget", "2000"}, 2000, false},
		{"flag over HTTP", []string{"--compact-budget", "2000"}, 2000, true},
		{"config file", []string{"--config", cfg}, 3000, false},
		{"the flag over the config file", []string{"--config", cfg, "--compact-budget", "0"}, 0, false},
		{"off by default", nil, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmd := gatewayCmd(dir, "", []string{"JUDGE_CONFIG=", "XDG_CONFIG_HOME=" + t.TempDir()}, append([]string{"--allow-loopback"}, tc.args...)...)
			var cs *mcp.ClientSession
			if tc.http {
				cs = connectHTTP(t, cmd)
			} else {
				cs, _ = connectStdio(t, cmd)
			}
			res, meta := call(t, cs, "list_orders", map[string]any{"order_id": "o-0171"})
			if res.IsError || meta.Status != toolcall.Satisfied {
				t.Fatalf("isError %v, status %s: %.300s", res.IsError, meta.Status, text(res))
			}
			if tc.budget == 0 {
				if meta.Compacted != nil || text(res) != full || jsonText(t, res.StructuredContent) != full {
					t.Errorf("compaction off: _meta.judge.compacted %+v, text of %d characters, want the %d of the answer", meta.Compacted, len(text(res)), len(full))
				}
				return
			}
			checkOrders(t, "content[0]", []byte(text(res)), tc.budget)
			checkOrders(t, "structuredContent", []byte(jsonText(t, res.StructuredContent)), tc.budget)
			c := meta.Compacted
			if c == nil || c.Budget != tc.budget || len(c.Parts) != 2 || c.Parts[0].At != "structuredContent" || c.Parts[1].At != "content[0]" ||
				c.Parts[1].OriginalChars != len(full) || fmt.Sprint(c.Parts[1].Focus) != "[orders[171]]" {
				t.Errorf("_meta.judge.compacted %+v", c)
			}
		})
	}
}

// TestGatewayGoalModelFromConfig starts judge gateway with a config file
// whose llm section names a fake model on loopback: a goal the rules
// cannot decide goes to that model, as judge serve's would; without the
// file it is reported as not checked.
func TestGatewayGoalModelFromConfig(t *testing.T) {
	t.Parallel()
	dir := ordersRegistry(t)
	fake := llmtest.NewServer(t, llmtest.Reply{Fixture: "criteria_met"})
	cfg := filepath.Join(t.TempDir(), "judge.yaml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf("llm:\n  base_url: %s\n  model: %s\n", fake.URL, llmtest.Model)), 0o600); err != nil {
		t.Fatal(err)
	}
	goal := map[string]any{"judge": map[string]any{"goal": "will the parcel arrive before the weekend"}}
	for _, tc := range []struct {
		name     string
		args     []string
		by       string
		verdict  string
		requests int
	}{
		{"without a model", nil, "", toolcall.GoalCannotTell, 0},
		{"the config file's model", []string{"--config", cfg}, toolcall.ByModel, toolcall.GoalAnswered, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, errs := connectStdio(t, gatewayCmd(dir, "", []string{"JUDGE_LLM_BASE_URL=", "JUDGE_LLM_MODEL=", "JUDGE_CONFIG=", "XDG_CONFIG_HOME=" + t.TempDir()}, append([]string{"--allow-loopback"}, tc.args...)...))
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "list_orders", Arguments: map[string]any{"order_id": "o-0001"}, Meta: goal})
			if err != nil {
				t.Fatalf("call: %v\n%s", err, errs)
			}
			var meta struct {
				Goal    *toolcall.GoalCheck
				Outcome struct {
					Issues []struct{ Type, Rule string }
				}
			}
			b, _ := json.Marshal(res.Meta["judge"])
			if err := json.Unmarshal(b, &meta); err != nil || meta.Goal == nil {
				t.Fatalf("_meta.judge %s: %v", b, err)
			}
			notChecked := strings.Contains(string(b), `"not_checked"`)
			if meta.Goal.By != tc.by || meta.Goal.Verdict != tc.verdict || len(fake.Requests()) != tc.requests || notChecked != (tc.by == "") {
				t.Errorf("goal %+v after %d model requests, not_checked issue %v; want %s by %q", meta.Goal, len(fake.Requests()), notChecked, tc.verdict, tc.by)
			}
		})
	}
}
