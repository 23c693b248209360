package judge

import (
	"bytes"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/agentjudge/judge/internal/jsonvalue"
	"github.com/agentjudge/judge/layer/schema"
	"github.com/agentjudge/judge/result"
)

// StreamEvent is one event of a streamed validation, one line of the
// NDJSON that judge validate --stream and POST /v1/validate/stream write.
type StreamEvent struct {
	// At is how many bytes of the output had been read when the event
	// became certain (all of them for the final event).
	At int64 `json:"at"`
	// Final marks the last event, whose Result is what Validate returns
	// for the whole output.
	Final bool `json:"final,omitempty"`
	// Result holds, before the final event, only the new issues: certain
	// violations (errors), or the duplicate_key warning of a repeated key.
	Result *result.ValidationResult `json:"result"`
}

// Stream validates one output read in chunks: Write reports each
// violation of the expected schema the moment no continuation of the
// output could make it valid (see docs/streaming.md), and Close validates
// the whole output as Validate does. Early verdicts come only for an
// output whose first character (after white space) opens an object or an
// array, and only from the schema: other layers judge the whole output at
// Close. A Stream is not safe for concurrent use.
type Stream struct {
	e   *Engine
	req Request
	v   *schema.Validator // nil: no early verdicts
	s   *schema.Stream
	buf []byte
	// decided is set once the first character is read: s is then fed
	// and holds the output, or, when nil, early verdicts are off.
	decided bool
	ended   bool // End was called
}

// Stream returns a Stream that validates an output against req, whose
// Output is ignored. It never fails on the request: a request Validate
// would refuse (an invalid schema) gets its error from Close.
func (e *Engine) Stream(req *Request) *Stream {
	st := enginePool.Get().(*Stream)
	st.e, st.req = e, *req
	st.req.Output = nil
	if e.fast == nil || len(req.ExpectedSchema) == 0 {
		return st
	}
	if len(req.ValidationTypes) > 0 && !slices.Contains(req.ValidationTypes, e.fast.Name) {
		return st // the schema is not asked for
	}
	switch req.Options.OutputMode {
	case "", OutputAuto, OutputValue:
	default:
		return st
	}
	if v, ok := e.fastSchema(req).(*schema.Validator); ok {
		st.v = v
	}
	return st
}

// enginePool keeps the Streams Close is done with: a stream is made per
// output, often per tool call, and reusing it spares its allocation.
var enginePool = sync.Pool{New: func() any { return new(Stream) }}

// HasSchema reports whether uri is the key of one of the engine's own
// schemas (WithSchemas), which a request's $ref may name.
func (e *Engine) HasSchema(uri string) bool {
	_, ok := e.schemas[uri]
	return ok
}

// Write reads the next bytes of the output and returns the events that
// became certain. Its error is a *jsonvalue.SyntaxError, at its byte, when
// an output that opens an object or an array is malformed or refused (too
// deep, invalid UTF-8, a number too large): Validate would refuse it too.
func (st *Stream) Write(p []byte) ([]StreamEvent, error) {
	if st.s != nil {
		evs, err := st.s.Write(p)
		return st.events(evs), err
	}
	if st.v == nil || st.decided {
		st.buf = append(st.buf, p...)
		return nil, nil
	}
	// What has been read, without copying the first chunk.
	read := p
	if len(st.buf) > 0 {
		st.buf = append(st.buf, p...)
		read = st.buf
	}
	if len(read) < len(jsonvalue.BOM) && bytes.HasPrefix([]byte(jsonvalue.BOM), read) {
		st.buf = append(st.buf[:0], read...)
		return nil, nil // perhaps a byte-order mark
	}
	rest := trimBOM(read)
	i := skipSpace(rest)
	if i < len(rest) {
		st.decided = true
	}
	if i == len(rest) || rest[i] != '{' && rest[i] != '[' {
		// White space so far, or a string holding JSON, prose, or a
		// scalar: the final decides.
		st.buf = append(st.buf[:0], read...)
		return nil, nil
	}
	// From now on the schema stream holds the output.
	st.s = st.v.Stream(schema.StreamOptions{DuplicateRule: "output.duplicate_key", DuplicateWhere: "of the output",
		MaxDepth: st.e.maxDepth})
	st.buf = st.buf[:0]
	evs, err := st.s.Write(read)
	return st.events(evs), err
}

// Close ends the output: it returns the last early events and the final
// one, with Validate's result for the whole output. Its error is
// Validate's. A LayerObserver in ctx (ObserveLayers) is told of the
// layer runs, as by Validate. The Stream cannot be used after.
func (st *Stream) Close(ctx context.Context) ([]StreamEvent, error) {
	start := time.Now()
	out := st.End()
	req := &st.req // not copied: st is done with after this
	req.Output = st.Bytes()
	n := int64(len(req.Output))
	var res *result.ValidationResult
	var err error
	if st.s != nil && st.e.fastEligible(ctx, req) && fastPath(st.v) && (st.s.Valid() || st.fastValid(req.Output)) {
		// The stream checked every keyword itself and found the output
		// valid, as the fast path would, or the fast path of the schema
		// the stream holds found it valid: its result, as Validate gives
		// it, without finding the schema again.
		took := time.Since(start)
		res = result.Passed(st.e.fast.Name, 1, took, st.e.selfCheck)
		observe(ctx, []LayerOutcome{{Name: st.e.fast.Name, Ran: true, took: took}})
	} else {
		res, err = st.e.Validate(ctx, req)
	}
	if st.s != nil {
		st.s.Release()
	}
	st.release()
	if err != nil {
		return out, err
	}
	return append(out, StreamEvent{At: n, Final: true, Result: res}), nil
}

// fastValid reports whether the fast path of the stream's schema is sure
// that output is valid.
func (st *Stream) fastValid(output []byte) bool {
	valid, sure := st.v.Check(output, st.e.maxDepth)
	return valid && sure
}

// release puts st back in the pool (its buffer, which the final result
// was made from, is not kept). Its engine and request are written over by
// the next Engine.Stream, and held until then at most while the pool
// keeps st (two collections).
func (st *Stream) release() {
	st.v, st.s, st.buf, st.decided, st.ended = nil, nil, nil, false, false
	st.req.Output = nil // the schema stream's buffer, pooled apart
	enginePool.Put(st)
}

// End ends the output's early events and returns the last of them, for a
// caller that validates the whole output its own way (Close calls it).
func (st *Stream) End() []StreamEvent {
	if st.s == nil || st.ended {
		return nil
	}
	st.ended = true
	evs, _ := st.s.Close() // Validate reports an output cut short
	return st.events(evs)
}

// Bytes returns the output read so far, valid until Close.
func (st *Stream) Bytes() []byte {
	if st.s != nil {
		return st.s.Raw()
	}
	return st.buf
}

func (st *Stream) events(evs []schema.Event) []StreamEvent {
	if len(evs) == 0 {
		return nil
	}
	out := make([]StreamEvent, 0, len(evs))
	for _, ev := range evs {
		b := result.NewBuilder().SelfCheck(st.e.selfCheck).Ran(st.e.fast.Name).Add(ev.Issues...).Confidence(1)
		out = append(out, StreamEvent{At: ev.At, Result: b.Build()})
	}
	return slices.Clip(out)
}

// fastPath reports whether v takes the fast path.
func fastPath(v *schema.Validator) bool {
	fast, _, _ := v.Path()
	return fast
}

func trimBOM(b []byte) []byte { return jsonvalue.TrimBOM(b) }
