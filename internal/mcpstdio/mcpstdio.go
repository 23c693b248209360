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
package mcpstdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

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
}

// Connect starts reading messages and returns the connection. It is
// called once, by the SDK's Server.Run, Server.Connect or Client.Connect.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	limit := t.MaxLineLength
	if limit == 0 {
		limit = mcp.DefaultMaxLineLength
	}
	c := &conn{r: t.Reader, w: t.Writer, incoming: make(chan readResult), closed: make(chan struct{})}
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
}

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
		select {
		case c.incoming <- res:
		case <-c.closed:
			return
		}
		if res.err != nil {
			return
		}
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
	})
	return c.closeErr
}

// SessionID is empty: a stream has one session.
func (c *conn) SessionID() string { return "" }
