package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/proxy/proxytest"
	"github.com/agentjudge/judge/toolcall"
)

// fuzzCheckers returns a new engine, closed when f ends, and a new
// tool-call checker, for the fuzz targets' contracts.
func fuzzCheckers(f *testing.F) (*judge.Engine, *toolcall.Checker) {
	engine, err := judge.New()
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = engine.Close(context.Background()) })
	checker, err := toolcall.New()
	if err != nil {
		f.Fatal(err)
	}
	return engine, checker
}

// FuzzStream feeds arbitrary bytes, as an upstream's event stream, to the
// proxy's SSE reader and delta assembler with real contracts (a response
// schema checked by the engine, tau-bench-like tools checked by the
// pre-execution check). It must never panic or loop: every
// event consumes bytes, the raw bytes of the events read are a prefix of
// the input (what the proxy forwards is what came), each failure is an
// *SSEError or a *ProtocolError, and every verdict carries a result whose
// validity agrees with its error issues.
func FuzzStream(f *testing.F) {
	engine, checker := fuzzCheckers(f)
	defs, err := toolcall.ParseDefinitions([]byte(`[{"type":"function","function":{"name":"get_user_details","parameters":{"type":"object","properties":{"user_id":{"type":"string"}},"required":["user_id"]}}},
		{"type":"function","function":{"name":"book","parameters":{"type":"object","properties":{"cabin":{"type":"string","enum":["economy","business"]},"n":{"type":"integer"}},"required":["cabin"]}}}]`), "tools")
	if err != nil {
		f.Fatal(err)
	}
	ts, err := checker.NewToolset(defs...)
	if err != nil {
		f.Fatal(err)
	}
	schema := json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"temperature":{"type":"number"},"unit":{"enum":["c","f"]}},"required":["city","temperature","unit"],"additionalProperties":false}`)
	contracts := Contracts{Schema: schema, Tools: ts}

	seed := func(sc proxytest.Script, usage bool) string {
		var sb strings.Builder
		for _, c := range proxytest.ChunksOf(sc, usage) {
			sb.WriteString("data: " + c + "\n\n")
		}
		sb.WriteString("data: [DONE]\n\n")
		return sb.String()
	}
	f.Add(seed(proxytest.Script{Choices: []proxytest.Choice{{Content: `{"city":"Paris","temperature":21.5,"unit":"c"}`}}}, true))
	f.Add(seed(proxytest.Script{Choices: []proxytest.Choice{{Calls: []proxytest.ToolCall{{Name: "get_user_details", Args: `{"user_id":"sara_doe_496"}`}, {Name: "book", Args: `{"cabin":"first","n":"2"}`}}}}, Fragment: 3}, false))
	f.Add(seed(proxytest.Script{Choices: []proxytest.Choice{{Content: `{"city":1}`}, {Calls: []proxytest.ToolCall{{Name: "book", Args: `{"cabin":"economy"}`}}}}}, true))
	f.Add("data: {oops\n\n")
	f.Add(": keep-alive\r\n\r\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":3,\"function\":{\"arguments\":\"{\"}}]}}]}\r\n\r\n")
	f.Add("event: error\ndata: {\"error\":{\"message\":\"overloaded\"}}\n\n")
	f.Add("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},\"finish_reason\":\"stop\"},{\"index\":0,\"delta\":{\"content\":\"y\"}}]}\n\n")

	f.Fuzz(func(t *testing.T, in string) {
		ctx := context.Background()
		rd := newSSEReader(strings.NewReader(in))
		a := newAnswer(WholeDocuments(engine, contracts), 2)
		var raw []byte
		for range len(in) + 2 {
			ev, err := rd.next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				var se *SSEError
				if !errors.As(err, &se) || se.Line < 1 {
					t.Fatalf("reader error %T %v", err, err)
				}
				break
			}
			if len(ev.raw) == 0 {
				t.Fatal("an event consumed no bytes")
			}
			raw = append(raw, ev.raw...)
			if !bytes.HasPrefix([]byte(in), raw) {
				t.Fatalf("the events' raw bytes are not the input's")
			}
			var c chunk
			if json.Unmarshal(bytes.TrimSpace(ev.data), &c) != nil {
				continue
			}
			vs, err := a.add(ctx, &c, ev.line)
			if err != nil {
				var pe *ProtocolError
				if !errors.As(err, &pe) {
					t.Fatalf("assembler error %T %v", err, err)
				}
				return
			}
			checkVerdicts(t, vs)
		}
		vs, err := a.finish(ctx)
		if err != nil {
			t.Fatalf("finish: %v", err)
		}
		checkVerdicts(t, vs)
		rep := a.report(Annotate, false, 0)
		if rep.Valid != !anyInvalid(rep.Checks) {
			t.Fatalf("report valid %v disagrees with its checks", rep.Valid)
		}
		if _, err := json.Marshal(rep); err != nil {
			t.Fatalf("report does not encode: %v", err)
		}
	})
}

func checkVerdicts(t *testing.T, vs []*Verdict) {
	t.Helper()
	for _, v := range vs {
		if v.Result == nil {
			t.Fatal("a verdict without a result")
		}
		errs := 0
		for _, is := range v.Result.Issues {
			if is.Severity == "error" {
				errs++
			}
		}
		if v.Result.Valid != (errs == 0) || (!v.Result.Valid && v.RepairText == "") {
			t.Fatalf("verdict valid=%v with %d errors, repair %q", v.Result.Valid, errs, v.RepairText)
		}
	}
}
