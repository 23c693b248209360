package gateway_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/gateway"
	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/internal/sharedtest"
	"github.com/agentjudge/judge/toolcall"
)

// tauResult is one recorded call of the airline conversations with its
// answer, and the values the agent went on to use in its later calls.
type tauResult struct {
	tool, args, content string
	calls               int      // the calls made before this result's
	later               []string // string values of the agent's later calls' arguments
}

// tauResults reads the airline tools and every recorded tool result.
func tauResults(t *testing.T) ([]gateway.Tool, []tauResult) {
	t.Helper()
	data, convs := sharedtest.AirlineTraces(t)
	var defs []struct {
		Function struct {
			Name, Description string
			Parameters        json.RawMessage
		}
	}
	if err := json.Unmarshal(data, &defs); err != nil {
		t.Fatal(err)
	}
	var tools []gateway.Tool
	for _, d := range defs {
		tools = append(tools, gateway.Tool{Name: d.Function.Name, Description: d.Function.Description, InputSchema: d.Function.Parameters})
	}
	var out []tauResult
	for _, c := range convs {
		first := len(out)
		pending := map[string]tauResult{}
		var used [][]string // the string arguments of each call, in order
		for _, m := range c {
			switch m.Role {
			case "assistant":
				for _, tc := range m.ToolCalls {
					pending[tc.ID] = tauResult{tool: tc.Function.Name, args: tc.Function.Arguments}
					used = append(used, stringLeaves(tc.Function.Arguments))
				}
			case "tool":
				if r, ok := pending[m.ToolCallID]; ok {
					r.content, r.calls = m.Content, len(used)
					out = append(out, r)
				}
			}
		}
		for i := first; i < len(out); i++ {
			for _, u := range used[out[i].calls:] {
				out[i].later = append(out[i].later, u...)
			}
		}
	}
	return tools, out
}

// stringLeaves are the string values of a JSON document, 4 characters or
// longer (ids, flight numbers; not "yes" or "no").
func stringLeaves(doc string) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if len(x) >= 4 {
				out = append(out, x)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	var v any
	if json.Unmarshal([]byte(doc), &v) == nil {
		walk(v)
	}
	return out
}

// idArgs are the values of a call's identifying arguments (id, *_id), as
// toolcall's compaction reads them.
func idArgs(args string) []string {
	var m map[string]any
	_ = json.Unmarshal([]byte(args), &m)
	var out []string
	for k, v := range m {
		if s, ok := v.(string); ok && s != "" && (k == "id" || strings.HasSuffix(k, "_id")) {
			out = append(out, s)
		}
	}
	return out
}

// replay answers each call with the recorded answer set before it.
type replay struct {
	tools []gateway.Tool
	next  string
}

func (r *replay) Tools(context.Context) ([]gateway.Tool, error) { return r.tools, nil }

func (r *replay) Call(context.Context, string, json.RawMessage) (*gateway.Result, error) {
	return &gateway.Result{MCP: &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: r.next}}}}, nil
}

// TestCompactTauBench replays every recorded tool result of the 100
// airline conversations (tau-bench, GPT-4o) through a gateway with a
// compaction budget, the call's own arguments as focus, at the
// recommended budget (8000) and tighter ones, and logs the figures of
// docs/gateway.md: results over the budget, how much they shrank, whether
// the entity the call asked about (its id argument, present in the
// result) survived, and whether the values the agent went on to use in
// its later calls (flight numbers, reservation ids) did; the same for a
// compaction without focus (toolcall.Compact) beside it. Run it with
//
//	go test ./gateway -run TestCompactTauBench -v
func TestCompactTauBench(t *testing.T) {
	t.Parallel()
	tools, results := tauResults(t)
	t.Logf("%d recorded tool results", len(results))
	t.Logf("| budget | run | over budget: cut (still over after the tightest cut) (+ left whole) | chars before → after (sum) | median kept | asked-about entity kept (focus / no focus) | values used later kept (focus / no focus) |")
	t.Logf("|---|---|---|---|---|---|---|")
	for _, budget := range []int{8000, 4000, 2000, 1000, 500} {
		rp := &replay{tools: tools}
		g, err := gateway.New(context.Background(), rp, gateway.Options{CompactBudget: budget,
			Limits: toolcall.Limits{SameCall: 1 << 20, SameError: 1 << 20, Empty: 1 << 20, SameResult: 1 << 20, RepairAttempts: 1 << 20}})
		if err != nil {
			t.Fatal(err)
		}
		cs := connectMem(t, g)
		var (
			run, over, before, after        int
			kept                            []float64
			asked, askedKept, askedPlain    int
			laterN, laterKept, laterPlain   int
			rejected, failedOver, stillOver int
		)
		for _, r := range results {
			rp.next = r.content
			var args map[string]any
			if err := json.Unmarshal([]byte(r.args), &args); err != nil {
				t.Fatalf("%s arguments %s: %v", r.tool, r.args, err)
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: r.tool, Arguments: args})
			if err != nil {
				t.Fatalf("%s: %v", r.tool, err)
			}
			var meta gateway.Meta
			b, _ := json.Marshal(res.Meta[gateway.MetaKey])
			if err := json.Unmarshal(b, &meta); err != nil {
				t.Fatal(err)
			}
			if meta.Status == "" {
				rejected++ // the pre-execution check refused it: not run
				continue
			}
			run++
			got := text(res)
			payload, perr := jsonvalue.Decode([]byte(r.content), 0)
			chars := 0
			if perr == nil {
				chars = utf8.RuneCountInString(jsonText(t, payload))
			}
			if meta.Compacted == nil || len(meta.Compacted.Parts) == 0 {
				if got != r.content {
					t.Errorf("%s %s: a result left whole changed:\n got %.200s\nwant %.200s", r.tool, r.args, got, r.content)
				}
				if perr == nil && chars > budget {
					// Over the budget, yet left whole: a failure, or
					// JSON with nothing to cut, which the note says.
					failedOver++
					if meta.Status != toolcall.Failed && (meta.Compacted == nil || meta.Compacted.Skipped == "") {
						t.Errorf("%s %s: %d characters over the budget of %d, left whole without a note: %+v", r.tool, r.args, chars, budget, meta.Compacted)
					}
				}
				continue
			}
			over++
			p := meta.Compacted.Parts[0]
			if p.OverBudget {
				stillOver++
			}
			if !p.OverBudget && utf8.RuneCountInString(got) > budget {
				t.Errorf("%s %s: %d characters read, over the budget of %d", r.tool, r.args, utf8.RuneCountInString(got), budget)
			}
			before += p.OriginalChars
			after += p.Chars
			kept = append(kept, float64(p.Chars)/float64(p.OriginalChars))
			plain, err := json.Marshal(toolcall.Compact(payload, budget).Value)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range idArgs(r.args) {
				if !strings.Contains(r.content, `"`+id+`"`) {
					continue
				}
				asked++
				if strings.Contains(got, `"`+id+`"`) {
					askedKept++
				}
				if strings.Contains(string(plain), `"`+id+`"`) {
					askedPlain++
				}
			}
			own := stringLeaves(r.args)
			seen := map[string]bool{}
			for _, v := range r.later {
				if seen[v] || slices.Contains(own, v) || !strings.Contains(r.content, `"`+v+`"`) {
					continue
				}
				seen[v] = true
				laterN++
				if strings.Contains(got, `"`+v+`"`) {
					laterKept++
				}
				if strings.Contains(string(plain), `"`+v+`"`) {
					laterPlain++
				}
			}
		}
		if askedKept < askedPlain {
			t.Errorf("budget %d: the focus kept fewer asked-about entities (%d) than no focus (%d)", budget, askedKept, askedPlain)
		}
		if askedKept != asked {
			t.Errorf("budget %d: %d of %d asked-about entities were cut", budget, asked-askedKept, asked)
		}
		slices.Sort(kept)
		median := "–"
		if len(kept) > 0 {
			median = fmt.Sprintf("%.0f%%", 100*kept[len(kept)/2])
		}
		t.Logf("| %d | %d (%d refused before running) | %d (%d) (+%d) | %d → %d | %s | %d/%d / %d/%d | %d/%d / %d/%d |",
			budget, run, rejected, over, stillOver, failedOver, before, after, median, askedKept, asked, askedPlain, asked, laterKept, laterN, laterPlain, laterN)
	}
}

// TestBriefMetaTauBench replays every recorded tool call of the 100
// airline conversations (tau-bench, GPT-4o), with its recorded answer,
// through the stdio fast path of a gateway as it runs by default and the
// SDK's path of one with FullMeta: the answers must be the same but for
// the check and the outcome the default leaves out, and it leaves them out
// exactly when they are clean (valid, no issue, no failed criterion,
// confidence 1). So the brief judge block, written by hand, loses nothing
// on real calls. It logs how many answers were brief:
//
//	go test ./gateway -run TestBriefMetaTauBench -v
func TestBriefMetaTauBench(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tools, results := tauResults(t)
	limits := toolcall.Limits{SameCall: 1 << 20, SameError: 1 << 20, Empty: 1 << 20, SameResult: 1 << 20, RepairAttempts: 1 << 20}
	briefRP, fullRP := &replay{tools: tools}, &replay{tools: tools}
	gBrief, err := gateway.New(ctx, briefRP, gateway.Options{Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	gFull, err := gateway.New(ctx, fullRP, gateway.Options{Limits: limits, FullMeta: true})
	if err != nil {
		t.Fatal(err)
	}
	var taken atomic.Int32
	brief, full := serveFast(t, gBrief, &taken), connectMem(t, gFull)
	clean := func(v any) bool {
		r, _ := v.(map[string]any)
		issues, _ := r["issues"].([]any)
		failed, _ := r["failed_criteria"].([]any)
		return r != nil && r["valid"] == true && len(issues) == 0 && len(failed) == 0 && r["confidence"] == 1.0
	}
	var ran, short, cleanCheck, cleanOutcome int
	for _, r := range results {
		briefRP.next, fullRP.next = r.content, r.content
		var args map[string]any
		if err := json.Unmarshal([]byte(r.args), &args); err != nil {
			t.Fatalf("%s arguments %s: %v", r.tool, r.args, err)
		}
		b, err := brief.CallTool(ctx, &mcp.CallToolParams{Name: r.tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", r.tool, err)
		}
		f, err := full.CallTool(ctx, &mcp.CallToolParams{Name: r.tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", r.tool, err)
		}
		bm, fm := comparable(t, b), comparable(t, f)
		bj, _ := bm["_meta"].(map[string]any)[gateway.MetaKey].(map[string]any)
		fj, _ := fm["_meta"].(map[string]any)[gateway.MetaKey].(map[string]any)
		if bj == nil || fj == nil {
			t.Fatalf("%s %s: no judge block: %v / %v", r.tool, r.args, bm["_meta"], fm["_meta"])
		}
		if fj["status"] == nil {
			continue // refused before it ran: the block is whole either way, compared below
		}
		ran++
		check, _ := fj["check"].(map[string]any)
		for key, v := range map[string]any{"check": check["result"], "outcome": fj["outcome"]} {
			_, kept := bj[key]
			if c := clean(v); kept == c {
				t.Errorf("%s %s: %s clean %v, but left in the brief block: %v", r.tool, r.args, key, c, kept)
			} else if c {
				delete(fj, key)
				if key == "check" {
					cleanCheck++
				} else {
					cleanOutcome++
				}
			}
		}
		if bj["check"] == nil && bj["outcome"] == nil {
			short++
		}
		if !reflect.DeepEqual(bm, fm) {
			bb, _ := json.Marshal(bm)
			fb, _ := json.Marshal(fm)
			t.Errorf("%s %s: the brief answer differs from the full one but for what is clean:\n%s\n%s", r.tool, r.args, bb, fb)
		}
	}
	if int(taken.Load()) != len(results) {
		t.Errorf("the fast path took %d of %d calls", taken.Load(), len(results))
	}
	if ran == 0 || short == 0 {
		t.Fatalf("%d calls ran, %d brief: nothing was compared", ran, short)
	}
	t.Logf("%d recorded calls, %d ran: %d answered with the brief block (clean check %d, clean outcome %d)", len(results), ran, short, cleanCheck, cleanOutcome)
}
