package clienttest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/agentjudge/judge/proxy"
	"github.com/agentjudge/judge/proxy/proxytest"
)

func responsesStructured() responses.ResponseNewParams {
	return responses.ResponseNewParams{
		Model: shared.ResponsesModel(proxytest.Model),
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("The weather in Paris, as JSON.")},
		Text: responses.ResponseTextConfigParam{Format: responses.ResponseFormatTextConfigUnionParam{
			OfJSONSchema: &responses.ResponseFormatTextJSONSchemaConfigParam{Name: "weather", Schema: weatherSchema, Strict: openai.Bool(true)}}},
	}
}

// responsesAirlineTools returns tau-bench's airline tool definitions as
// the Responses API's function tools.
func responsesAirlineTools(t testing.TB) []responses.ToolUnionParam {
	t.Helper()
	defs := airlineDefs(t)
	var tools []responses.ToolUnionParam
	for _, d := range defs {
		tool := responses.ToolParamOfFunction(d.Function.Name, d.Function.Parameters, false)
		tool.OfFunction.Description = openai.String(d.Function.Description)
		tools = append(tools, tool)
	}
	// A built-in tool beside them: run by OpenAI, not checked by judge.
	tools = append(tools, responses.ToolUnionParam{OfWebSearch: &responses.WebSearchToolParam{Type: responses.WebSearchToolTypeWebSearch}})
	return tools
}

func responsesToolParams(t testing.TB) responses.ResponseNewParams {
	return responses.ResponseNewParams{
		Model: shared.ResponsesModel(proxytest.Model),
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Book SFO to JFK for sara_doe_496.")},
		Tools: responsesAirlineTools(t),
	}
}

// responsesRead is what a client read of one streamed Responses answer.
type responsesRead struct {
	types    []string
	text     string
	args     map[int64]string
	done     map[int64]string // function calls' arguments by output index, from output_item.done
	terminal responses.Response
	report   *proxy.Report
	seq      []int64
	err      error
}

func readResponses(t testing.TB, base string, params responses.ResponseNewParams) *responsesRead {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := newClient(base)
	s := c.Responses.NewStreaming(ctx, params)
	out := &responsesRead{args: map[int64]string{}, done: map[int64]string{}}
	for s.Next() {
		ev := s.Current()
		out.types = append(out.types, ev.Type)
		out.seq = append(out.seq, ev.SequenceNumber)
		switch v := ev.AsAny().(type) {
		case responses.ResponseTextDeltaEvent:
			out.text += v.Delta
		case responses.ResponseFunctionCallArgumentsDeltaEvent:
			out.args[v.OutputIndex] += v.Delta
		case responses.ResponseOutputItemDoneEvent:
			if v.Item.Type == "function_call" {
				out.done[v.OutputIndex] = v.Item.Arguments.OfString
			}
		case responses.ResponseCompletedEvent:
			out.terminal = v.Response
		case responses.ResponseIncompleteEvent:
			out.terminal = v.Response
		}
		if ev.Type == proxy.EventValidation {
			var ve proxy.ValidationEvent
			if err := json.Unmarshal([]byte(ev.RawJSON()), &ve); err != nil || ve.Judge == nil {
				t.Fatalf("judge.validation event: %v\n%s", err, ev.RawJSON())
			}
			if out.report != nil {
				t.Errorf("two judge.validation events")
			}
			out.report = ve.Judge
		}
	}
	out.err = s.Err()
	if ctx.Err() != nil {
		t.Fatalf("the stream hung: %v", ctx.Err())
	}
	return out
}

// checkSequence checks that the sequence numbers a client read rise by
// one from 0, the proxy's own events included.
func checkSequence(t *testing.T, seq []int64) {
	t.Helper()
	for i, n := range seq {
		if n != int64(i) {
			t.Fatalf("sequence numbers %v: event %d has %d", seq, i, n)
		}
	}
}

func TestResponsesStructuredStream(t *testing.T) {
	t.Parallel()
	const valid = `{"city":"Paris","temperature":21.5,"unit":"c"}`
	cases := []struct {
		name, content string
		wantValid     bool
		// early: the content's watch reports the violation from a delta
		// (Feed), the delta that made it certain withheld by stop; cut:
		// before the content's last byte, so stop must cancel the
		// upstream while it still generates.
		early, cut bool
		loc        string
	}{
		{"valid", valid, true, false, false, ""},
		{"wrong type", `{"city":"Paris","temperature":"warm and sunny all day long","unit":"c"}`, false, true, true, "temperature"},
		{"enum miss", `{"city":"Paris","temperature":21.5,"unit":"kelvin"}`, false, true, true, "unit"},
		{"missing required", `{"city":"Paris","unit":"c"}`, false, true, false, "temperature"},
		{"not JSON", `{"city":"Paris","temperature":21`, false, false, false, "line:1"},
	}
	for _, tc := range cases {
		for _, mode := range []proxy.Mode{proxy.Pass, proxy.Annotate, proxy.Stop} {
			t.Run(tc.name+"/"+string(mode), func(t *testing.T) {
				t.Parallel()
				sc := proxytest.Script{Choices: []proxytest.Choice{{Content: tc.content}}}
				all := len(proxytest.ResponseEventsOf(sc, nil))
				if mode == proxy.Stop && tc.cut {
					// Hold before the last delta: the violation is
					// certain earlier, and the proxy must cancel.
					sc.HoldAfter = 4 + len(proxytest.Split(tc.content, 4)) - 1
				}
				up := proxytest.New(t, sc)
				_, base := startProxy(t, up.URL, mode)
				got := readResponses(t, base, responsesStructured())
				if got.err != nil {
					t.Fatalf("stream error: %v", got.err)
				}
				checkSequence(t, got.seq)
				if mode == proxy.Pass {
					if got.report != nil || got.text != tc.content || got.terminal.Status != "completed" || len(got.types) != all {
						t.Errorf("pass changed the answer: %q %q, %d events of %d", got.text, got.terminal.Status, len(got.types), all)
					}
					return
				}
				r := got.report
				if r == nil {
					t.Fatal("no judge.validation event")
				}
				if got.types[len(got.types)-1] != proxy.EventValidation {
					t.Errorf("the judge.validation event is not the last: %v", got.types)
				}
				if r.Valid != tc.wantValid || len(r.Checks) != 1 || r.Checks[0].Kind != "content" {
					t.Fatalf("report valid=%v checks=%+v, want valid=%v and one content check", r.Valid, r.Checks, tc.wantValid)
				}
				if !tc.wantValid && !hasIssueAt(r, tc.loc) {
					t.Errorf("no error at %q: %+v", tc.loc, r.Checks[0].Result.Issues)
				}
				if r.Checks[0].Early != tc.early {
					t.Errorf("early=%v, want %v (at %d of %d bytes)", r.Checks[0].Early, tc.early, r.Checks[0].At, len(tc.content))
				}
				if mode == proxy.Annotate || tc.wantValid {
					if got.text != tc.content || got.terminal.Status != "completed" || len(got.types) != all+1 || r.Stopped {
						t.Errorf("annotate changed the answer: %q %q, %d events of %d+1", got.text, got.terminal.Status, len(got.types), all)
					}
					if r.Tokens.Estimated || r.Tokens.Completion != int64(len(proxytest.Split(tc.content, 4))) {
						t.Errorf("tokens %+v, want the usage's", r.Tokens)
					}
					return
				}
				// stop, invalid
				if !r.Stopped || got.terminal.Status != "incomplete" || got.terminal.IncompleteDetails.Reason != "content_filter" ||
					!strings.Contains(r.RepairText, "response schema") {
					t.Errorf("stop: stopped=%v status %q reason %q repair %q", r.Stopped, got.terminal.Status, got.terminal.IncompleteDetails.Reason, r.RepairText)
				}
				if tail := got.types[len(got.types)-2:]; tail[0] != "response.incomplete" || tail[1] != proxy.EventValidation {
					t.Errorf("the stream ends with %v", tail)
				}
				if tc.cut {
					select {
					case <-up.Cancelled:
					case <-time.After(15 * time.Second):
						t.Fatal("the proxy did not cancel the upstream's request")
					}
				}
				if tc.early {
					if len(got.text) >= len(tc.content) || !strings.HasPrefix(tc.content, got.text) || len(got.terminal.Output) != 0 {
						t.Errorf("text %q, %d output items, want a strict prefix of %q and none", got.text, len(got.terminal.Output), tc.content)
					}
					if r.Tokens.SavedExact || r.Tokens.Saved != nil {
						t.Errorf("tokens %+v: nothing is known of what was saved without a cap", r.Tokens)
					}
					return
				}
				// Certain only when the response ended: the model had
				// finished, the usage says what it wrote, nothing saved.
				if got.text != tc.content || r.Tokens.Estimated || !r.Tokens.SavedExact || r.Tokens.Saved == nil || *r.Tokens.Saved != 0 {
					t.Errorf("text %q, tokens %+v, want all text and saved exactly 0", got.text, r.Tokens)
				}
				if got.terminal.Usage.OutputTokens != r.Tokens.Completion || len(got.terminal.Output) != 1 {
					t.Errorf("response.incomplete: usage %d output %d items, want the completed response's", got.terminal.Usage.OutputTokens, len(got.terminal.Output))
				}
			})
		}
	}
}

// TestResponsesBytesIdentical posts as a raw client and compares bytes: in
// pass, and in annotate for a valid answer, what the client reads begins
// with exactly what the upstream sent.
func TestResponsesBytesIdentical(t *testing.T) {
	t.Parallel()
	for _, sc := range []proxytest.Script{
		{Choices: []proxytest.Choice{{Content: `{"city":"Paris","temperature":21.5,"unit":"c"}`}}},
		{Choices: []proxytest.Choice{{Content: "", Calls: airlineCalls[:1]}}, Fragment: 3},
	} {
		for _, mode := range []proxy.Mode{proxy.Pass, proxy.Annotate} {
			t.Run(string(mode), func(t *testing.T) {
				t.Parallel()
				up := proxytest.New(t, sc)
				_, base := startProxy(t, up.URL, mode)
				tools := `[{"type":"function","name":"get_user_details","parameters":{"type":"object","properties":{"user_id":{"type":"string"}},"required":["user_id"]}}]`
				body := `{"model":"gpt-4o","input":"hi","stream":true,"tools":` + tools +
					`,"text":{"format":{"type":"json_schema","name":"w","strict":true,"schema":{"type":"object"}}}}`
				req, _ := http.NewRequest(http.MethodPost, base+"/v1/responses", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				got, _ := io.ReadAll(resp.Body)
				want := strings.Join(proxytest.ResponseEventsOf(sc, []byte(body)), "")
				if mode == proxy.Pass && string(got) != want {
					t.Fatalf("pass is not byte-identical:\n got %q\nwant %q", got, want)
				}
				rest, ok := bytes.CutPrefix(got, []byte(want))
				if !ok {
					t.Fatalf("annotate changed the upstream's bytes:\n%s", got)
				}
				if mode == proxy.Annotate && (!bytes.HasPrefix(rest, []byte("event: judge.validation\ndata: {\"type\":\"judge.validation\"")) || !bytes.Contains(rest, []byte(`"valid":true`))) {
					t.Errorf("annotate appended %q", rest)
				}
			})
		}
	}
}

// TestResponsesEndAtTerminal checks that the answer ends with its
// terminal event: a data: [DONE] after it is not forwarded, and an
// upstream that does not close after it keeps no client waiting (its
// request is cancelled).
func TestResponsesEndAtTerminal(t *testing.T) {
	t.Parallel()
	sc := proxytest.Script{Choices: []proxytest.Choice{{Content: `{"city":"Paris","temperature":21.5,"unit":"c"}`}}}
	n := len(proxytest.ResponseEventsOf(sc, nil))
	done := sc
	done.Raw = strings.Join(proxytest.ResponseEventsOf(sc, nil), "") + "data: [DONE]\n\n"
	held := sc
	held.HoldAfter = n
	for name, sc := range map[string]proxytest.Script{"done": done, "held open": held} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			up := proxytest.New(t, sc)
			_, base := startProxy(t, up.URL, proxy.Annotate)
			got := readResponses(t, base, responsesStructured())
			if got.err != nil || got.report == nil || !got.report.Valid || len(got.types) != n+1 || got.types[n] != proxy.EventValidation {
				t.Fatalf("err %v, report %+v, events %v", got.err, got.report, got.types)
			}
			if sc.HoldAfter > 0 {
				select {
				case <-up.Cancelled:
				case <-time.After(15 * time.Second):
					t.Fatal("the upstream held open was not cancelled")
				}
			}
		})
	}
}

// TestResponsesSavedUpperBound: a stop mid-text with max_output_tokens
// reports the cap less the tokens read as the upper bound of what it
// saved, and /metrics counts it as such.
func TestResponsesSavedUpperBound(t *testing.T) {
	t.Parallel()
	content := `{"city":"Paris","temperature":"warm and sunny all day long","unit":"c"}`
	sc := proxytest.Script{Choices: []proxytest.Choice{{Content: content}}}
	sc.HoldAfter = 4 + len(proxytest.Split(content, 4)) - 1
	up := proxytest.New(t, sc)
	_, base := startProxy(t, up.URL, proxy.Stop)
	params := responsesStructured()
	params.MaxOutputTokens = openai.Int(500)
	got := readResponses(t, base, params)
	if got.err != nil || got.report == nil || !got.report.Stopped {
		t.Fatalf("err %v report %+v", got.err, got.report)
	}
	tk := got.report.Tokens
	if !tk.Estimated || tk.SavedExact || tk.Saved == nil || *tk.Saved != 500-tk.Completion || tk.Completion != int64(len(proxytest.Split(got.text, 4))+1) {
		t.Errorf("tokens %+v for %d bytes of text sent", tk, len(got.text))
	}
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if want := fmt.Sprintf(`judge_proxy_tokens_saved_total{bound="upper"} %d`, *tk.Saved); !strings.Contains(string(b), want) {
		t.Errorf("/metrics lacks %q:\n%s", want, grepLines(string(b), "judge_proxy"))
	}
}

func TestResponsesFunctionCallsStream(t *testing.T) {
	t.Parallel()
	for _, mode := range []proxy.Mode{proxy.Pass, proxy.Annotate, proxy.Stop} {
		t.Run(string(mode), func(t *testing.T) {
			t.Parallel()
			sc := proxytest.Script{Choices: []proxytest.Choice{{Calls: airlineCalls}}, Fragment: 7}
			if mode == proxy.Stop {
				// Hold after the third call's output_item.added: the
				// second is complete then, and the proxy must cancel.
				sc.HoldAfter = 2 + (1 + len(proxytest.Split(airlineCalls[0].Args, 7)) + 2) + (1 + len(proxytest.Split(airlineCalls[1].Args, 7)) + 2) + 1
			}
			up := proxytest.New(t, sc)
			_, base := startProxy(t, up.URL, mode)
			got := readResponses(t, base, responsesToolParams(t))
			if got.err != nil {
				t.Fatalf("stream error: %v", got.err)
			}
			checkSequence(t, got.seq)
			if mode == proxy.Stop {
				select {
				case <-up.Cancelled:
				case <-time.After(15 * time.Second):
					t.Fatal("the proxy did not cancel the upstream's request")
				}
				r := got.report
				if r == nil || !r.Stopped || r.Valid || got.terminal.Status != "incomplete" {
					t.Fatalf("stop: report %+v status %q", r, got.terminal.Status)
				}
				if len(r.Checks) != 2 || !r.Checks[0].Result.Valid || r.Checks[1].Result.Valid || r.Checks[1].ToolCall.Name != "book_reservation" ||
					r.Checks[1].ToolCall.ID != proxytest.CallID(1) || r.Checks[1].ToolCall.Index != 1 {
					t.Fatalf("checks %+v", r.Checks)
				}
				if !strings.Contains(r.RepairText, "book_reservation") || !strings.Contains(r.RepairText, "cabin") || !strings.Contains(r.RepairText, "passengers") {
					t.Errorf("repair text does not name the tool and its faults:\n%s", r.RepairText)
				}
				// The invalid call's end (its arguments.done) is not
				// forwarded: the client holds the first call done and the
				// second one's deltas, and the incomplete response lists
				// only the first.
				if len(got.done) != 1 || got.done[0] != airlineCalls[0].Args || got.args[1] != airlineCalls[1].Args || len(got.terminal.Output) != 1 {
					t.Errorf("done %v, args %v, output %d items", got.done, got.args, len(got.terminal.Output))
				}
				resp, err := http.Get(base + "/metrics")
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				for _, want := range []string{`judge_http_requests_total{code="200",method="POST",route="/v1/responses"} 1`, "judge_proxy_stops_total 1",
					`judge_proxy_checks_total{early="false",kind="tool_call",valid="false"} 1`, `judge_proxy_checks_total{early="false",kind="tool_call",valid="true"} 1`} {
					if !strings.Contains(string(b), want) {
						t.Errorf("/metrics lacks %q:\n%s", want, grepLines(string(b), "judge_"))
					}
				}
				return
			}
			if len(got.done) != 3 || got.terminal.Status != "completed" {
				t.Fatalf("the client read %d calls, status %q", len(got.done), got.terminal.Status)
			}
			for i, c := range airlineCalls {
				if got.done[int64(i)] != c.Args || got.args[int64(i)] != c.Args {
					t.Errorf("call %d read as %q", i, got.done[int64(i)])
				}
			}
			if mode == proxy.Pass {
				if got.report != nil {
					t.Error("pass added a judge.validation event")
				}
				return
			}
			r := got.report
			if r == nil || r.Valid || r.Stopped || len(r.Checks) != 3 || r.Checks[1].Result.Valid || !hasIssueAt(r, "cabin") || r.Tokens.Estimated {
				t.Fatalf("annotate: report %+v", r)
			}
			if r.Tokens.AfterViolation != int64(len(proxytest.Split(airlineCalls[2].Args, 7))) {
				t.Errorf("after_violation %d, want the third call's deltas", r.Tokens.AfterViolation)
			}
		})
	}
}

func TestResponsesNonStreaming(t *testing.T) {
	t.Parallel()
	for _, mode := range []proxy.Mode{proxy.Pass, proxy.Annotate, proxy.Stop} {
		t.Run(string(mode), func(t *testing.T) {
			t.Parallel()
			up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{{Calls: airlineCalls}}})
			_, base := startProxy(t, up.URL, mode)
			c := newClient(base)
			res, err := c.Responses.New(context.Background(), responsesToolParams(t))
			if err != nil {
				t.Fatal(err)
			}
			if n := len(res.Output); n != 3 || res.Output[1].Name != "book_reservation" {
				t.Fatalf("%d output items", n)
			}
			f, ok := res.JSON.ExtraFields["judge"]
			if mode == proxy.Pass {
				if ok || res.Status != "completed" {
					t.Errorf("pass changed the answer")
				}
				return
			}
			var r proxy.Report
			if !ok || json.Unmarshal([]byte(f.Raw()), &r) != nil {
				t.Fatalf("no judge member")
			}
			if r.Valid || len(r.Checks) != 3 || !hasIssueAt(&r, "cabin") || r.Tokens.Estimated || r.Checks[1].ToolCall.ID != proxytest.CallID(1) {
				t.Errorf("report %+v", r)
			}
			want := "completed"
			if mode == proxy.Stop {
				want = "incomplete"
				if res.IncompleteDetails.Reason != "content_filter" {
					t.Errorf("incomplete_details %+v", res.IncompleteDetails)
				}
			}
			if res.Status != responses.ResponseStatus(want) {
				t.Errorf("status %q, want %q", res.Status, want)
			}
		})
	}
	t.Run("structured", func(t *testing.T) {
		t.Parallel()
		up := proxytest.New(t, proxytest.Script{Choices: []proxytest.Choice{{Content: `{"city":"Paris","temperature":"warm","unit":"c"}`}}})
		_, base := startProxy(t, up.URL, proxy.Stop)
		c := newClient(base)
		res, err := c.Responses.New(context.Background(), responsesStructured())
		if err != nil {
			t.Fatal(err)
		}
		var r proxy.Report
		if err := json.Unmarshal([]byte(res.JSON.ExtraFields["judge"].Raw()), &r); err != nil {
			t.Fatal(err)
		}
		if r.Valid || len(r.Checks) != 1 || r.Checks[0].Kind != "content" || !hasIssueAt(&r, "temperature") || res.Status != "incomplete" {
			t.Errorf("report %+v status %q", r, res.Status)
		}
		if res.OutputText() != `{"city":"Paris","temperature":"warm","unit":"c"}` {
			t.Errorf("the answer's text changed: %q", res.OutputText())
		}
	})
}

func TestResponsesErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		sc   proxytest.Script
		want string
	}{
		{"upstream status", proxytest.Script{Status: 429, Body: `{"error":{"message":"upstream says slow down","type":"rate_limit","param":null,"code":"x"}}`}, "upstream says slow down"},
		{"cut before completed", proxytest.Script{Raw: "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"r\"}}\n\n"}, "terminal event"},
		{"delta for no call", proxytest.Script{Raw: "event: response.function_call_arguments.delta\ndata: {\"type\":\"response.function_call_arguments.delta\",\"sequence_number\":0,\"output_index\":3,\"item_id\":\"fc\",\"delta\":\"{\"}\n\n"}, "no function_call item began"},
		{"malformed mid-stream", proxytest.Script{Raw: proxytest.ResponseEventsOf(proxytest.Script{}, nil)[0] + "event: response.output_text.delta\ndata: {oops\n\n"}, "not a Responses API event"},
		{"upstream error event", proxytest.Script{Raw: "event: error\ndata: {\"type\":\"error\",\"sequence_number\":0,\"code\":\"server_error\",\"message\":\"model overloaded\",\"param\":null}\n\n"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			up := proxytest.New(t, tc.sc)
			_, base := startProxy(t, up.URL, proxy.Stop)
			got := readResponses(t, base, responsesToolParams(t))
			if tc.want == "" {
				// The upstream's error event passes as it came.
				if got.err != nil || len(got.types) != 1 || got.types[0] != "error" {
					t.Errorf("err %v, events %v", got.err, got.types)
				}
				return
			}
			if got.err == nil || !strings.Contains(errText(got.err), tc.want) {
				t.Errorf("err %v, want one saying %q", got.err, tc.want)
			}
		})
	}
	t.Run("bad request", func(t *testing.T) {
		t.Parallel()
		up := proxytest.New(t, proxytest.Script{})
		_, base := startProxy(t, up.URL, proxy.Stop)
		body := `{"model":"m","input":"x","tools":[{"type":"function","name":"f","parameters":"nope"}]}`
		resp, err := http.Post(base+"/v1/responses", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "tools[0]") || len(up.AuthSeen()) != 0 {
			t.Errorf("%d %s (upstream saw %d requests)", resp.StatusCode, b, len(up.AuthSeen()))
		}
	})
}
