package clienttest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/proxy"
	"github.com/agentjudge/judge/proxy/proxytest"
	"github.com/agentjudge/judge/toolcall"
)

// airlineCase is one replayed answer: its calls, which of them was
// mutated (-1 for none) and how.
type airlineCase struct {
	calls   []proxytest.ToolCall
	mutated int
	how     string
}

// mutate breaks args of tool (a recorded call) in one of four ways, by
// turn: a wrong type, an enum miss, a missing required parameter, an
// unknown key; "" when none applies (a call without parameters).
func mutate(tool map[string]any, args map[string]any, turn int) (string, string) {
	props, _ := tool["properties"].(map[string]any)
	req, _ := tool["required"].([]any)
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := func(m map[string]any) string {
		b, _ := json.Marshal(m)
		return string(b)
	}
	clone := func() map[string]any {
		m := make(map[string]any, len(args))
		for k, v := range args {
			m[k] = v
		}
		return m
	}
	for try := range 4 {
		switch (turn + try) % 4 {
		case 0: // wrong type
			for _, k := range keys {
				p, _ := props[k].(map[string]any)
				switch p["type"] {
				case "string":
					m := clone()
					m[k] = 12345
					return out(m), "wrong type"
				case "number", "integer", "array", "object":
					m := clone()
					m[k] = "twelve"
					return out(m), "wrong type"
				}
			}
		case 1: // enum miss
			for _, k := range keys {
				p, _ := props[k].(map[string]any)
				if _, ok := p["enum"]; ok {
					m := clone()
					m[k] = "premium_plus"
					return out(m), "enum miss"
				}
			}
		case 2: // missing required
			for _, r := range req {
				if k, _ := r.(string); k != "" {
					if _, ok := args[k]; ok {
						m := clone()
						delete(m, k)
						return out(m), "missing required"
					}
				}
			}
		case 3: // unknown key
			m := clone()
			m["note_for_agent"] = "rebook if needed"
			return out(m), "unknown key"
		}
	}
	return "", ""
}

// TestAirlineReplay replays every tool call of the 100 recorded tau-bench
// airline conversations as a streamed answer through the proxy, as
// recorded and mutated, and checks that the proxy's verdict on each call
// is the pre-execution check's on the whole call, that every mutated call
// is caught, and how many tokens the stop mode saves when the mutated call
// is followed by the conversation's next call in the same answer (a
// parallel call). It logs the figures docs/proxy.md quotes.
func TestAirlineReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 1,627 answers; skipped with -short")
	}
	t.Parallel()
	toolsJSON, convs := sharedtest.AirlineTraces(t)
	var rawTools []map[string]any
	if err := json.Unmarshal(toolsJSON, &rawTools); err != nil {
		t.Fatal(err)
	}
	params := map[string]map[string]any{}
	var tools []openai.ChatCompletionToolUnionParam
	for _, rt := range rawTools {
		fn := rt["function"].(map[string]any)
		ps, _ := fn["parameters"].(map[string]any)
		params[fn["name"].(string)] = ps
		desc, _ := fn["description"].(string)
		tools = append(tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: fn["name"].(string), Description: openai.String(desc), Parameters: ps}))
	}
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

	var cases []airlineCase
	turn := 0
	for _, conv := range convs {
		var recorded []proxytest.ToolCall
		for _, m := range conv {
			for _, tc := range m.ToolCalls {
				recorded = append(recorded, proxytest.ToolCall{Name: tc.Function.Name, Args: tc.Function.Arguments})
			}
		}
		for i, call := range recorded {
			cases = append(cases, airlineCase{calls: []proxytest.ToolCall{call}, mutated: -1})
			var args map[string]any
			if json.Unmarshal([]byte(call.Args), &args) != nil {
				continue
			}
			bad, how := mutate(params[call.Name], args, turn)
			turn++
			if how == "" {
				continue
			}
			cases = append(cases, airlineCase{calls: []proxytest.ToolCall{{Name: call.Name, Args: bad}}, mutated: 0, how: how})
			if i+1 < len(recorded) {
				cases = append(cases, airlineCase{calls: []proxytest.ToolCall{{Name: call.Name, Args: bad}, recorded[i+1]}, mutated: 0, how: how + " + next call"})
			}
		}
	}
	up := proxytest.NewFunc(t, func(body []byte) proxytest.Script {
		var req struct{ Messages []struct{ Content string } }
		_ = json.Unmarshal(body, &req)
		i, _ := strconv.Atoi(req.Messages[0].Content)
		return proxytest.Script{Choices: []proxytest.Choice{{Calls: cases[i].calls}}, Fragment: 4}
	})
	_, annotate := startProxy(t, up.URL, proxy.Annotate)
	_, stop := startProxy(t, up.URL, proxy.Stop)

	var (
		recordedN, recordedInvalid, mutatedN, caught, disagree int
		byHow                                                  = map[string][2]int{}
		pairTokens, pairSaved, pairAfter                       int64
		pairs                                                  int
	)
	for i, c := range cases {
		p := openai.ChatCompletionNewParams{Model: shared.ChatModel(proxytest.Model), Tools: tools,
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(strconv.Itoa(i))}}
		got := readStream(t, annotate, p)
		if got.err != nil || got.report == nil || len(got.report.Checks) != len(c.calls) {
			t.Fatalf("case %d: %v %+v", i, got.err, got.report)
		}
		for k, call := range c.calls {
			want, err := ts.Check(context.Background(), toolcall.Call{Tool: call.Name, Arguments: json.RawMessage(call.Args)})
			if err != nil {
				t.Fatal(err)
			}
			if got.report.Checks[k].Result.Valid != want.Result.Valid {
				disagree++
				t.Errorf("case %d call %d (%s): proxy says valid=%v, the whole-call check %v", i, k, call.Name, got.report.Checks[k].Result.Valid, want.Result.Valid)
			}
		}
		v := got.report.Checks[0].Result.Valid
		switch {
		case c.mutated < 0:
			recordedN++
			if !v {
				recordedInvalid++
			}
		case len(c.calls) == 1:
			mutatedN++
			h := byHow[c.how]
			h[0]++
			if !v {
				caught++
				h[1]++
			}
			byHow[c.how] = h
		default:
			// The stop mode on the same answer: what the cut saved.
			total := int64(0)
			for _, call := range c.calls {
				total += int64(len(proxytest.Split(call.Args, 4)))
			}
			st := readStream(t, stop, p)
			if st.err != nil || st.report == nil {
				t.Fatalf("case %d stop: %v", i, st.err)
			}
			if !st.report.Stopped {
				t.Errorf("case %d: the stop mode did not stop at the mutated call", i)
				continue
			}
			pairs++
			pairTokens += total
			pairSaved += total - st.report.Tokens.Completion
			pairAfter += got.report.Tokens.AfterViolation
		}
	}
	if disagree > 0 {
		t.Fatalf("%d verdicts differ from the whole-call check", disagree)
	}
	if caught != mutatedN {
		t.Errorf("caught %d of %d mutated calls", caught, mutatedN)
	}
	hows := make([]string, 0, len(byHow))
	for h := range byHow {
		hows = append(hows, h)
	}
	slices.Sort(hows)
	var per string
	for _, h := range hows {
		per += fmt.Sprintf(" %s %d/%d;", h, byHow[h][1], byHow[h][0])
	}
	t.Logf("recorded calls: %d, of which the pre-execution check finds %d invalid (the proxy agrees on every call)", recordedN, recordedInvalid)
	t.Logf("mutated calls caught: %d/%d (%.1f%%):%s", caught, mutatedN, 100*float64(caught)/float64(max(mutatedN, 1)), per)
	t.Logf("stop on a mutated call followed by a parallel call: %d answers, %d of %d completion tokens not read (%.1f%%); annotate counted %d tokens after the violation",
		pairs, pairSaved, pairTokens, 100*float64(pairSaved)/float64(max(pairTokens, 1)), pairAfter)
}
