package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/proxy/proxytest"
	"github.com/agentjudge/judge/toolcall"
)

// benchCalls are three parallel tau-bench airline calls, the second
// invalid (a cabin the enum lacks, no passengers).
var benchCalls = []proxytest.ToolCall{
	{Name: "get_user_details", Args: `{"user_id": "sara_doe_496"}`},
	{Name: "book_reservation", Args: `{"user_id": "sara_doe_496", "origin": "SFO", "destination": "JFK", "flight_type": "one_way", "cabin": "first", "flights": [{"flight_number": "HAT001", "date": "2024-05-01"}], "payment_id": "credit_card_7815826", "total_baggages": 0, "nonfree_baggages": 0, "insurance": "no"}`},
	{Name: "get_reservation_details", Args: `{"reservation_id": "ZFA04Y"}`},
}

// benchStream is a streamed answer of three parallel tau-bench airline
// calls (the second invalid), cut in 4-byte deltas as OpenAI streams
// them, with its usage chunk.
func benchStream(b *testing.B) (stream []byte, chunks int, contracts Contracts) {
	b.Helper()
	tools, err := os.ReadFile(filepath.Join("..", "..", "shared", "testdata", "agent-traces", "tau-bench-airline-tools.json"))
	if err != nil {
		b.Skipf("../shared/testdata/agent-traces is absent: %v", err)
	}
	checker, err := toolcall.New()
	if err != nil {
		b.Fatal(err)
	}
	defs, err := toolcall.ParseDefinitions(tools, "tools")
	if err != nil {
		b.Fatal(err)
	}
	ts, err := checker.NewToolset(defs...)
	if err != nil {
		b.Fatal(err)
	}
	cs := proxytest.ChunksOf(proxytest.Script{Choices: []proxytest.Choice{{Calls: benchCalls}}}, true)
	var sb strings.Builder
	for _, c := range cs {
		sb.WriteString("data: " + c + "\n\n")
	}
	sb.WriteString("data: [DONE]\n\n")
	return []byte(sb.String()), len(cs), Contracts{Tools: ts}
}

// BenchmarkChunk measures what the proxy adds per chunk: reading the
// events (what any SSE forwarder does) against reading, decoding,
// assembling and checking every tool call whole (judge proxy's path
// minus the network). The difference of their ns/chunk is the latency
// judge adds to a chunk.
func BenchmarkChunk(b *testing.B) {
	stream, chunks, contracts := benchStream(b)
	engine, err := judge.New()
	if err != nil {
		b.Fatal(err)
	}
	defer engine.Close(context.Background())
	ctx := context.Background()
	b.Run("forward", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rd := newSSEReader(bytes.NewReader(stream))
			for {
				if _, err := rd.next(); err != nil {
					if !errors.Is(err, io.EOF) {
						b.Fatal(err)
					}
					break
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunks), "ns/chunk")
	})
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rd := newSSEReader(bytes.NewReader(stream))
			a := newAnswer(WholeDocuments(engine, contracts), 1)
			for {
				ev, err := rd.next()
				if err != nil {
					if !errors.Is(err, io.EOF) {
						b.Fatal(err)
					}
					break
				}
				if bytes.Equal(bytes.TrimSpace(ev.data), []byte("[DONE]")) {
					if _, err := a.finish(ctx); err != nil {
						b.Fatal(err)
					}
					break
				}
				var c chunk
				if err := json.Unmarshal(ev.data, &c); err != nil {
					b.Fatal(err)
				}
				if _, err := a.add(ctx, &c, ev.line); err != nil {
					b.Fatal(err)
				}
			}
			if rep := a.report(Annotate, false, 0); rep.Valid || len(rep.Checks) != 3 {
				b.Fatalf("report valid=%v checks=%d", rep.Valid, len(rep.Checks))
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunks), "ns/chunk")
	})
}
