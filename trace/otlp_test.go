package trace_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge/toolcall"
	"github.com/agentjudge/judge/trace"
)

// TestOTLP reads the OTLP/JSON files that real instrumentation of the
// openai client exported (testdata/otlp/gen/gen.cjs: OpenInference's and
// OpenLLMetry's, one export request per line as the Collector's file
// exporter writes them), rebuilds the two conversations of each and checks
// them against the tool's definition: the call asking for "kelvin" breaks
// its enum, the other is clean.
func TestOTLP(t *testing.T) {
	t.Parallel()
	defs, err := os.ReadFile(filepath.Join("testdata", "otlp", "tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	ds, err := toolcall.ParseDefinitions(defs, "tools.json")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := toolcall.New()
	ts, err := c.NewToolset(ds...)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := trace.New(ts, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		ids  []string // "" means a trace id
	}{
		{"openinference.jsonl", []string{"weather-celsius", "weather-kelvin"}}, // OpenInference's session.id
		{"openllmetry.jsonl", []string{"", ""}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(filepath.Join("testdata", "otlp", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			convs, err := trace.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			if len(convs) != 2 {
				t.Fatalf("%d conversations, want 2", len(convs))
			}
			for i, conv := range convs {
				if tc.ids[i] != "" && conv.ID != tc.ids[i] || tc.ids[i] == "" && !strings.HasPrefix(conv.ID, "trace ") {
					t.Errorf("conversation %d is %q, want %q", i, conv.ID, tc.ids[i])
				}
				var roles []string
				for _, m := range conv.Messages {
					roles = append(roles, m.Role)
				}
				if got := strings.Join(roles, ","); got != "system,user,assistant,tool,assistant" {
					t.Fatalf("conversation %d's roles %s", i, got)
				}
				call, res := conv.Messages[2].ToolCalls, conv.Messages[3]
				if len(call) != 1 || call[0].Name != "get_weather" || call[0].ID == "" || res.ToolCallID != call[0].ID || !strings.Contains(res.Content, "temperature") {
					t.Errorf("conversation %d: call %+v, result %+v", i, call, res)
				}
				if !strings.Contains(conv.Messages[4].Content, "degrees in Paris") {
					t.Errorf("conversation %d's answer %q", i, conv.Messages[4].Content)
				}
				rep, err := ch.Check(context.Background(), conv)
				if err != nil {
					t.Fatal(err)
				}
				kelvin := strings.Contains(string(call[0].Arguments), "kelvin")
				if kelvin != (i == 1) || rep.Result.Valid == kelvin {
					t.Errorf("conversation %d (kelvin %v): valid %v, issues %+v", i, kelvin, rep.Result.Valid, rep.Result.Issues)
				}
			}
		})
	}
}

// TestOTLPShapes reads the other shapes of OTLP/JSON and of GenAI spans:
// Jaeger's api/v3 answer, execute_tool spans alone, the older flattened
// gen_ai.prompt.N attributes and events, and refuses what is not a
// conversation with a precise error.
func TestOTLPShapes(t *testing.T) {
	t.Parallel()
	span := func(attrs string) string {
		return `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"b7ad6b7169203331","name":"x","startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[` + attrs + `]}]}]}]}`
	}
	kv := func(k, v string) string { return `{"key":"` + k + `","value":{"stringValue":` + v + `}}` }
	for _, c := range []struct {
		name, input string
		want        string // roles and calls, or the error
	}{
		{"jaeger api v3", `{"result":` + span(kv("gen_ai.operation.name", `"execute_tool"`)+","+kv("gen_ai.tool.name", `"get_weather"`)+","+kv("gen_ai.tool.call.arguments", `"{\"city\":\"Oslo\"}"`)) + `}`,
			"assistant:get_weather{\"city\":\"Oslo\"}"},
		{"tool result", span(kv("gen_ai.operation.name", `"execute_tool"`) + "," + kv("gen_ai.tool.name", `"t"`) + "," + kv("gen_ai.tool.call.id", `"c1"`) + "," + kv("gen_ai.tool.call.result", `"ok"`)),
			"assistant:t{} tool:ok"},
		{"flattened prompt", span(kv("gen_ai.prompt.0.role", `"user"`) + "," + kv("gen_ai.prompt.0.content", `"hi"`) + "," + kv("gen_ai.completion.0.role", `"assistant"`) + "," +
			kv("gen_ai.completion.0.tool_calls.0.name", `"t"`) + "," + kv("gen_ai.completion.0.tool_calls.0.arguments", `"{\"a\":1}"`)),
			"user:hi assistant:t{\"a\":1}"},
		{"openinference tool span", span(kv("openinference.span.kind", `"TOOL"`) + "," + kv("tool.name", `"lookup"`) + "," + kv("input.value", `"{\"q\":\"x\"}"`) + "," + kv("output.value", `"found"`)),
			"assistant:lookup{\"q\":\"x\"} tool:found"},
		{"events", `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"aa","spanId":"bb","name":"chat","events":[` +
			`{"name":"gen_ai.user.message","attributes":[` + kv("content", `"weather?"`) + `]},` +
			`{"name":"gen_ai.choice","attributes":[` + kv("message", `"{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"c\",\"function\":{\"name\":\"w\",\"arguments\":\"{}\"}}]}"`) + `]}]}]}]}]}`,
			"user:weather? assistant:w{}"},
		{"no genai span", span(kv("http.route", `"/"`)), "none of the 1 spans"},
		{"bad messages", span(kv("gen_ai.input.messages", `"[{\"parts\":[]}]"`)), "gen_ai.input.messages[0] has no role"},
		{"not json messages", span(kv("gen_ai.input.messages", `"[{"`)), "gen_ai.input.messages is not JSON"},
		{"mixed lines", span(kv("gen_ai.prompt.0.role", `"user"`)) + "\n" + `[{"role":"user","content":"x"}]`, "2:1: expected an OTLP/JSON export request"},
		{"bad resourceSpans", `{"resourceSpans": 3}`, "1:1: resourceSpans:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			convs, err := trace.Decode([]byte(c.input))
			if err != nil {
				if !strings.Contains(err.Error(), c.want) {
					t.Fatalf("error %q, want %q", err, c.want)
				}
				return
			}
			var got []string
			for _, m := range convs[0].Messages {
				s := m.Role + ":" + m.Content
				for _, tc := range m.ToolCalls {
					s += tc.Name + string(tc.Arguments)
				}
				got = append(got, s)
			}
			if strings.Join(got, " ") != c.want {
				t.Errorf("got %q, want %q", strings.Join(got, " "), c.want)
			}
		})
	}
}
