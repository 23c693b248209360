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
	"slices"

	"github.com/agentjudge/judge/internal/jsontoken/lex"
)

// DefaultMaxDepth is the nesting depth Decode accepts by default.
const DefaultMaxDepth = 256

// SyntaxError is malformed or over-deep JSON, with its position.
type SyntaxError struct {
	Offset    int64 // byte offset of the error, 0-based
	Line, Col int   // 1-based; Col counts bytes
	Msg       string
	// Path locates the offending value in the document, in the notation
	// of issue locations ("items[2].price", "root"), for an error about a
	// value of a well-formed document (a number out of range, invalid
	// UTF-8); it is empty for other errors.
	Path string
	// Err is the cause, if any: ErrTooDeep for over-deep input; for input
	// that ends too soon, io.ErrUnexpectedEOF (io.EOF when it holds no
	// value at all); for an error of Wrap, the decoder's error. It is nil
	// for other syntax errors found by Decode.
	Err error
}

// Unwrap returns the cause, if any.
func (e *SyntaxError) Unwrap() error { return e.Err }

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

// Limits on a number's text, beyond which Decode refuses a document that is
// otherwise well formed: validating such numbers exactly (as JSON Schema
// needs) costs time that grows with the exponent, and no real output needs
// them.
const (
	MaxNumberExponent = lex.MaxNumberExponent // largest |exponent| of a number
	MaxNumberLen      = lex.MaxNumberLen      // longest number, in bytes
)

// ErrNumberTooLarge is wrapped by errors for a number over the limits, or
// out of the float64 range ([ErrOutOfRange]).
var ErrNumberTooLarge = errors.New("JSON number too large")

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
				return tooDeep(data, i, maxDepth)
			}
		case '}', ']':
			depth--
		}
	}
	return nil
}

// tooDeep is the error for the array or object opened at data[off] that
// nests deeper than maxDepth.
func tooDeep(data []byte, off, maxDepth int) *SyntaxError {
	line, col := Position(data, int64(off))
	return &SyntaxError{Offset: int64(off), Line: line, Col: col,
		Msg: fmt.Sprintf("JSON nested more than %d levels deep", maxDepth), Err: ErrTooDeep}
}

// Decode parses one JSON value from data with numbers as json.Number. It
// skips a UTF-8 byte-order mark at the start (positions count from after
// it) and rejects trailing data and nesting deeper than maxDepth
// (DefaultMaxDepth when maxDepth <= 0).
//
// The value is what encoding/json's Decoder with UseNumber stores in an
// any: objects as map[string]any (the last of duplicate keys wins; see
// [DecodeDuplicates] to learn of them), arrays as []any, numbers as
// json.Number holding the number's text, strings with unpaired surrogate
// escapes replaced by U+FFFD, and true, false and null as bool and nil.
// Unlike encoding/json, Decode changes nothing silently: a string that is
// not valid UTF-8 is an error wrapping [ErrInvalidUTF8] (with its byte
// offset), and a number beyond the float64 range one wrapping
// [ErrOutOfRange], both with the value's Path. On failure the value is nil
// and the error is a *SyntaxError naming the offending byte: it wraps
// ErrTooDeep when the input nests too deeply anywhere, which is reported
// before any other error; errors about values of an otherwise well-formed
// document come last, the first in the document. Decode is safe for
// concurrent use.
func Decode(data []byte, maxDepth int) (any, error) {
	return decode(TrimBOM(data), maxDepth, nil)
}

// MaxDuplicates is how many duplicate keys DecodeDuplicates reports.
const MaxDuplicates = 100

// Duplicate is an object key that appears again in the same object; the
// decoded value keeps the last.
type Duplicate struct {
	Key       string
	Path      string // the member's location: "user.name", "items[2].id"
	Offset    int64  // byte offset of the repeated key, 0-based
	Line, Col int    // 1-based
}

// DecodeDuplicates is [Decode] that also returns the keys that repeat an
// earlier key of their object, in document order (at most
// [MaxDuplicates]). Finding them costs nothing when there are none.
func DecodeDuplicates(data []byte, maxDepth int) (any, []Duplicate, error) {
	data = TrimBOM(data)
	var offs []int
	v, err := decode(data, maxDepth, &offs)
	if err != nil || len(offs) == 0 {
		return v, nil, err
	}
	slices.Sort(offs)
	return v, DuplicatesAt(data, offs), nil
}

// DuplicatesAt describes the keys of data, a well-formed document without
// a byte-order mark, whose opening quotes are at offs, in ascending order:
// the keys that repeat an earlier key of their object, as DecodeDuplicates
// finds them.
func DuplicatesAt(data []byte, offs []int) []Duplicate {
	dups := make([]Duplicate, 0, len(offs))
	k := 0
	walk(data, func(start, end int, isKey bool, stack []frame) bool {
		for k < len(offs) && offs[k] < start {
			k++ // not a token start: cannot happen for a well-formed document
		}
		if k == len(offs) {
			return false
		}
		if isKey && offs[k] == start {
			key := unquote(data[start:end])
			line, col := Position(data, int64(start))
			dups = append(dups, Duplicate{Key: key, Path: render(stack, &key), Offset: int64(start), Line: line, Col: col})
			k++
		}
		return true
	})
	return dups
}

func decode(data []byte, maxDepth int, dups *[]int) (any, error) {
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	d := getDecoder(data, maxDepth)
	d.dups = dups
	v, i := d.value(skipSpace(data, 0))
	if i >= 0 {
		if i = skipSpace(data, i); i < len(data) {
			i = d.failMsg(i, "unexpected data after the JSON value")
		}
	}
	err, bigNum, badUTF8 := d.err, d.bigNum, d.badUTF8
	d.release()
	if i >= 0 && (bigNum >= 0 || badUTF8 >= 0) {
		if dups != nil {
			*dups = (*dups)[:0]
		}
		if bigNum >= 0 && (badUTF8 < 0 || bigNum < badUTF8) {
			return nil, numberError(data, bigNum)
		}
		return nil, utf8Error(data, badUTF8)
	}
	if i < 0 {
		if dups != nil {
			*dups = (*dups)[:0]
		}
		// Over-deep input is reported first wherever it is, as when
		// CheckDepth ran before parsing.
		if derr := CheckDepth(data, maxDepth); derr != nil {
			return nil, derr
		}
		return nil, err
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
