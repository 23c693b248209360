package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentjudge/judge/toolcall"
)

// addBackend is one upstream tool, add, with an output schema, answering
// each call with a raw result (another sum each time), as an MCP
// upstream's answer comes.
type addBackend struct{ n atomic.Int64 }

func (*addBackend) Tools(context.Context) ([]Tool, error) {
	return []Tool{{
		Name: "add", Description: "Add two numbers",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"],"additionalProperties":false}`),
	}}, nil
}

func (a *addBackend) Call(context.Context, string, json.RawMessage) (*Result, error) {
	sum := strconv.FormatInt(a.n.Add(1), 10)
	return &Result{Raw: json.RawMessage(`{"content":[{"type":"text","text":"{\"sum\":` + sum + `}"}],"structuredContent":{"sum":` + sum + `}}`)}, nil
}

// sameJSON reports whether got and want are the same JSON value, keys in
// any order.
func sameJSON(got []byte, want string) bool {
	var g, w any
	return json.Unmarshal(got, &g) == nil && json.Unmarshal([]byte(want), &w) == nil && reflect.DeepEqual(g, w)
}

// BenchmarkCall is the gateway's own work on the stdio fast path for one
// call of bench/gateway's upstream tool, without the pipes: the session's
// stop check, the pre-execution check, the outcome with its session
// update, and encoding the answer, with the judge block as sent by default
// (brief) and with Options.FullMeta. Each call has other arguments, as a
// loop would be stopped.
func BenchmarkCall(b *testing.B) {
	for _, full := range []bool{false, true} {
		b.Run(fmt.Sprintf("full_meta=%v", full), func(b *testing.B) {
			ctx := context.Background()
			g, err := New(ctx, &addBackend{}, Options{FullMeta: full})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				args := json.RawMessage(`{"a":` + strconv.Itoa(i) + `,"b":1}`)
				ans, err := g.call(ctx, "mcp:bench", "add", args, nil)
				if err != nil || ans.own != nil || ans.meta.Status != "SATISFIED" {
					b.Fatal(err, ans.meta)
				}
				if _, err := g.encode(ans, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestNormalized: a valid call's arguments go to the tool as given when
// the check changed nothing, and encoded anew from the normalized value
// when it changed something or the bytes could not be forwarded as they
// are (over lines, with \u escapes, not an object).
func TestNormalized(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g, err := New(ctx, &addBackend{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ args, want string }{
		{` {"b": 1, "a": 2} `, `{"b": 1, "a": 2}`},    // as given: nothing changed
		{`{"a": "2", "b": 1}`, `{"a":2,"b":1}`},       // coerced
		{"{\"a\": 2,\n\"b\": 1}", `{"a":2,"b":1}`},    // over two lines
		{`{"\u0061": 2, "b": 1}`, `{"a":2,"b":1}`},    // a \u escape
		{`{"a": 2, "b": 1, "c": 1}`, ``},              // invalid: c is unknown
		{`{"a": 2, "b": 1e0}`, `{"a": 2, "b": 1e0}`},  // the same number, as given
		{`{"a": 2, "b": 1, "b": 1}`, `{"a":2,"b":1}`}, // a repeated key is a warning
	} {
		chk, err := g.catalog().toolset.Check(ctx, toolcall.Call{Tool: "add", Arguments: json.RawMessage(tc.args)})
		if err != nil {
			t.Fatal(err)
		}
		if !chk.Result.Valid {
			if tc.want != "" {
				t.Errorf("%s: invalid: %+v", tc.args, chk.Result.Issues)
			}
			continue
		}
		got, err := normalized(json.RawMessage(tc.args), chk)
		if err != nil || string(got) != tc.want && !sameJSON(got, tc.want) {
			t.Errorf("normalized(%s) = %s, %v; want %s", tc.args, got, err, tc.want)
		}
		asGiven := string(got) == strings.TrimSpace(tc.args)
		if want := tc.want == strings.TrimSpace(tc.args); asGiven != want {
			t.Errorf("normalized(%s) = %s: as given %v, want %v", tc.args, got, asGiven, want)
		}
	}
}

// TestAppendMeta: the judge block written by hand reads back as the one
// encoding/json writes, for the blocks of clean calls (by hand) and for
// the others (by encoding/json), strings with characters to escape
// included.
func TestAppendMeta(t *testing.T) {
	t.Parallel()
	odd := "a \"quoted\" <b> & \\ \n\t\u2028 \x01 é \xff"
	for _, m := range []Meta{
		{},
		{Status: toolcall.Satisfied, Reason: "the tool answered", Progress: &toolcall.Progress{Verdict: "continue", Calls: 3}},
		{Status: toolcall.Failed, Reason: odd, Session: odd, Progress: &toolcall.Progress{Verdict: "stop", Reason: odd, Limit: "same_call", Calls: 12}},
		{Status: toolcall.Failed, Reason: "r", Progress: &toolcall.Progress{Verdict: "stop", Reason: "loop", Limit: "same_error", Calls: 5, Refused: true}},
		{Session: "mcp:1"},
		{Status: toolcall.Satisfied, ExtractedFacts: []toolcall.Fact{}, SuggestedNextTools: []toolcall.NextTool{}, Progress: &toolcall.Progress{Show: []string{}}},
		{Progress: &toolcall.Progress{Verdict: "escalate", Calls: 1, Show: []string{"a", "b"}}},
		{Status: toolcall.Satisfied, Check: &toolcall.CheckResult{}},
		{Status: toolcall.NeedsMoreTools, ExtractedFacts: []toolcall.Fact{{}}},
	} {
		got, err := appendMeta([]byte("x"), &m)
		if err != nil {
			t.Fatal(err)
		}
		if string(got[:1]) != "x" {
			t.Fatalf("appendMeta did not append: %s", got)
		}
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(got[1:], string(want)) {
			t.Errorf("appendMeta(%+v) = %s, want %s", m, got[1:], want)
		}
	}
}

// FuzzAppendMeta: for any strings in a clean call's block, the hand-written
// JSON is valid and reads back as encoding/json's.
func FuzzAppendMeta(f *testing.F) {
	f.Add("SATISFIED", "ok", "continue", "", "mcp:1", 1, false)
	f.Add("FAILED", "<&>\u2028\x00\xff", "stop", "same_call", "\"", -3, true)
	f.Fuzz(func(t *testing.T, status, reason, verdict, limit, session string, calls int, refused bool) {
		m := Meta{Status: toolcall.Status(status), Reason: reason, Session: session,
			Progress: &toolcall.Progress{Verdict: verdict, Limit: limit, Calls: calls, Refused: refused}}
		got, err := appendMeta(nil, &m)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(got) || !sameJSON(got, string(want)) {
			t.Fatalf("appendMeta = %s, want %s", got, want)
		}
	})
}
