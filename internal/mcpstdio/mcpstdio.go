// Package mcpstdio is a go-sdk MCP transport over a pair of streams
// carrying newline-delimited JSON-RPC messages, as mcp.IOTransport, whose
// reading costs less: it reads each message into one reused buffer and
// decodes it with DecodeMessage, where the SDK's transport allocates and
// clears a fresh 32 KB buffer for each of the two or three JSON values it
// decodes per message. judge gateway speaks it on stdio to its client and
// to its stdio upstreams.
//
// What goes on the wire is the SDK's: messages are encoded by
// jsonrpc.EncodeMessage, one a line. A message may span lines (a
// pretty-printed one is read to its end); data after a message on its line
// is an error, as in the SDK. Batches (JSON arrays of messages) are read
// and answered as one array, as the SDK does for protocol versions before
// 2025-06-18; unlike it, they are not refused in later versions, since the
// SDK tells only its own connections the version negotiated.
//
// Two ways around the SDK serve a proxy's hot path, where the SDK's
// decoding of params and results costs more than the work: on a server's
// side, Transport.Answer takes requests (tools/call) away from the SDK
// once the session is initialized and answers them from raw JSON; on a
// client's side, Transport.Call sends a request under an id of judge's own
// and takes its response off the stream before the SDK reads it. Both
// leave every other message, and the session's life, to the SDK.
package mcpstdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Transport is an mcp.Transport over Reader and Writer.
type Transport struct {
	Reader io.ReadCloser
	Writer io.WriteCloser
	// MaxLineLength bounds the bytes of one message (mcp.DefaultMaxLineLength
	// when 0, no bound when negative).
	MaxLineLength int
	// Answer, when set, may answer requests itself instead of the SDK.
	// The reading goroutine calls it with the method and params of each
	// request that comes alone in its frame (not in a batch), and whether
	// the session is initialized (a successful answer to initialize went
	// out; a request of the sessionless protocol, 2026-07-28, carries its
	// own in _meta). When it returns a function, that function computes
	// the result on a goroutine of its own and the SDK never sees the
	// request. Its context ends when the client cancels the request
	// (notifications/cancelled) or the connection closes. An error is
	// answered as the SDK answers a handler's error: a *jsonrpc.Error's
	// code, else code 0, and the message. Answer itself must not block.
	Answer func(method string, params json.RawMessage, initialized bool) Answerer
	// SessionID is the connection's session id (what ServerSession.ID
	// returns); a stream has one session, so it may be empty.
	SessionID string
	// DrainTimeout, on a server's side (Answer set), is how long the
	// requests in flight, the SDK's and Answer's, have to be answered once
	// the input ends or Drain is called, before the SDK is told the
	// stream ended (and closes the session, cancelling what is left). 0
	// tells it at once.
	DrainTimeout time.Duration
	// Extra, when set, gives each request with an id that the SDK answers
	// its RequestExtra (the request's Extra in the SDK's handlers), made
	// from the request's JSON-RPC id: a stream has no HTTP header, so this
	// is how a handler on the SDK's path learns which request it answers.
	Extra func(id jsonrpc.ID) *mcp.RequestExtra

	conn atomic.Pointer[conn]
}

// An Answerer computes the result of a request: a JSON value.
type Answerer func(ctx context.Context) (json.RawMessage, error)

type requestKey struct{}

// RequestInfo is what the transport knows of the request an Answerer
// answers, for the request's span: its JSON-RPC id (jsonrpc.request.id)
// and the protocol version the session's initialize answer gave
// (mcp.protocol.version; "" before one, or under the sessionless
// protocol).
type RequestInfo struct {
	ID              jsonrpc.ID
	ProtocolVersion string
}

// Request is the RequestInfo of an Answerer's context; false outside
// one.
func Request(ctx context.Context) (RequestInfo, bool) {
	ri, ok := ctx.Value(requestKey{}).(RequestInfo)
	return ri, ok && ri.ID.IsValid()
}

// Connect starts reading messages and returns the connection. It is
// called once, by the SDK's Server.Run, Server.Connect or Client.Connect.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	limit := t.MaxLineLength
	if limit == 0 {
		limit = mcp.DefaultMaxLineLength
	}
	c := &conn{r: t.Reader, w: t.Writer, incoming: make(chan readResult), closed: make(chan struct{}),
		answer: t.Answer, extra: t.Extra, readDone: make(chan struct{}), sid: t.SessionID, jobs: make(chan func()),
		drainFor: t.DrainTimeout, drainStart: make(chan struct{}), drained: make(chan struct{}), settled: make(chan struct{}, 1)}
	c.life, c.endLife = context.WithCancel(context.Background())
	t.conn.Store(c)
	// Read on a goroutine of its own, so that Close unblocks a Read
	// waiting for input, as the SDK's transport does. The goroutine ends
	// with the stream or when the connection closes.
	go c.readLoop(bufio.NewReaderSize(t.Reader, 64<<10), limit)
	return c, nil
}

type readResult struct {
	msgs  []jsonrpc.Message
	batch bool
	err   error
}

type conn struct {
	r        io.ReadCloser
	w        io.WriteCloser
	incoming chan readResult
	// queue holds the unread messages of the last batch; reads are
	// serialized.
	queue []jsonrpc.Message

	writeMu sync.Mutex
	wbuf    []byte

	batchMu sync.Mutex
	batches map[jsonrpc.ID]*batch

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error
	sid       string
	extra     func(jsonrpc.ID) *mcp.RequestExtra // Transport.Extra

	// The requests answered around the SDK (Transport.Answer).
	answer     func(string, json.RawMessage, bool) Answerer
	life       context.Context // ends when the connection closes
	endLife    context.CancelFunc
	initMu     sync.Mutex
	initID     jsonrpc.ID // the initialize request's id, until answered
	version    string     // the protocol version the initialize answer gave
	ready      atomic.Bool
	inflightMu sync.Mutex
	inflight   map[jsonrpc.ID]context.CancelFunc
	// sdkInflight are the requests passed to the SDK and not answered
	// yet; cancelled, those of either path the client cancelled
	// (notifications/cancelled), whose answers are not sent.
	sdkInflight map[jsonrpc.ID]bool
	cancelled   map[jsonrpc.ID]bool
	settled     chan struct{} // a request in flight was answered (buffered 1)
	drainFor    time.Duration
	drainOnce   sync.Once
	drainStart  chan struct{} // closed when draining begins
	drained     chan struct{} // closed when draining ends: Read returns io.EOF
	jobs        chan func()   // answers for an idle worker to run
	idle        atomic.Int32  // workers waiting on jobs

	// The calls sent around the SDK (Transport.Call).
	reqMeta   atomic.Pointer[[]byte] // the SDK's last per-request _meta (SEP-2575), as JSON members
	seq       atomic.Int64
	pendingMu sync.Mutex
	pending   map[string]chan *jsonrpc.Response
	readDone  chan struct{} // closed when the read loop ends; readErr says why
	readErr   error
}

// Members calls fn with the name (unescaped) and the value's bytes of
// each top-level member of obj, a JSON object, in order; invalid JSON is
// an error. The name is valid only during the call.
func Members(obj []byte, fn func(key, val []byte) error) error {
	if !json.Valid(obj) {
		return errors.New("not valid JSON")
	}
	return members(obj, fn)
}

// SessionlessProtocol is the first MCP version whose requests carry their
// protocol version, client and capabilities in _meta (SEP-2575), under
// mcp.MetaKeyProtocolVersion and its siblings.
const SessionlessProtocol = "2026-07-28"

// keepRequestMeta keeps the io.modelcontextprotocol/ members of an SDK
// request's _meta, for the requests Transport.Call sends.
func (c *conn) keepRequestMeta(params json.RawMessage) {
	if kept := ProtocolMeta(params); kept != nil {
		c.reqMeta.Store(&kept)
	}
}

// ProtocolMeta returns the io.modelcontextprotocol/ members of a request's
// _meta (params is the request's params), as JSON members without braces,
// for requests sent around the SDK in the sessionless protocol
// (AppendWithMeta); nil when there are none.
func ProtocolMeta(params json.RawMessage) []byte {
	var meta []byte
	_ = Members(params, func(key, val []byte) error {
		if string(key) == "_meta" {
			meta = val
		}
		return nil
	})
	var kept []byte
	_ = Members(meta, func(key, val []byte) error {
		if strings.HasPrefix(string(key), "io.modelcontextprotocol/") {
			if len(kept) > 0 {
				kept = append(kept, ',')
			}
			kept = jsonvalue.AppendString(kept, string(key))
			kept = append(append(kept, ':'), val...)
		}
		return nil
	})
	return kept
}

// ownIDPrefix begins the ids of the calls Transport.Call sends: strings,
// which the SDK's integer ids never equal.
const ownIDPrefix = "judge-"

// batch tracks the calls of one incoming batch until all are answered.
type batch struct {
	unresolved map[jsonrpc.ID]int
	responses  []*jsonrpc.Response
}

// errFrameTooLarge is the error of a message longer than the limit.
var errFrameTooLarge = errors.New("inbound JSON-RPC frame exceeded the configured maximum line length")

func (c *conn) readLoop(br *bufio.Reader, limit int) {
	var frame []byte
	for {
		var res readResult
		var err error
		frame, err = readFrame(br, frame[:0], limit)
		switch {
		case err != nil:
			res.err = err
		default:
			res.msgs, res.batch, res.err = decodeFrame(frame)
		}
		if cap(frame) > 1<<20 {
			frame = nil // do not keep a large message's buffer
		}
		if res.err != nil {
			c.endCalls(res.err)
			if c.answer != nil && errors.Is(res.err, io.EOF) {
				// The client sent all it will: the requests in flight
				// are answered before the SDK hears of the end.
				c.drain()
				select {
				case <-c.drained:
				case <-c.closed:
				}
			}
		} else if !res.batch {
			if took, answer := c.taken(res.msgs[0]); took {
				if answer != nil {
					c.run(answer)
				}
				continue
			}
		}
		if res.err == nil && c.answer != nil {
			c.trackRequests(res.msgs)
		}
		if res.err == nil && c.extra != nil {
			for _, msg := range res.msgs {
				if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
					req.Extra = c.extra(req.ID)
				}
			}
		}
		select {
		case c.incoming <- res:
		case <-c.closed:
			c.endCalls(io.EOF)
			c.endLife()
			return
		}
		if res.err != nil {
			c.endLife()
			return
		}
	}
}

// maxIdleWorkers is how many workers wait for answers to run once the
// calls in flight are fewer.
const maxIdleWorkers = 4

// run runs an answer on a worker: one waiting for work, else a new one.
// A worker lives on after its answer, so its stack, grown by the
// pipeline's deep calls, serves the next: a fresh goroutine for each
// request grew its stack two or three times per call, each a copy that
// walks every frame, about a tenth of the gateway's CPU. With one
// processor the idle worker the send wakes runs as soon as the reader
// waits for the next message.
func (c *conn) run(answer func()) {
	select {
	case c.jobs <- answer:
	default:
		go c.work(answer)
	}
}

// work runs answer, then the answers run hands it, until more workers
// than maxIdleWorkers are idle or the connection ends.
func (c *conn) work(answer func()) {
	for {
		answer()
		if c.idle.Add(1) > maxIdleWorkers {
			c.idle.Add(-1)
			return
		}
		select {
		case answer = <-c.jobs:
			c.idle.Add(-1)
		case <-c.life.Done():
			c.idle.Add(-1)
			return
		}
	}
}

// taken handles a message around the SDK and reports whether it did: a
// response to a call of Transport.Call, or a request Transport.Answer
// takes, whose answering it returns, for the caller to run. It also watches for the session's initialization and for
// cancellations of answered requests, which the SDK sees too.
func (c *conn) taken(msg jsonrpc.Message) (took bool, answer func()) {
	switch m := msg.(type) {
	case *jsonrpc.Response:
		id, ok := m.ID.Raw().(string)
		if !ok || !strings.HasPrefix(id, ownIDPrefix) {
			return false, nil
		}
		c.pendingMu.Lock()
		ch, ok := c.pending[id]
		delete(c.pending, id)
		c.pendingMu.Unlock()
		if ok {
			ch <- m // buffered: never blocks
		}
		return true, nil // an answer to a call given up is dropped, not the SDK's
	case *jsonrpc.Request:
		if c.answer == nil {
			return false, nil
		}
		switch {
		case m.Method == "initialize" && m.ID.IsValid():
			c.initMu.Lock()
			if !c.ready.Load() {
				c.initID = m.ID
			}
			c.initMu.Unlock()
			return false, nil
		case m.Method == "notifications/cancelled":
			c.cancelAnswer(m.Params)
			return false, nil // the SDK cancels its own handler
		case !m.ID.IsValid():
			return false, nil
		}
		fn := c.answer(m.Method, m.Params, c.ready.Load())
		if fn == nil {
			return false, nil
		}
		c.initMu.Lock()
		ri := RequestInfo{ID: m.ID, ProtocolVersion: c.version}
		c.initMu.Unlock()
		ctx, cancel := context.WithCancel(context.WithValue(c.life, requestKey{}, ri))
		c.inflightMu.Lock()
		if _, dup := c.inflight[m.ID]; dup {
			c.inflightMu.Unlock()
			cancel()
			return false, nil // the SDK answers a duplicate id as it does
		}
		if c.inflight == nil {
			c.inflight = map[jsonrpc.ID]context.CancelFunc{}
		}
		c.inflight[m.ID] = cancel
		c.inflightMu.Unlock()
		return true, func() { c.respond(ctx, m.ID, fn) }
	}
	return false, nil
}

// respond computes an answered request's result and writes it.
func (c *conn) respond(ctx context.Context, id jsonrpc.ID, fn Answerer) {
	res, err := fn(ctx)
	c.inflightMu.Lock()
	cancel := c.inflight[id]
	dropped := c.cancelled[id]
	delete(c.cancelled, id)
	c.inflightMu.Unlock()
	if cancel != nil {
		defer cancel()
	}
	// The request stays in flight until its answer is written, so that a
	// drain does not end the session before the write.
	defer func() {
		c.inflightMu.Lock()
		delete(c.inflight, id)
		c.inflightMu.Unlock()
		c.settle()
	}()
	if dropped || ctx.Err() != nil && c.life.Err() != nil {
		// A request the client cancelled gets no answer (the MCP spec:
		// "receivers of a cancellation notification SHOULD NOT send a
		// response for the cancelled request"); nor one whose connection
		// is gone.
		return
	}
	_ = c.writeResponse(id, res, err)
}

// trackRequests records the requests (with an id) passed to the SDK, to
// be answered before a drain ends.
func (c *conn) trackRequests(msgs []jsonrpc.Message) {
	c.inflightMu.Lock()
	defer c.inflightMu.Unlock()
	for _, msg := range msgs {
		if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
			if c.sdkInflight == nil {
				c.sdkInflight = map[jsonrpc.ID]bool{}
			}
			c.sdkInflight[req.ID] = true
		}
	}
}

// dropAnswer reports whether the answer to the request id must not go
// out: the client cancelled the request.
func (c *conn) dropAnswer(id jsonrpc.ID) bool {
	c.inflightMu.Lock()
	defer c.inflightMu.Unlock()
	dropped := c.cancelled[id]
	delete(c.cancelled, id)
	return dropped
}

// sdkAnswered records that the SDK's answer to the request id was written
// (or dropped).
func (c *conn) sdkAnswered(id jsonrpc.ID) {
	c.inflightMu.Lock()
	_, tracked := c.sdkInflight[id]
	delete(c.sdkInflight, id)
	c.inflightMu.Unlock()
	if tracked {
		c.settle()
	}
}

// settle signals that a request in flight was answered.
func (c *conn) settle() {
	select {
	case c.settled <- struct{}{}:
	default:
	}
}

// pending is how many requests are in flight, on both paths.
func (c *conn) pendingRequests() int {
	c.inflightMu.Lock()
	defer c.inflightMu.Unlock()
	return len(c.inflight) + len(c.sdkInflight)
}

// drain begins draining, once: drained is closed when no request is in
// flight any more, the drain timeout has passed, or the connection
// closed.
func (c *conn) drain() {
	c.drainOnce.Do(func() {
		close(c.drainStart)
		go func() {
			defer close(c.drained)
			if c.drainFor <= 0 {
				return
			}
			timer := time.NewTimer(c.drainFor)
			defer timer.Stop()
			for c.pendingRequests() > 0 {
				select {
				case <-c.settled:
				case <-timer.C:
					return
				case <-c.closed:
					return
				}
			}
		}()
	})
}

// Drain ends the session as if the input had ended, once the requests in
// flight are answered (within DrainTimeout): the SDK's Read then returns
// io.EOF, so that the server's Run returns. Messages that still come are
// read and answered meanwhile. Drain does not block; it is for a server
// told to stop (SIGTERM).
func (t *Transport) Drain() {
	if c := t.conn.Load(); c != nil {
		c.drain()
	}
}

// cancelAnswer ends the context of the answered request a
// notifications/cancelled names.
func (c *conn) cancelAnswer(params json.RawMessage) {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if err != nil || !id.IsValid() {
		return
	}
	c.inflightMu.Lock()
	cancel := c.inflight[id]
	if cancel != nil || c.sdkInflight[id] {
		if c.cancelled == nil {
			c.cancelled = map[jsonrpc.ID]bool{}
		}
		c.cancelled[id] = true
	}
	c.inflightMu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// writeResponse writes the response to an answered request, built by hand
// so that a large result is copied once and not re-encoded.
func (c *conn) writeResponse(id jsonrpc.ID, result json.RawMessage, err error) error {
	idJSON, merr := json.Marshal(id.Raw())
	if merr != nil {
		return merr
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	buf := append(c.wbuf[:0], `{"jsonrpc":"2.0","id":`...)
	buf = append(buf, idJSON...)
	if err != nil {
		we := &jsonrpc.Error{Message: err.Error()}
		var wrapped *jsonrpc.Error
		if errors.As(err, &wrapped) {
			we.Code = wrapped.Code
			we.Data = wrapped.Data
		}
		data, merr := json.Marshal(we)
		if merr != nil {
			return merr
		}
		buf = append(append(append(buf, `,"error":`...), data...), '}')
		return c.write(buf)
	}
	buf = append(buf, `,"result":`...)
	start := len(buf)
	buf = append(buf, bytes.TrimSpace(result)...)
	if bytes.IndexByte(buf[start:], '\n') >= 0 {
		// A result that spans lines (a pretty-printed upstream's) is
		// compacted: a message is one line.
		var cb bytes.Buffer
		if cerr := json.Compact(&cb, buf[start:]); cerr != nil {
			return cerr
		}
		buf = append(buf[:start], cb.Bytes()...)
	}
	return c.write(append(buf, '}'))
}

// endCalls fails the calls of Transport.Call still waiting: the stream
// ended or broke with err.
func (c *conn) endCalls(err error) {
	c.pendingMu.Lock()
	defer c.pendingMu.Unlock()
	select {
	case <-c.readDone:
		return
	default:
	}
	c.readErr = err
	close(c.readDone)
	clear(c.pending)
}

// Call sends a request around the SDK and returns its result: the request
// goes out under a string id of judge's own (which the SDK's integer ids
// never equal) and its response is taken off the stream before the SDK
// reads it. It is for a session the SDK has initialized; in the
// sessionless protocol, params (an object without _meta) get the
// per-request _meta of the SDK's last request (RequestMeta). When ctx ends
// first, the server is told (notifications/cancelled) and ctx's error
// returned; an error response is returned as a *jsonrpc.Error.
func (t *Transport) Call(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	c := t.conn.Load()
	if c == nil {
		return nil, errors.New("mcpstdio: the transport is not connected")
	}
	return c.call(ctx, method, params)
}

// RequestMeta reports whether the SDK has sent a request with the
// sessionless protocol's per-request _meta, which Call then copies.
func (t *Transport) RequestMeta() bool {
	c := t.conn.Load()
	return c != nil && c.reqMeta.Load() != nil
}

// AppendWithMeta appends params, with meta's members (if any, as
// ProtocolMeta returns them) as its _meta: params is a JSON object
// without one.
func AppendWithMeta(buf []byte, params json.RawMessage, meta *[]byte) []byte {
	p := bytes.TrimSpace(params)
	if meta == nil || len(p) < 2 || p[0] != '{' {
		return append(buf, params...)
	}
	buf = append(append(append(buf, `{"_meta":{`...), *meta...), '}')
	if rest := bytes.TrimSpace(p[1:]); len(rest) > 0 && rest[0] != '}' {
		buf = append(buf, ',')
	}
	return append(buf, p[1:]...)
}

func (c *conn) call(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	id := ownIDPrefix + strconv.FormatInt(c.seq.Add(1), 10)
	ch := make(chan *jsonrpc.Response, 1)
	c.pendingMu.Lock()
	select {
	case <-c.readDone:
		c.pendingMu.Unlock()
		return nil, fmt.Errorf("mcpstdio: connection closed: %w", c.readErr)
	default:
	}
	if c.pending == nil {
		c.pending = map[string]chan *jsonrpc.Response{}
	}
	c.pending[id] = ch
	c.pendingMu.Unlock()
	forget := func() {
		c.pendingMu.Lock()
		delete(c.pending, id)
		c.pendingMu.Unlock()
	}
	c.writeMu.Lock()
	buf := append(c.wbuf[:0], `{"jsonrpc":"2.0","id":"`...)
	buf = append(buf, id...)
	buf = append(buf, `","method":`...)
	buf = jsonvalue.AppendString(buf, method)
	if len(params) > 0 {
		buf = append(buf, `,"params":`...)
		buf = AppendWithMeta(buf, params, c.reqMeta.Load())
	}
	err := c.write(append(buf, '}'))
	c.writeMu.Unlock()
	if err != nil {
		forget()
		return nil, fmt.Errorf("mcpstdio: writing %s: %w", method, err)
	}
	select {
	case resp := <-ch:
		if resp.Error != nil {
			return nil, resp.Error
		}
		return resp.Result, nil
	case <-ctx.Done():
		forget()
		note, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled",
			"params": map[string]any{"requestId": id, "reason": context.Cause(ctx).Error()}})
		c.writeMu.Lock()
		_ = c.write(append(c.wbuf[:0], note...))
		c.writeMu.Unlock()
		return nil, ctx.Err()
	case <-c.readDone:
		forget()
		return nil, fmt.Errorf("mcpstdio: connection closed: %w", c.readErr)
	case <-c.closed:
		forget()
		return nil, fmt.Errorf("mcpstdio: %w", io.ErrClosedPipe)
	}
}

// readFrame appends the next message's bytes to buf: lines up to the one
// on which a JSON value ends. Blank lines between messages are skipped. It
// returns io.EOF at the end of the stream between messages.
func readFrame(br *bufio.Reader, buf []byte, limit int) ([]byte, error) {
	var sc valueScanner
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			if limit > 0 && len(buf)+len(line) > limit {
				return nil, errFrameTooLarge
			}
			start := len(buf)
			buf = append(buf, line...)
			if sc.feed(buf[start:]) {
				if !sc.onlySpaceAfter(buf) {
					return nil, errors.New("invalid trailing data at the end of stream")
				}
				return buf, nil
			}
		}
		switch {
		case err == nil, errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && sc.started:
			return nil, io.ErrUnexpectedEOF
		default:
			return nil, err
		}
	}
}

// valueScanner finds where the JSON value of a frame ends, fed the frame
// piece by piece: the string and nesting state carries over.
type valueScanner struct {
	started, inString, escaped bool
	depth, pos, end            int
}

// feed scans the next piece and reports whether a value ended in it.
func (s *valueScanner) feed(p []byte) bool {
	for k, b := range p {
		at := s.pos + k
		switch {
		case s.inString:
			switch {
			case s.escaped:
				s.escaped = false
			case b == '\\':
				s.escaped = true
			case b == '"':
				s.inString = false
				if s.depth == 0 {
					return s.finish(at)
				}
			}
		case b == ' ' || b == '\t' || b == '\r' || b == '\n':
			if s.started && s.depth == 0 {
				return s.finish(at - 1)
			}
		case b == '"':
			s.started, s.inString = true, true
		case b == '{' || b == '[':
			s.started = true
			s.depth++
		case b == '}' || b == ']':
			s.started = true
			s.depth--
			if s.depth <= 0 {
				return s.finish(at)
			}
		default:
			s.started = true // a scalar, or garbage the decoder reports
		}
	}
	s.pos += len(p)
	return false
}

func (s *valueScanner) finish(last int) bool {
	s.end = last + 1
	return true
}

// onlySpaceAfter reports whether the frame holds nothing but white space
// after its value.
func (s *valueScanner) onlySpaceAfter(frame []byte) bool {
	return len(bytes.TrimSpace(frame[s.end:])) == 0
}

// decodeFrame decodes a frame: one message or a batch.
func decodeFrame(frame []byte) (msgs []jsonrpc.Message, isBatch bool, _ error) {
	frame = bytes.TrimSpace(frame)
	if len(frame) == 0 || frame[0] != '[' {
		msg, err := DecodeMessage(frame)
		if err != nil {
			return nil, false, err
		}
		return []jsonrpc.Message{msg}, false, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(frame, &raws); err != nil {
		return nil, true, fmt.Errorf("unmarshaling jsonrpc batch: %w", err)
	}
	if len(raws) == 0 {
		return nil, true, errors.New("empty batch")
	}
	msgs = make([]jsonrpc.Message, 0, len(raws))
	for _, raw := range raws {
		msg, err := DecodeMessage(raw)
		if err != nil {
			return nil, true, err
		}
		msgs = append(msgs, msg)
	}
	return msgs, true, nil
}

// Read returns the next message.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(c.queue) > 0 {
		next := c.queue[0]
		c.queue = c.queue[1:]
		return next, nil
	}
	var res readResult
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case res = <-c.incoming:
	case <-c.closed:
		return nil, io.EOF
	case <-c.drained:
		return nil, io.EOF
	}
	if res.err != nil {
		return nil, res.err
	}
	if res.batch {
		if err := c.track(res.msgs); err != nil {
			return nil, err
		}
	}
	c.queue = res.msgs[1:]
	return res.msgs[0], nil
}

// track records the calls of an incoming batch, so that their responses
// go out together.
func (c *conn) track(msgs []jsonrpc.Message) error {
	var b *batch
	for _, msg := range msgs {
		req, ok := msg.(*jsonrpc.Request)
		if !ok || !req.ID.IsValid() {
			continue
		}
		if b == nil {
			b = &batch{unresolved: map[jsonrpc.ID]int{}}
		}
		if _, dup := b.unresolved[req.ID]; dup {
			return fmt.Errorf("duplicate message ID %q", req.ID)
		}
		b.unresolved[req.ID] = len(b.responses)
		b.responses = append(b.responses, nil)
	}
	if b == nil {
		return nil
	}
	c.batchMu.Lock()
	defer c.batchMu.Unlock()
	for id := range b.unresolved {
		if _, seen := c.batches[id]; seen {
			return fmt.Errorf("JSON RPC invalid request: batch contains previously seen request %v", id.Raw())
		}
	}
	if c.batches == nil {
		c.batches = map[jsonrpc.ID]*batch{}
	}
	for id := range b.unresolved {
		c.batches[id] = b
	}
	return nil
}

// answered records resp in the batch of its call, if any: it reports
// whether resp belongs to a batch and, when resp completes it, returns
// the batch's responses.
func (c *conn) answered(resp *jsonrpc.Response) ([]*jsonrpc.Response, bool) {
	c.batchMu.Lock()
	defer c.batchMu.Unlock()
	b, ok := c.batches[resp.ID]
	if !ok {
		return nil, false
	}
	b.responses[b.unresolved[resp.ID]] = resp
	delete(b.unresolved, resp.ID)
	delete(c.batches, resp.ID)
	if len(b.unresolved) == 0 {
		return b.responses, true
	}
	return nil, true
}

// Write writes msg as one line (a batch's responses as one array, once
// all are there).
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok && c.answer != nil {
		// The request stays in flight until its answer is written, so
		// that a drain does not end the session before the write.
		defer c.sdkAnswered(resp.ID)
		if c.dropAnswer(resp.ID) {
			return nil // its request was cancelled: no answer
		}
	}
	if resp, ok := msg.(*jsonrpc.Response); ok && c.answer != nil && !c.ready.Load() {
		c.initMu.Lock()
		if c.initID.IsValid() && resp.ID == c.initID && resp.Error == nil {
			c.ready.Store(true)
			var r struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			if json.Unmarshal(resp.Result, &r) == nil {
				c.version = r.ProtocolVersion
			}
		}
		c.initMu.Unlock()
	}
	if req, ok := msg.(*jsonrpc.Request); ok && bytes.Contains(req.Params, []byte(mcp.MetaKeyProtocolVersion)) {
		c.keepRequestMeta(req.Params)
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	buf := c.wbuf[:0]
	if resp, ok := msg.(*jsonrpc.Response); ok {
		if all, inBatch := c.answered(resp); inBatch {
			if all == nil {
				return nil
			}
			buf = append(buf, '[')
			for i, r := range all {
				data, err := jsonrpc.EncodeMessage(r)
				if err != nil {
					return fmt.Errorf("encoding batch message: %w", err)
				}
				if i > 0 {
					buf = append(buf, ',')
				}
				buf = append(buf, data...)
			}
			buf = append(buf, ']')
			return c.write(buf)
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("marshaling message: %w", err)
	}
	return c.write(append(buf, data...))
}

func (c *conn) write(buf []byte) error {
	buf = append(buf, '\n')
	_, err := c.w.Write(buf)
	if cap(buf) <= 1<<20 {
		c.wbuf = buf
	}
	return err
}

// Close closes both streams; a Read waiting returns io.EOF.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		c.closeErr = errors.Join(c.r.Close(), c.w.Close())
		close(c.closed)
		c.endLife()
	})
	return c.closeErr
}

// SessionID is Transport.SessionID.
func (c *conn) SessionID() string { return c.sid }
