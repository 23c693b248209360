package clienttest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/agentjudge/judge/proxy"
	"github.com/agentjudge/judge/proxy/proxytest"
	"github.com/agentjudge/judge/server/api"
)

const testKey = "sk-test-7f3a"

// weatherSchema is the response schema of the structured-output tests.
var weatherSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"city":        map[string]any{"type": "string"},
		"temperature": map[string]any{"type": "number"},
		"unit":        map[string]any{"type": "string", "enum": []any{"c", "f"}},
	},
	"required":             []any{"city", "temperature", "unit"},
	"additionalProperties": false,
}

func newClient(base string) openai.Client {
	return openai.NewClient(option.WithBaseURL(base+"/v1"), option.WithAPIKey(testKey), option.WithMaxRetries(0))
}

func structuredParams(n int64) openai.ChatCompletionNewParams {
	p := openai.ChatCompletionNewParams{
		Model:    shared.ChatModel(proxytest.Model),
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("The weather in Paris, as JSON.")},
		ResponseFormat: openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name: "weather", Schema: weatherSchema, Strict: openai.Bool(true)}},
		},
	}
	if n > 1 {
		p.N = openai.Int(n)
	}
	return p
}

// airlineDef is one of tau-bench's airline tool definitions.
type airlineDef struct {
	Function struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Parameters  map[string]any `json:"parameters"`
	} `json:"function"`
}

// airlineDefs reads tau-bench's airline tool definitions from ../shared,
// skipping the test where it is absent.
func airlineDefs(t testing.TB) []airlineDef {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "testdata", "agent-traces", "tau-bench-airline-tools.json"))
	if err != nil {
		t.Skipf("../shared/testdata/agent-traces is absent: %v", err)
	}
	var defs []airlineDef
	if err := json.Unmarshal(b, &defs); err != nil {
		t.Fatal(err)
	}
	return defs
}

// airlineTools returns tau-bench's airline tool definitions as the openai
// client's tools.
func airlineTools(t testing.TB) []openai.ChatCompletionToolUnionParam {
	t.Helper()
	defs := airlineDefs(t)
	var tools []openai.ChatCompletionToolUnionParam
	for _, d := range defs {
		tools = append(tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: d.Function.Name, Description: openai.String(d.Function.Description), Parameters: d.Function.Parameters}))
	}
	return tools
}

// streamed is what a client read of one streamed answer.
type streamed struct {
	acc     openai.ChatCompletionAccumulator
	finish  map[int64]string
	content map[int64]string
	report  *proxy.Report
	usage   int64
	err     error
	chunks  int
}

func readStream(t testing.TB, base string, params openai.ChatCompletionNewParams) *streamed {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := newClient(base)
	s := c.Chat.Completions.NewStreaming(ctx, params)
	out := &streamed{finish: map[int64]string{}, content: map[int64]string{}}
	for s.Next() {
		ch := s.Current()
		out.chunks++
		out.acc.AddChunk(ch)
		for _, c := range ch.Choices {
			out.content[c.Index] += c.Delta.Content
			if c.FinishReason != "" {
				out.finish[c.Index] = c.FinishReason
			}
		}
		if ch.Usage.CompletionTokens > 0 {
			out.usage = ch.Usage.CompletionTokens
		}
		if f, ok := ch.JSON.ExtraFields["judge"]; ok {
			if out.report != nil {
				t.Errorf("two judge chunks")
			}
			out.report = new(proxy.Report)
			if err := json.Unmarshal([]byte(f.Raw()), out.report); err != nil {
				t.Fatalf("judge chunk: %v\n%s", err, f.Raw())
			}
		}
	}
	out.err = s.Err()
	if ctx.Err() != nil {
		// Every goroutine's stack, so that a hang seen once (a loaded CI
		// run) names where the proxy, the upstream or the client waits.
		stacks := make([]byte, 1<<20)
		stacks = stacks[:runtime.Stack(stacks, true)]
		t.Fatalf("the stream hung: %v (%d chunks read)\n%s", ctx.Err(), out.chunks, stacks)
	}
	return out
}

func hasIssueAt(r *proxy.Report, loc string) bool {
	for _, v := range r.Checks {
		for _, is := range v.Result.Issues {
			if is.Severity == "error" && (strings.Contains(is.Location, loc) || strings.Contains(is.Message, loc)) {
				return true
			}
		}
	}
	return false
}

func TestStructuredOutputStream(t *testing.T) {
	t.Parallel()
	const valid = `{"city":"Paris","temperature":21.5,"unit":"c"}`
	cases := []struct {
		name, content string
		wantValid     bool
		loc           string
	}{
		{"valid", valid, true, ""},
		{"wrong type", `{"city":"Paris","temperature":"warm","unit":"c"}`, false, "temperature"},
		{"missing required", `{"city":"Paris","unit":"c"}`, false, "temperature"},
		{"not JSON", `{"city":"Paris","temperature":21`, false, "line:1"},
	}
	for _, tc := range cases {
		for _, mode := range []proxy.Mode{proxy.Pass, proxy.Annotate, proxy.Stop} {
			t.Run(tc.name+"/"+string(mode), func(t *testing.T) {
				t.Parallel()
				up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{{Content: tc.content}}})
				_, base := startProxy(t, up.URL, mode)
				got := readStream(t, base, structuredParams(1))
				if got.err != nil {
					t.Fatalf("stream error: %v", got.err)
				}
				if mode == proxy.Pass {
					if got.report != nil {
						t.Errorf("pass mode added a judge chunk")
					}
					if got.content[0] != tc.content || got.finish[0] != "stop" {
						t.Errorf("pass changed the answer: %q %q", got.content[0], got.finish[0])
					}
					return
				}
				if got.report == nil {
					t.Fatal("no judge chunk")
				}
				r := got.report
				if r.Valid != tc.wantValid || len(r.Checks) != 1 || r.Checks[0].Kind != "content" {
					t.Fatalf("report valid=%v checks=%d, want valid=%v and one content check", r.Valid, len(r.Checks), tc.wantValid)
				}
				if !tc.wantValid && !hasIssueAt(r, tc.loc) {
					t.Errorf("no error at %q: %+v", tc.loc, r.Checks[0].Result.Issues)
				}
				switch {
				case mode == proxy.Stop && !tc.wantValid:
					// The streaming validator stops the content at the
					// fragment that makes the violation certain, which is
					// not forwarded: a prefix arrives.
					if !strings.HasPrefix(tc.content, got.content[0]) {
						t.Errorf("content %q, want a prefix of %q", got.content[0], tc.content)
					}
				case got.content[0] != tc.content:
					t.Errorf("content %q, want it whole %q", got.content[0], tc.content)
				}
				switch {
				case mode == proxy.Stop && !tc.wantValid:
					if !r.Stopped || got.finish[0] != proxy.FinishStopped || !strings.Contains(r.RepairText, "response schema") {
						t.Errorf("stop: stopped=%v finish=%q repair=%q", r.Stopped, got.finish[0], r.RepairText)
					}
				default:
					if r.Stopped || got.finish[0] != "stop" {
						t.Errorf("stopped=%v finish=%q", r.Stopped, got.finish[0])
					}
				}
			})
		}
	}
}

// airlineCalls are three parallel calls; the second one books in a cabin
// the enum does not have and lacks passengers.
var airlineCalls = []proxytest.ToolCall{
	{Name: "get_user_details", Args: `{"user_id": "sara_doe_496"}`},
	{Name: "book_reservation", Args: `{"user_id": "sara_doe_496", "origin": "SFO", "destination": "JFK", "flight_type": "one_way", "cabin": "first", "flights": [{"flight_number": "HAT001", "date": "2024-05-01"}], "payment_id": "credit_card_7815826", "total_baggages": 0, "nonfree_baggages": 0, "insurance": "no"}`},
	{Name: "get_reservation_details", Args: `{"reservation_id": "ZFA04Y"}`},
}

func toolParams(t testing.TB) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model:             shared.ChatModel(proxytest.Model),
		Messages:          []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Book me SFO to JFK on HAT001, May 1st.")},
		Tools:             airlineTools(t),
		ParallelToolCalls: openai.Bool(true),
	}
}

func TestParallelToolCallsStream(t *testing.T) {
	t.Parallel()
	for _, mode := range []proxy.Mode{proxy.Pass, proxy.Annotate, proxy.Stop} {
		t.Run(string(mode), func(t *testing.T) {
			t.Parallel()
			sc := proxytest.Script{Choices: []proxytest.Choice{{Calls: airlineCalls}}, Fragment: 7}
			if mode == proxy.Stop {
				// Hold after the head of the third call: the second is
				// complete then, and the proxy must cancel the rest.
				sc.HoldAfter = 1 + len(proxytest.Split(airlineCalls[0].Args, 7)) + 1 + len(proxytest.Split(airlineCalls[1].Args, 7)) + 1
			}
			up := proxytest.New(t, sc)
			_, base := startProxy(t, up.URL, mode)
			got := readStream(t, base, toolParams(t))
			if got.err != nil {
				t.Fatalf("stream error: %v", got.err)
			}
			calls := got.acc.Choices[0].Message.ToolCalls
			if mode == proxy.Stop {
				select {
				case <-up.Cancelled:
				case <-time.After(15 * time.Second):
					t.Fatal("the proxy did not cancel the upstream's request")
				}
				r := got.report
				if r == nil || !r.Stopped || r.Valid || got.finish[0] != proxy.FinishStopped {
					t.Fatalf("stop: report %+v finish %q", r, got.finish[0])
				}
				if len(r.Checks) != 2 || !r.Checks[0].Result.Valid || r.Checks[1].Result.Valid || r.Checks[1].ToolCall.Name != "book_reservation" {
					t.Fatalf("checks %+v", r.Checks)
				}
				if !strings.Contains(r.RepairText, "book_reservation") || !strings.Contains(r.RepairText, "cabin") || !strings.Contains(r.RepairText, "passengers") {
					t.Errorf("repair text does not name the tool and its faults:\n%s", r.RepairText)
				}
				if len(calls) != 2 || calls[1].Function.Arguments != airlineCalls[1].Args {
					t.Errorf("the client assembled %d calls, want the first two whole: %+v", len(calls), calls)
				}
				return
			}
			if len(calls) != 3 {
				t.Fatalf("the client assembled %d calls, want 3", len(calls))
			}
			for i, c := range calls {
				if c.Function.Name != airlineCalls[i].Name || c.Function.Arguments != airlineCalls[i].Args || c.ID == "" {
					t.Errorf("call %d assembled as %+v", i, c)
				}
			}
			if got.finish[0] != "tool_calls" {
				t.Errorf("finish %q", got.finish[0])
			}
			if mode == proxy.Pass {
				if got.report != nil {
					t.Error("pass added a judge chunk")
				}
				return
			}
			r := got.report
			if r == nil || r.Valid || len(r.Checks) != 3 {
				t.Fatalf("report %+v", r)
			}
			for i, v := range r.Checks {
				if v.ToolCall == nil || v.ToolCall.Index != i || v.ToolCall.Name != airlineCalls[i].Name || v.Result.Valid != (i != 1) {
					t.Errorf("check %d: %+v valid=%v", i, v.ToolCall, v.Result.Valid)
				}
			}
			if !hasIssueAt(r, "cabin") || r.Checks[1].Repair == nil {
				t.Errorf("no cabin error or no repair block: %+v", r.Checks[1])
			}
			if r.Tokens.AfterViolation <= 0 {
				t.Errorf("tokens after the violation %d, want the third call's", r.Tokens.AfterViolation)
			}
		})
	}
}

func TestChoicesAndUsage(t *testing.T) {
	t.Parallel()
	up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{
		{Content: `{"city":"Paris","temperature":21.5,"unit":"c"}`},
		{Content: `{"city":"Paris","temperature":21.5,"unit":"kelvin"}`},
	}})
	_, base := startProxy(t, up.URL, proxy.Annotate)
	p := structuredParams(2)
	p.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	got := readStream(t, base, p)
	if got.err != nil {
		t.Fatal(got.err)
	}
	if got.usage <= 0 {
		t.Errorf("the usage chunk did not reach the client")
	}
	r := got.report
	if r == nil || r.Valid || len(r.Checks) != 2 {
		t.Fatalf("report %+v", r)
	}
	byChoice := map[int]bool{}
	for _, v := range r.Checks {
		byChoice[v.Choice] = v.Result.Valid
	}
	if !byChoice[0] || byChoice[1] {
		t.Errorf("validity by choice %v, want 0 valid and 1 invalid", byChoice)
	}
	if r.Tokens.Estimated || r.Tokens.Completion != got.usage {
		t.Errorf("tokens %+v, want the usage's %d", r.Tokens, got.usage)
	}
	if len(got.acc.Choices) != 2 || got.finish[1] != "stop" {
		t.Errorf("choices %d, finish %v", len(got.acc.Choices), got.finish)
	}
}

func TestNonStreaming(t *testing.T) {
	t.Parallel()
	for _, mode := range []proxy.Mode{proxy.Pass, proxy.Annotate, proxy.Stop} {
		t.Run(string(mode), func(t *testing.T) {
			t.Parallel()
			up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{{Calls: airlineCalls}}})
			_, base := startProxy(t, up.URL, mode)
			c := newClient(base)
			res, err := c.Chat.Completions.New(context.Background(), toolParams(t))
			if err != nil {
				t.Fatal(err)
			}
			if n := len(res.Choices[0].Message.ToolCalls); n != 3 {
				t.Fatalf("%d tool calls", n)
			}
			f, ok := res.JSON.ExtraFields["judge"]
			if mode == proxy.Pass {
				if ok || res.Choices[0].FinishReason != "tool_calls" {
					t.Errorf("pass changed the answer")
				}
				return
			}
			var r proxy.Report
			if !ok || json.Unmarshal([]byte(f.Raw()), &r) != nil {
				t.Fatalf("no judge member")
			}
			if r.Valid || len(r.Checks) != 3 || !hasIssueAt(&r, "cabin") || r.Tokens.Estimated {
				t.Errorf("report %+v", r)
			}
			want := "tool_calls"
			if mode == proxy.Stop {
				want = proxy.FinishStopped
			}
			if res.Choices[0].FinishReason != want {
				t.Errorf("finish %q, want %q", res.Choices[0].FinishReason, want)
			}
		})
	}
}

func TestUpstreamErrorsPassThrough(t *testing.T) {
	t.Parallel()
	for _, status := range []int{400, 401, 429, 500, 503} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			t.Parallel()
			body := `{"error":{"message":"upstream says no (` + strconv.Itoa(status) + `)","type":"invalid_request_error","param":null,"code":"x"}}`
			up := proxytest.New(t, proxytest.Script{Status: status, Body: body})
			_, base := startProxy(t, up.URL, proxy.Stop)
			c := newClient(base)
			for _, stream := range []bool{false, true} {
				var err error
				if stream {
					s := c.Chat.Completions.NewStreaming(context.Background(), structuredParams(1))
					for s.Next() {
					}
					err = s.Err()
				} else {
					_, err = c.Chat.Completions.New(context.Background(), structuredParams(1))
				}
				var apierr *openai.Error
				if !errors.As(err, &apierr) || apierr.StatusCode != status || !strings.Contains(apierr.Message, "upstream says no") {
					t.Errorf("stream=%v: error %v, want the upstream's %d", stream, err, status)
				}
			}
		})
	}
}

func TestMalformedUpstream(t *testing.T) {
	t.Parallel()
	good := proxytest.ChunksOf(proxytest.Script{Choices: []proxytest.Choice{{Content: `{"city":"Paris"}`}}}, false)
	cases := []struct {
		name, raw string
		want      string // in the error the client sees
		status    int    // the proxy's status, when nothing was streamed yet
	}{
		{"data not JSON", "data: {oops\n\n", "not a chat completion chunk", 502},
		{"cut before DONE", "data: " + good[0] + "\n\n" + "data: " + good[1] + "\n\n", "without data: [DONE]", 0},
		{"cut mid-event", "data: " + good[0] + "\n\ndata: " + good[1], "middle of an event", 0},
		{"choice not asked for", "data: " + strings.Replace(good[0], `"index":0`, `"index":5`, 1) + "\n\n", "choice index 5", 502},
		{"tool call without index", "data: " + proxytest.ChunkJSON([]map[string]any{{"index": 0, "delta": map[string]any{"tool_calls": []any{map[string]any{"id": "c1", "function": map[string]any{"name": "think", "arguments": "{}"}}}}}}, false, nil) + "\n\n", "has no index", 502},
		{"line too long", "data: \"" + strings.Repeat("x", proxy.MaxEventBytes+10) + "\"\n\n", "longer than", 502},
		{"upstream error mid-stream", "data: " + good[0] + "\n\n" + `data: {"error":{"message":"The server is overloaded","type":"server_error"}}` + "\n\n", "overloaded", 0},
		{"comments only", ": keep-alive\n\n: keep-alive\n\n", "without data: [DONE]", 502},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			up := proxytest.New(t, proxytest.Script{Raw: tc.raw})
			_, base := startProxy(t, up.URL, proxy.Annotate)
			got := readStream(t, base, structuredParams(1))
			if got.err == nil || !strings.Contains(errText(got.err), tc.want) {
				t.Fatalf("client error %v, want one saying %q", got.err, tc.want)
			}
			var apierr *openai.Error
			if tc.status != 0 && (!errors.As(got.err, &apierr) || apierr.StatusCode != tc.status) {
				t.Errorf("error %v, want status %d", got.err, tc.status)
			}
		})
	}
}

func TestRequestLimitsAndSecurity(t *testing.T) {
	t.Parallel()
	up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{{Content: `{"city":"Paris","temperature":1,"unit":"c"}`}}})
	_, base := startProxy(t, up.URL, proxy.Annotate, func(o *proxy.Options) { o.MaxBodyBytes = 2048 })

	// Oversized body: 413 problem, nothing forwarded.
	big := `{"model":"m","messages":[{"role":"user","content":"` + strings.Repeat("a", 4096) + `"}]}`
	resp, err := http.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(big))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var p api.Problem
	if resp.StatusCode != 413 || json.Unmarshal(b, &p) != nil || p.Code != api.CodeBodyTooLarge || resp.Header.Get("Content-Type") != api.MediaTypeProblem {
		t.Errorf("oversized body: %d %s", resp.StatusCode, b)
	}
	// Not JSON: 400 problem.
	resp, err = http.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(`{"n": "two"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(b), "n must be") {
		t.Errorf("bad n: %d %s", resp.StatusCode, b)
	}
	// Not an object: 400 about the body.
	resp, err = http.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(`[]`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(b), "not a JSON object") {
		t.Errorf("array body: %d %s", resp.StatusCode, b)
	}
	if len(up.AuthSeen()) != 0 {
		t.Errorf("refused requests reached the upstream")
	}
	// The client's key reaches the upstream, and only it.
	got := readStream(t, base, structuredParams(1))
	if got.err != nil || got.report == nil || !got.report.Valid {
		t.Fatalf("valid answer: %v %+v", got.err, got.report)
	}
	if a := up.AuthSeen(); len(a) != 1 || a[0] != "Bearer "+testKey {
		t.Errorf("upstream saw Authorization %q", a)
	}
	// Metrics count the check.
	resp, err = http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !regexp.MustCompile(`judge_proxy_checks_total\{early="false",kind="content",valid="true"\} 1`).Match(b) {
		t.Errorf("metrics lack the check:\n%s", grepLines(string(b), "judge_proxy"))
	}
}

// An upstream that cannot be reached is a 502 that says so.
func TestUpstreamUnreachable(t *testing.T) {
	t.Parallel()
	gone := httptest.NewServer(http.NotFoundHandler())
	url := gone.URL
	gone.Close()
	_, base := startProxy(t, url, proxy.Annotate)
	c := newClient(base)
	_, err := c.Chat.Completions.New(context.Background(), structuredParams(1))
	var apierr *openai.Error
	if !errors.As(err, &apierr) || apierr.StatusCode != http.StatusBadGateway || !strings.Contains(apierr.Message, "could not be reached") {
		t.Errorf("error %v, want 502 saying the upstream could not be reached", errText(err))
	}
}

// A redirect of the upstream is not followed: the request and its key go
// to the configured URL and nowhere else.
func TestRedirectNotFollowed(t *testing.T) {
	t.Parallel()
	elsewhere := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{{Content: `{}`}}})
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/v1/chat/completions", http.StatusTemporaryRedirect)
	}))
	defer redirector.Close()
	_, base := startProxy(t, redirector.URL, proxy.Annotate)
	c := newClient(base)
	_, err := c.Chat.Completions.New(context.Background(), structuredParams(1))
	var apierr *openai.Error
	if !errors.As(err, &apierr) || apierr.StatusCode != http.StatusBadGateway || !strings.Contains(errText(err), "redirect") {
		t.Errorf("error %v, want 502 saying the upstream redirected", err)
	}
	if len(elsewhere.AuthSeen()) != 0 {
		t.Errorf("the redirect was followed")
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// errText is err's text with, for an API error, the message of its body.
func errText(err error) string {
	var apierr *openai.Error
	if errors.As(err, &apierr) {
		return err.Error() + ": " + apierr.Message
	}
	return err.Error()
}

// TestStopTokensExact checks the stop mode's token counts: a violation
// certain only at the finish_reason (the last tool call's arguments)
// leaves nothing to save, and with include_usage the upstream's usage is
// read after the cut: saved is exactly 0 and the completion tokens are the
// usage's, which reaches the client; a violation mid-content cancels the
// generation, and saved is the token cap's upper bound, labelled so.
func TestStopTokensExact(t *testing.T) {
	t.Parallel()
	usage := openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	cases := []struct {
		name      string
		script    proxytest.Script
		params    func(t *testing.T) openai.ChatCompletionNewParams
		wantExact bool
	}{
		{"finished before the cut", proxytest.Script{Choices: []proxytest.Choice{{Calls: airlineCalls[1:2]}}},
			func(t *testing.T) openai.ChatCompletionNewParams {
				p := toolParams(t)
				p.StreamOptions, p.MaxCompletionTokens = usage, openai.Int(500)
				return p
			}, true},
		{"cut mid-content", proxytest.Script{Choices: []proxytest.Choice{{Content: `{"city":"Paris","temperature":"warm","unit":"c"}`}}},
			func(*testing.T) openai.ChatCompletionNewParams {
				p := structuredParams(1)
				p.StreamOptions, p.MaxCompletionTokens = usage, openai.Int(500)
				return p
			}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			up := proxytest.New(t, tc.script)
			_, base := startProxy(t, up.URL, proxy.Stop)
			got := readStream(t, base, tc.params(t))
			if got.err != nil {
				t.Fatal(got.err)
			}
			r := got.report
			if r == nil || r.Valid || !r.Stopped || r.Tokens.Saved == nil {
				t.Fatalf("report %+v", r)
			}
			tok := r.Tokens
			if tok.SavedExact != tc.wantExact {
				t.Errorf("saved_exact %v, want %v (%+v)", tok.SavedExact, tc.wantExact, tok)
			}
			bound := "upper"
			if tc.wantExact {
				bound = "exact"
				if *tok.Saved != 0 || tok.Estimated || tok.Completion <= 0 || got.usage != tok.Completion {
					t.Errorf("tokens %+v, client usage %d: want saved 0 and the upstream's usage, received", tok, got.usage)
				}
			} else if *tok.Saved != 500-tok.Completion || !tok.Estimated || got.usage != 0 {
				t.Errorf("tokens %+v, client usage %d: want the cap's upper bound, estimated, no usage", tok, got.usage)
			}
			resp, err := http.Get(base + "/metrics")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			want := `judge_proxy_tokens_saved_total{bound="` + bound + `"} ` + strconv.FormatInt(*tok.Saved, 10) + "\n"
			if !strings.Contains(string(body), want) {
				t.Errorf("/metrics lacks %q", want)
			}
		})
	}
}
