package clienttest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/proxy"
	"github.com/agentjudge/judge/proxy/proxytest"
	"github.com/agentjudge/judge/toolcall"
)

// responsesCase is one replayed Responses answer: structured text
// against a tool's parameters as text.format's schema, or function calls
// against the domain's tools.
type responsesCase struct {
	kind    string // "text" or "calls"
	tool    string // the schema's tool, for text
	content string
	calls   []proxytest.ToolCall
	how     string // "" for a recorded document
}

// stopRead is what a raw client read of one stopped (or not) stream.
type stopRead struct {
	events, bytes int // the upstream's events and bytes forwarded
	report        *proxy.Report
}

// postStop posts body to base's /v1/responses and splits what came back
// into the upstream's events forwarded and judge's own.
func postStop(t *testing.T, base string, body []byte) stopRead {
	t.Helper()
	resp, err := http.Post(base+"/v1/responses", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %v %s", resp.StatusCode, err, b)
	}
	var r stopRead
	fwd := b
	if i := bytes.Index(b, []byte("event: response.incomplete\n")); i >= 0 {
		fwd = b[:i]
	} else if i := bytes.Index(b, []byte("event: "+proxy.EventValidation+"\n")); i >= 0 {
		fwd = b[:i]
	}
	r.bytes, r.events = len(fwd), bytes.Count(fwd, []byte("event: "))
	i := bytes.LastIndex(b, []byte("data: {\"type\":\""+proxy.EventValidation))
	if i < 0 {
		t.Fatalf("no judge.validation event in %q", b)
	}
	var ve proxy.ValidationEvent
	if err := json.Unmarshal(bytes.TrimSpace(b[i+len("data: "):]), &ve); err != nil {
		t.Fatal(err)
	}
	r.report = ve.Judge
	return r
}

// TestResponsesAirlineStop replays the recorded tau-bench airline calls
// as Responses API streams through the proxy in the stop mode: each
// call's arguments as structured text against its tool's parameters as
// text.format's schema (as recorded and mutated: a wrong type, an enum
// miss, a missing required parameter, an unknown key), and each mutated
// call followed by the conversation's next call as function calls. It
// checks that no recorded document is stopped and every mutated call is,
// that annotate's verdict on every call is the pre-execution check's on
// the whole call,
// and logs how many of the upstream's events, bytes and output tokens
// the stop kept from the client (docs/proxy.md quotes them).
func TestResponsesAirlineStop(t *testing.T) {
	if testing.Short() {
		t.Skip("replays about 1,600 answers; skipped with -short")
	}
	t.Parallel()
	toolsJSON, convs := sharedtest.AirlineTraces(t)
	var rawTools []map[string]any
	if err := json.Unmarshal(toolsJSON, &rawTools); err != nil {
		t.Fatal(err)
	}
	params := map[string]map[string]any{}
	var tools []any
	for _, rt := range rawTools {
		fn := rt["function"].(map[string]any)
		ps, _ := fn["parameters"].(map[string]any)
		params[fn["name"].(string)] = ps
		tools = append(tools, map[string]any{"type": "function", "name": fn["name"], "description": fn["description"], "parameters": ps})
	}
	var cases []responsesCase
	turn := 0
	for _, conv := range convs {
		var recorded []proxytest.ToolCall
		for _, m := range conv {
			for _, tc := range m.ToolCalls {
				recorded = append(recorded, proxytest.ToolCall{Name: tc.Function.Name, Args: tc.Function.Arguments})
			}
		}
		for i, call := range recorded {
			cases = append(cases, responsesCase{kind: "text", tool: call.Name, content: call.Args},
				responsesCase{kind: "calls", calls: []proxytest.ToolCall{call}})
			var args map[string]any
			if json.Unmarshal([]byte(call.Args), &args) != nil {
				continue
			}
			bad, how := mutate(params[call.Name], args, turn)
			turn++
			if how == "" {
				continue
			}
			cases = append(cases, responsesCase{kind: "text", tool: call.Name, content: bad, how: how})
			if i+1 < len(recorded) {
				cases = append(cases, responsesCase{kind: "calls", calls: []proxytest.ToolCall{{Name: call.Name, Args: bad}, recorded[i+1]}, how: how})
			}
		}
	}
	script := func(c responsesCase) proxytest.Script {
		if c.kind == "text" {
			return proxytest.Script{Choices: []proxytest.Choice{{Content: c.content}}}
		}
		return proxytest.Script{Choices: []proxytest.Choice{{Calls: c.calls}}}
	}
	up := proxytest.NewFunc(t, func(body []byte) proxytest.Script {
		var req struct{ Input string }
		_ = json.Unmarshal(body, &req)
		i, _ := strconv.Atoi(req.Input)
		return script(cases[i])
	})
	_, base := startProxy(t, up.URL, proxy.Stop)
	_, annotate := startProxy(t, up.URL, proxy.Annotate)
	checker, err := toolcall.New()
	if err != nil {
		t.Fatal(err)
	}
	defs, err := toolcall.ParseDefinitions(toolsJSON, "tools")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := checker.NewToolset(defs...)
	if err != nil {
		t.Fatal(err)
	}
	agree, disagree := 0, 0

	type tally struct{ n, stopped, early, events, allEvents, bytes, allBytes, tokens, allTokens int }
	sums := map[string]*tally{}
	var atShare []float64
	falseStops := 0
	for i, c := range cases {
		req := map[string]any{"model": proxytest.Model, "input": strconv.Itoa(i), "stream": true}
		if c.kind == "text" {
			req["text"] = map[string]any{"format": map[string]any{"type": "json_schema", "name": c.tool, "schema": params[c.tool]}}
		} else {
			req["tools"] = tools
		}
		body, _ := json.Marshal(req)
		got := postStop(t, base, body)
		full := proxytest.ResponseEventsOf(script(c), body)
		if c.kind == "calls" {
			// annotate checks every call: each verdict must be the
			// pre-execution check's on the whole call.
			an := postStop(t, annotate, body)
			if len(an.report.Checks) != len(c.calls) {
				t.Fatalf("case %d: %d checks for %d calls", i, len(an.report.Checks), len(c.calls))
			}
			for k, call := range c.calls {
				want, err := ts.Check(context.Background(), toolcall.Call{Tool: call.Name, Arguments: json.RawMessage(call.Args)})
				if err != nil {
					t.Fatal(err)
				}
				if an.report.Checks[k].Result.Valid != want.Result.Valid {
					disagree++
					t.Errorf("case %d call %d (%s): proxy says valid=%v, the whole-call check %v", i, k, call.Name, an.report.Checks[k].Result.Valid, want.Result.Valid)
				} else {
					agree++
				}
			}
		}
		if c.how == "" {
			if got.report.Stopped || !got.report.Valid {
				falseStops++
				t.Errorf("case %d: a recorded document was stopped: %+v", i, got.report.Checks)
			}
			continue
		}
		key := c.kind + "/" + c.how
		s := sums[key]
		if s == nil {
			s = &tally{}
			sums[key] = s
		}
		s.n++
		if !got.report.Stopped {
			continue
		}
		s.stopped++
		var first *proxy.Verdict
		for _, v := range got.report.Checks {
			if !v.Result.Valid {
				first = v
				break
			}
		}
		if first != nil && first.Early && first.At < len(c.content) {
			s.early++
			atShare = append(atShare, float64(first.At)/float64(len(c.content)))
		}
		all := 0
		for _, ev := range full {
			all += len(ev)
		}
		tokens := 0
		if c.kind == "text" {
			tokens = len(proxytest.Split(c.content, 4))
		} else {
			for _, call := range c.calls {
				tokens += len(proxytest.Split(call.Args, 4))
			}
		}
		s.events += got.events
		s.allEvents += len(full)
		s.bytes += got.bytes
		s.allBytes += all
		s.tokens += int(got.report.Tokens.Completion)
		s.allTokens += tokens
	}
	if falseStops > 0 || disagree > 0 {
		t.Fatalf("%d recorded documents stopped, %d call verdicts differ from the whole-call check", falseStops, disagree)
	}
	t.Logf("call verdicts equal to the whole-call pre-execution check's: %d of %d", agree, agree+disagree)
	keys := make([]string, 0, len(sums))
	for k := range sums {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var tot tally
	for _, k := range keys {
		s := sums[k]
		t.Logf("%-28s stopped %3d/%3d, before the document's last byte %3d; events forwarded %5d/%5d (%.1f%%), bytes %7d/%7d (%.1f%%), output tokens %5d/%5d",
			k, s.stopped, s.n, s.early, s.events, s.allEvents, pct(s.events, s.allEvents), s.bytes, s.allBytes, pct(s.bytes, s.allBytes), s.tokens, s.allTokens)
		if strings.HasPrefix(k, "calls/") && s.stopped != s.n {
			t.Errorf("%s: %d of %d mutated calls not stopped", k, s.n-s.stopped, s.n)
		}
		tot.n += s.n
		tot.stopped += s.stopped
		tot.events += s.events
		tot.allEvents += s.allEvents
		tot.bytes += s.bytes
		tot.allBytes += s.allBytes
		tot.tokens += s.tokens
		tot.allTokens += s.allTokens
	}
	slices.Sort(atShare)
	median := 0.0
	if len(atShare) > 0 {
		median = atShare[len(atShare)/2]
	}
	t.Logf("all: stopped %d/%d; of the stopped answers' events %s, bytes %s, output tokens %s not sent; early verdicts' median share of the document read: %.2f",
		tot.stopped, tot.n, saved(tot.events, tot.allEvents), saved(tot.bytes, tot.allBytes), saved(tot.tokens, tot.allTokens), median)
}

func pct(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }

func saved(got, all int) string {
	return fmt.Sprintf("%d of %d (%.1f%%)", all-got, all, pct(all-got, all))
}
