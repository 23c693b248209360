package executor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentjudge/judge/internal/mcpstdio"
)

// rawCaller sends a request to an upstream around the SDK's decoding and
// returns its result as the server sent it: *mcpstdio.Transport on stdio,
// *rawHTTP over streamable HTTP.
type rawCaller interface {
	Call(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)
	// RequestMeta reports whether the sessionless protocol's per-request
	// _meta (copied from the SDK's own requests) is known yet.
	RequestMeta() bool
}

// rawHTTP is the streamable HTTP client transport of the SDK with calls
// around its decoding, as mcpstdio.Transport.Call is on stdio: Call
// writes a request under an id of judge's own ("judge-N", a string the
// SDK's integer ids never equal) through the SDK's own connection, so that
// the session id, the protocol headers and the response stream are the
// SDK's, and the client's HTTP transport (tap) reads the response to it
// off the stream as it goes by. The SDK reads the same stream: the
// upstream's notifications and requests during the call (progress, log
// messages, sampling, elicitation, roots) reach its handlers as on any
// call, and the response, whose id it does not know, it drops.
//
// The SDK's connection is used as it is, not wrapped: the client session
// tells it the negotiated version through a method a wrapper cannot have.
type rawHTTP struct {
	mcp.Transport
	conn    atomic.Pointer[mcp.Connection]
	seq     atomic.Int64
	reqMeta atomic.Pointer[[]byte] // the SDK's last per-request _meta (SEP-2575)
	maxBody int64                  // the most of a response the tap reads for its answer
}

// newRawHTTP makes the transport of an upstream at endpoint, its HTTP
// requests sent by base (which adds the manifest's headers).
func newRawHTTP(endpoint string, base http.RoundTripper, maxBody int64) *rawHTTP {
	t := &rawHTTP{maxBody: maxBody}
	hc := &http.Client{Transport: tap{base: base, t: t}}
	t.Transport = &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, MaxRetries: 1}
	return t
}

// Connect connects the SDK's transport and keeps its connection for Call.
func (t *rawHTTP) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err == nil {
		t.conn.Store(&c)
	}
	return c, err
}

// RequestMeta implements rawCaller.
func (t *rawHTTP) RequestMeta() bool { return t.reqMeta.Load() != nil }

// rawWaiter waits for the response to one call of rawHTTP.Call.
type rawWaiter struct {
	id   []byte // the id as JSON: "judge-N"
	once sync.Once
	ch   chan rawAnswer // buffered 1
}

type rawAnswer struct {
	result json.RawMessage
	err    error
}

func (w *rawWaiter) deliver(a rawAnswer) { w.once.Do(func() { w.ch <- a }) }

type rawWaiterKey struct{}

// Call sends a request around the SDK and returns its result. When ctx
// ends first, the server is told (notifications/cancelled) and ctx's error
// returned; an error response is returned as a *jsonrpc.Error.
func (t *rawHTTP) Call(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	cp := t.conn.Load()
	if cp == nil {
		return nil, errNoRaw
	}
	c := *cp
	id := "judge-" + strconv.FormatInt(t.seq.Add(1), 10)
	jid, err := jsonrpc.MakeID(id)
	if err != nil {
		return nil, err
	}
	w := &rawWaiter{id: strconv.AppendQuote(nil, id), ch: make(chan rawAnswer, 1)}
	if meta := t.reqMeta.Load(); meta != nil {
		params = mcpstdio.AppendWithMeta(nil, params, meta)
	}
	if err := c.Write(context.WithValue(ctx, rawWaiterKey{}, w), &jsonrpc.Request{ID: jid, Method: method, Params: params}); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	select {
	case a := <-w.ch:
		return a.result, a.err
	case <-ctx.Done():
		note, _ := json.Marshal(map[string]any{"requestId": id, "reason": context.Cause(ctx).Error()})
		nctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stopGrace)
		defer cancel()
		_ = c.Write(nctx, &jsonrpc.Request{Method: "notifications/cancelled", Params: note})
		return nil, ctx.Err()
	}
}

// tap is the HTTP transport of a rawHTTP: it hands the response to a
// Call's request to its waiter as the SDK reads the response body, and
// keeps the per-request _meta of the SDK's own requests.
type tap struct {
	base http.RoundTripper
	t    *rawHTTP
}

func (p tap) RoundTrip(req *http.Request) (*http.Response, error) {
	w, _ := req.Context().Value(rawWaiterKey{}).(*rawWaiter)
	version := req.Header.Get("Mcp-Protocol-Version")
	switch {
	case w != nil || req.Method != http.MethodPost || version == "":
	case version < mcpstdio.SessionlessProtocol:
		// A session on an earlier version (after the SDK's server/discover
		// fell back to initialize): its requests carry no _meta of the
		// protocol's.
		p.t.reqMeta.Store(nil)
	case req.GetBody != nil:
		if body, err := req.GetBody(); err == nil {
			b, _ := io.ReadAll(io.LimitReader(body, 1<<20))
			var m struct {
				Params json.RawMessage `json:"params"`
			}
			if json.Unmarshal(b, &m) == nil {
				if kept := mcpstdio.ProtocolMeta(m.Params); kept != nil {
					p.t.reqMeta.Store(&kept)
				}
			}
		}
	}
	resp, err := p.base.RoundTrip(req)
	if err != nil || w == nil {
		return resp, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp, nil // the SDK reports it from Write
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	resp.Body = &tapBody{ReadCloser: resp.Body, w: w, sse: ct == "text/event-stream", max: p.t.maxBody}
	return resp, nil
}

// tapBody reads a response body for the SDK and finds the response with
// its waiter's id in it: an event of an event stream, or the JSON body.
type tapBody struct {
	io.ReadCloser
	w    *rawWaiter
	sse  bool
	max  int64
	buf  []byte // the bytes not yet parsed
	data []byte // the data of the event being read
	// resumable: an event had an id, so the SDK resumes a stream that
	// ends early with a GET this tap also reads.
	resumable bool
	found     bool
	read      int64
}

func (b *tapBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if !b.found && n > 0 {
		b.read += int64(n)
		if b.max > 0 && b.read > b.max {
			b.found = true
			b.w.deliver(rawAnswer{err: fmt.Errorf("the response is over %d bytes", b.max)})
		} else {
			b.buf = append(b.buf, p[:n]...)
			if b.sse {
				b.events()
			}
		}
	}
	if err != nil && !b.found {
		b.end()
	}
	return n, err
}

// Close ends the body; a stream that ended without the response fails the
// call, unless the SDK will resume it.
func (b *tapBody) Close() error {
	if !b.found {
		b.end()
	}
	return b.ReadCloser.Close()
}

func (b *tapBody) end() {
	if !b.sse {
		b.message(b.buf)
	}
	b.found = true
	if !b.resumable { // a no-op when the answer was delivered
		b.w.deliver(rawAnswer{err: errors.New("the server ended the response without answering the request")})
	}
}

// events parses the complete lines of an event stream.
func (b *tapBody) events() {
	for !b.found {
		i := bytes.IndexByte(b.buf, '\n')
		if i < 0 {
			return
		}
		line := bytes.TrimSuffix(b.buf[:i], []byte{'\r'})
		switch {
		case len(line) == 0:
			if len(b.data) > 0 {
				b.message(b.data)
			}
			b.data = b.data[:0]
		case bytes.HasPrefix(line, []byte("data:")):
			d := bytes.TrimPrefix(line[5:], []byte{' '})
			if len(b.data) > 0 {
				b.data = append(b.data, '\n')
			}
			b.data = append(b.data, d...)
		case bytes.HasPrefix(line, []byte("id:")):
			b.resumable = len(bytes.TrimSpace(line[3:])) > 0
		}
		b.buf = b.buf[i+1:]
	}
}

// message delivers the answer when msg is the response the waiter waits
// for (a batch is searched too).
func (b *tapBody) message(msg []byte) {
	if !bytes.Contains(msg, b.w.id) {
		return
	}
	t := bytes.TrimSpace(msg)
	if len(t) > 0 && t[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(t, &batch) == nil {
			for _, m := range batch {
				b.message(m)
			}
		}
		return
	}
	var r struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *jsonrpc.Error  `json:"error"`
	}
	if json.Unmarshal(t, &r) != nil || !bytes.Equal(bytes.TrimSpace(r.ID), b.w.id) {
		return
	}
	b.found = true
	if r.Error != nil {
		b.w.deliver(rawAnswer{err: r.Error})
		return
	}
	if len(r.Result) == 0 || strings.TrimSpace(string(r.Result)) == "null" {
		b.w.deliver(rawAnswer{err: errors.New("the response has no result")})
		return
	}
	b.w.deliver(rawAnswer{result: r.Result})
}
