package sharedtest

import (
	"context"
	"net"
	"sync/atomic"

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
