package proxy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxEventBytes bounds one server-sent event of the upstream (its lines
// together): a chunk of a chat completion is a few hundred bytes, so a
// larger event is a broken upstream, not a model's answer.
const MaxEventBytes = 4 << 20

// event is one server-sent event: its data lines joined by "\n", its type
// ("" when it names none), and the bytes it came as, to forward them
// unchanged.
type event struct {
	typ  string
	data []byte
	raw  []byte
	// line is the line of the stream the event starts at, for errors.
	line int
}

// SSEError is an upstream event stream that does not follow the protocol
// (text/event-stream as OpenAI sends it): a line too long, an event too
// large, a chunk that is not JSON, a stream cut before [DONE]. Line
// locates it in the upstream's stream.
type SSEError struct {
	// Line is the line of the upstream's stream where the problem is (1
	// for the first).
	Line int
	// Msg says what is wrong.
	Msg string
	// Err is the cause, when there is one.
	Err error
}

func (e *SSEError) Error() string {
	return fmt.Sprintf("the upstream's event stream is broken at line %d: %s", e.Line, e.Msg)
}

// Unwrap returns the cause.
func (e *SSEError) Unwrap() error { return e.Err }

// sseReader reads server-sent events (the WHATWG event stream format:
// "field: value" lines, an event ended by a blank line, ":" comments).
type sseReader struct {
	r    *bufio.Reader
	line int
	buf  []byte
}

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next event that carries data; comments and events
// without data are kept in the raw bytes of the next one. At the end of
// the stream it returns io.EOF, or an *SSEError when an event was cut in
// the middle.
func (s *sseReader) next() (event, error) {
	var ev event
	var raw []byte
	var data [][]byte
	hasData := false
	for {
		line, err := s.readLine()
		if err != nil {
			if errors.Is(err, io.EOF) {
				if hasData {
					// The last event lacks its blank line: the WHATWG
					// parser drops such an event; it is a cut stream.
					return event{}, &SSEError{Line: s.line, Msg: "the stream ended in the middle of an event (no blank line after its data)"}
				}
				return event{}, io.EOF
			}
			return event{}, err
		}
		if len(raw)+len(line) > MaxEventBytes {
			return event{}, &SSEError{Line: s.line, Msg: fmt.Sprintf("an event is larger than %d bytes", MaxEventBytes)}
		}
		raw = append(raw, line...)
		content := bytes.TrimRight(line, "\r\n")
		if len(content) == 0 {
			if hasData {
				ev.raw, ev.data = raw, bytes.Join(data, []byte("\n"))
				return ev, nil
			}
			ev.typ = ""
			continue
		}
		if content[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(content, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if !hasData {
				ev.line = s.line
			}
			hasData = true
			data = append(data, value)
		case "event":
			ev.typ = string(value)
		}
		// id and retry are of no use to a proxy; other fields are
		// ignored, as the format says.
	}
}

// readLine reads one line with its end ("\n", "\r\n"), within
// MaxEventBytes.
func (s *sseReader) readLine() ([]byte, error) {
	s.buf = s.buf[:0]
	for {
		frag, err := s.r.ReadSlice('\n')
		s.buf = append(s.buf, frag...)
		if len(s.buf) > MaxEventBytes {
			s.line++
			return nil, &SSEError{Line: s.line, Msg: fmt.Sprintf("a line is longer than %d bytes", MaxEventBytes)}
		}
		switch {
		case err == nil:
			s.line++
			return bytes.Clone(s.buf), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(s.buf) > 0 {
				s.line++
				return bytes.Clone(s.buf), nil
			}
			return nil, io.EOF
		default:
			return nil, err
		}
	}
}
