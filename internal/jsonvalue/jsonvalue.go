// Package jsonvalue decodes untrusted JSON into the generic values the
// layers use (map[string]any, []any, json.Number, string, bool, nil), with
// limits on nesting depth and errors that carry line and column.
package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxDepth is the nesting depth Decode accepts by default.
const DefaultMaxDepth = 256

// SyntaxError is malformed or over-deep JSON, with its position.
type SyntaxError struct {
	Offset    int64 // byte offset of the error, 0-based
	Line, Col int   // 1-based; Col counts bytes
	Msg       string
	Err       error // the cause: ErrTooDeep for over-deep input, or the decoder's error
}

// Unwrap returns the cause, if any.
func (e *SyntaxError) Unwrap() error { return e.Err }

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

// ErrTooDeep is wrapped by errors for JSON nested deeper than allowed.
var ErrTooDeep = errors.New("JSON nested too deeply")

// Position returns the 1-based line and column of a byte offset in data.
func Position(data []byte, offset int64) (line, col int) {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// CheckDepth returns an error if data nests arrays and objects deeper than
// maxDepth. It scans bytes only and does not validate the JSON.
func CheckDepth(data []byte, maxDepth int) error {
	depth, inString, escaped := 0, false, false
	for i, c := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > maxDepth {
				line, col := Position(data, int64(i))
				return &SyntaxError{Offset: int64(i), Line: line, Col: col,
					Msg: fmt.Sprintf("JSON nested more than %d levels deep", maxDepth), Err: ErrTooDeep}
			}
		case '}', ']':
			depth--
		}
	}
	return nil
}

// Decode parses one JSON value from data with numbers as json.Number. It
// rejects trailing data and nesting deeper than maxDepth (DefaultMaxDepth
// when maxDepth <= 0).
func Decode(data []byte, maxDepth int) (any, error) {
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	if err := CheckDepth(data, maxDepth); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, Wrap(data, dec.InputOffset(), err)
	}
	off := dec.InputOffset()
	for off < int64(len(data)) && isSpace(data[off]) {
		off++
	}
	if off < int64(len(data)) {
		line, col := Position(data, off)
		return nil, &SyntaxError{Offset: off, Line: line, Col: col, Msg: "unexpected data after the JSON value"}
	}
	return v, nil
}

// Wrap turns an error of encoding/json's decoder into a *SyntaxError with
// the position it names or, when it names none (an error returned by an
// UnmarshalJSON method), at fallback, a byte offset such as the decoder's
// InputOffset. The original error is kept as the cause.
func Wrap(data []byte, fallback int64, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off, msg := fallback, err.Error()
	switch {
	case errors.As(err, &se):
		off = max(se.Offset-1, 0) // encoding/json points past the bad byte
	case errors.As(err, &te):
		off = te.Offset
		msg = fmt.Sprintf("%s must be %s, not %s", fieldName(te.Field), te.Type, te.Value)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		off, msg = int64(len(data)), "unexpected end of JSON input"
	}
	line, col := Position(data, off)
	return &SyntaxError{Offset: off, Line: line, Col: col, Msg: msg, Err: err}
}

func fieldName(f string) string {
	if f == "" {
		return "the value"
	}
	return "field " + f
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
