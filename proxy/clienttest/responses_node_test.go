package clienttest

import (
	"strings"
	"testing"
	"time"

	"github.com/agentjudge/judge/proxy"
	"github.com/agentjudge/judge/proxy/proxytest"
)

// nodeResponses is what testdata/node/responses.mjs prints.
type nodeResponses struct {
	Types  []string          `json:"types"`
	Text   string            `json:"text"`
	Calls  map[string]string `json:"calls"`
	Status string            `json:"status"`
	Reason string            `json:"reason"`
	Judge  *proxy.Report     `json:"judge"`
	Error  *struct {
		Status  int    `json:"status"`
		Message string `json:"message"`
	} `json:"error"`
}

// TestOpenAINodeResponses drives /v1/responses with the official openai
// npm client (client.responses.create).
func TestOpenAINodeResponses(t *testing.T) {
	t.Parallel()
	var tools []any
	for _, tool := range airlineToolsJSON(t) {
		fn := tool.(map[string]any)["function"].(map[string]any)
		tools = append(tools, map[string]any{"type": "function", "name": fn["name"], "description": fn["description"], "parameters": fn["parameters"]})
	}
	weather := map[string]any{"format": map[string]any{"type": "json_schema", "name": "weather", "schema": weatherSchema, "strict": true}}
	run := func(t *testing.T, base string, req map[string]any) nodeResponses {
		var res nodeResponses
		req["model"], req["input"] = proxytest.Model, "go"
		runNodeScript(t, "responses.mjs", base, req, &res)
		return res
	}

	t.Run("text stopped mid-stream", func(t *testing.T) {
		t.Parallel()
		content := `{"city":"Paris","temperature":"warm and sunny all day long","unit":"c"}`
		sc := proxytest.Script{Choices: []proxytest.Choice{{Content: content}}}
		sc.HoldAfter = 4 + len(proxytest.Split(content, 4)) - 1
		up := proxytest.New(t, sc)
		_, base := startProxy(t, up.URL, proxy.Stop)
		res := run(t, base, map[string]any{"text": weather, "stream": true})
		if res.Error != nil {
			t.Fatalf("client error %+v", res.Error)
		}
		select {
		case <-up.Cancelled:
		case <-time.After(15 * time.Second):
			t.Fatal("the upstream was not cancelled")
		}
		if res.Judge == nil || !res.Judge.Stopped || !res.Judge.Checks[0].Early || res.Status != "incomplete" || res.Reason != "content_filter" {
			t.Fatalf("judge %+v status %q reason %q", res.Judge, res.Status, res.Reason)
		}
		if len(res.Text) >= len(content) || !strings.HasPrefix(content, res.Text) || res.Types[len(res.Types)-1] != proxy.EventValidation {
			t.Errorf("text %q, events %v", res.Text, res.Types)
		}
	})
	t.Run("function calls annotated", func(t *testing.T) {
		t.Parallel()
		up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{{Calls: airlineCalls}}, Fragment: 5})
		_, base := startProxy(t, up.URL, proxy.Annotate)
		res := run(t, base, map[string]any{"tools": tools, "stream": true})
		if res.Error != nil || res.Judge == nil || res.Judge.Valid || len(res.Judge.Checks) != 3 || res.Status != "completed" {
			t.Fatalf("result %+v", res)
		}
		if len(res.Calls) != 3 || res.Calls["1"] != airlineCalls[1].Args || !strings.Contains(res.Judge.RepairText, "cabin") {
			t.Errorf("calls %v, repair %q", res.Calls, res.Judge.RepairText)
		}
	})
	t.Run("not streamed", func(t *testing.T) {
		t.Parallel()
		up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{{Calls: airlineCalls}}})
		_, base := startProxy(t, up.URL, proxy.Stop)
		res := run(t, base, map[string]any{"tools": tools})
		if res.Error != nil || res.Judge == nil || res.Judge.Valid || len(res.Calls) != 3 || res.Status != "incomplete" || res.Reason != "content_filter" {
			t.Fatalf("result %+v", res)
		}
	})
	t.Run("malformed stream raised", func(t *testing.T) {
		t.Parallel()
		good := proxytest.ResponseEventsOf(proxytest.Script{Choices: []proxytest.Choice{{Content: `{"city":"Paris"}`}}}, nil)
		up := proxytest.New(t, proxytest.Script{Raw: good[0] + "event: response.output_text.delta\ndata: {oops\n\n"})
		_, base := startProxy(t, up.URL, proxy.Annotate)
		res := run(t, base, map[string]any{"text": weather, "stream": true})
		if res.Error == nil || !strings.Contains(res.Error.Message, "not a Responses API event") {
			t.Fatalf("error %+v, events %v", res.Error, res.Types)
		}
	})
}
