package sharedtest

import (
	"context"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"go.opentelemetry.io/otel/trace"
)

// SpanLookups is a context that counts how often the trace API asks it
// for a span (trace.SpanFromContext and the like, through every context
// made below it that does not answer first). Given to a server as the
// context its connections start from, it tells whether the server's
// ConnContext answers the question for the connection's requests
// (telemetry's Telemetry.ConnContext: once a connection) or each
// request's span searches up to it (once a request).
type SpanLookups struct {
	context.Context
	key any
	n   atomic.Int64
}

// NewSpanLookups returns a SpanLookups over parent.
func NewSpanLookups(parent context.Context) *SpanLookups {
	probe := &keyProbe{Context: context.Background()}
	trace.SpanFromContext(probe)
	return &SpanLookups{Context: parent, key: probe.key}
}

// Value counts a lookup of the trace API's key and answers as parent.
func (c *SpanLookups) Value(key any) any {
	if key == c.key && c.key != nil {
		c.n.Add(1)
	}
	return c.Context.Value(key)
}

// Count is the number of span lookups so far.
func (c *SpanLookups) Count() int64 { return c.n.Load() }

// keyProbe records the first key it is asked for.
type keyProbe struct {
	context.Context
	key any
}

func (p *keyProbe) Value(key any) any {
	if p.key == nil {
		p.key = key
	}
	return nil
}

// CountingListener is a net.Listener that counts the connections it
// accepts.
type CountingListener struct {
	net.Listener
	n atomic.Int64
}

// Accept accepts a connection and counts it.
func (l *CountingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

// Count is the number of connections accepted so far.
func (l *CountingListener) Count() int64 { return l.n.Load() }

// CheckConnSpans checks, once a server has been shut down and its
// telemetry flushed to sink, that its connections' starting context was
// asked for a span once a connection (lookups, ln) over fewer connections
// than 3, and that the SERVER spans named name have exactly parents as
// their parents' names ("" for a root), in any order.
func CheckConnSpans(tb testing.TB, lookups *SpanLookups, ln *CountingListener, sink *OTLPSink, name string, parents []string) {
	tb.Helper()
	if n, conns := lookups.Count(), ln.Count(); n != conns || conns >= 3 {
		tb.Errorf("the connections' context was asked for a span %d times over %d requests (3 without a traceparent) on %d connections, want once a connection (ConnContext), on fewer connections than 3", n, len(parents), conns)
	}
	var got []string
	for _, tr := range sink.Traces(tb) {
		for _, s := range tr {
			if s.Span.GetName() == name {
				got = append(got, strings.TrimPrefix(s.ParentName, "remote "))
			}
		}
	}
	slices.Sort(got)
	want := slices.Clone(parents)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		tb.Errorf("the SERVER spans' parents %q, want %q (\"\": a root)", got, want)
	}
}
