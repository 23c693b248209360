package proxy

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/agentjudge/judge"
	"github.com/agentjudge/judge/proxy/proxytest"
)

// BenchmarkResponsesEvent measures what the proxy adds per event of a
// Responses API stream: reading the events (what any SSE forwarder does)
// against reading, parsing, assembling and checking every function call
// whole, on the answer of BenchmarkChunk (three tau-bench airline calls,
// the second invalid, 4-byte deltas) as the Responses API streams it.
func BenchmarkResponsesEvent(b *testing.B) {
	_, _, contracts := benchStream(b)
	evs := proxytest.ResponseEventsOf(proxytest.Script{Choices: []proxytest.Choice{{Calls: benchCalls}}}, nil)
	stream := []byte(strings.Join(evs, ""))
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
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
	})
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rd := newSSEReader(bytes.NewReader(stream))
			ra := newRespAnswer(WholeDocuments(engine, contracts))
			for {
				ev, err := rd.next()
				if err != nil {
					if !errors.Is(err, io.EOF) {
						b.Fatal(err)
					}
					break
				}
				e, err := parseRespEvent(bytes.TrimSpace(ev.data), ev.line)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := ra.add(ctx, &e, ev.line); err != nil {
					b.Fatal(err)
				}
			}
			if rep := ra.a.report(Annotate, false, 0); rep.Valid || len(rep.Checks) != 3 || rep.Tokens.Estimated {
				b.Fatalf("report valid=%v checks=%d", rep.Valid, len(rep.Checks))
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
	})
}
